"""What the page tells a person to do about each operation and stop condition: pure functions
from plain facts to sentences, each following the section of the specification its docstring
names. Nothing here reads a document; the render model (app/render/) gathers the facts.

Every sentence says what to verify and where. None says that an action is done, allowed or
without risk: a checkpoint grants no authority and settles no side effect (§10.1, §10.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.layout import TERMINAL_STATUSES

# Operation groups, in page order: what a person must do about each operation.
GROUPS = (
    (
        "verify-first",
        "Verify first",
        "Uncertain, approved and failed operations, and any whose status this viewer does not "
        "recognise: find their outcome or approval in the system of record before anything "
        "else. A stop condition that also names one of them does not stop you looking it up.",
    ),
    (
        "waiting",
        "Waiting",
        "Planned and awaiting operations that no stop condition names: check their current "
        "status at their record; none of them is executed on restore.",
    ),
    (
        "blocked",
        "Blocked by a stop condition",
        "Planned and awaiting operations that a stop condition names (in applies_to or refs), "
        "and side-effecting actions while a stop condition names no operation at all: it may "
        "forbid any of them. They stay forbidden until what lifts the stop condition is "
        "verified in the system of record; one without until applies for the whole "
        "continuation.",
    ),
    (
        "done",
        "Recorded as terminal",
        "Completed, cancelled and rejected operations, as the source recorded them: do not "
        "repeat them on the strength of this checkpoint.",
    ),
)

MORE_RESTRICTIVE = (
    "Where its fields (applies_to, until) and its description differ, follow the more "
    "restrictive (§6.8)."
)
NOTE_UNTIL = (
    "Check each until entry at the operation's record in the system of record, never against "
    "the status recorded in this checkpoint (§6.8)."
)


@dataclass(frozen=True, slots=True)
class Until:
    operation: str | None  # the operation's id, as written
    status: str | None
    record: str | None  # the id of the resource recording its status, when it resolves


@dataclass(frozen=True, slots=True)
class Stop:
    name: str  # its id, or "(without id)"
    # its until entries; None when it has none (it applies for the whole continuation)
    until: tuple[Until, ...] | None
    # the operations of its until entries that have no record: software cannot verify them
    unrecorded: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        unrecorded = tuple(
            entry.operation or "(no operation)"
            for entry in self.until or ()
            if entry.record is None
        )
        object.__setattr__(self, "unrecorded", unrecorded)


# How many of a stop condition's until entries, and of the stop conditions that name no
# operation, a sentence about one operation spells out; the rest are counted, each listed on
# the stop condition's card. Spelt out on every operation a stop condition names, 2,000 until
# entries on 2,000 operations made a 300 KB document's page 25 MB and its JSON twin 600 MB.
NAMED_PER_OPERATION = 3


@dataclass(frozen=True, slots=True)
class Dependency:
    id: str
    is_operation: bool
    status: str | None


@dataclass(frozen=True, slots=True)
class Operation:
    """What the advice about one operation depends on."""

    id: str | None
    kind: str | None
    status: str | None  # a recognised status, else None
    effect: str | None  # a recognised effect, else None
    where: str  # where to look it up, in words
    key: str | None  # its idempotency_key
    tool: str | None  # the tool of its call
    expired: bool = False  # its expires_at has passed
    expired_before_capture: bool = False  # … before the checkpoint was captured
    expires_at: str | None = None
    forbidding: tuple[Stop, ...] = ()  # stop conditions naming it in applies_to
    concerning: tuple[Stop, ...] = ()  # stop conditions naming it only in refs
    unnamed: tuple[Stop, ...] = ()  # stop conditions that name no operation in applies_to
    dependencies: tuple[Dependency, ...] = ()
    resume: str | None = None
    approval_evidence: tuple[str, ...] = field(default=())
    # the next steps (indexes) that concern it and are blocked by something not settled (§6.3)
    blocked_steps: tuple[int, ...] = ()
    # a forked checkpoint's side-effecting action that no stop condition names: it may be the
    # one sibling fork that acts on it, or not (§9.3)
    fork_unfenced: bool = False

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    @property
    def treated_non_idempotent(self) -> bool:
        """§6.6: "A consumer MUST treat an absent or unknown effect as non_idempotent"."""
        return self.effect in (None, "unknown", "non_idempotent")

    @property
    def side_effecting(self) -> bool:
        """An action (or an operation of unknown kind) whose effect is not none (§9.3)."""
        return self.kind in ("action", None) and self.effect != "none"

    @property
    def first_stop(self) -> Stop | None:
        """The first of the stop conditions that may forbid it: those naming it (applies_to,
        refs), and for a side-effecting action those that name no operation, which may forbid
        any (§6.8: when the fields and the description differ, follow the more restrictive).
        (The first alone: a document's every action shares the same stop conditions that name
        no operation, and listing them for each would cost their product.)"""
        for stops in (self.forbidding, self.concerning):
            if stops:
                return stops[0]
        return self.unnamed[0] if self.side_effecting and self.unnamed else None


def group(op: Operation) -> str:
    """The operation's group (GROUPS), in order: terminal → "done" (§6.6); uncertain, approved,
    failed or unrecognised → "verify-first" (§10.3: determine the outcome, verify the approval,
    before anything else; looking it up is never what a stop condition forbids); planned or
    awaiting that a stop condition may forbid → "blocked" (§6.8); otherwise "waiting"."""
    if op.terminal:
        return "done"
    if op.status in (None, "uncertain", "approved", "failed"):
        return "verify-first"
    if op.first_stop is not None:
        return "blocked"
    return "waiting"


@dataclass(frozen=True, slots=True)
class Lift:
    text: str  # a sentence for the stop condition's card
    short: str  # a clause for an operation's first step
    needs_person: bool  # an until entry software cannot verify


def lift(stop: Stop, named: int | None = None) -> Lift:
    """What lifts a stop condition (§6.8). Without until "a stop condition ... applies for the
    whole continuation": nothing recorded lifts it. With until "it applies until every
    operation listed in until has reached its status", found "at each operation's record";
    "when a listed operation has no record, software cannot verify it, and the stop condition
    stays in force until a person lifts it". ``named``: spell out at most so many until
    entries and operations without a record, counting the rest (`NAMED_PER_OPERATION`)."""
    if not stop.until:
        return Lift(
            "It has no until, so it applies for the whole continuation (§6.8).",
            "the end of the continuation (it has no until)",
            False,
        )
    shown = stop.until if named is None else stop.until[:named]
    parts = []
    for entry in shown:
        name = entry.operation or "(no operation)"
        status = entry.status or "(no status)"
        if entry.record is None:
            parts.append(f"{name} reaches {status}")
        else:
            parts.append(f"{name} reaches {status} (check at its record {entry.record})")
    more = len(stop.until) - len(shown)
    if more:
        parts.append(f"{more} more operation{'s' if more > 1 else ''} of its until reach theirs")
    text = (
        f"It is lifted only when {' and '.join(parts)}, as verified in the system of record, "
        "never as recorded in this checkpoint (§6.8)."
    )
    short = " and ".join(parts) + ", as verified in the system of record"
    unrecorded = stop.unrecorded
    if unrecorded:
        listed = unrecorded if named is None else unrecorded[:named]
        left = len(unrecorded) - len(listed)
        names = ", ".join(listed) + (f" and {left} more" if left else "")
        verb = "have" if len(unrecorded) > 1 else "has"
        text += (
            f" {names} {verb} no record, so software cannot verify it: the stop condition stays "
            "in force until a person lifts it."
        )
        short += f"; a person lifts it, since {names} {verb} no record"
    return Lift(text, short, bool(unrecorded))


def stop_notes(stop: Stop) -> list[str]:
    """The notes every stop condition card carries (§6.8)."""
    return [NOTE_UNTIL, MORE_RESTRICTIVE] if stop.until else [MORE_RESTRICTIVE]


def first_step(op: Operation) -> str:
    """The first thing a person does about the operation, in one sentence (§10.3, §10.7)."""
    where = op.where
    if op.status == "completed":
        return "Do not repeat it: the source recorded it as completed."
    if op.status == "cancelled":
        return "Nothing to reconcile: the source recorded it as cancelled."
    if op.status == "rejected":
        return (
            "Do not perform what it covered on the strength of this checkpoint: the source "
            "recorded the approval as rejected."
        )
    if op.status == "uncertain":
        return f"Determine its outcome at {where} before anything else; never retry it blind."
    if op.status == "approved":
        return (
            "Verify the approval at its evidence in the system of record, and check its "
            "expires_at and its scope."
        )
    if op.status == "failed":
        return f"Check at {where} whether any part of it took effect before trying again."
    if op.status is None:
        return f"Its status is not recognised: find its current state at {where} first."
    if op.forbidding:
        first = op.forbidding[0]
        return (
            "Do not perform it: stop condition "
            f"{first.name} forbids it until {lift(first, NAMED_PER_OPERATION).short}."
        )
    stop = op.first_stop
    if stop is not None:
        return (
            f"Read stop condition {stop.name} before anything else: it may forbid this "
            "operation, and where its fields and description differ the more restrictive "
            "reading holds (§6.8)."
        )
    if op.status == "awaiting":
        if op.expired:
            return (
                f"Check its current status at {where}; it has passed its expires_at, so "
                "re-request it if it is still wanted."
            )
        return f"Check its current status at {where}; re-request it if needed."
    if op.kind in ("action", None):
        return (
            f"Check at {where} that it has not already happened, and decide under your own "
            "policy whether it is still wanted."
        )
    return f"Decide under your own policy whether it is still wanted; see {where}."


def advice(op: Operation) -> list[str]:
    """The viewer's advice about the operation, in order (§6.6, §6.8, §10.3)."""
    out: list[str] = []
    if not op.terminal:
        out.append(
            "Never execute it on restore: restoring a checkpoint and continuing the task are "
            "separate steps (§10.3)."
        )
    out += status_advice(op)
    if op.expired and not op.terminal:
        out.append(expiry_advice(op))
    if _effect_matters(op) and op.effect in (None, "unknown"):
        out.append(
            "No known effect is recorded, so it is treated as non_idempotent: repeating it "
            "may repeat its side effect (§6.6)."
        )
    for stop in op.forbidding:
        lifted = lift(stop, NAMED_PER_OPERATION).text
        out.append(f"Stop condition {stop.name} forbids it (applies_to). {lifted}")
    for stop in op.concerning:
        out.append(
            f"Stop condition {stop.name} names it (refs): read it first; it may forbid it, and "
            f"{MORE_RESTRICTIVE[0].lower()}{MORE_RESTRICTIVE[1:]}"
        )
    if op.side_effecting and not op.terminal:
        for stop in op.unnamed[:NAMED_PER_OPERATION]:
            out.append(
                f"Stop condition {stop.name} names no operation: read it first; it may forbid "
                f"this one. {MORE_RESTRICTIVE}"
            )
        more = len(op.unnamed) - NAMED_PER_OPERATION
        if more > 0:
            out.append(
                f"{more} more stop condition{'s' if more > 1 else ''} name no operation: read "
                "each on its card under Continuation first; any may forbid this one."
            )
    if not op.terminal:
        out += dependency_advice(op)
    out += resume_advice(op)
    return out


def _effect_matters(op: Operation) -> bool:
    """Whether repeating the operation could repeat a side effect worth a sentence: a
    non-terminal action (or operation of unknown kind), or any uncertain or failed one."""
    if op.status in ("uncertain", "failed"):
        return True
    return not op.terminal and op.kind in ("action", None)


def _key_advice(op: Operation, when: str) -> list[str]:
    """§6.6: idempotency_key "records a key the target system honors, if any"; §10.3: a
    destination "SHOULD use idempotency_key where the target system supports it". An absent key
    is not recorded, never "none" (§4.4)."""
    if op.key is not None:
        return [
            f'{when}, use its idempotency key "{op.key}", where the target system honors it '
            "(§10.3)."
        ]
    if op.side_effecting and op.treated_non_idempotent:
        return [
            "No idempotency key is recorded, so the target system may not recognise a repeat "
            "of it (§6.6)."
        ]
    return []


def repeat_rule(tool: str) -> str:
    """§6.6: "A call to the same tool whose arguments include every recorded argument with an
    equal value is a repeat of the operation"."""
    return (
        f"A call to {tool} whose arguments include every recorded argument with an equal value "
        "repeats it (§6.6)"
    )


def status_advice(op: Operation) -> list[str]:
    """What the operation's recorded status asks of a person (§6.6, §10.2, §10.3, §10.7)."""
    status, where = op.status, op.where
    if status == "uncertain":
        return uncertain_advice(op)
    if status == "approved":
        return approved_advice(op)
    if status == "awaiting":
        return [
            f"The source recorded it as awaiting: check its current status at {where}, and "
            "re-request the approval or input if needed (§10.7)."
        ]
    if status == "planned":
        out = [
            "The source planned it and had not started it: that is a recommendation, not an "
            "instruction (§10.2); decide under your own policy whether it is still wanted."
        ]
        if op.side_effecting:
            out.append(
                f"Before performing it, check at {where} that it has not already happened: a "
                "newer checkpoint in the same lineage may record it (§10.3)."
            )
            out += _key_advice(op, "If you perform it")
        return out
    if status == "failed":
        effect = op.effect or "treated as non_idempotent"
        return [
            f"The source recorded it as failed: check at {where} whether any part of it took "
            f"effect before trying again (effect: {effect}).",
            *_key_advice(op, "If it is tried again"),
        ]
    if status == "completed":
        return repeat_advice(op)
    if status == "cancelled":
        return [
            "The source recorded it as cancelled: it will not happen, and a later checkpoint "
            "cannot reopen it (§6.6, OCP-T001)."
        ]
    if status == "rejected":
        return [
            "The source recorded the approval as rejected: if the action is still wanted, it "
            "needs a new approval, obtained and verified under your own authority (§10.1)."
        ]
    return [f"Its status is not one this viewer recognises: find its current state at {where}."]


