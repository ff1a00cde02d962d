"""The layout of a checkpoint, in one place: where each type of local object lives, which
fields reference local objects and of which types, which timestamps record past events, which
lists are ordered, and the enumerations (read from the schema, never copied).

The checkpoint index (app/checkpoint.py), the rules, the diff, the compaction checks and the
render model all read these facts from here. A place in a document is a *pattern*: a tuple of
member names, with ``"*"`` for every item of an array; `walk` visits what a set of patterns
names, in document order, tolerating any shape (a schema-invalid document may hold a string
where an array belongs).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from app import TYPE_CHECKING
from app.pointer import Path
from app.record import Record
from app.resources import load_schema

if TYPE_CHECKING:
    from typing import Any, Final

    Found = list[tuple[Any, Path, Any]]

Pattern = tuple[str, ...]
EVERY = "*"

# --- enumerations, from the schema ------------------------------------------------------------


def _definitions() -> Mapping[str, Any]:
    definitions: Mapping[str, Any] = load_schema()["$defs"]
    return definitions


def schema_enum(definition: str, member: str | None = None) -> tuple[str, ...]:
    """The ``enum`` of ``$defs/<definition>`` (or of its property ``member``), in the
    schema's order."""
    node = _definitions()[definition]
    if member is not None:
        node = node["properties"][member]
    values = node["enum"]
    assert all(isinstance(v, str) for v in values), (definition, member)
    return tuple(values)


# Each enumeration is read from the schema when first asked for (PEP 562's module __getattr__):
# the rules of `ocp lint` need none of them, and reading the schema's JSON cost its start-up
# half a millisecond (issue 28). name -> where in `$defs` (a definition, and its member).
_ENUMS: dict[str, tuple[str, str | None]] = {
    "TASK_STATUSES": ("task", "status"),
    "CRITERION_STATUSES": ("criterion", "status"),
    "STATEMENT_KINDS": ("statement", "kind"),
    "STATEMENT_STATUSES": ("statement", "status"),
    "ORIGIN_TYPES": ("origin", "type"),
    "VERIFICATION_STATES": ("verification", "state"),
    "REVALIDATE": ("verification", "revalidate"),
    "RESOURCE_KINDS": ("resource", "kind"),
    "AVAILABILITY": ("resource", "availability"),
    "SENSITIVITY": ("resource", "sensitivity"),
    "SELECTION_ROLES": ("selection", "role"),
    "DRAFT_STATUSES": ("draft", "status"),
    "OPERATION_KINDS": ("operation", "kind"),
    "OPERATION_STATUSES": ("operationStatus", None),
    "EFFECTS": ("operation", "effect"),
    "RESUMES": ("operation", "resume"),
    "REQUIREMENT_KINDS": ("requirement", "kind"),
    "NECESSITIES": ("requirement", "necessity"),
    "ON_FAILURE": ("precondition", "on_failure"),
    "DERIVATION_METHODS": ("derivation", "method"),
    "OMISSION_REASONS": ("omission", "reason"),
}

if TYPE_CHECKING:
    TASK_STATUSES: tuple[str, ...]
    CRITERION_STATUSES: tuple[str, ...]
    STATEMENT_KINDS: tuple[str, ...]
    STATEMENT_STATUSES: tuple[str, ...]
    ORIGIN_TYPES: tuple[str, ...]
    VERIFICATION_STATES: tuple[str, ...]
    REVALIDATE: tuple[str, ...]
    RESOURCE_KINDS: tuple[str, ...]
    AVAILABILITY: tuple[str, ...]
    SENSITIVITY: tuple[str, ...]
    SELECTION_ROLES: tuple[str, ...]
    DRAFT_STATUSES: tuple[str, ...]
    OPERATION_KINDS: tuple[str, ...]
    OPERATION_STATUSES: tuple[str, ...]
    EFFECTS: tuple[str, ...]
    RESUMES: tuple[str, ...]
    REQUIREMENT_KINDS: tuple[str, ...]
    NECESSITIES: tuple[str, ...]
    ON_FAILURE: tuple[str, ...]
    DERIVATION_METHODS: tuple[str, ...]
    OMISSION_REASONS: tuple[str, ...]


def __getattr__(name: str) -> object:
    """An enumeration of `_ENUMS`, read from the schema once."""
    if name not in _ENUMS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = schema_enum(*_ENUMS[name])
    globals()[name] = value  # asked once
    return value


