"""The specification's semantic warnings: OCP-W001 … OCP-W004 (spec §8.2).

Warnings never make a document invalid; they point at what a destination would otherwise
have to guess.
"""

from collections.abc import Iterator

from app.checkpoint import Checkpoint, is_open_side_effect, parse_instant
from app.rules import Violation, rule


@rule("OCP-W001", "warning", "A `blocked` task names what blocks it.")
def blocked_without_blocker(checkpoint: Checkpoint) -> Iterator[Violation]:
    """When task.status is blocked, some next step has a non-empty `blocked_by`, or some
    operation is awaiting (§6.2). Reported at /task/status."""
    if checkpoint.get("task", "status") != "blocked":
        return
    if any(step.get("blocked_by") for _, step in checkpoint.array("progress", "next")):
        return
    if any(op.get("status") == "awaiting" for _, op in checkpoint.operations()):
        return
    yield (
        ("task", "status"),
        "the task is blocked but nothing says by what; give the blocked next step a blocked_by "
        "(a question, operation, resource or requirement), or record the awaiting operation",
    )


@rule("OCP-W002", "warning", "An `observation` whose origin is `agent` cites evidence.")
def agent_observation_without_evidence(checkpoint: Checkpoint) -> Iterator[Violation]:
    """An observation made by the agent cites at least one evidence resource, so a destination
    can re-check it instead of taking the agent's word (§6.5). Reported at the statement."""
    for i, statement in checkpoint.statements():
        origin = statement.get("origin")
        if (
            statement.get("kind") == "observation"
            and isinstance(origin, dict)
            and origin.get("type") == "agent"
            and not statement.get("evidence")
        ):
            yield (
                ("statements", i),
                f"the agent's observation {statement.get('id')!r} cites no evidence; add the "
                "resources it was observed in, so a destination can re-check it",
            )


@rule("OCP-W003", "warning", "An `awaiting` operation has not expired before `created_at`.")
def awaiting_operation_expired(checkpoint: Checkpoint) -> Iterator[Violation]:
    """An awaiting operation whose expires_at is earlier than created_at had already lapsed
    when the checkpoint was captured, so what it waits for may never come. Reported at
    /operations/N/expires_at."""
    created = checkpoint.created_at
    if created is None:
        return
    for i, operation in checkpoint.operations():
        if operation.get("status") != "awaiting":
            continue
        expires = parse_instant(operation.get("expires_at"))
        if expires is not None and expires < created:
            yield (
                ("operations", i, "expires_at"),
                f"operation {operation.get('id')!r} is awaiting but expired at "
                f"{operation['expires_at']}, before the checkpoint was created; re-request it, "
                "or record the outcome the system of record shows",
            )


@rule(
    "OCP-W004",
    "warning",
    "A `forked` checkpoint has no non-terminal `action` operation whose `effect` is not `none` "
    "unless a stop condition references it in `refs` or `applies_to` (§9.3).",
)
def fork_with_unfenced_action(checkpoint: Checkpoint) -> Iterator[Violation]:
    """In a checkpoint whose derivation.method is forked, every non-terminal action operation
    whose effect is not none (an absent effect counts as not none) is referenced by a stop
    condition's refs or applies_to; otherwise sibling forks may each perform the side effect
    (§9.3). Reported at the operation."""
    if checkpoint.get("derivation", "method") != "forked":
        return
    for i, operation in checkpoint.operations():
        if is_open_side_effect(operation) and operation.get("id") not in checkpoint.fenced:
            yield (
                ("operations", i),
                f"this fork leaves the side-effecting action {operation.get('id')!r} "
                "actionable; if a sibling fork can also perform it, it may happen twice: fence "
                "it with a stop condition (applies_to) or remove it and record the omission",
            )
