"""Read-only views over a parsed checkpoint: its local objects, its references, its instants.

The rules, the render model and the diff all need the same facts (which local objects the
document has, of which type, where; which fields reference them), so they are derived here
once, in document order, tolerating documents that failed the schema.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from typing import NamedTuple

from app.pointer import Path, to_pointer

# Where each type of local object lives: top-level member -> nested member -> object type.
_LAYOUT: dict[str, str | dict[str, str]] = {
    "task": {"success_criteria": "criterion"},
    "progress": {"completed": "step", "next": "next_step"},
    "statements": "statement",
    "resources": "resource",
    "application_context": "application_context",
    "operations": "operation",
    "continuation": {
        "requirements": "requirement",
        "preconditions": "precondition",
        "stop_conditions": "stop_condition",
        "recovery": "recovery_step",
        "incompatibilities": "incompatibility",
    },
    "derivation": {"omissions": "omission", "transformations": "transformation"},
}

RESOURCE = frozenset({"resource"})
STATEMENT = frozenset({"statement"})
OPERATION = frozenset({"operation"})
REQUIREMENT = frozenset({"requirement"})
BLOCKER = frozenset({"statement", "operation", "resource", "requirement"})
ANY: frozenset[str] = frozenset()  # any local object

# Reference fields of each object type: member -> (allowed types, holds a list).
_REFERENCE_FIELDS: dict[str, dict[str, tuple[frozenset[str], bool]]] = {
    "criterion": {"evidence": (RESOURCE, True)},
    "step": {"evidence": (RESOURCE, True)},
    "focus": {"refs": (ANY, True)},
    "next_step": {
        "blocked_by": (BLOCKER, True),
        "requires": (REQUIREMENT, True),
        "refs": (ANY, True),
    },
    "statement": {"superseded_by": (STATEMENT, False), "evidence": (RESOURCE, True)},
    "origin": {"ref": (RESOURCE, False)},
    "selection": {"resource": (RESOURCE, False)},
    "draft": {"target": (RESOURCE, False), "content_ref": (RESOURCE, False)},
    "operation": {
        "target": (RESOURCE, False),
        "record": (RESOURCE, False),
        "depends_on": (OPERATION, True),
    },
    "approval": {"evidence": (RESOURCE, True)},
    "requirement": {"refs": (ANY, True)},
    "precondition": {"refs": (ANY, True)},
    "stop_condition": {"applies_to": (OPERATION, True), "refs": (ANY, True)},
    "until": {"operation": (OPERATION, False)},
    "recovery_step": {"refs": (ANY, True)},
    "omission": {"recoverable_from": (RESOURCE, False)},
    "transformation": {"affected": (ANY, True)},
}

# A tuple, not a set: a status from a schema-invalid document may be any JSON value, even an
# unhashable list, and must simply not be found.
TERMINAL_STATUSES = ("completed", "cancelled", "rejected")

TYPE_NAMES = {
    "criterion": "success criterion",
    "step": "completed step",
    "next_step": "next step",
    "statement": "statement",
    "resource": "resource",
    "application_context": "application context entry",
    "draft": "draft",
    "operation": "operation",
    "requirement": "requirement",
    "precondition": "precondition",
    "stop_condition": "stop condition",
    "recovery_step": "recovery step",
    "incompatibility": "incompatibility",
    "omission": "omission",
    "transformation": "transformation",
}


@dataclass(frozen=True, slots=True)
class LocalObject:
    id: str
    type: str
    path: Path
    value: dict

    @property
    def pointer(self) -> str:
        return to_pointer(self.path)


@dataclass(frozen=True, slots=True)
class Reference:
    path: Path  # of the reference value itself
    field: str
    target: str
    allowed: frozenset[str]  # empty: any local object

    @property
    def pointer(self) -> str:
        return to_pointer(self.path)


class Checkpoint:
    """A parsed document, with its derived indexes computed on first use."""

    def __init__(self, document: dict) -> None:
        self.document = document

    def get(self, *keys: str) -> object:
        node: object = self.document
        for key in keys:
            if not isinstance(node, dict):
                return None
            node = node.get(key)
        return node

    def array(self, *keys: str) -> list[tuple[int, dict]]:
        """(index, object) for each object in the array at ``keys``; empty when absent."""
        value = self.get(*keys)
        if not isinstance(value, list):
            return []
        return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]

    @cached_property
    def local_objects(self) -> list[LocalObject]:
        """Every object that carries a string id, in document order."""
        return [obj for obj, _ in self._containers() if obj is not None]

    @cached_property
    def by_id(self) -> dict[str, LocalObject]:
        """The first object with each id (OCP-S001 reports the later ones)."""
        index: dict[str, LocalObject] = {}
        for obj in self.local_objects:
            index.setdefault(obj.id, obj)
        return index

    @cached_property
    def references(self) -> list[Reference]:
        """Every local reference, in document order."""
        found: list[Reference] = []
        for path, type_, value in self._referencing_objects():
            for member, (allowed, is_list) in _REFERENCE_FIELDS[type_].items():
                if member not in value:
                    continue
                field_value = value[member]
                if is_list and isinstance(field_value, list):
                    for i, target in enumerate(field_value):
                        if isinstance(target, str):
                            found.append(Reference((*path, member, i), member, target, allowed))
                elif not is_list and isinstance(field_value, str):
                    found.append(Reference((*path, member), member, field_value, allowed))
        return found

    @cached_property
    def created_at(self) -> Instant | None:
        return parse_instant(self.get("created_at"))

    def operations(self) -> list[tuple[int, dict]]:
        return self.array("operations")

    def statements(self) -> list[tuple[int, dict]]:
        return self.array("statements")

    def stop_conditions(self) -> list[tuple[int, dict]]:
        return self.array("continuation", "stop_conditions")

    # walking

    def _containers(self) -> Iterator[tuple[LocalObject | None, str]]:
        for top_key, top_value in self.document.items():
            layout = _LAYOUT.get(top_key)
            if isinstance(layout, str):
                yield from self._objects_in((top_key,), top_value, layout)
            elif isinstance(layout, dict) and isinstance(top_value, dict):
                for key, value in top_value.items():
                    if key in layout:
                        yield from self._objects_in((top_key, key), value, layout[key])

    def _objects_in(
        self, path: Path, array: object, type_: str
    ) -> Iterator[tuple[LocalObject | None, str]]:
        if not isinstance(array, list):
            return
        for i, item in enumerate(array):
            if not isinstance(item, dict):
                continue
            item_path = (*path, i)
            object_id = item.get("id")
            if isinstance(object_id, str):
                yield LocalObject(object_id, type_, item_path, item), type_
            else:
                yield None, type_
            if type_ == "application_context":
                yield from self._objects_in((*item_path, "drafts"), item.get("drafts"), "draft")

    def _referencing_objects(self) -> Iterator[tuple[Path, str, dict]]:
        """(path, type, object) for every object that may hold references, in document order."""
        for top_key, top_value in self.document.items():
            if top_key == "progress" and isinstance(top_value, dict):
                for key, value in top_value.items():
                    if key == "focus" and isinstance(value, dict):
                        yield (top_key, key), "focus", value
                    elif key in ("completed", "next"):
                        type_ = "step" if key == "completed" else "next_step"
                        for i, item in _objects(value):
                            yield (top_key, key, i), type_, item
                continue
            if top_key == "task" and isinstance(top_value, dict):
                for i, item in _objects(top_value.get("success_criteria")):
                    yield ("task", "success_criteria", i), "criterion", item
                continue
            if top_key == "statements":
                for i, item in _objects(top_value):
                    yield (top_key, i), "statement", item
                    origin = item.get("origin")
                    if isinstance(origin, dict):
                        yield (top_key, i, "origin"), "origin", origin
                continue
            if top_key == "application_context":
                for i, entry in _objects(top_value):
                    for j, selection in _objects(entry.get("selections")):
                        yield (top_key, i, "selections", j), "selection", selection
                    for j, draft in _objects(entry.get("drafts")):
                        yield (top_key, i, "drafts", j), "draft", draft
                continue
            if top_key == "operations":
                for i, item in _objects(top_value):
                    yield (top_key, i), "operation", item
                    approval = item.get("approval")
                    if isinstance(approval, dict):
                        yield (top_key, i, "approval"), "approval", approval
                continue
            if top_key in ("continuation", "derivation") and isinstance(top_value, dict):
                layout = _LAYOUT[top_key]
                assert isinstance(layout, dict)
                for key, value in top_value.items():
                    type_ = layout.get(key)
                    if type_ is None or type_ == "incompatibility":
                        continue
                    for i, item in _objects(value):
                        yield (top_key, key, i), type_, item
                        if type_ == "stop_condition":
                            for j, entry in _objects(item.get("until")):
                                yield (top_key, key, i, "until", j), "until", entry


def _objects(value: object) -> list[tuple[int, dict]]:
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]


_INSTANT = re.compile(
    r"^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$"
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_EPOCH_LOCAL = datetime(1970, 1, 1)
# A leap second (:60) is later than every instant of second :59 and earlier than the next
# minute: second :59 with a fraction of this many nines ahead of its own digits.
_LEAP_FRACTION = "9" * 40


class Instant(NamedTuple):
    """A point in time, exactly as RFC 3339 wrote it: whole seconds since 1970-01-01T00:00:00Z
    and the decimal digits of the fraction of a second (no trailing zeros, so comparing the
    digit strings compares the fractions). Any year 0000-9999 with any offset, any number
    of fraction digits and leap seconds compare exactly, which datetime cannot do. (A named
    tuple: made and compared in C, thousands of times per document.)"""

    seconds: int
    fraction: str = ""

    @classmethod
    def of(cls, moment: datetime) -> Instant:
        """The instant of a datetime; a naive one is taken as UTC."""
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        delta = moment - _EPOCH
        return cls(delta.days * 86400 + delta.seconds, f"{delta.microseconds:06d}".rstrip("0"))


def parse_instant(value: object) -> Instant | None:
    """An RFC 3339 timestamp as an Instant; None when it is not one (an impossible date or
    time, an offset past 23:59). Compared as instants (offsets applied), never as strings."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    return _parse_instant(value)


