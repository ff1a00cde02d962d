"""Identity and references: OCP-S001, OCP-S002, OCP-S003 (spec §4.1, §8.2)."""

from collections.abc import Iterable, Iterator
from functools import lru_cache

from app.checkpoint import TYPE_NAMES, Checkpoint, ReferenceSite
from app.rules import Violation, first_of, rule


@rule("OCP-S001", "error", "Local ids are unique across the document.")
def duplicate_ids(checkpoint: Checkpoint) -> Iterator[Violation]:
    """Every local object's id is unique across the whole document, not merely within one
    array: statements, resources, operations, requirements and every other object with an id
    share one namespace (§4.1). Each later occurrence, in document order, is reported at its
    `id` member."""
    if checkpoint.ids_unique:
        return  # (counted from the ids alone: a record of each object is made for a duplicate)
    first_seen = checkpoint.by_id
    for obj in checkpoint.local_objects:
        first = first_seen[obj.id]
        if first is not obj:
            yield (
                (*obj.path, "id"),
                f"the id {obj.id!r} is already used by the {TYPE_NAMES[first.type]} at "
                f"{first.pointer}; local ids are unique across the whole document: give this "
                f"{TYPE_NAMES[obj.type]} its own id and update the references that mean it",
            )


@rule("OCP-S002", "error", "Every local reference resolves to a local object.")
def unresolved_references(checkpoint: Checkpoint) -> Iterable[Violation]:
    """Every reference field (evidence, origin.ref, target, record, content_ref, selection
    resource, approval evidence, recoverable_from, superseded_by, depends_on, requires,
    blocked_by, applies_to, until operation, refs, affected) holds the id of a local object
    in the same document. Reported at the reference value."""
    known = checkpoint.known_ids
    if all(targets <= known for targets in checkpoint.reference_targets.values()):
        return ()  # every target resolves: no site read one by one
    groups = [(site, site.indexes_not_in(known)) for site in checkpoint.reference_sites]

    def violation(site: ReferenceSite, index: int | None) -> Violation:
        path, target = site.at(index)
        return (
            path,
            f"{site.field.member} names {target!r}, but no local object has that id; add the "
            "object it means or correct the id",
        )

    return first_of(groups, violation)


# How many holders of an id several objects hold a finding names (OCP-S001 lists them all).
HOLDERS_NAMED = 3


@rule("OCP-S003", "error", "Every reference points to an allowed type.")
def wrong_reference_types(checkpoint: Checkpoint) -> Iterable[Violation]:
    """Each reference names an object of an allowed type: evidence, origin.ref, target,
    content_ref, selection resource, approval evidence, operation record and omission
    recoverable_from name resources; superseded_by a statement; depends_on, applies_to and
    an until entry's operation name operations; requires names requirements; blocked_by
    names statements, operations, resources or requirements; refs and affected may name any
    local object. Reported at the reference value.

    An id that several objects hold (OCP-S001's finding) may mean any of them: the reference is
    of the wrong type only when none of its holders has an allowed type, and the message names
    the first `HOLDERS_NAMED` holders and counts the rest."""
    if not _any_wrong_type(checkpoint):
        return ()
    holders = checkpoint.holders
    wrong = _WrongTypes(checkpoint)
    groups = [
        (site, site.indexes_in(wrong.ids(site.field.allowed)))
        for site in checkpoint.reference_sites
        if site.field.allowed
    ]

    def violation(site: ReferenceSite, index: int | None) -> Violation:
        path, target_id = site.at(index)
        found_holders = holders[target_id]
        allowed = _type_names(site.field.allowed)
        if len(found_holders) == 1:
            (target,) = found_holders
            found = f"{_article(TYPE_NAMES[target.type])} (at {target.pointer})"
        else:
            # the first few holders, and how many more: naming every one in each finding made
            # n references to an id that n objects hold n × n (4,000 of each: 6.5 s, 270 MB)
            named = ", ".join(
                f"{_article(TYPE_NAMES[h.type])} at {h.pointer}"
                for h in found_holders[:HOLDERS_NAMED]
            )
            more = len(found_holders) - HOLDERS_NAMED
            found = f"held by {len(found_holders)} objects, none {_article(allowed)}: {named}" + (
                f" and {more} more" if more > 0 else ""
            )
        return (
            path,
            f"{site.field.member} must name {_article(allowed)}, but {target_id!r} is {found}; "
            f"point it at the {allowed} it means",
        )

    return first_of(groups, violation)


def _any_wrong_type(checkpoint: Checkpoint) -> bool:
    """Whether a reference may name an object of a type its field does not allow: a target
    some object holds, and none of the allowed types (set operations on the targets of each
    kind of field, before any reference is read one by one)."""
    known, of_type = checkpoint.known_ids, checkpoint.ids_of_type
    for allowed, targets in checkpoint.reference_targets.items():
        if not allowed:
            continue
        right = set().union(*(of_type.get(t, ()) for t in allowed))
        if not (targets - right).isdisjoint(known):
            return True
    return False


class _WrongTypes:
    """For each set of allowed types, the ids that objects hold but none of an allowed type:
    found by set operations once per set, not by looking at each reference's holders."""

    def __init__(self, checkpoint: Checkpoint) -> None:
        self._held = checkpoint.holders.keys()
        self._of_type: dict[str, set[str]] = {}
        for obj in checkpoint.local_objects:
            self._of_type.setdefault(obj.type, set()).add(obj.id)
        self._wrong: dict[frozenset[str], set[str]] = {}

    def ids(self, allowed: frozenset[str]) -> set[str]:
        wrong = self._wrong.get(allowed)
        if wrong is None:
            right = set().union(*(self._of_type.get(t, ()) for t in allowed))
            wrong = self._wrong[allowed] = self._held - right
        return wrong


@lru_cache(maxsize=64)
def _type_names(types: frozenset[str]) -> str:
    """The allowed types of a reference field as a message names them ("a resource or a
    statement"), worded once a field."""
    return " or ".join(sorted(TYPE_NAMES[t] for t in types))


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun
