"""Identity and references: OCP-S001, OCP-S002, OCP-S003 (spec §4.1, §8.2)."""

from collections.abc import Iterator

from app.checkpoint import TYPE_NAMES, Checkpoint
from app.rules import Violation, rule


@rule("OCP-S001", "error", "Local ids are unique across the document.")
def duplicate_ids(checkpoint: Checkpoint) -> Iterator[Violation]:
    """Every local object's id is unique across the whole document, not merely within one
    array: statements, resources, operations, requirements and every other object with an id
    share one namespace (§4.1). Each later occurrence, in document order, is reported at its
    `id` member."""
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
def unresolved_references(checkpoint: Checkpoint) -> Iterator[Violation]:
    """Every reference field (evidence, origin.ref, target, record, content_ref, selection
    resource, approval evidence, recoverable_from, superseded_by, depends_on, requires,
    blocked_by, applies_to, until operation, refs, affected) holds the id of a local object
    in the same document. Reported at the reference value."""
    for ref in checkpoint.references:
        if ref.target not in checkpoint.by_id:
            yield (
                ref.path,
                f"{ref.field} names {ref.target!r}, but no local object has that id; add the "
                "object it means or correct the id",
            )


@rule("OCP-S003", "error", "Every reference points to an allowed type.")
def wrong_reference_types(checkpoint: Checkpoint) -> Iterator[Violation]:
    """Each reference names an object of an allowed type: evidence, origin.ref, target,
    content_ref, selection resource, approval evidence, operation record and omission
    recoverable_from name resources; superseded_by a statement; depends_on, applies_to and
    an until entry's operation name operations; requires names requirements; blocked_by
    names statements, operations, resources or requirements; refs and affected may name any
    local object. Reported at the reference value.

    An id that several objects hold (OCP-S001's finding) may mean any of them: the reference is
    of the wrong type only when none of its holders has an allowed type, and the message names
    every holder."""
    for ref in checkpoint.references:
        holders = checkpoint.holders.get(ref.target, [])
        if not holders or not ref.allowed or any(h.type in ref.allowed for h in holders):
            continue
        allowed = " or ".join(sorted(TYPE_NAMES[t] for t in ref.allowed))
        if len(holders) == 1:
            (target,) = holders
            found = f"{_article(TYPE_NAMES[target.type])} (at {target.pointer})"
        else:
            found = f"held by {len(holders)} objects, none {_article(allowed)}: " + ", ".join(
                f"{_article(TYPE_NAMES[h.type])} at {h.pointer}" for h in holders
            )
        yield (
            ref.path,
            f"{ref.field} must name {_article(allowed)}, but {ref.target!r} is {found}; point "
            f"it at the {allowed} it means",
        )


def _article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun
