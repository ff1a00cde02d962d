"""Lineage rules of compaction and forking (spec §6.5, §9.2, §9.3): what a derived checkpoint
must not change, raise or drop relative to its parent.

The specification states these as producer requirements and gives them no OCP code, so they are
the project's own codes, in its lowercase style: `lineage-kind`, `lineage-verification`,
`lineage-dropped`, `lineage-rewritten`, `lineage-weakened`, `lineage-repeat` and
`lineage-compaction`. Three are errors, like OCP-T001 beside them, because what they find is
certain and lets a destination act against what the parent records: a statement whose kind or
origin changed (third-party text become a user's instruction), a stop condition weakened, a
completed call planned again. The others are warnings: each rests on evidence the linter cannot
make exact (a checked_at is the producer's claim; an omission's description is free text).
Validity of a single document stays what §8.2 defines; these apply only with both documents.

Every check compares the child with the supplied parent only when the child names it: a child
whose `parent.id` names another checkpoint is OCP-T002's finding, and comparing it with a stranger
would only add noise. Objects are matched by local id, as OCP-T001 matches operations. Paths are in
the child; a finding about something the child no longer carries points at the child's array (or
at the whole document when the child has no such array) and names the parent's id and pointer.

The helpers below (`protected_objects`, `dropped_protected`, `raised_verifications`, …) are
shared with the diff (app/diff.py), so the page and the findings never disagree.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Final, TypeVar

from app import layout
from app.calls import Call, repeats
from app.checkpoint import TERMINAL_STATUSES, Checkpoint, parse_instant
from app.findings import MAX_PER_CODE
from app.json_values import json_key
from app.parse import JsonObject
from app.pointer import Path, to_pointer
from app.record import Record
from app.rules import COUNTED, Parent, Violation, rule

_T = TypeVar("_T")

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


def _kept_statements(
    child: Checkpoint, parent: Checkpoint
) -> Iterator[tuple[int, str, JsonObject, JsonObject]]:
    """The child's statements that the parent has under the same id: (child index, id, the
    child's statement, the parent's)."""
    before = _once("statements", parent, parent, lambda: _by_id(parent.statements()))
    for i, statement in child.statements():
        object_id = statement.get("id")
        if isinstance(object_id, str) and object_id in before:
            yield i, object_id, statement, before[object_id][1]


def _by_id(items: list[tuple[int, JsonObject]]) -> dict[str, tuple[int, JsonObject]]:
    """The first object with each string id: later duplicates are OCP-S001's business."""
    out: dict[str, tuple[int, JsonObject]] = {}
    for index, item in items:
        object_id = item.get("id")
        if isinstance(object_id, str):
            out.setdefault(object_id, (index, item))
    return out


def _origin_type(statement: JsonObject) -> object:
    origin = statement.get("origin")
    return origin.get("type") if isinstance(origin, dict) else None


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _state(statement: JsonObject) -> object:
    verification = statement.get("verification")
    return verification.get("state") if isinstance(verification, dict) else None


# --- shared helpers ---------------------------------------------------------------------------


class Protected(Record):
    """An object of the parent that §9.2 says a compaction preserves."""

    __slots__ = ("id", "path", "type", "value", "what")

    id: Final[str | None]  # None: a stop condition without an id
    type: Final[str]  # "statement", "operation" or "stop_condition"
    what: Final[
        str
    ]  # "active instruction", "open question", "non-terminal operation", "stop condition"
    path: Final[Path]  # in the parent
    value: Final[JsonObject]

    def __init__(self, id: str | None, type: str, what: str, path: Path, value: JsonObject) -> None:
        self.id = id
        self.type = type
        self.what = what
        self.path = path
        self.value = value

    @property
    def pointer(self) -> str:
        return to_pointer(self.path)


# What the lineage checks, the diff and the page's "since the parent" each ask of one pair
# (the parent's protected objects, which of them the child dropped), worked out once a pair:
# asked again by each, they made a compacted child of 13,000 instructions half as slow again.
_PAIRS: weakref.WeakKeyDictionary[Checkpoint, dict[tuple[str, int], object]] = (
    weakref.WeakKeyDictionary()
)


def _once(name: str, child: Checkpoint, parent: Checkpoint, compute: Callable[[], _T]) -> _T:
    """``compute()`` for this ``child`` and ``parent``, worked out the first time only."""
    memo = _PAIRS.setdefault(child, {})
    key = (name, id(parent))
    found = memo.get(key)
    # the parent by a weak reference (a strong one from the child's entry would keep both
    # alive for ever), checked on reading: an id is reused once its object is gone
    if not (isinstance(found, tuple) and found[0]() is parent):
        found = memo[key] = (weakref.ref(parent), compute())
    return found[1]  # type: ignore[no-any-return]


def protected_objects(parent: Checkpoint) -> list[Protected]:
    """The parent's protected objects (see `_protected_objects`), read once a document."""
    return _once("protected", parent, parent, lambda: _protected_objects(parent))


