"""Where each operation stands, read once from a checkpoint: the facts that the page's groups
and cards, its summary, the call guard and the model text all read, so that none of them can
tell a person or an agent something another contradicts (§6.3, §6.6, §6.8, §9.3, §10.3, §10.7).

The facts are the document's own, read defensively (an unknown status is None, never a guess);
what they mean for a person is app/advice.py's, and what they mean for a proposed call is
app/guard.py's. Both read them from here.
"""

from __future__ import annotations

from datetime import datetime
from functools import cached_property

from app import advice, layout
from app.checkpoint import Checkpoint, Instant, LocalObject, parse_instant
from app.json_values import text_of
from app.parse import JsonObject
from app.stops import stop_facts

# A dependency, or a next step's blocker, is settled when its operation reached one of these:
# "stays blocked until the operation is completed or, for an approval, approved" (§6.3), as the
# destination then verifies in the system of record.
SETTLED_STATUSES = frozenset({"completed", "approved"})
_STATUSES = frozenset(layout.OPERATION_STATUSES)
_EFFECTS = frozenset(layout.EFFECTS)
_KINDS = frozenset(layout.OPERATION_KINDS)

Indexed = tuple[int, JsonObject]


def strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def enum_value(value: object, allowed: frozenset[str]) -> str | None:
    """``value`` when it is one of the ``allowed`` strings, else None."""
    return value if isinstance(value, str) and value in allowed else None