def uncertain_advice(op: Operation) -> list[str]:
    """§6.6: "An uncertain operation whose effect is non_idempotent, unknown, or absent MUST have
    a resume other than retry"; §10.3: "For an uncertain operation that is not known to be
    idempotent, a destination MUST determine its outcome in the target system before retrying,
    or ask a person"."""
    where = op.where
    if op.treated_non_idempotent:
        effect = op.effect if op.effect == "non_idempotent" else "treated as non_idempotent"
        out = [
            f"Its outcome is unknown and repeating it may repeat its side effect (effect: "
            f"{effect}): determine the outcome at {where} before anything else, or ask a "
            "person; never retry it blind (§6.6, §10.3)."
        ]
    else:
        out = [
            f"Its outcome is unknown (effect: {op.effect}): check at {where} whether it took "
            "effect before repeating it (§10.3)."
        ]
    if op.tool is not None:
        out.append(f"{repeat_rule(op.tool)}: do not make such a call until its outcome is known.")
    out += _key_advice(op, "If it has to be repeated after verifying")
    return out


def approved_advice(op: Operation) -> list[str]:
    """§6.6: "An approval record documents a decision and grants no authority"; §10.3: "A
    destination MUST verify an approved record in the system of record named by its evidence
    before relying on it, and MUST check expires_at and the approval's scope"."""
    if not op.approval_evidence:
        return [
            "An approval record is not authority, and this one names no evidence: obtain and "
            "verify an approval in the system of record under your own authority (§6.6, §10.1, "
            "§10.3)."
        ]
    return [
        "An approval record is not authority (§6.6, §10.1): verify the approval at its "
        f"evidence ({', '.join(op.approval_evidence)}) in the system of record before relying on "
        "it, and check its expires_at and its scope (§10.3)."
    ]