def _protected_objects(parent: Checkpoint) -> list[Protected]:
    """Active instructions, constraints and decisions, open questions (kind question, status
    active), non-terminal operations and stop conditions of the parent, in document order."""
    found: list[Protected] = []
    for i, statement in parent.statements():
        kind, status = statement.get("kind"), statement.get("status", "active")
        object_id = statement.get("id")
        if (
            isinstance(kind, str)
            and kind in PRESERVED_KINDS
            and status == "active"
            and isinstance(object_id, str)
        ):
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
    """`_dropped_protected`, worked out once a pair."""
    return _once("dropped", child, parent, lambda: _dropped_protected(child, parent))


def _dropped_protected(child: Checkpoint, parent: Checkpoint) -> list[Protected]:
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
    # how many id-less stop conditions of the child have each description, matched as the
    # parent's are met (a list's remove() per stop condition cost the product of the two)
    child_descriptions = Counter(json_key(stop.get("description")) for stop in idless_child)
    protected = protected_objects(parent)
    idless_parent = [p for p in protected if p.type == "stop_condition" and p.id is None]
    dropped: list[Protected] = []
    for obj in protected:
        if obj.id is not None:
            if (obj.id, obj.type) not in carried:
                dropped.append(obj)
        elif len(idless_child) < len(idless_parent):
            description = json_key(obj.value.get("description"))
            if child_descriptions[description] > 0:
                child_descriptions[description] -= 1
            else:
                dropped.append(obj)
    return dropped


_ID_RUN = re.compile(r"[A-Za-z0-9._:-]+")
_WORD = re.compile(r"[^\W_]{3,}")
_WORD_OR_SEPARATOR = re.compile(r"[^\W_]{3,}|\x00")
# Words that say nothing about which object is meant: a generic word for a kind ("older
# statements not needed any more") accounts for no object in particular.
_GENERIC = frozenset(
    str.split(
        "the and for not any more older old all are was were been has have had its this that "
        "these those with from into out off about than then them they their there here what "
        "which who when where why how also only just some such other each every both few many "
        "most much very can could would should may might must will shall need needed needs "
        "longer kept keep dropped drop removed remove omitted omit left leave carried carry "
        "parent child checkpoint checkpoints compaction compacted forked fork statement "
        "statements instruction instructions constraint constraints decision decisions "
        "question questions operation operations action actions approval approvals request "
        "requests wait waits stop stops condition conditions object objects item items entry "
        "entries part parts earlier previous history content details detail notes note "
        "relevant irrelevant size space sensitive unavailable superseded"
    )
)
# How many of an object's rarest words are looked up, and how many omissions a word may be in
# before it is too common to single one out: the cost stays linear in the two lists.
_WORDS_LOOKED_UP = 4
_COMMON = 16


# Each child's omissions as read once (`Omissions.of`), for as long as the child is in use.
_OMISSIONS: weakref.WeakKeyDictionary[Checkpoint, Omissions] = weakref.WeakKeyDictionary()


def content_words(text: object) -> set[str]:
    """The words of ``text`` that can say which object is meant: three letters or more, none
    of the generic ones."""
    if not isinstance(text, str):
        return set()
    return set(_WORD.findall(text.casefold())).difference(_GENERIC)


def content_words_each(texts: Sequence[object]) -> list[set[str]]:
    """`content_words` of each of ``texts``, read all at once: one search of their words over
    the texts joined, split back at a separator no text holds (a search and a set for each of
    3,000 dropped objects cost two microseconds each; this costs a third of that)."""
    strings = [t if isinstance(t, str) else "" for t in texts]
    joined = "\x00".join(strings)
    if joined.count("\x00") != len(strings) - 1:  # a text holds the separator: one by one
        return [content_words(t) for t in texts]
    if not joined.isascii():
        words = " ".join(_WORD_OR_SEPARATOR.findall(joined.casefold()))
        return [set(group.split()).difference(_GENERIC) for group in words.split("\x00")]
    # ASCII (the rule): its words are its runs of letters and digits, cut out by a table in C
    # rather than by the regular expression (a third of the cost); the words under three
    # characters are set aside with the generic ones, found among the words left (a set of
    # every word of the texts joined cost a fifth more, 1.7 ms for 3,000 dropped objects).
    spaced = joined.lower().translate(_NON_WORD_ASCII)
    each = [set(group.split()).difference(_GENERIC) for group in spaced.split("\x00")]
    short = {w for w in set().union(*each) if len(w) < 3}
    if not short:
        return each
    return [words if words.isdisjoint(short) else words.difference(short) for words in each]


# ASCII's characters that are no part of a word (`_WORD`: neither a letter nor a digit) as
# spaces, the separator of `content_words_each` kept.
_NON_WORD_ASCII = {c: " " for c in range(1, 128) if not chr(c).isalnum()}


