"""Lineage rules of compaction and forking (spec §6.5, §9.2, §9.3): what a derived checkpoint
must not change, raise or drop relative to its parent.

The specification states these as producer requirements and gives them no OCP code, so they are
the project's own codes, in its lowercase style: `lineage-kind`, `lineage-verification`,
`lineage-dropped` and `lineage-compaction`. All four are warnings (docs/rules/lineage-*.md say
why for each): validity is what §8.2 defines, and a validator that invented errors beyond it would
disagree with every other conforming validator about which documents are valid; and each check
rests on evidence the linter cannot make exact (local ids are stable only by recommendation, §4.1;
a checked_at is the producer's claim; an omission's description cannot be matched to ids).

Every check compares the child with the supplied parent only when the child names it: a child
whose `parent.id` names another checkpoint is OCP-T002's finding, and comparing it with a stranger
would only add noise. Objects are matched by local id, as OCP-T001 matches operations. Paths are in
the child; a finding about something the child no longer carries points at the child's array (or
at the whole document when the child has no such array) and names the parent's id and pointer.

The helpers below (`protected_objects`, `dropped_protected`, `raised_verifications`, …) are
shared with the diff (app/diff.py), so the page and the findings never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app import layout
from app.checkpoint import TERMINAL_STATUSES, Checkpoint, parse_instant
from app.pointer import Path, to_pointer
from app.rules import Parent, Violation, rule

# What §9.2 says a compaction MUST preserve, by statement kind when the statement is active.
PRESERVED_KINDS = {
    "instruction": "active instruction",
    "constraint": "active constraint",
    "decision": "active decision",
    "question": "open question",
}
DERIVED_METHODS = frozenset({"compacted", "forked"})


def derivation_method(child: Checkpoint) -> str | None:
    method = child.get("derivation", "method")
    return method if isinstance(method, str) else None


def names_parent(child: Checkpoint, parent: Checkpoint) -> bool:
    """False when the child's parent.id names a checkpoint other than ``parent`` (OCP-T002
    reports that); a child without parent.id is compared with the parent it was given."""
    named = child.get("parent", "id")
    return named is None or named == parent.get("id")


def _by_id(items: list[tuple[int, dict]]) -> dict[str, tuple[int, dict]]:
    """The first object with each string id: later duplicates are OCP-S001's business."""
    out: dict[str, tuple[int, dict]] = {}
    for index, item in items:
        object_id = item.get("id")
        if isinstance(object_id, str):
            out.setdefault(object_id, (index, item))
    return out


def _origin_type(statement: dict) -> object:
    origin = statement.get("origin")
    return origin.get("type") if isinstance(origin, dict) else None


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _state(statement: dict) -> object:
    verification = statement.get("verification")
    return verification.get("state") if isinstance(verification, dict) else None


# --- shared helpers ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Protected:
    """An object of the parent that §9.2 says a compaction preserves."""

    id: str | None  # None: a stop condition without an id
    type: str  # "statement", "operation" or "stop_condition"
    what: str  # "active instruction", "open question", "non-terminal operation", "stop condition"
    path: Path  # in the parent
    value: dict

    @property
    def pointer(self) -> str:
        return to_pointer(self.path)


def protected_objects(parent: Checkpoint) -> list[Protected]:
    """Active instructions, constraints and decisions, open questions (kind question, status
    active), non-terminal operations and stop conditions of the parent, in document order."""
    found: list[Protected] = []
    for i, statement in parent.statements():
        kind, status = statement.get("kind"), statement.get("status", "active")
        object_id = statement.get("id")
        preserved = isinstance(kind, str) and kind in PRESERVED_KINDS and status == "active"
        if preserved and isinstance(object_id, str):
            found.append(
                Protected(
                    object_id, "statement", PRESERVED_KINDS[kind], ("statements", i), statement
                )
            )
    for i, operation in parent.operations():
        status, object_id = operation.get("status"), operation.get("id")
        terminal = isinstance(status, str) and status in TERMINAL_STATUSES
        if not terminal and isinstance(object_id, str):
            found.append(
                Protected(
                    object_id, "operation", "non-terminal operation", ("operations", i), operation
                )
            )
    for i, stop in parent.stop_conditions():
        object_id = stop.get("id")
        found.append(
            Protected(
                object_id if isinstance(object_id, str) else None,
                "stop_condition",
                "stop condition",
                ("continuation", "stop_conditions", i),
                stop,
            )
        )
    return found


