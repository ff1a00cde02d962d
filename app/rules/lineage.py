"""Rules that need the parent: OCP-T001, OCP-T002 (spec §8.2) and the digest check (§10.6)."""

from collections.abc import Iterator

from app.checkpoint import TERMINAL_STATUSES, Checkpoint
from app.digests import check_digest
from app.rules import Parent, Violation, rule


@rule(
    "OCP-T001",
    "error",
    "An operation that is terminal (`completed`, `cancelled`, `rejected`) in the parent has "
    "the same status in the child, if present.",
    needs_parent=True,
)
def terminal_operation_reopened(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """An operation that is completed, cancelled or rejected in the parent keeps that status
    in the child when the child still carries it (matched by id); a later checkpoint never
    moves an operation out of a terminal status (§6.6). Replaying it would repeat a side
    effect that is already settled. Reported at the child's /operations/N/status."""
    terminal = {
        op.get("id"): op.get("status")
        for _, op in parent.checkpoint.operations()
        if op.get("status") in TERMINAL_STATUSES and isinstance(op.get("id"), str)
    }
    for i, operation in child.operations():
        was = terminal.get(operation.get("id"))
        if was is not None and operation.get("status") != was:
            yield (
                ("operations", i, "status"),
                f"operation {operation.get('id')!r} is {was} (terminal) in the parent but "
                f"{operation.get('status')} here; a terminal operation never changes status: "
                "record new work as a new operation with its own id",
            )


@rule(
    "OCP-T002",
    "error",
    "The child's `parent.id` names the parent, and the child's `created_at` is not earlier "
    "than the parent's.",
    needs_parent=True,
)
def parent_mismatch(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """With a parent supplied, the child's parent.id equals the parent's id (reported at
    /parent/id, or at the whole document when the child has no parent member), and the
    child's created_at is not earlier than the parent's (reported at /created_at)."""
    parent_id = parent.checkpoint.get("id")
    named = child.get("parent", "id")
    if not isinstance(child.get("parent"), dict):
        yield (
            (),
            f"a parent ({parent_id!r}) was supplied, but this checkpoint has no parent member; "
            "set parent.id to the checkpoint it derives from",
        )
    elif named != parent_id:
        yield (
            ("parent", "id"),
            f"parent.id is {named!r} but the supplied parent's id is {parent_id!r}; compare "
            "against the right parent, or correct parent.id",
        )
    child_created, parent_created = child.created_at, parent.checkpoint.created_at
    if child_created and parent_created and child_created < parent_created:
        yield (
            ("created_at",),
            f"created_at {child.get('created_at')} is earlier than the parent's created_at "
            f"{parent.checkpoint.get('created_at')}; a child is captured after its parent",
        )


@rule(
    "digest",
    "warning",
    "`parent.digest` matches the exact bytes of the supplied parent (§10.6 tamper evidence).",
    needs_parent=True,
)
def parent_digest_mismatch(child: Checkpoint, parent: Parent) -> Iterator[Violation]:
    """When the child records parent.digest and names the supplied parent, the digest equals
    the hash of the parent's exact bytes with the recorded algorithm. A mismatch means the
    parent changed after the child was derived, or the digest was computed over other bytes
    (for example a re-serialized copy). Reported at /parent/digest."""
    if child.get("parent", "id") != parent.checkpoint.get("id"):
        return
    check = parent.digest or check_digest(child.get("parent", "digest"), [("exact", parent.data)])
    if check.state == "mismatch":
        shown = (check.actual or "")[:19]
        yield (
            ("parent", "digest"),
            f"parent.digest does not match the supplied parent's bytes ({shown}…); the "
            "parent was changed after this checkpoint was derived, or the digest was computed "
            "over other bytes: it covers the parent file's exact bytes",
        )
