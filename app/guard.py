"""What a checkpoint records about a proposed tool call: the call guard (§6.6, §6.8, §10.3).

RFC 0001, D17: "a guard in front of the tools can enforce a checkpoint without a model, if the
fields say which call to refuse and when to stop refusing". The fields are an operation's
``call`` and ``status`` (§6.6: "a consumer can refuse to repeat a completed operation, or
require verification before repeating an uncertain one, without reading its description"), and
a stop condition's ``applies_to`` and ``until`` (§6.8: "These fields let software enforce a stop
condition without reading its description").

An answer is one of three, the strictest of what the checkpoint records about the call:
- ``refuse``: it repeats a completed, cancelled or rejected operation, or one a stop condition
  forbids;
- ``determine_first``: something must be found out in the system of record, or decided by a
  person, before the call is made (an uncertain operation's outcome, a stop condition that names
  no operation);
- ``nothing_against``: this checkpoint records nothing against the call.

Never "allowed": a checkpoint grants no authority (§10.1), and the destination's own policy
decides every call. Every text is built here from fixed words, the operation's and the stop
condition's ids and pointers, withheld where they look like credentials; no argument of the
proposed call is repeated back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from app import advice
from app.analysis import Analysis
from app.calls import Call, declared_name, same_arguments
from app.checkpoint import Checkpoint, LocalObject
from app.layout import OPERATION_STATUSES
from app.parse import DEFAULT_LIMITS, JsonObject, Limits, parse
from app.pointer import escape_token, to_pointer
from app.quoting import quotable, quoted
from app.redaction import Redaction, unparsed_findings
from app.standing import Standings, strings
from app.stops import object_id

if TYPE_CHECKING:  # a store's lineage is only read, never imported, by the guard
    from app.stored_lineage import Descendants

Outcome = Literal["refuse", "determine_first", "nothing_against"]
_STRICTNESS: dict[Outcome, int] = {"nothing_against": 0, "determine_first": 1, "refuse": 2}

NO_AUTHORITY = (
    "A checkpoint grants no authority (§10.1): whatever this answer says, the destination's "
    "own policy and systems of record decide whether the call is made."
)
SUMMARIES: dict[Outcome, str] = {
    "refuse": "Refuse this call: the checkpoint records it as done, or as forbidden.",
    "determine_first": (
        "Do not make this call yet: first determine, in the system of record or with a "
        "person, what the checkpoint says is unknown."
    ),
    "nothing_against": "This checkpoint records nothing against this call.",
}


class GuardError(ValueError):
    """What the guard cannot read: the call (``subject`` "call") or the checkpoint; what is
    wrong, and where (a JSON Pointer, and a line and column when the text did not parse)."""

    def __init__(
        self,
        message: str,
        path: str = "",
        *,
        subject: str = "call",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message, self.path, self.subject = message, path, subject
        self.line, self.column = line, column

    def as_json(self) -> dict[str, object]:
        return {
            "subject": self.subject,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
        }


def read_call(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Call:
    """The proposed call from its JSON text, read as strictly as a checkpoint (I-JSON)."""
    intake = parse(data, limits)
    if intake.document is None:
        first = unparsed_findings(intake.findings[:1])[0]
        # the parser's words are a checkpoint's; what it read here is a call
        message = first.message.replace(
            "a checkpoint is one JSON object", "a call is one JSON object"
        )
        raise GuardError(
            f"the call is not JSON: {message}",
            first.path,
            line=first.line,
            column=first.column,
        )
    return proposed_call(intake.document)


def proposed_call(value: object) -> Call:
    """The call to check: an object with a non-empty ``tool`` and an ``arguments`` object (an
    absent ``arguments`` is none), as §6.6 records one."""
    if not isinstance(value, dict):
        raise GuardError('a call is a JSON object: {"tool": "…", "arguments": {…}}')
    unknown = [name for name in value if name not in ("tool", "arguments")]
    if unknown:
        # a misspelt "arguments" would compare an empty call: a repeat answered as none
        # (each name quoted unless it may be a credential, and its pointer then the call's:
        # the answer repeats what it names, and no redaction reads it)
        raise GuardError(
            "a call has only tool and arguments (§6.6); this one also has "
            + ", ".join(quoted(name) for name in unknown[:5]),
            "/" + escape_token(unknown[0]) if quotable(unknown[0]) else "",
        )
    tool = value.get("tool")
    if not isinstance(tool, str) or not tool:
        raise GuardError("the call needs a tool: a non-empty string", "/tool")
    arguments = value.get("arguments", {})
    if not isinstance(arguments, dict):
        raise GuardError("the call's arguments are a JSON object", "/arguments")
    return Call(tool, arguments)


@dataclass(frozen=True, slots=True)
class Reason:
    """One thing the checkpoint records about the call, with the section that says so."""

    code: str  # what kind of record: "repeat-of-completed", "forbidden-by-stop-condition", …
    outcome: Outcome
    message: str
    path: str  # the JSON Pointer of the operation or stop condition
    operation: str | None = None  # the operation's id
    record: str | None = None  # where its status is checked: a resource id
    lifted_by: str | None = None  # a stop condition's: what lifts it
    section: str = "§6.6"

    def as_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class StopInForce:
    """A stop condition of the checkpoint, as every answer lists it: nothing a checkpoint
    records lifts one (§6.8: until is evaluated "against the system of record, never against a
    status recorded in a checkpoint"), so each is in force until what lifts it is verified."""

    id: str | None
    path: str
    # the operations it forbids (the first LISTED_IDS; none: it may forbid any call), and how
    # many more it names
    applies_to: tuple[str, ...]
    applies_to_more: int
    refs: tuple[str, ...]  # the objects it concerns (the first LISTED_IDS)
    refs_more: int
    lifted_by: str  # what lifts it, in words
    # "nothing": it has no until and applies for the whole continuation; "system_of_record":
    # its until entries, each verified at its operation's record; "person": an until entry
    # has no record, so software cannot verify it and a person lifts it (§6.8)
    lifted_when: Literal["nothing", "system_of_record", "person"]

    def as_json(self) -> dict[str, object]:
        out = asdict(self)
        out["applies_to"], out["refs"] = list(self.applies_to), list(self.refs)
        return out


@dataclass(frozen=True, slots=True)
class Answer:
    reasons: tuple[Reason, ...]
    # action operations that record no call a consumer could compare: whether this call
    # repeats one of them, software cannot tell (their pointers)
    uncompared: tuple[str, ...]
    # the checkpoint's levels 1 and 2 (§8.1) and its digest, when the answer came from bytes
    levels: Mapping[str, str] | None = None
    digest: str | None = None
    stops: tuple[StopInForce, ...] = ()
    # for a stored checkpoint: the newer ones of its lineage (their links, and how many more
    # only its digest or its id names); None when none were looked up (a checkpoint as text)
    newer: Mapping[str, object] | None = None

    @property
    def outcome(self) -> Outcome:
        """The strictest of what the reasons say; none: nothing against the call."""
        return max(
            (r.outcome for r in self.reasons),
            key=_STRICTNESS.__getitem__,
            default="nothing_against",
        )

    @property
    def summary(self) -> str:
        return SUMMARIES[self.outcome]

    def as_json(self) -> dict[str, object]:
        return {
            "outcome": self.outcome,
            "summary": self.summary,
            "reasons": [reason.as_json() for reason in self.reasons],
            "uncompared_operations": list(self.uncompared),
            "stop_conditions_in_force": [stop.as_json() for stop in self.stops],
            **({"newer_checkpoints": dict(self.newer)} if self.newer is not None else {}),
            "checkpoint": {"digest": self.digest, "levels": dict(self.levels or {})},
            "note": NO_AUTHORITY,
        }


def guard(analysis: Analysis, call: Call, *, now: datetime | None = None) -> Answer:
    """What the analysed checkpoint records about ``call``, as `check_call` says, with a
    reason more when the checkpoint fails level 1 or 2: §10.7 rejects an invalid document, so
    nothing it records can be relied on until it is fixed. A text that is no checkpoint of
    this version is a GuardError: there is nothing to read."""
    if not analysis.interpretable or analysis.checkpoint is None:
        first = analysis.version_error or analysis.findings[0]
        raise GuardError(
            f"the checkpoint cannot be read: {first.message}",
            first.path,
            subject="checkpoint",
            line=first.line,
            column=first.column,
        )
    answer = check_call(analysis.checkpoint, call, analysis.redaction, now=now)
    reasons = answer.reasons
    failed = [name for name, state in analysis.levels().items() if state == "fail"]
    if failed:
        errors = sum(1 for f in analysis.findings if f.severity == "error")
        level = "1 (the schema)" if "syntax" in failed else "2 (the semantic rules)"
        reasons = (
            Reason(
                "checkpoint-invalid",
                "determine_first",
                f"The checkpoint fails level {level} with {errors} error(s), which ocp lint "
                "lists: a destination rejects an invalid document (§10.7), so what it records "
                "about this call cannot be relied on until it is fixed.",
                "",
                section="§10.7",
            ),
            *reasons,
        )
    if analysis.secrets:
        where = analysis.secret_paths
        reasons = (
            *reasons,
            Reason(
                "checkpoint-holds-credentials",
                "determine_first",
                f"The checkpoint appears to contain credentials, at {len(where)} place(s): a "
                "destination should reject it, or redact them, and not pass it on (§10.5); "
                "rotate them if they are real.",
                where[0] if where else "",
                section="§10.5",
            ),
        )
    return Answer(
        reasons,
        answer.uncompared,
        {name: str(state) for name, state in analysis.levels().items()},
        analysis.digest,
        answer.stops,
    )


@dataclass
class _Matches:
    """How the proposed call relates to the operations of the checkpoint, by their ids."""

    repeated: dict[str, str]  # id -> pointer of each operation the call repeats
    same_tool: set[str]  # … whose call is to this tool, with other arguments
    other_tool: set[str]  # … whose recorded arguments the call has all of, through another tool
    callless: set[str]  # non-terminal operations that record no call to compare


def check_call(
    checkpoint: Checkpoint,
    call: Call,
    redaction: Redaction | None = None,
    *,
    now: datetime | None = None,
) -> Answer:
    """What ``checkpoint`` records about ``call`` (see the module's docstring), read from where
    each operation stands (app/standing.py), as the page reads it."""
    shown = redaction or Redaction()
    standings = Standings(checkpoint, now or datetime.now(UTC))
    reasons: list[Reason] = []
    matches = _Matches({}, set(), set(), set())
    uncompared: list[str] = []
    by_id = checkpoint.by_id
    tool = declared_name(call.tool)
    for index, op in checkpoint.operations():
        path = to_pointer(("operations", index))
        op_id = op.get("id") if isinstance(op.get("id"), str) else None
        owner = op_id is not None and by_id[op_id].value is op
        facts = standings.operation(op, owner=owner)
        recorded = Call.of(op.get("call"))
        if recorded is None:
            if facts.kind in ("action", None):
                uncompared.append(shown.pointer(path))
            if op_id is not None and not facts.terminal:
                matches.callless.add(op_id)
            if facts.status == "cancelled" and facts.kind in ("action", None):
                reasons.append(_cancelled_without_call(facts, path, shown))
            continue
        same_tool = tool == declared_name(recorded.tool)
        if not same_arguments(call, recorded):
            if same_tool and op_id is not None:
                matches.same_tool.add(op_id)
            continue
        if not same_tool:
            # every recorded argument, through another tool: it may have the same effect
            if recorded.arguments and facts.side_effecting:
                if op_id is not None:
                    matches.other_tool.add(op_id)
                reasons.extend(_other_tool_reasons(facts, op, path, by_id, shown, call.tool))
            continue
        if op_id is not None:
            matches.repeated.setdefault(op_id, path)
        prefixed = call.tool != recorded.tool
        reasons.append(_repeat_reason(facts, op, path, by_id, shown, prefixed))
        if not facts.terminal:
            reasons.extend(_standing_reasons(facts, path, shown, standings))
    for index, stop in checkpoint.stop_conditions():
        reasons.extend(_stop_reasons(stop, index, matches, standings, shown))
    for index, precondition in standings.checked_preconditions:
        reasons.append(_precondition_reason(precondition, index, shown))
    stops = tuple(
        _in_force(stop, index, standings, shown) for index, stop in checkpoint.stop_conditions()
    )
    return Answer(tuple(reasons), tuple(uncompared), stops=stops)


def _name(facts: advice.Operation, path: str, shown: Redaction) -> str:
    return (
        f"operation {shown.text(facts.id)}" if facts.id is not None else f"the operation at {path}"
    )


def _capital(name: str) -> str:
    """``name`` (`_name`'s) to start a sentence: its first letter in capital, the id it quotes
    as written (str.capitalize lowered it: "Op-ESCALATE" read "op-escalate")."""
    return name[:1].upper() + name[1:]


def _where(op: JsonObject, by_id: Mapping[str, LocalObject], shown: Redaction) -> str:
    record = object_id(by_id, op.get("record"))
    target = object_id(by_id, op.get("target"))
    if record:
        return f"its record {shown.text(record)}"
    if target:
        return f"its target {shown.text(target)}"
    return "the system it acts on (it names no record or target)"


def _repeat_reason(
    facts: advice.Operation,
    op: JsonObject,
    path: str,
    by_id: Mapping[str, LocalObject],
    shown: Redaction,
    prefixed: bool = False,
) -> Reason:
    """What the operation's status says about repeating it (§6.6, §10.3, §10.7)."""
    status, effect, op_id = op.get("status"), facts.effect, facts.id
    non_idempotent = facts.treated_non_idempotent  # §6.6: absent or unknown counts
    record = object_id(by_id, op.get("record"))
    where = _where(op, by_id, shown)
    key = facts.key
    keyed = f"; its idempotency key is {shown.text(key)}" if key else ""
    effect_words = (
        f"its effect is {effect}"
        if effect in ("non_idempotent", "idempotent", "none")
        else "its effect is not recorded as idempotent, so it counts as non_idempotent"
    )

    def reason(code: str, outcome: Outcome, message: str, section: str = "§6.6") -> Reason:
        return Reason(
            code,
            outcome,
            message,
            shown.pointer(path),
            shown.text(op_id) if op_id is not None else None,
            shown.text(record) if record else None,
            section=section,
        )

    name = _name(facts, path, shown)
    # a client's name for the tool (its prefix) is the same tool: §6.6 records the name the
    # server declares, "without a client's prefix"
    repeat = f"This call repeats {name}" + (
        " (the tool as its server declares it, without the client's prefix)" if prefixed else ""
    )
    if status == "completed":
        return reason(
            "repeat-of-completed",
            "refuse",
            f"{repeat}, recorded as completed: do not make it again on the strength of this "
            f"checkpoint. Its outcome can be checked at {where}.",
        )
    if status == "cancelled":
        return reason(
            "repeat-of-cancelled",
            "refuse",
            f"{repeat}, recorded as cancelled: it will not happen. Check at {where} before "
            "anyone decides otherwise.",
        )
    if status == "rejected":
        return reason(
            "repeat-of-rejected",
            "refuse",
            f"{repeat}, whose approval was recorded as rejected. Check at {where}.",
        )
    if status == "uncertain":
        if non_idempotent:
            return reason(
                "repeat-of-uncertain",
                "determine_first",
                f"{repeat}, whose outcome was unknown at the boundary (uncertain), and "
                f"{effect_words}: determine its outcome at {where} before making the call, "
                f"or ask a person{keyed}.",
                "§10.3",
            )
        # §10.7 step 6 reconciles every uncertain operation first, whatever its effect: the
        # page files it under "Verify first", and so does this answer
        return reason(
            "repeat-of-uncertain-idempotent",
            "determine_first",
            f"{repeat}, whose outcome was unknown at the boundary (uncertain); {effect_words},"
            f" so a repeat would have the effect of one call, but a destination verifies "
            f"uncertain operations before continuing: find its outcome at {where} first{keyed}.",
            "§10.7",
        )
    if status not in OPERATION_STATUSES:
        return reason(
            "repeat-of-unknown-status",
            "determine_first",
            f"{repeat}, whose status this guard does not recognise: find its current status at"
            f" {where} first{keyed}.",
            "§10.3",
        )
    first = {
        "awaiting": "it was requested and is waiting, so a repeat would request it again",
        "failed": "find out whether the failed attempt took any effect",
        "approved": (
            "verify the approval in the system of record named by its evidence, with its expiry"
            " and scope, before relying on it"
        ),
    }
    # a failed attempt may have taken part of its effect, whatever the effect recorded: the
    # page files it under "Verify first" (§10.7 step 6 reconciles it before continuing)
    if status in ("approved", "failed") or (status in first and non_idempotent):
        return reason(
            f"repeat-of-{status}",
            "determine_first",
            f"{repeat}, recorded as {status}, and {effect_words}: {first[str(status)]}. Check at"
            f" {where} first{keyed}.",
            "§10.3",
        )
    if status in first:
        return reason(
            f"repeat-of-{status}",
            "nothing_against",
            f"{repeat}, recorded as {status}; {effect_words}. Its status can be checked at "
            f"{where}{keyed}.",
        )
    if facts.expired:
        # the time it was meant to happen by has passed: that says nothing of whether it did,
        # so it is looked up, never performed on the strength of the checkpoint (the page's
        # advice, app/advice.py expiry_advice)
        return reason(
            "repeat-of-expired-planned",
            "determine_first",
            f"{repeat}, recorded as planned, whose expires_at "
            f"({shown.text(facts.expires_at or '')}) has passed: find out at {where} whether "
            "it took place, and decide under your own policy whether it is still wanted, "
            f"before making it{keyed}.",
            "§10.3",
        )
    # planned: the call is the operation itself, not yet started
    return reason(
        "repeat-of-planned",
        "nothing_against",
        f"{repeat}, recorded as planned (not started). A pending operation is never made "
        f"automatically on restore (§10.3); its status can be checked at {where}{keyed}.",
        "§10.3",
    )


_RESUME_WORDS = {
    "verify_first": "check the target system for the outcome before anything else",
    "ask": "ask a person before resuming it",
    "do_not_resume": "do not resume it",
}


def _standing_reasons(
    facts: advice.Operation, path: str, shown: Redaction, standings: Standings
) -> list[Reason]:
    """What else the checkpoint records against resuming the non-terminal operation a call
    repeats: the source's resume, a fork's unfenced action, an unsettled dependency, a next
    step that is blocked (§6.3, §6.6, §9.3, §10.3)."""
    name = _name(facts, path, shown)
    pointer = shown.pointer(path)
    op_id = shown.text(facts.id) if facts.id is not None else None
    out: list[Reason] = []
    if facts.resume in _RESUME_WORDS:
        out.append(
            Reason(
                f"source-recommends-{facts.resume}",
                "determine_first",
                f"The source recommends resume: {shown.text(facts.resume)} for {name} "
                f"({_RESUME_WORDS[str(facts.resume)]}): a recommendation, not an instruction "
                "(§10.2), and not one this call follows unless a person decides so.",
                pointer,
                op_id,
                section="§6.6",
            )
        )
    if facts.fork_unfenced:
        out.append(
            Reason(
                "unfenced-in-a-fork",
                "determine_first",
                f"This checkpoint is a fork, and no stop condition names {name}, a side-effecting "
                "action: a sibling fork may carry the same action, and it is actionable in at "
                "most one of them (§9.3). Confirm that it is actionable in this fork before "
                "making the call.",
                pointer,
                op_id,
                section="§9.3",
            )
        )
    unsettled = [
        d
        for d in facts.dependencies
        if not (d.is_operation and d.status in ("completed", "approved"))
    ]
    if unsettled:
        named = ", ".join(
            f"{shown.text(d.id)} (recorded as {shown.text(d.status) if d.status else 'no status'})"
            if d.is_operation
            else f"{shown.text(d.id)} (no operation of this document)"
            for d in unsettled[: advice.NAMED_PER_OPERATION]
        )
        more = len(unsettled) - advice.NAMED_PER_OPERATION
        out.append(
            Reason(
                "depends-on-unsettled",
                "determine_first",
                f"{_capital(name)} depends on {named}"
                + (f" and {more} more" if more > 0 else "")
                + ", not recorded as completed (or, for an approval, approved): it waits until "
                "that is so, as verified in the system of record.",
                pointer,
                op_id,
                section="§6.3",
            )
        )
    if facts.blocked_steps:
        steps = ", ".join(f"/progress/next/{i}" for i in facts.blocked_steps[:3])
        out.append(
            Reason(
                "blocked-next-step",
                "determine_first",
                f"A next step that concerns {name} ({steps}) is blocked (blocked_by) by what "
                "is not recorded as settled: it stays blocked until that is verified in the "
                "system of record.",
                pointer,
                op_id,
                section="§6.3",
            )
        )
    return out


def _other_tool_reasons(
    facts: advice.Operation,
    op: JsonObject,
    path: str,
    by_id: Mapping[str, LocalObject],
    shown: Redaction,
    tool: str,
) -> list[Reason]:
    """A call to another tool with every argument the operation recorded: software cannot
    tell whether it has the same effect, so where repeating the operation is refused or must
    wait, a person decides first (the more restrictive reading, §6.8)."""
    repeat = _repeat_reason(facts, op, path, by_id, shown)
    if repeat.outcome == "nothing_against":
        return []
    name = _name(facts, path, shown)
    return [
        Reason(
            "same-arguments-other-tool",
            "determine_first",
            f"This call, to another tool than the one {name} records, has every argument it "
            "recorded with an equal value: it may have the same effect. Repeating the operation "
            f"itself would get {repeat.outcome.replace('_', ' ')}: {repeat.message} A person "
            "decides whether this call is the same action before it is made.",
            shown.pointer(path),
            repeat.operation,
            repeat.record,
            section="§6.6",
        )
    ]


def _cancelled_without_call(facts: advice.Operation, path: str, shown: Redaction) -> Reason:
    name = _name(facts, path, shown)
    return Reason(
        "cancelled-without-call",
        "determine_first",
        f"{_capital(name)} is recorded as cancelled (it will not happen) and records no call, "
        "so software cannot tell whether this call is it: a person decides before it is made.",
        shown.pointer(path),
        shown.text(facts.id) if facts.id is not None else None,
        section="§6.6",
    )


def _precondition_reason(precondition: JsonObject, index: int, shown: Redaction) -> Reason:
    path = shown.pointer(to_pointer(("continuation", "preconditions", index)))
    pid = precondition.get("id")
    name = (
        f"Precondition {shown.text(pid)}" if isinstance(pid, str) else f"The precondition at {path}"
    )
    failure = precondition.get("on_failure")
    then = "continuation halts" if failure == "halt" else "a person is asked"
    return Reason(
        f"precondition-{failure}",
        "determine_first",
        f"{name} is checked before resuming, and if it does not hold {then} (on_failure: "
        f"{failure}): software cannot evaluate it, so check it in the system of record before "
        "this call.",
        path,
        section="§10.7",
    )


def _stop_reasons(
    stop: JsonObject,
    index: int,
    matches: _Matches,
    standings: Standings,
    shown: Redaction,
) -> list[Reason]:
    """The stop condition's word on the call (§6.8): it forbids the operations it names in
    applies_to; whether the call is one that records no call, one to the same tool, one with
    the same arguments to another tool, or one that a stop condition names in refs, or whether
    one that names no operation forbids it, only a person can tell (the stricter reading, not
    silence)."""
    path = shown.pointer(to_pointer(("continuation", "stop_conditions", index)))
    stop_id = stop.get("id")
    name = (
        f"Stop condition {shown.text(stop_id)}"
        if isinstance(stop_id, str)
        else (f"The stop condition at {path}")
    )
    facts = standings.stop(index, stop)
    lifted = shown.text(advice.lift(facts).text)
    applies_to = strings(stop.get("applies_to"))
    if not applies_to:
        return [
            Reason(
                "stop-condition-names-no-operation",
                "determine_first",
                f"{name} names no operation in applies_to, so software cannot tell which calls"
                " it forbids, and it may forbid this one: a person reads it and decides. "
                f"{lifted}",
                path,
                lifted_by=lifted,
                section="§6.8",
            )
        ]
    by_id = standings.checkpoint.by_id
    reasons: list[Reason] = []
    outcome: Outcome
    # The first reason of the stop condition says what lifts it whole, the others name a few
    # of its until entries: one stop condition on thousands of calls, until all are done,
    # repeated whole on each, made a 0.9 MB document's answer 1.2 GB.
    brief = shown.text(advice.lift(facts, advice.NAMED_PER_OPERATION).text)
    named = [(i, "applies_to") for i in dict.fromkeys(applies_to)]
    named += [(i, "refs") for i in dict.fromkeys(strings(stop.get("refs"))) if i not in applies_to]
    for op_id, member in named:
        action = by_id.get(op_id)
        is_action = action is not None and action.value.get("kind") in ("action", None)
        if member == "refs":
            if not (
                op_id in matches.repeated
                or op_id in matches.same_tool
                or op_id in matches.other_tool
                or op_id in matches.callless
            ):
                continue
            code, outcome = "stop-condition-names-this-operation", "determine_first"
            what = (
                "which this call may be: a stop condition that names an operation may forbid "
                "it, and where its fields and its description differ the more restrictive "
                "reading holds, so a person reads it and decides"
            )
            verb = "names"
        elif op_id in matches.repeated:
            code, outcome, verb = "forbidden-by-stop-condition", "refuse", "forbids"
            what = "which this call repeats"
        elif op_id in matches.same_tool:
            code, outcome, verb = "stop-condition-forbids-this-tool", "determine_first", "forbids"
            what = (
                "a call to this same tool with other arguments: what the stop condition says "
                "may forbid this call too, so a person reads it and decides"
            )
        elif op_id in matches.other_tool:
            code, outcome, verb = (
                "stop-condition-forbids-the-same-arguments",
                "determine_first",
                "forbids",
            )
            what = (
                "whose recorded arguments this call has, through another tool: it may be the "
                "same action, so a person decides before it is made"
            )
        elif op_id in matches.callless:
            code = (
                "stop-condition-forbids-an-action-without-call"
                if is_action
                else "stop-condition-forbids-an-operation-without-call"
            )
            outcome, verb = "determine_first", "forbids"
            what = (
                "which records no call, so software cannot tell whether this call is it: a "
                "person decides before it is made"
            )
        else:
            continue
        said = brief if reasons else lifted
        reasons.append(
            Reason(
                code,
                outcome,
                f"{name} {verb} operation {shown.text(op_id)} ({member}), {what}. {said}",
                path,
                shown.text(op_id),
                lifted_by=said,
                section="§6.8",
            )
        )
    return reasons


def _in_force(stop: JsonObject, index: int, standings: Standings, shown: Redaction) -> StopInForce:
    facts = standings.stop(index, stop)
    lift = advice.lift(facts, advice.NAMED_PER_OPERATION)
    stop_id = stop.get("id")
    applies_to, applies_to_more = _listed(strings(stop.get("applies_to")), shown)
    refs, refs_more = _listed(strings(stop.get("refs")), shown)
    return StopInForce(
        shown.text(stop_id) if isinstance(stop_id, str) else None,
        shown.pointer(to_pointer(("continuation", "stop_conditions", index))),
        applies_to,
        applies_to_more,
        refs,
        refs_more,
        shown.text(lift.text),
        "nothing" if not facts.until else "person" if lift.needs_person else "system_of_record",
    )


# How many of a stop condition's applies_to and refs ids each answer lists: one stop condition
# on 40,000 operations is listed with its first ones and a count, as its card lists them.
LISTED_IDS = 30


def _listed(ids: list[str], shown: Redaction) -> tuple[tuple[str, ...], int]:
    """The first LISTED_IDS of ``ids`` (once each), and how many more there are."""
    unique = list(dict.fromkeys(ids))
    return tuple(shown.text(i) for i in unique[:LISTED_IDS]), max(0, len(unique) - LISTED_IDS)


def with_newer(
    answer: Answer,
    call: Call,
    newer: Descendants,
    newest: Sequence[tuple[str, Analysis]],
) -> Answer:
    """``answer`` for a stored checkpoint, with what the newer checkpoints of its lineage
    record (§10.3: "Replaying an old checkpoint can re-trigger side effects that later
    checkpoints record as done. A destination SHOULD check whether a newer checkpoint in the
    same lineage exists"): one reason naming them, and what each newer linked one, read as
    this one is (``newest``: storage id and analysis), records against the call."""
    linked = [n.meta.storage_id for n in newer.of("linked")]
    verified, claimed = len(newer.of("verified")), len(newer.of("claimed"))
    summary: dict[str, object] = {
        "linked": [f"/c/{storage_id}" for storage_id in linked],
        "verified": verified,
        "claimed": claimed,
        "truncated": newer.truncated,
    }
    if not (linked or verified or claimed):
        return replace(answer, newer=summary)
    parts = []
    if linked:
        parts.append("stored with a link to this one: " + ", ".join(f"/c/{i}" for i in linked))
    if verified:
        parts.append(f"{verified} that record this one's exact bytes as their parent")
    if claimed:
        parts.append(f"{claimed} that name its id as their parent, with nothing to verify it")
    reasons = [
        *answer.reasons,
        Reason(
            "newer-checkpoint",
            "determine_first",
            "A newer checkpoint of this lineage is stored (" + "; ".join(parts) + "): it may "
            "record this call as done, or forbid it. Read the newest first.",
            "",
            section="§10.3",
        ),
    ]
    for storage_id, analysis in newest:
        if not analysis.interpretable or analysis.checkpoint is None:
            continue
        later = check_call(analysis.checkpoint, call, analysis.redaction)
        for reason in later.reasons:
            if reason.outcome == "nothing_against":
                continue
            reasons.append(
                replace(
                    reason,
                    code=f"newer-{reason.code}",
                    message=f"The newer checkpoint /c/{storage_id} records: {reason.message}",
                    path=f"/c/{storage_id}#{reason.path}" if reason.path else f"/c/{storage_id}",
                )
            )
    return replace(answer, reasons=tuple(reasons), newer=summary)