def repeat_advice(op: Operation) -> list[str]:
    """§6.3/§6.6: a completed operation is not redone unless evidence shows it must be; §6.6's
    call rule tells a consumer which calls repeat it."""
    if op.tool is not None:
        return [
            f"The source recorded it as completed. {repeat_rule(op.tool)}: do not make such a "
            "call again unless the system of record shows it must be redone."
        ]
    return [
        "The source recorded it as completed: do not repeat it unless the system of record "
        "shows it must be redone (§6.6)."
    ]


def expiry_advice(op: Operation) -> str:
    """An operation past its expires_at. For an approval, §10.3: check expires_at before relying
    on it. For an awaiting operation, what it waits for may never come (OCP-W003 when it had
    expired before the capture). For anything else (planned, uncertain, failed) the time it was
    meant to happen by has passed: that says nothing of whether it happened, so it is checked
    at its record, never re-requested or retried on the strength of the checkpoint."""
    stamp = op.expires_at or "(unreadable)"
    if op.status == "approved":
        return (
            f"Its expires_at ({stamp}) has passed: do not rely on this approval; obtain a new "
            "one under your own authority (§10.3)."
        )
    if op.status == "awaiting":
        when = (
            " It had already expired when the checkpoint was captured (OCP-W003)."
            if op.expired_before_capture
            else ""
        )
        return (
            f"Its expires_at ({stamp}) has passed: what it waits for may never come; "
            f"re-request it, or record the outcome the system of record shows.{when}"
        )
    return (
        f"Its expires_at ({stamp}) has passed: check at {op.where} whether it took place before "
        "then, and decide under your own policy whether it is still wanted; do not perform or "
        "retry it on the strength of this checkpoint (§10.3)."
    )


def dependency_advice(op: Operation) -> list[str]:
    """depends_on names operations whose outcome this one needs; a blocked step "stays blocked
    until the operation is completed ... as the destination verifies in the system of record"
    (§6.3, §10.3)."""
    out = []
    for dep in op.dependencies:
        if not dep.is_operation:
            out.append(
                f"It depends on {dep.id}, which names no operation in this document: find "
                "out what it means before acting."
            )
            continue
        out.append(
            f"It depends on {dep.id} (recorded as {dep.status or 'no status'}): confirm that "
            "operation's outcome in the system of record first."
        )
    return out


def resume_advice(op: Operation) -> list[str]:
    """resume "is the source's recommendation" (§6.6), never an instruction (§10.2)."""
    if op.resume is None:
        return []
    out = [
        f"The source recommends resume: {op.resume}. That is its recommendation, not an "
        "instruction (§10.2)."
    ]
    if op.resume == "retry" and op.status == "uncertain" and op.treated_non_idempotent:
        out.append(
            "That recommendation conflicts with the effect: an uncertain operation not known "
            "to be idempotent is verified first (§6.6, §10.3)."
        )
    return out