# §6.6: completed, cancelled and rejected are terminal. A tuple, not a set: a status from a
# schema-invalid document may be any JSON value, even an unhashable list, and must simply not
# be found.
TERMINAL_STATUSES = ("completed", "cancelled", "rejected")
# §6.2 / OCP-S006: the statuses a completed task may not have operations in.
OPEN_STATUSES = ("planned", "awaiting", "uncertain")
# §6.6: a consumer treats an absent or unknown effect as non_idempotent.
REPEAT_UNSAFE_EFFECTS = ("non_idempotent", "unknown", None)


# --- local objects (§4.1) ----------------------------------------------------------------------


class ObjectArray(Record):
    """An array whose items are local objects of one type."""

    __slots__ = ("key", "ordered", "pattern", "title", "type", "type_name")

    key: Final[str]  # a short name: "statements", "next", "drafts"
    title: Final[str]  # as a page heads it
    pattern: Final[Pattern]  # where the array is; drafts live in each application context entry
    type: Final[str]  # the object type: "statement", "next_step", …
    type_name: Final[str]  # in words: "next step"
    # The order of the items means something (§6.3: completed steps oldest first, next steps in
    # suggested order; §6.8: recovery actions in order): reordering them is a change.
    ordered: Final[bool]

    def __init__(
        self,
        key: str,
        title: str,
        pattern: Pattern,
        type: str,
        type_name: str,
        ordered: bool = False,
    ) -> None:
        self.key = key
        self.title = title
        self.pattern = pattern
        self.type = type
        self.type_name = type_name
        self.ordered = ordered

    @property
    def items(self) -> Pattern:
        return (*self.pattern, EVERY)


# Page order.
OBJECT_ARRAYS: tuple[ObjectArray, ...] = (
    ObjectArray("statements", "Statements", ("statements",), "statement", "statement"),
    ObjectArray("operations", "Operations", ("operations",), "operation", "operation"),
    ObjectArray(
        "completed",
        "Completed steps",
        ("progress", "completed"),
        "step",
        "completed step",
        ordered=True,
    ),
    ObjectArray("next", "Next steps", ("progress", "next"), "next_step", "next step", ordered=True),
    ObjectArray(
        "success_criteria",
        "Success criteria",
        ("task", "success_criteria"),
        "criterion",
        "success criterion",
    ),
    ObjectArray("resources", "Resources", ("resources",), "resource", "resource"),
    ObjectArray(
        "application_context",
        "Application context",
        ("application_context",),
        "application_context",
        "application context entry",
    ),
    ObjectArray("drafts", "Drafts", ("application_context", EVERY, "drafts"), "draft", "draft"),
    ObjectArray(
        "requirements",
        "Requirements",
        ("continuation", "requirements"),
        "requirement",
        "requirement",
    ),
    ObjectArray(
        "preconditions",
        "Preconditions",
        ("continuation", "preconditions"),
        "precondition",
        "precondition",
    ),
    ObjectArray(
        "stop_conditions",
        "Stop conditions",
        ("continuation", "stop_conditions"),
        "stop_condition",
        "stop condition",
    ),
    ObjectArray(
        "recovery",
        "Recovery",
        ("continuation", "recovery"),
        "recovery_step",
        "recovery step",
        ordered=True,
    ),
    ObjectArray(
        "incompatibilities",
        "Incompatibilities",
        ("continuation", "incompatibilities"),
        "incompatibility",
        "incompatibility",
    ),
    ObjectArray("omissions", "Omissions", ("derivation", "omissions"), "omission", "omission"),
    ObjectArray(
        "transformations",
        "Transformations",
        ("derivation", "transformations"),
        "transformation",
        "transformation",
    ),
)
ARRAY_OF_TYPE: dict[str, ObjectArray] = {a.type: a for a in OBJECT_ARRAYS}
TYPE_NAMES: dict[str, str] = {a.type: a.type_name for a in OBJECT_ARRAYS}
# The containers whose members hold arrays of local objects.
CONTAINERS = frozenset(a.pattern[0] for a in OBJECT_ARRAYS if len(a.pattern) == 2)


# --- references (§4.1, §8.2 OCP-S002/S003) -----------------------------------------------------

RESOURCE = frozenset({"resource"})
STATEMENT = frozenset({"statement"})
OPERATION = frozenset({"operation"})
REQUIREMENT = frozenset({"requirement"})
BLOCKER = frozenset({"statement", "operation", "resource", "requirement"})
ANY: frozenset[str] = frozenset()  # any local object


class ReferenceField(Record):
    __slots__ = ("allowed", "many", "member")

    member: Final[str]
    allowed: Final[frozenset[str]]  # empty: any local object
    many: Final[bool]  # an array of references, or one

    def __init__(self, member: str, allowed: frozenset[str], many: bool) -> None:
        self.member = member
        self.allowed = allowed
        self.many = many


class Holder(Record):
    """Objects that hold reference fields: local objects and the parts of them that are not
    (a statement's origin, an operation's approval, a stop condition's until entries)."""

    __slots__ = ("fields", "pattern", "type")

    type: Final[str]
    pattern: Final[Pattern]
    fields: Final[tuple[ReferenceField, ...]]

    def __init__(self, type: str, pattern: Pattern, fields: tuple[ReferenceField, ...]) -> None:
        self.type = type
        self.pattern = pattern
        self.fields = fields


def _refs(*fields: tuple[str, frozenset[str], bool]) -> tuple[ReferenceField, ...]:
    return tuple(ReferenceField(*f) for f in fields)


HOLDERS: tuple[Holder, ...] = (
    Holder("criterion", ("task", "success_criteria", EVERY), _refs(("evidence", RESOURCE, True))),
    Holder("focus", ("progress", "focus"), _refs(("refs", ANY, True))),
    Holder("step", ("progress", "completed", EVERY), _refs(("evidence", RESOURCE, True))),
    Holder(
        "next_step",
        ("progress", "next", EVERY),
        _refs(("blocked_by", BLOCKER, True), ("requires", REQUIREMENT, True), ("refs", ANY, True)),
    ),
    Holder(
        "statement",
        ("statements", EVERY),
        _refs(("superseded_by", STATEMENT, False), ("evidence", RESOURCE, True)),
    ),
    Holder("origin", ("statements", EVERY, "origin"), _refs(("ref", RESOURCE, False))),
    Holder(
        "selection",
        ("application_context", EVERY, "selections", EVERY),
        _refs(("resource", RESOURCE, False)),
    ),
    Holder(
        "draft",
        ("application_context", EVERY, "drafts", EVERY),
        _refs(("target", RESOURCE, False), ("content_ref", RESOURCE, False)),
    ),
    Holder(
        "operation",
        ("operations", EVERY),
        _refs(
            ("target", RESOURCE, False),
            ("record", RESOURCE, False),
            ("depends_on", OPERATION, True),
        ),
    ),
    Holder("approval", ("operations", EVERY, "approval"), _refs(("evidence", RESOURCE, True))),
    Holder("requirement", ("continuation", "requirements", EVERY), _refs(("refs", ANY, True))),
    Holder("precondition", ("continuation", "preconditions", EVERY), _refs(("refs", ANY, True))),
    Holder(
        "stop_condition",
        ("continuation", "stop_conditions", EVERY),
        _refs(("applies_to", OPERATION, True), ("refs", ANY, True)),
    ),
    Holder(
        "until",
        ("continuation", "stop_conditions", EVERY, "until", EVERY),
        _refs(("operation", OPERATION, False)),
    ),
    Holder("recovery_step", ("continuation", "recovery", EVERY), _refs(("refs", ANY, True))),
    Holder(
        "omission", ("derivation", "omissions", EVERY), _refs(("recoverable_from", RESOURCE, False))
    ),
    Holder(
        "transformation", ("derivation", "transformations", EVERY), _refs(("affected", ANY, True))
    ),
)

# --- timestamps (§4.2) -------------------------------------------------------------------------

# Timestamps that record a past event: never later than the checkpoint's created_at (OCP-S005).
PAST_EVENTS: tuple[Pattern, ...] = (
    ("progress", "completed", EVERY, "completed_at"),
    ("statements", EVERY, "recorded_at"),
    ("statements", EVERY, "verification", "checked_at"),
    ("resources", EVERY, "observed_at"),
    ("operations", EVERY, "requested_at"),
    ("operations", EVERY, "last_attempt_at"),
    ("operations", EVERY, "approval", "decided_at"),
)


# --- walking -------------------------------------------------------------------------------------

_END = ""  # the trie key that marks the end of a pattern