# Documents repeat their timestamps (a batch of statements recorded at one time): the same
# text parses once.
@lru_cache(maxsize=4096)
def _parse_instant(value: str) -> Instant | None:
    match = _INSTANT.match(value)
    if match is None:
        return None
    try:
        # the date and time of day, checked and read in C (not a leap second, not year 0000)
        local = datetime.fromisoformat(value[:10] + "T" + value[11:19])
    except ValueError:
        local = None
    if local is not None:
        delta = local - _EPOCH_LOCAL
        seconds = delta.days * 86400 + delta.seconds
    else:
        year, month, day, hour, minute, second = map(int, match.group(1, 2, 3, 4, 5, 6))
        if hour > 23 or minute > 59 or second > 60:
            return None
        if not (1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
            return None
        seconds = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60
        seconds += min(second, 59)
    digits, sign = match.group(7), match.group(8)
    fraction = digits.rstrip("0") if digits else ""
    if local is None and match.group(6) == "60":
        fraction = _LEAP_FRACTION + fraction
    if sign is not None:
        offset_hours, offset_minutes = int(match.group(9)), int(match.group(10))
        if offset_hours > 23 or offset_minutes > 59:
            return None
        offset = offset_hours * 3600 + offset_minutes * 60
        seconds += -offset if sign == "+" else offset
    return Instant(seconds, fraction)


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar, any year
    (H. Hinnant's algorithm: whole 400-year eras, then the day within the era)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468
