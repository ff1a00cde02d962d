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

from collections.abc import Mapping, Set
from dataclasses import asdict, dataclass
from typing import Literal

from app import advice
from app.analysis import Analysis
from app.calls import Call, repeats
from app.checkpoint import Checkpoint, LocalObject
from app.layout import OPERATION_STATUSES, TERMINAL_STATUSES
from app.parse import DEFAULT_LIMITS, Limits, parse
from app.pointer import escape_token, to_pointer
from app.redaction import Redaction, unparsed_findings
from app.stops import object_id, stop_facts
from app.visible import visible_json

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
        raise GuardError(
            "a call has only tool and arguments (§6.6); this one also has "
            + ", ".join(visible_json(name) for name in unknown[:5]),
            "/" + escape_token(unknown[0]),
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
class Answer:
    reasons: tuple[Reason, ...]
    # action operations that record no call a consumer could compare: whether this call
    # repeats one of them, software cannot tell (their pointers)
    uncompared: tuple[str, ...]
    # the checkpoint's levels 1 and 2 (§8.1) and its digest, when the answer came from bytes
    levels: Mapping[str, str] | None = None
    digest: str | None = None

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
            "checkpoint": {"digest": self.digest, "levels": dict(self.levels or {})},
            "note": NO_AUTHORITY,
        }


def guard(analysis: Analysis, call: Call) -> Answer:
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
    answer = check_call(analysis.checkpoint, call, analysis.redaction)
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
    )


def check_call(checkpoint: Checkpoint, call: Call, redaction: Redaction | None = None) -> Answer:
    """What ``checkpoint`` records about ``call`` (see the module's docstring)."""
    shown = redaction or Redaction()
    reasons: list[Reason] = []
    repeated: dict[str, tuple[str, object]] = {}  # id -> (pointer, record) of each repeated op
    same_tool: set[str] = set()  # ids of the operations whose call is to this tool, not repeated
    uncompared: list[str] = []
    callless: set[str] = set()  # ids of the open actions no call can be compared with
    by_id = checkpoint.by_id
    for index, op in checkpoint.operations():
        path = to_pointer(("operations", index))
        recorded = Call.of(op.get("call"))
        if recorded is None:
            if op.get("kind") in ("action", None):
                uncompared.append(shown.pointer(path))
                if isinstance(op.get("id"), str) and op.get("status") not in TERMINAL_STATUSES:
                    callless.add(str(op["id"]))
            continue
        if not repeats(call, recorded):
            if recorded.tool == call.tool and isinstance(op.get("id"), str):
                same_tool.add(str(op["id"]))
            continue
        op_id = op.get("id") if isinstance(op.get("id"), str) else None
        if op_id is not None:
            repeated.setdefault(op_id, (path, op.get("record")))
        reason = _repeat_reason(op, op_id, path, by_id, shown)
        if reason is not None:
            reasons.append(reason)
    for index, stop in checkpoint.stop_conditions():
        reasons.extend(_stop_reasons(stop, index, repeated, callless, same_tool, by_id, shown))
    return Answer(tuple(reasons), tuple(uncompared))


def _repeat_reason(
    op: Mapping[str, object],
    op_id: str | None,
    path: str,
    by_id: Mapping[str, LocalObject],
    shown: Redaction,
) -> Reason | None:
    """What the operation's status says about repeating it (§6.6, §10.3)."""
    status = op.get("status")
    effect = op.get("effect")
    non_idempotent = effect not in ("idempotent", "none")  # §6.6: absent or unknown counts
    name = f"operation {shown.text(op_id)}" if op_id is not None else f"the operation at {path}"
    record = object_id(by_id, op.get("record"))
    target = object_id(by_id, op.get("target"))
    where = (
        f"its record {shown.text(record)}"
        if record
        else f"its target {shown.text(target)}"
        if target
        else "the system it acts on (it names no record or target)"
    )
    key = op.get("idempotency_key")
    keyed = f"; its idempotency key is {shown.text(key)}" if isinstance(key, str) and key else ""
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

    repeat = f"This call repeats {name}"
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
        return reason(
            "repeat-of-uncertain-idempotent",
            "nothing_against",
            f"{repeat}, whose outcome was unknown at the boundary (uncertain); {effect_words},"
            f" so a repeat has the effect of one call. Its outcome can be checked at {where}"
            f"{keyed}.",
            "§10.3",
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
    if status == "approved" or (status in first and non_idempotent):
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
    # planned: the call is the operation itself, not yet started
    return reason(
        "repeat-of-planned",
        "nothing_against",
        f"{repeat}, recorded as planned (not started). A pending operation is never made "
        f"automatically on restore (§10.3); its status can be checked at {where}{keyed}.",
        "§10.3",
    )


def _stop_reasons(
    stop: Mapping[str, object],
    index: int,
    repeated: Mapping[str, tuple[str, object]],
    callless: Set[str],
    same_tool: Set[str],
    by_id: Mapping[str, LocalObject],
    shown: Redaction,
) -> list[Reason]:
    """The stop condition's word on the call (§6.8): it forbids the operations it names in
    applies_to; whether the call is one that records no call, or whether one that names no
    operation forbids it, only a person can tell (the stricter reading, not silence)."""
    path = shown.pointer(to_pointer(("continuation", "stop_conditions", index)))
    stop_id = stop.get("id")
    name = (
        f"Stop condition {shown.text(stop_id)}"
        if isinstance(stop_id, str)
        else (f"The stop condition at {path}")
    )
    facts = stop_facts(stop, by_id)
    lifted = shown.text(advice.lift(facts).text)
    applies_to = stop.get("applies_to")
    if not isinstance(applies_to, list) or not applies_to:
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
    reasons: list[Reason] = []
    outcome: Outcome
    # The first reason of the stop condition says what lifts it whole, the others name a few
    # of its until entries: one stop condition on thousands of calls, until all are done,
    # repeated whole on each, made a 0.9 MB document's answer 1.2 GB.
    brief = shown.text(advice.lift(facts, advice.NAMED_PER_OPERATION).text)
    for op_id in dict.fromkeys(i for i in applies_to if isinstance(i, str)):
        if op_id in repeated:
            code, outcome = "forbidden-by-stop-condition", "refuse"
            what = "which this call repeats"
        elif op_id in same_tool:
            code, outcome = "stop-condition-forbids-this-tool", "determine_first"
            what = (
                "a call to this same tool with other arguments: what the stop condition says "
                "may forbid this call too, so a person reads it and decides"
            )
        elif op_id in callless:
            code, outcome = "stop-condition-forbids-an-action-without-call", "determine_first"
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
                f"{name} forbids operation {shown.text(op_id)} (applies_to), {what}. {said}",
                path,
                shown.text(op_id),
                lifted_by=said,
                section="§6.8",
            )
        )
    return reasons