class _Node:
    """One step of a set of patterns: the labels of the patterns that end here, the members
    that lead on (by name; a document's member named "*" leads where EVERY does, as it always
    has), and where every array item leads."""

    __slots__ = ("items", "labels", "leaf", "members")

    def __init__(self, trie: dict[str, Any]) -> None:
        self.labels: tuple[Any, ...] = tuple(trie.get(_END, ()))
        self.members = {key: _Node(sub) for key, sub in trie.items() if key != _END}
        self.items = self.members.get(EVERY)
        # a place with nothing inside: its labels are all there is to it
        self.leaf = not self.members


@functools.cache
def _compiled(patterns: tuple[tuple[Pattern, Any], ...]) -> _Node:
    root: dict[str, Any] = {}
    for pattern, label in patterns:
        node = root
        for token in pattern:
            node = node.setdefault(token, {})
        node.setdefault(_END, []).append(label)
    return _Node(root)


def walk(
    document: object, patterns: tuple[tuple[Pattern, Any], ...], *, in_order: bool = True
) -> Found:
    """(label, path, value) for every place a pattern names that exists in ``document``, a
    place before the places inside it. ``patterns`` pairs each pattern with a label the caller
    chooses (a type, a holder). In document order; with ``in_order`` false, the members of an
    object are visited in the patterns' order instead (array items stay in order), which skips
    reading the members no pattern names: for callers that sort what they find anyway.
    The recursion follows the patterns, a few levels, never the document's own depth; a path
    is built only for a place that is named or leads on to one."""
    found: Found = []
    _visit(document, _compiled(patterns), (), found, in_order)
    return found


def _visit(node: object, step: _Node, path: Path, found: Found, in_order: bool) -> None:
    for label in step.labels:
        found.append((label, path, node))
    if isinstance(node, dict):
        _members(node, step, path, found, in_order)
    elif isinstance(node, list):
        _items(node, step, path, found, in_order)


def _members(node: dict[str, Any], step: _Node, path: Path, found: Found, in_order: bool) -> None:
    """The places in the members of ``node``, the object at ``path``."""
    members = step.members
    keys = [key for key in node if key in members] if in_order else members
    for key in keys:
        if key not in node:
            continue
        sub, value = members[key], node[key]
        if sub.leaf:  # a named place with nothing inside: no call of its own
            for label in sub.labels:
                found.append((label, (*path, key), value))
        elif sub.labels or not _barren(value, sub):
            _visit(value, sub, (*path, key), found, in_order)


def _barren(value: object, step: _Node) -> bool:
    """Whether ``value`` holds none of the members or items ``step`` leads to (a statement's
    origin without a ``ref``): no call, and no path, for it."""
    if isinstance(value, dict):
        return step.members.keys().isdisjoint(value)
    if isinstance(value, list):
        return step.items is None or not value
    return True


def _items(node: list[Any], step: _Node, path: Path, found: Found, in_order: bool) -> None:
    sub = step.items
    if sub is None:
        return
    if sub.leaf:  # items that are places, with nothing inside
        for label in sub.labels:
            found.extend([(label, (*path, index), value) for index, value in enumerate(node)])
        return
    labels, members = sub.labels, sub.members
    for index, value in enumerate(node):
        for label in labels:
            found.append((label, (*path, index), value))
        if isinstance(value, dict):
            # the item's path is built only when a member leads on (most items of a long
            # array hold nothing a pattern names)
            if not members.keys().isdisjoint(value):
                _members(value, sub, (*path, index), found, in_order)
        elif isinstance(value, list):
            _items(value, sub, (*path, index), found, in_order)


LOCAL_OBJECT_PATTERNS: tuple[tuple[Pattern, Any], ...] = tuple(
    (array.items, array.type) for array in OBJECT_ARRAYS
)
HOLDER_PATTERNS: tuple[tuple[Pattern, Any], ...] = tuple((h.pattern, h) for h in HOLDERS)
# Each holder's reference fields, as places of their own, so a walk finds only the fields a
# document has. In the order of HOLDERS and of each holder's fields: a holder comes before
# the holders inside it, so its fields are visited before theirs, as a walk of the holders
# and then of each one's fields would.
REFERENCE_FIELD_PATTERNS: tuple[tuple[Pattern, Any], ...] = tuple(
    ((*h.pattern, f.member), f) for h in HOLDERS for f in h.fields
)
PAST_EVENT_PATTERNS: tuple[tuple[Pattern, Any], ...] = tuple((p, p[-1]) for p in PAST_EVENTS)