class Standings:
    """The stop conditions, next steps and preconditions of one checkpoint, indexed once, and
    the facts of each operation read from them at ``now``."""

    def __init__(self, checkpoint: Checkpoint, now: datetime) -> None:
        self.checkpoint = checkpoint
        self.now = Instant.of(now)
        self._stops: dict[int, advice.Stop] = {}

    # --- stop conditions ----------------------------------------------------------------------

    @cached_property
    def _stop_index(self) -> tuple[dict[str, list[Indexed]], dict[str, list[Indexed]]]:
        fences: dict[str, list[Indexed]] = {}
        concerns: dict[str, list[Indexed]] = {}
        for i, stop in self.checkpoint.stop_conditions():
            forbidden = dict.fromkeys(strings(stop.get("applies_to")))
            for op_id in forbidden:
                fences.setdefault(op_id, []).append((i, stop))
            for op_id in dict.fromkeys(strings(stop.get("refs"))):
                if op_id not in forbidden:
                    concerns.setdefault(op_id, []).append((i, stop))
        return fences, concerns

    @property
    def fences(self) -> dict[str, list[Indexed]]:
        """Operation id → the stop conditions that name it in applies_to: they forbid it."""
        return self._stop_index[0]

    @property
    def concerns(self) -> dict[str, list[Indexed]]:
        """Operation id → the stop conditions that name it only in refs: they concern it, and
        may forbid it (§6.8: where the fields and the description differ, the more
        restrictive holds)."""
        return self._stop_index[1]

    @cached_property
    def unnamed_stops(self) -> list[Indexed]:
        """The stop conditions that name no operation in applies_to: any may forbid any call."""
        return [
            (i, stop)
            for i, stop in self.checkpoint.stop_conditions()
            if not strings(stop.get("applies_to"))
        ]

    def stop(self, index: int, stop: JsonObject) -> advice.Stop:
        """Stop condition ``index``'s facts, read once however many operations it names."""
        facts = self._stops.get(index)
        if facts is None:
            facts = self._stops[index] = stop_facts(stop, self.checkpoint.by_id)
        return facts

    @cached_property
    def unnamed(self) -> tuple[advice.Stop, ...]:
        """The facts of the stop conditions naming no operation: one tuple every operation
        shares."""
        return tuple(self.stop(i, stop) for i, stop in self.unnamed_stops)

    # --- the rest of continuation and progress ----------------------------------------------

    @cached_property
    def forked(self) -> bool:
        return self.checkpoint.get("derivation", "method") == "forked"

    @cached_property
    def blocked_steps(self) -> dict[str, list[int]]:
        """Operation id → the next steps (their indexes) that concern it (refs) and are
        blocked by something not settled: "a step blocked by an operation stays blocked until
        the operation is completed or, for an approval, approved" (§6.3); a question, a
        resource or a requirement blocks it until a person finds it resolved."""
        found: dict[str, list[int]] = {}
        by_id = self.checkpoint.by_id
        for i, step in self.checkpoint.array("progress", "next"):
            blockers = strings(step.get("blocked_by"))
            if not blockers:
                continue
            if all(_settled(by_id.get(b)) for b in blockers):
                continue
            for op_id in dict.fromkeys(strings(step.get("refs"))):
                found.setdefault(op_id, []).append(i)
        return found

    @cached_property
    def checked_preconditions(self) -> list[Indexed]:
        """Preconditions whose failure halts or asks a person: each is evaluated before
        continuing (§6.8, §10.7 step 5), which a checkpoint cannot do."""
        return [
            (i, precondition)
            for i, precondition in self.checkpoint.array("continuation", "preconditions")
            if precondition.get("on_failure") in ("halt", "ask")
        ]

    # --- an operation ---------------------------------------------------------------------------

    def operation(self, op: JsonObject, *, owner: bool = True) -> advice.Operation:
        """What the advice about ``op`` depends on. ``owner``: whether ``op`` is the object
        that owns its id (the first with it); a later duplicate (OCP-S001) is named by no stop
        condition or step, or n operations sharing one id would each carry all n."""
        op_id = op.get("id") if isinstance(op.get("id"), str) else None
        # the id's own entries, or none when another object owns it (or it has no id)
        key = op_id if op_id is not None and owner else None
        call = op.get("call") if isinstance(op.get("call"), dict) else {}
        assert isinstance(call, dict)
        expires = parse_instant(op.get("expires_at"))
        created = self.checkpoint.created_at
        approval = op.get("approval") if isinstance(op.get("approval"), dict) else {}
        assert isinstance(approval, dict)
        kind = enum_value(op.get("kind"), _KINDS)
        effect = enum_value(op.get("effect"), _EFFECTS)
        status = enum_value(op.get("status"), _STATUSES)
        forbidding = self.fences.get(key, []) if key is not None else []
        concerning = self.concerns.get(key, []) if key is not None else []
        fenced = key is not None and key in self.checkpoint.fenced
        return advice.Operation(
            id=op_id,
            kind=kind,
            status=status,
            effect=effect,
            where=self.where(op),
            key=op.get("idempotency_key") if isinstance(op.get("idempotency_key"), str) else None,
            tool=call.get("tool") if isinstance(call.get("tool"), str) else None,
            expired=expires is not None and expires < self.now,
            expired_before_capture=(
                expires is not None and created is not None and expires < created
            ),
            expires_at=text_of(op.get("expires_at")),
            forbidding=tuple(self.stop(i, stop) for i, stop in forbidding),
            concerning=tuple(self.stop(i, stop) for i, stop in concerning),
            unnamed=self.unnamed,
            dependencies=tuple(self.dependencies(op)),
            resume=text_of(op.get("resume")) if op.get("resume") is not None else None,
            approval_evidence=tuple(strings(approval.get("evidence"))),
            blocked_steps=tuple(self.blocked_steps.get(key, [])) if key is not None else (),
            fork_unfenced=(
                self.forked
                and not fenced
                and kind in ("action", None)
                and effect != "none"
                and status not in layout.TERMINAL_STATUSES
            ),
        )

    def where(self, op: JsonObject) -> str:
        """Where to look an operation up, in words: its record, else its target."""
        for member in ("record", "target"):
            ref = op.get(member)
            if isinstance(ref, str) and ref in self.checkpoint.by_id:
                return f"its {member} {ref} in the system of record"
        return "the system it concerns (no record or target is named)"

    def dependencies(self, op: JsonObject) -> list[advice.Dependency]:
        by_id = self.checkpoint.by_id
        out = []
        for ref in dict.fromkeys(strings(op.get("depends_on"))):
            target = by_id.get(ref)
            is_operation = target is not None and target.type == "operation"
            status = text_of(target.value.get("status")) if is_operation and target else None
            out.append(advice.Dependency(ref, is_operation, status))
        return out


def _settled(target: object) -> bool:
    """Whether a blocker (a local object, or None when the id resolves to nothing) is an
    operation recorded as completed, or an approval recorded as approved."""
    if not isinstance(target, LocalObject) or target.type != "operation":
        return False
    # an unvalidated document may hold any JSON here; only a string can be a status
    status = target.value.get("status")
    return isinstance(status, str) and status in SETTLED_STATUSES