def dropped_protected(child: Checkpoint, parent: Checkpoint) -> list[Protected]:
    """The parent's protected objects (see `protected_objects`) the child no longer carries.

    An object with an id is carried when the child has a local object with that id and the same
    type (a statement, an operation, a stop condition); its status in the child does not matter
    here (a constraint the child marks superseded was carried, not dropped). A stop condition
    without an id cannot be matched by id: it is carried when the child has an id-less stop
    condition with the same description, and reported as dropped only when the child also has
    fewer id-less stop conditions than the parent (a condensed description is then a rewrite,
    not a drop)."""
    carried = {(obj.id, obj.type) for obj in child.local_objects}
    idless_child = [
        stop for _, stop in child.stop_conditions() if not isinstance(stop.get("id"), str)
    ]
    child_descriptions = [stop.get("description") for stop in idless_child]
    protected = protected_objects(parent)
    idless_parent = [p for p in protected if p.type == "stop_condition" and p.id is None]
    dropped: list[Protected] = []
    for obj in protected:
        if obj.id is not None:
            if (obj.id, obj.type) not in carried:
                dropped.append(obj)
        elif len(idless_child) < len(idless_parent):
            description = obj.value.get("description")
            if description in child_descriptions:
                child_descriptions.remove(description)
            else:
                dropped.append(obj)
    return dropped


def child_array_path(child: Checkpoint, type_: str) -> Path:
    """Where a finding about a dropped object of ``type_`` points: the child's array, or the
    whole document when the child has none."""
    path = layout.ARRAY_OF_TYPE[type_].pattern
    return path if isinstance(child.get(*path), list) else ()


def omissions_recorded(child: Checkpoint) -> bool:
    omissions = child.get("derivation", "omissions")
    return isinstance(omissions, list) and len(omissions) > 0


def transformations_recorded(child: Checkpoint) -> bool:
    transformations = child.get("derivation", "transformations")
    return isinstance(transformations, list) and len(transformations) > 0


@dataclass(frozen=True, slots=True)
class Raised:
    """A statement whose verification state became verified in the child."""

    id: str
    child_index: int
    before: object  # the parent's state, None when the parent recorded no verification
    evidence_added: list[str]
    checked_at: object  # the child's verification.checked_at, as written
    checked_after_parent: bool  # checked_at is an instant later than the parent's created_at

    @property
    def new_evidence(self) -> bool:
        return bool(self.evidence_added) or self.checked_after_parent


def raised_verifications(child: Checkpoint, parent: Checkpoint) -> list[Raised]:
    """Statements (matched by id) that are verified in the child and were not verified in the
    parent (unverified, disputed, stale, or no verification at all), with what the child shows
    as new evidence: evidence ids the parent's statement did not cite, and whether
    verification.checked_at is later than the parent's created_at."""
    before = _by_id(parent.statements())
    parent_created = parent.created_at
    out: list[Raised] = []
    for i, statement in child.statements():
        object_id = statement.get("id")
        if not isinstance(object_id, str) or object_id not in before:
            continue
        if _state(statement) != "verified":
            continue
        _, old = before[object_id]
        old_state = _state(old)
        if old_state == "verified":
            continue
        old_evidence = set(_strings(old.get("evidence")))
        added = [
            e for e in dict.fromkeys(_strings(statement.get("evidence"))) if e not in old_evidence
        ]
        verification = statement.get("verification")
        checked_at = verification.get("checked_at") if isinstance(verification, dict) else None
        checked = parse_instant(checked_at)
        after_parent = bool(checked and parent_created and checked > parent_created)
        out.append(Raised(object_id, i, old_state, added, checked_at, after_parent))
    return out


# --- the rules --------------------------------------------------------------------------------


