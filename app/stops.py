"""A stop condition's facts as the advice reads them (§6.8), for the page and the call guard.

"It applies until every operation listed in until has reached its status", checked "at each
operation's record"; "when a listed operation has no record, software cannot verify it". So
each until entry carries the record of its operation, when one resolves: one reading of a stop
condition, whether a card shows what lifts it or the guard says so about a call.
"""

from __future__ import annotations

from collections.abc import Mapping

from app import advice
from app.checkpoint import LocalObject
from app.json_values import text_of


def stop_facts(stop: Mapping[str, object], by_id: Mapping[str, LocalObject]) -> advice.Stop:
    """The stop condition's name and its until entries (None when it has none)."""
    name = stop.get("id") if isinstance(stop.get("id"), str) else "(without id)"
    entries = stop.get("until")
    until = tuple(
        advice.Until(
            text_of(entry.get("operation")),
            text_of(entry.get("status")),
            record_of(by_id, entry.get("operation")),
        )
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, dict)
    )
    return advice.Stop(str(name), until or None)


def record_of(by_id: Mapping[str, LocalObject], op_ref: object) -> str | None:
    """The id of the resource recording an operation's status, when it resolves."""
    obj = by_id.get(op_ref) if isinstance(op_ref, str) else None
    if obj is None or obj.type != "operation":
        return None
    return object_id(by_id, obj.value.get("record"))


def object_id(by_id: Mapping[str, LocalObject], ref: object) -> str | None:
    """``ref`` when it is the id of an object of the document, else None."""
    return ref if isinstance(ref, str) and ref in by_id else None