class Omissions:
    """The child's omissions, read once for every dropped object: the ids their descriptions
    name, and an index of their words. (Each object against each description, a regular
    expression a word, took 38 s for 2,000 of each.)"""

    def __init__(self, descriptions: list[object]) -> None:
        texts = [d for d in descriptions if isinstance(d, str)]
        # The ids the descriptions name: each run of the characters a local id is made of
        # (OCP's localId), as written and without the punctuation that may end a sentence or
        # a clause around it ("op-wait-ci." names op-wait-ci). A set: a search of the whole
        # text for each dropped object's id cost the product of the two.
        runs = set(_ID_RUN.findall("\n".join(texts)))
        self.named = runs | {run.strip("._:-") for run in runs}
        self.words = content_words_each(texts)
        self.index: dict[str, list[int]] = {}
        for position, words in enumerate(self.words):
            for word in words:
                self.index.setdefault(word, []).append(position)

    @classmethod
    def of(cls, child: Checkpoint) -> Omissions:
        """The child's omissions, read once for the lineage checks and for what the page
        says first ("since the parent"): both ask of the same dropped objects."""
        found = _OMISSIONS.get(child)
        if found is None:
            found = cls([o.get("description") for _, o in child.array("derivation", "omissions")])
            _OMISSIONS[child] = found
        return found

    def cover(self, obj: Protected, own: set[str] | None = None) -> bool:
        """Whether an omission accounts for ``obj``: it names the object's id, or it describes
        the object as a person would read it, with three fifths of the object's own
        distinctive words, two at least ("never ask for the card number" for "Never ask for
        card number or CVC"; "the damaged lamp's photos" is not the lamp's refund). A generic
        word for its kind ("older statements not needed any more") describes no object, and
        an omission about something else ("editor state") does not cover it. ``own``: the
        object's `content_words` (its text's, or its description's), when read already."""
        if obj.id is not None and obj.id in self.named:
            return True
        if own is None:
            own = content_words(obj.value.get("text") or obj.value.get("description"))
        if len(own) < 2:
            return False
        needed = max(2, -(-len(own) * 3 // 5))  # three fifths of its own words, rounded up
        # the omissions that hold its rarest words, at most _COMMON for each word: a word
        # in thousands of omissions singles none out, and looking at each would cost the
        # product of the two lists
        index = self.index
        indexed = [w for w in own if w in index]  # (own is the smaller: by its words)
        if len(indexed) < needed:
            # no omission shares more of its words than all omissions together do: a document
            # of omissions in nearly the words of what was dropped is refused here, not by
            # reading its candidates one by one
            return False
        # (ties by the word itself: the same verdict whatever order a set iterates in)
        looked_up = sorted(indexed, key=lambda w: (len(index[w]), w))
        candidates = {
            position for w in looked_up[:_WORDS_LOOKED_UP] for position in index[w][:_COMMON]
        }
        return any(len(own & self.words[position]) >= needed for position in candidates)


def dropped_and_covered(child: Checkpoint, parent: Checkpoint) -> list[tuple[Protected, bool]]:
    """Each protected object of the parent the child dropped, and whether an omission of the
    child accounts for it (`Omissions.cover`): worked out once a pair, for the lineage check
    and for what the page says first."""

    def compute() -> list[tuple[Protected, bool]]:
        omissions = Omissions.of(child)
        dropped = dropped_protected(child, parent)
        words = content_words_each(
            [obj.value.get("text") or obj.value.get("description") for obj in dropped]
        )
        return [(obj, omissions.cover(obj, own)) for obj, own in zip(dropped, words, strict=True)]

    return _once("covered", child, parent, compute)


def withdrawn_preserved(child: Checkpoint, parent: Checkpoint) -> list[tuple[int, str, str, str]]:
    """Active instructions, constraints and decisions of the parent that the child carries but
    retracts (same id): (child index, id, what, the child's status). Superseded is a
    replacement, recorded as such; retracted is a withdrawal a compaction may not make."""
    out = []
    for i, object_id, statement, old in _kept_statements(child, parent):
        kind = old.get("kind")
        if (
            kind not in ("instruction", "constraint", "decision")
            or old.get("status", "active") != "active"
        ):
            continue
        if statement.get("status") == "retracted":
            out.append((i, object_id, PRESERVED_KINDS[str(kind)], "retracted"))
    return out


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


class Raised(Record):
    """A statement whose verification state became verified in the child."""

    __slots__ = (
        "before",
        "checked_after_parent",
        "checked_at",
        "child_index",
        "evidence_added",
        "id",
    )

    id: Final[str]
    child_index: Final[int]
    before: Final[object]  # the parent's state, None when the parent recorded no verification
    evidence_added: Final[list[str]]
    checked_at: Final[object]  # the child's verification.checked_at, as written
    checked_after_parent: Final[bool]  # checked_at is an instant later than the parent's created_at

    def __init__(
        self,
        id: str,
        child_index: int,
        before: object,
        evidence_added: list[str],
        checked_at: object,
        checked_after_parent: bool,
    ) -> None:
        self.id = id
        self.child_index = child_index
        self.before = before
        self.evidence_added = evidence_added
        self.checked_at = checked_at
        self.checked_after_parent = checked_after_parent

    @property
    def new_evidence(self) -> bool:
        return bool(self.evidence_added) or self.checked_after_parent


def raised_verifications(child: Checkpoint, parent: Checkpoint) -> list[Raised]:
    """Statements (matched by id) that are verified in the child and were not verified in the
    parent (unverified, disputed, stale, or no verification at all), with what the child shows
    as new evidence: evidence ids the parent's statement did not cite, and whether
    verification.checked_at is later than the parent's created_at."""
    parent_created = parent.created_at
    out: list[Raised] = []
    for i, object_id, statement, old in _kept_statements(child, parent):
        if _state(statement) != "verified":
            continue
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
    "error",
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


def evidence_not_carried(child: Checkpoint, parent: Checkpoint) -> list[tuple[int, str, list[str]]]:
    """Statements verified in the parent and still verified in the child (same id) whose
    parent evidence the child no longer cites, or no longer carries as a resource, with no
    check after the parent (checked_at later than its created_at): (child index, id, the
    evidence ids not carried)."""
    resources = {obj.id for obj in child.local_objects if obj.type == "resource"}
    parent_created = parent.created_at
    out = []
    for i, object_id, statement, old in _kept_statements(child, parent):
        if _state(old) != "verified" or _state(statement) != "verified":
            continue
        cited = set(_strings(statement.get("evidence")))
        missing = [e for e in _strings(old.get("evidence")) if e not in cited or e not in resources]
        if not missing:
            continue
        verification = statement.get("verification")
        checked = parse_instant(
            verification.get("checked_at") if isinstance(verification, dict) else None
        )
        if checked and parent_created and checked > parent_created:
            continue  # checked again after the parent: its own evidence now
        out.append((i, object_id, list(dict.fromkeys(missing))))
    return out


def outcomes_without_evidence(child: Checkpoint, parent: Checkpoint) -> list[tuple[int, str, str]]:
    """Operations uncertain in the parent and completed or failed in the child (same id), whose
    child names no record resource observed after the parent was captured: an outcome settled
    without looking it up (§10.3). (child index, id, the child's status)."""
    before = _by_id(parent.operations())
    resources = {obj.id: obj.value for obj in child.local_objects if obj.type == "resource"}
    parent_created = parent.created_at
    out = []
    for i, operation in child.operations():
        object_id, status = operation.get("id"), operation.get("status")
        if not isinstance(object_id, str) or object_id not in before:
            continue
        if before[object_id][1].get("status") != "uncertain" or status not in (
            "completed",
            "failed",
        ):
            continue
        record_id = operation.get("record")
        record = resources.get(record_id) if isinstance(record_id, str) else None
        observed = parse_instant(record.get("observed_at")) if isinstance(record, dict) else None
        if observed and parent_created and observed > parent_created:
            continue
        out.append((i, object_id, str(status)))
    return out


@rule(
    "lineage-verification",
    "warning",
    "A derived checkpoint does not raise a verification state, or settle an uncertain "
    "operation, without new evidence (§9.1, §9.2, §10.3).",
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
    for index, object_id, status in outcomes_without_evidence(child, parent.checkpoint):
        yield (
            ("operations", index, "status"),
            f"operation {object_id!r} is uncertain in the parent and {status} here, with no "
            "record observed after the parent was captured; record where its outcome was checked "
            "(its record, with an observed_at after the parent), or keep it uncertain",
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

    When the child records omissions, an omission's description is free text the linter cannot
    match to ids with certainty: a dropped object that no omission names is then the note
    `lineage-omission`, not this warning. An active instruction, constraint or decision the
    child carries but retracts is not preserved either. One finding per dropped object, at the
    child's array (/statements, /operations, /continuation/stop_conditions) or at the whole
    document when the child has no such array, naming the parent's id and pointer; one per
    retracted statement, at its /statements/N/status."""
    method = derivation_method(child)
    if method not in DERIVED_METHODS or not names_parent(child, parent.checkpoint):
        return
    if not omissions_recorded(child):
        # a stop condition is dropped even when the child records the statuses its until
        # waits for: "a consumer MUST evaluate until against the system of record, never
        # against a status recorded in a checkpoint" (§6.8)
        for obj in dropped_protected(child, parent.checkpoint):
            name = repr(obj.id) if obj.id is not None else "without an id"
            yield (
                child_array_path(child, obj.type),
                f"the parent's {obj.what} {name} (at {obj.pointer}) is not in this {method} "
                "checkpoint, and derivation.omissions records nothing; carry it forward, or "
                "record its removal in derivation.omissions",
            )
    for index, object_id, what, status in withdrawn_preserved(child, parent.checkpoint):
        yield (
            ("statements", index, "status"),
            f"the parent's {what} {object_id!r} is {status} here; a {method} checkpoint keeps "
            "the parent's active instructions, constraints and decisions: keep it active, and "
            "record a new statement (its own id, its actual origin) if it was changed",
        )


@rule(
    "lineage-compaction",
    "warning",
    "A checkpoint whose derivation.method is `compacted` records derivation.omissions and "
    "derivation.transformations (§6.9, §9.2).",
    needs_parent=True,
)
def compaction_without_record(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A child whose derivation.method is compacted records in a non-empty
    derivation.omissions what it dropped, and in a non-empty derivation.transformations what it
    condensed: "MUST record what it dropped in derivation.omissions and what it condensed in
    derivation.transformations" (§9.2, §6.9). Dropped: a local object of the parent (matched
    by id and type) that the child does not carry. Condensed: a local object of the parent (a
    statement, a completed step, …) whose text or description the child rewrote, or objects of
    the parent dropped while the child has objects of the same kind the parent did not (merged
    into new ones). A compaction that dropped and condensed nothing
    records neither, and is not reported. One finding at /derivation naming what is missing."""
    if derivation_method(child) != "compacted":
        return
    if not names_parent(child, parent.checkpoint):
        return
    before = parent.checkpoint
    carried = {(obj.id, obj.type) for obj in child.local_objects}
    dropped = [obj for obj in before.local_objects if (obj.id, obj.type) not in carried]
    known = {(obj.id, obj.type) for obj in before.local_objects}
    added = {obj.type for obj in child.local_objects if (obj.id, obj.type) not in known}
    condensed = _rewritten_any(child, before) or any(obj.type in added for obj in dropped)
    missing = [
        name
        for name, needed, present in (
            ("derivation.omissions", bool(dropped), omissions_recorded(child)),
            ("derivation.transformations", condensed, transformations_recorded(child)),
        )
        if needed and not present
    ]
    if missing:
        what = {
            "derivation.omissions": "what the compaction dropped (omissions, with where it can "
            "be recovered)",
            "derivation.transformations": "what it condensed (transformations, with the objects "
            "that carry the result)",
        }
        did = "dropped objects of its parent" if dropped else "condensed statements"
        yield (
            ("derivation",),
            f"this checkpoint was compacted and {did} but records no "
            f"{' and no '.join(missing)}; list " + " and ".join(what[name] for name in missing),
        )


def _rewritten_any(child: Checkpoint, parent: Checkpoint) -> bool:
    """Whether the child carries a local object of the parent (same id and type) whose text,
    or description, differs from the parent's."""
    before = {(obj.id, obj.type): obj.value for obj in parent.local_objects}
    for obj in child.local_objects:
        old = before.get((obj.id, obj.type))
        if old is None:
            continue
        for member in ("text", "description"):
            if json_key(obj.value.get(member)) != json_key(old.get(member)):
                return True
    return False


# --- what the checks above did not see ------------------------------------------------------


def _stop_conditions_by_id(checkpoint: Checkpoint) -> dict[str, tuple[int, JsonObject]]:
    return _by_id(checkpoint.stop_conditions())


def _until_entries(stop: JsonObject) -> list[tuple[object, object]] | None:
    until = stop.get("until")
    if not isinstance(until, list):
        return None
    return [
        (entry.get("operation"), entry.get("status")) for entry in until if isinstance(entry, dict)
    ]


def weakened_stop_conditions(child: Checkpoint, parent: Checkpoint) -> list[tuple[int, str, str]]:
    """Stop conditions of the parent (matched by id) that the child keeps in a weaker form:
    (child index, id, what changed). Weaker: an operation the parent's applies_to forbids is no
    longer named; a stop condition without until (it applies for the whole continuation, §6.8)
    gains one; an until entry of the parent is gone or changed (each lifts it only together)."""
    before = _stop_conditions_by_id(parent)
    out = []
    for i, stop in child.stop_conditions():
        object_id = stop.get("id")
        if not isinstance(object_id, str) or object_id not in before:
            continue
        _, old = before[object_id]
        named = set(_strings(stop.get("applies_to")))
        lost = [x for x in _strings(old.get("applies_to")) if x not in named]
        if named and not _strings(old.get("applies_to")):
            out.append(
                (
                    i,
                    object_id,
                    "it gains an applies_to: in the parent it names no operation, so it may "
                    "forbid any call (§6.8), and here only those it names",
                )
            )
        if lost:
            out.append(
                (i, object_id, f"its applies_to no longer names {', '.join(map(repr, lost))}")
            )
        old_until, new_until = _until_entries(old), _until_entries(stop)
        if old_until is None and new_until:
            out.append(
                (
                    i,
                    object_id,
                    "it gains an until: in the parent it applies for the whole continuation",
                )
            )
        elif old_until is not None:
            kept = {(json_key(op), json_key(status)) for op, status in new_until or []}
            gone = [
                (op, status)
                for op, status in old_until
                if (json_key(op), json_key(status)) not in kept
            ]
            if gone:
                names = ", ".join(f"{op!r} reaching {status!r}" for op, status in gone)
                out.append((i, object_id, f"its until no longer waits for {names}"))
    return out


@rule(
    "lineage-weakened",
    "error",
    "A compacted or forked checkpoint keeps each stop condition of its parent at least as strict: "
    "the same operations forbidden, no new until, every until entry kept (§6.8, §9.2).",
    needs_parent=True,
)
def stop_condition_weakened(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A stop condition the parent has (same local id) forbids, in a compacted or forked child,
    at least what it forbade: every operation of the parent's applies_to is still named, a stop
    condition without until (which "applies for the whole continuation", §6.8) gains none, and
    every until entry (operation and status) of the parent is still there. A compacting producer
    "MUST preserve ... stop conditions" (§9.2): a weakened one lets a destination do what the
    parent forbade. Reported at the child's stop condition, one finding per change."""
    if derivation_method(child) not in DERIVED_METHODS or not names_parent(
        child, parent.checkpoint
    ):
        return
    for index, object_id, change in weakened_stop_conditions(child, parent.checkpoint):
        yield (
            ("continuation", "stop_conditions", index),
            f"stop condition {object_id!r} is weaker than in the parent: {change}; keep the "
            "parent's stop condition as it was, and record a new one with its own id if a person "
            "decided otherwise",
        )


def _text_of(statement: JsonObject) -> object:
    return statement.get("text")


def rewritten_statements(child: Checkpoint, parent: Checkpoint) -> list[tuple[int, str, object]]:
    """Statements of the parent (same id) whose text the child changed: (child index, id, the
    parent's kind)."""
    out = []
    for i, object_id, statement, old in _kept_statements(child, parent):
        if _text_of(statement) != _text_of(old):
            out.append((i, object_id, old.get("kind")))
    return out


def transformed_ids(child: Checkpoint) -> set[str]:
    """Ids that derivation.transformations names in affected."""
    out: set[str] = set()
    for _, transformation in child.array("derivation", "transformations"):
        out.update(_strings(transformation.get("affected")))
    return out


@rule(
    "lineage-rewritten",
    "note",
    "A compacted checkpoint records each statement it rewrites in derivation.transformations; a "
    "fork adds changed statements as new ones instead of editing the parent's (§9.2, §9.3).",
    needs_parent=True,
)
def statement_rewritten(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A statement the parent has (same local id) keeps its text in a forked child: "MUST add
    changed statements as new statements with their actual origin rather than editing the
    parent's statements" (§9.3). In a compacted child its text may be condensed, but "MUST
    record ... what it condensed in derivation.transformations" (§9.2): a transformation names
    it in affected. An instruction rewritten silently changes what a destination is told the
    user asked. A note: a transformation may describe the rewrite in words without naming the
    statement. Reported at the child's /statements/N/text."""
    method = derivation_method(child)
    if method not in DERIVED_METHODS or not names_parent(child, parent.checkpoint):
        return
    recorded = transformed_ids(child) if method == "compacted" else set()
    for index, object_id, kind in rewritten_statements(child, parent.checkpoint):
        if object_id in recorded:
            continue
        what = f"{kind} {object_id!r}" if isinstance(kind, str) else f"statement {object_id!r}"
        if method == "forked":
            advice = (
                "a fork adds a changed statement as a new statement with its own id and actual "
                "origin, and keeps the parent's"
            )
        else:
            advice = (
                "record the rewrite in derivation.transformations, naming it in affected, or "
                "keep the parent's text"
            )
        yield (
            ("statements", index, "text"),
            f"the text of {what} differs from the parent's, and no transformation records the "
            f"change; {advice}",
        )


def _called_operations(
    checkpoint: Checkpoint, statuses: tuple[str, ...]
) -> list[tuple[int, JsonObject, Call]]:
    out = []
    for i, operation in checkpoint.operations():
        status = operation.get("status")
        call = Call.of(operation.get("call"))
        if call is not None and isinstance(status, str) and status in statuses:
            out.append((i, operation, call))
    return out


_OPEN_OR_FAILED = ("planned", "awaiting", "uncertain", "failed")


class _CompletedCalls:
    """The parent's completed calls, indexed so that a child's call is compared only with those
    it could repeat: each under its tool and its rarest argument (a call repeats one only if it
    has every argument of it, equal), or under its tool alone when it has no argument. (Each
    child call against every completed one took 33 s for 5,000 of each.)"""

    def __init__(self, completed: list[tuple[int, JsonObject, Call]]) -> None:
        self.completed = completed
        counts: Counter[tuple[str, str, object]] = Counter()
        items = []
        for _, _, call in completed:
            keys = _argument_keys(call)
            counts.update(keys)
            items.append(keys)
        self.index: dict[object, list[int]] = {}
        for position, (keys, (_, _, call)) in enumerate(zip(items, completed, strict=True)):
            rarest = min(keys, key=counts.__getitem__) if keys else call.tool
            self.index.setdefault(rarest, []).append(position)

    def candidates(self, call: Call) -> list[tuple[int, JsonObject, Call]]:
        """The completed calls ``call`` may repeat, in the parent's order (`repeats` decides)."""
        found = list(self.index.get(call.tool, []))
        for key in _argument_keys(call):
            found += self.index.get(key, [])
        return [self.completed[position] for position in sorted(set(found))]


def _argument_keys(call: Call) -> list[tuple[str, str, object]]:
    """A key for each argument of ``call``, the same where `same_value` finds two equal."""
    return [
        (call.tool, name, json_key(value, booleans_apart=True))
        for name, value in call.arguments.items()
    ]


@rule(
    "lineage-repeat",
    "error",
    "A checkpoint does not plan again a call its parent records as completed (§6.6, §10.3).",
    needs_parent=True,
)
def completed_call_repeated(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """No operation of the child that is not terminal (planned, awaiting, uncertain or failed)
    records a call that repeats the call of an operation the parent records as completed: "a
    call to the same tool whose arguments include every recorded argument with an equal value
    is a repeat of the operation, so a consumer can refuse to repeat a completed operation"
    (§6.6). A child that plans it again under a new id would have a destination repeat a side
    effect that is settled (a second payment). Reported at the child's operation."""
    if not names_parent(child, parent.checkpoint):
        return
    completed = _called_operations(parent.checkpoint, ("completed",))
    if not completed:
        return
    calls = _CompletedCalls(completed)
    for index, operation, call in _called_operations(child, _OPEN_OR_FAILED):
        for _, done, done_call in calls.candidates(call):
            if done.get("id") == operation.get("id"):
                continue  # the same operation reopened: OCP-T001's finding
            if repeats(call, done_call):
                yield (
                    ("operations", index),
                    f"operation {operation.get('id')!r} ({operation.get('status')}) repeats the "
                    f"call of {done.get('id')!r}, which the parent records as completed: the "
                    f"same tool {call.tool!r} with every argument it recorded; do not plan a "
                    "completed call again: verify its outcome at its record, and remove this "
                    "operation or record why it must be repeated",
                )
                break


# --- notes: what the linter reads with less than certainty ---------------------------------


@rule(
    "lineage-omission",
    "note",
    "Each object a compacted or forked checkpoint drops from its parent is named by an omission "
    "(§9.2, §9.3).",
    needs_parent=True,
)
def dropped_without_naming_omission(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """In a compacted or forked child that records omissions, each of the parent's active
    instructions, constraints and decisions, open questions, non-terminal operations and stop
    conditions that the child no longer carries is named by an omission: its id, or the word
    for its kind or type ("the open questions", "two stop conditions"), appears in an omission's
    description, as "MUST record what it dropped in derivation.omissions" (§9.2) and a fork
    removes an operation "recording the removal in derivation.omissions" (§9.3) ask. One
    unrelated omission ("editor state") does not account for a dropped stop condition. A note,
    not a warning: a description may cover an object in words this check
    does not read. Reported at the child's array, naming the parent's id and pointer."""
    method = derivation_method(child)
    if method not in DERIVED_METHODS or not names_parent(child, parent.checkpoint):
        return
    if not omissions_recorded(child):
        return  # lineage-dropped's warning
    listed = 0
    for obj, covered in dropped_and_covered(child, parent.checkpoint):
        if covered:
            continue
        if listed == MAX_PER_CODE:
            yield COUNTED  # (past what a report lists: counted, no message or path built)
            continue
        listed += 1
        name = repr(obj.id) if obj.id is not None else "without an id"
        yield (
            child_array_path(child, obj.type),
            f"the parent's {obj.what} {name} (at {obj.pointer}) is not in this {method} "
            "checkpoint, and no omission names it (by its id, or by the word for what it is); "
            "check that an omission accounts for it, and name it there",
        )


@rule(
    "lineage-evidence",
    "note",
    "A statement a derived checkpoint keeps as verified keeps the evidence it cited in the "
    "parent, or is marked stale (§9.2, §10.4).",
    needs_parent=True,
)
def verified_without_its_evidence(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """A statement verified in the parent and still verified in the child (same local id)
    cites the parent's evidence resources in the child and carries them as resources, or was
    checked again after the parent (verification.checked_at later than the parent's
    created_at). A compacting producer "MUST mark statements whose evidence it did not carry
    forward, or could not re-check, as stale with an appropriate revalidate" (§9.2). A note: the
    evidence may live on in another resource the check cannot match. Reported at the child's
    /statements/N/verification/state."""
    if not names_parent(child, parent.checkpoint):
        return
    for index, object_id, missing in evidence_not_carried(child, parent.checkpoint):
        yield (
            ("statements", index, "verification", "state"),
            f"statement {object_id!r} is still verified here, but the evidence it cited in the "
            f"parent ({', '.join(map(repr, missing))}) is not carried forward; mark it stale "
            "with a revalidate (§9.2), or carry the evidence, or re-check it (checked_at after "
            "the parent)",
        )


# --- since the parent: what a person reads first ---------------------------------------------


class Loss(Record):
    """Something the parent holds in force, as §9.2 asks a compaction to preserve it, that the
    child dropped, rewrote, weakened or withdrew."""

    __slots__ = ("accounted", "change", "child_pointer", "detail", "id", "parent_pointer", "what")

    change: Final[str]  # "dropped", "rewritten", "weakened" or "withdrawn"
    what: Final[
        str
    ]  # "active constraint", "open question", "non-terminal operation", "stop condition"
    id: Final[str | None]
    parent_pointer: Final[str]
    child_pointer: Final[str | None]  # None: dropped
    detail: Final[str]  # what changed, in words
    # whether the child records it: an omission that names it (dropped), a transformation
    # that names it in affected (rewritten); a weakening or a withdrawal is never accounted for
    accounted: Final[bool]

    def __init__(
        self,
        change: str,
        what: str,
        id: str | None,
        parent_pointer: str,
        child_pointer: str | None,
        detail: str,
        accounted: bool,
    ) -> None:
        self.change = change
        self.what = what
        self.id = id
        self.parent_pointer = parent_pointer
        self.child_pointer = child_pointer
        self.detail = detail
        self.accounted = accounted

    @property
    def recorded(self) -> str:
        """Whether, and how, the child records the change, in words."""
        if self.change == "dropped":
            return "an omission names it" if self.accounted else "no omission names it"
        if self.change == "rewritten":
            return "a transformation names it" if self.accounted else "no transformation names it"
        return "a compaction may not do this (§9.2)"


# Operation members whose change alters what a destination would do about the operation.
_OPERATION_MEMBERS = ("description", "effect", "call", "resume", "idempotency_key", "target")


NOT_CARRIED = "not in this checkpoint"


def losses(child: Checkpoint, parent: Checkpoint) -> list[Loss]:
    """What the child dropped, rewrote, weakened or withdrew of the parent's active
    instructions, constraints and decisions, open questions, non-terminal operations and stop
    conditions (§9.2), in the parent's order, with whether the child records each."""
    if not names_parent(child, parent):
        return []
    protected = protected_objects(parent)
    kept: dict[tuple[str, str], Protected] = {
        (obj.id, obj.type): obj for obj in protected if obj.id is not None
    }
    transformed = transformed_ids(child)
    # each loss beside its object's place in the parent's order (by identity: a pointer built
    # for each protected object only to sort by it cost a fifth of a compacted pair's losses)
    rank = {id(obj): n for n, obj in enumerate(protected)}
    out = [
        (rank[id(p)], Loss("dropped", p.what, p.id, p.pointer, None, NOT_CARRIED, covered))
        for p, covered in dropped_and_covered(child, parent)
    ]

    def changed(kind: str, object_id: str, pointer: str, change: str, detail: str) -> None:
        obj = kept.get((object_id, kind))
        if obj is not None:
            accounted = change == "rewritten" and object_id in transformed
            loss = Loss(change, obj.what, object_id, obj.pointer, pointer, detail, accounted)
            out.append((rank[id(obj)], loss))

    for index, statement_id, _ in rewritten_statements(child, parent):
        pointer = to_pointer(("statements", index))
        changed(
            "statement", statement_id, pointer, "rewritten", "its text differs from the parent's"
        )
    for index, statement_id, _, status in withdrawn_preserved(child, parent):
        changed(
            "statement",
            statement_id,
            to_pointer(("statements", index)),
            "withdrawn",
            f"it is {status} here",
        )
    before = _by_id(parent.operations())
    for index, operation in child.operations():
        op_id = operation.get("id")
        if not isinstance(op_id, str) or (op_id, "operation") not in kept:
            continue
        old = before[op_id][1]
        members = [
            m for m in _OPERATION_MEMBERS if json_key(operation.get(m)) != json_key(old.get(m))
        ]
        if members:
            verb = "differs" if len(members) == 1 else "differ"
            changed(
                "operation",
                op_id,
                to_pointer(("operations", index)),
                "rewritten",
                f"its {', '.join(members)} {verb} from the parent's",
            )
    weakened: dict[int, list[str]] = {}
    for index, _, change in weakened_stop_conditions(child, parent):
        weakened.setdefault(index, []).append(change)
    stops = _stop_conditions_by_id(parent)
    for index, stop in child.stop_conditions():
        stop_id = stop.get("id")
        if not isinstance(stop_id, str) or stop_id not in stops:
            continue
        pointer = to_pointer(("continuation", "stop_conditions", index))
        if index in weakened:
            changed("stop_condition", stop_id, pointer, "weakened", "; ".join(weakened[index]))
        elif json_key(stop.get("description")) != json_key(stops[stop_id][1].get("description")):
            changed(
                "stop_condition",
                stop_id,
                pointer,
                "rewritten",
                "its description differs from the parent's",
            )
    out.sort(key=lambda ranked: ranked[0])
    return [loss for _, loss in out]