@rule(
    "lineage-kind",
    "warning",
    "A statement carried into a derived checkpoint keeps its kind and its origin type (§6.5, "
    "§9.2, §9.3).",
    needs_parent=True,
)
def statement_kind_or_origin_changed(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A statement that the parent also has (same local id) has the same `kind` and the same
    `origin.type` in the child. "A producer MUST NOT change a statement's kind in place" (§6.5);
    a compacting producer "MUST NOT change a statement's kind or origin" (§9.2); a fork "MUST add
    changed statements as new statements with their actual origin rather than editing the
    parent's statements" (§9.3). Reported at the child's /statements/N/kind or
    /statements/N/origin/type (/statements/N/origin when the origin is not an object)."""
    if not names_parent(child, parent.checkpoint):
        return
    before = _by_id(parent.checkpoint.statements())
    for i, statement in child.statements():
        object_id = statement.get("id")
        if not isinstance(object_id, str) or object_id not in before:
            continue
        _, old = before[object_id]
        if statement.get("kind") != old.get("kind"):
            yield (
                ("statements", i, "kind"),
                f"statement {object_id!r} is {old.get('kind')!r} in the parent but "
                f"{statement.get('kind')!r} here; a statement keeps its kind: record a new "
                "statement with its own id (a confirmed hypothesis is superseded by a new "
                "observation), and keep or supersede the old one",
            )
        if _origin_type(statement) != _origin_type(old):
            where = (
                ("statements", i, "origin", "type")
                if isinstance(statement.get("origin"), dict)
                else ("statements", i, "origin")
            )
            yield (
                where,
                f"statement {object_id!r} has origin {_origin_type(old)!r} in the parent but "
                f"{_origin_type(statement)!r} here; a statement keeps the origin it actually "
                "had: record what the new party said as a new statement with its own origin",
            )


@rule(
    "lineage-verification",
    "warning",
    "A derived checkpoint does not raise a statement's verification state to `verified` without "
    "new evidence (§9.1, §9.2).",
    needs_parent=True,
)
def verification_raised_without_evidence(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A statement that is unverified, disputed or stale in the parent, or has no verification
    there, and is verified in the child (same local id), shows that a verification was performed
    after the parent: it cites an evidence resource the parent's statement did not cite, or its
    verification.checked_at is later than the parent's created_at. A compacting producer "MUST
    NOT raise a verification state (for example from unverified to verified) without performing
    the verification" (§9.2), and no producer records an observation as verified unless it was
    checked (§9.1). Reported at the child's /statements/N/verification/state."""
    if not names_parent(child, parent.checkpoint):
        return
    for raised in raised_verifications(child, parent.checkpoint):
        if raised.new_evidence:
            continue
        was = "no verification" if raised.before is None else repr(raised.before)
        yield (
            ("statements", raised.child_index, "verification", "state"),
            f"statement {raised.id!r} has {was} in the parent and is verified here, with no new "
            "evidence and no checked_at after the parent was captured; record the check that "
            "verified it (evidence and checked_at), or keep the parent's state",
        )


@rule(
    "lineage-dropped",
    "warning",
    "A compacted or forked checkpoint that records no omission keeps the parent's active "
    "instructions, constraints and decisions, open questions, non-terminal operations and stop "
    "conditions (§9.2, §9.3).",
    needs_parent=True,
)
def preserved_object_dropped(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """In a child whose derivation.method is compacted or forked and whose derivation.omissions
    is absent or empty, every active instruction, constraint and decision, every open question
    (kind question, status active), every non-terminal operation and every stop condition of
    the parent is still present (matched by local id and type; see `dropped_protected` for
    stop conditions without an id). A compacting producer "MUST preserve active instructions,
    constraints, and decisions", "open questions, non-terminal operations, and stop conditions",
    and "MUST record what it dropped in derivation.omissions" (§9.2); a fork removes an operation
    only "recording the removal in derivation.omissions" (§9.3).

    When the child records any omission, no object is reported: an omission's description is
    free text that cannot be matched to ids, so the linter cannot tell which objects it covers
    (the diff still lists every such object as dropped, for a person to check). One finding per
    dropped object, at the child's array (/statements, /operations,
    /continuation/stop_conditions) or at the whole document when the child has no such array,
    naming the parent's id and pointer."""
    method = derivation_method(child)
    if method not in DERIVED_METHODS:
        return
    if omissions_recorded(child) or not names_parent(child, parent.checkpoint):
        return
    for obj in dropped_protected(child, parent.checkpoint):
        name = repr(obj.id) if obj.id is not None else "without an id"
        yield (
            child_array_path(child, obj.type),
            f"the parent's {obj.what} {name} (at {obj.pointer}) is not in this {method} "
            "checkpoint, and derivation.omissions records nothing; carry it forward, or record "
            "its removal in derivation.omissions",
        )


@rule(
    "lineage-compaction",
    "warning",
    "A checkpoint whose derivation.method is `compacted` records derivation.omissions and "
    "derivation.transformations (§6.9, §9.2).",
    needs_parent=True,
)
def compaction_without_record(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A child whose derivation.method is compacted has a non-empty derivation.omissions (what
    the compaction dropped) and a non-empty derivation.transformations (what it condensed). "A
    compacting producer MUST record omissions and transformations" (§6.9, §9.2). One finding at
    /derivation naming what is missing."""
    if derivation_method(child) != "compacted":
        return
    if not names_parent(child, parent.checkpoint):
        return
    missing = [
        name
        for name, present in (
            ("derivation.omissions", omissions_recorded(child)),
            ("derivation.transformations", transformations_recorded(child)),
        )
        if not present
    ]
    if missing:
        yield (
            ("derivation",),
            f"this checkpoint was compacted but records no {' and no '.join(missing)}; list "
            "what the compaction dropped (omissions, with where it can be recovered) and what it "
            "condensed (transformations, with the objects that carry the result)",
        )
