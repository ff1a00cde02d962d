"""Read-only views over a parsed checkpoint: its local objects, its references, its instants.

The rules, the render model and the diff all need the same facts (which local objects the
document has, of which type, where; which fields reference them), so they are derived here
once, in document order, tolerating documents that failed the schema.
"""

from __future__ import annotations

from collections.abc import Container
from functools import cached_property, lru_cache
from itertools import chain

from app import TYPE_CHECKING, layout
from app.parse import Document, JsonObject
from app.pointer import Path, to_pointer
from app.record import Record
from app.schema_patterns import timestamp_parts

if TYPE_CHECKING:
    from datetime import datetime
    from typing import Final

# The layout is app/layout.py's; these names are kept for the modules that read them here.
TERMINAL_STATUSES = layout.TERMINAL_STATUSES
TYPE_NAMES = layout.TYPE_NAMES


def is_open_side_effect(operation: JsonObject) -> bool:
    """A non-terminal operation of kind action whose effect is not none: one that would act
    on an outside system if anyone carried it out (§9.3). An absent effect counts as not none:
    a consumer treats it as non_idempotent (§6.6)."""
    status = operation.get("status")
    return (
        operation.get("kind") == "action"
        and not (isinstance(status, str) and status in TERMINAL_STATUSES)
        and operation.get("effect") != "none"
    )


class LocalObject(Record):
    """A local object, where it is (one for each object of a document that may hold tens of
    thousands: a record, made about as cheaply as a tuple)."""

    __slots__ = ("id", "path", "type", "value")

    id: Final[str]
    type: Final[str]
    path: Final[Path]
    value: Final[JsonObject]

    def __init__(self, id: str, type: str, path: Path, value: JsonObject) -> None:
        self.id = id
        self.type = type
        self.path = path
        self.value = value

    @property
    def pointer(self) -> str:
        return to_pointer(self.path)


class Reference(Record):
    __slots__ = ("allowed", "field", "path", "target")

    path: Final[Path]  # of the reference value itself
    field: Final[str]
    target: Final[str]
    allowed: Final[frozenset[str]]  # empty: any local object

    def __init__(self, path: Path, field: str, target: str, allowed: frozenset[str]) -> None:
        self.path = path
        self.field = field
        self.target = target
        self.allowed = allowed

    @property
    def pointer(self) -> str:
        return to_pointer(self.path)


class ReferenceSite(Record):
    """One reference field of one object: a string (``field.many`` false) or a list, whose
    string items are references (others are the schema's to report)."""

    __slots__ = ("field", "path", "value")

    path: Final[Path]  # of the field's value
    field: Final[layout.ReferenceField]
    value: Final[str | list[object]]

    def __init__(self, path: Path, field: layout.ReferenceField, value: str | list[object]) -> None:
        self.path = path
        self.field = field
        self.value = value

    def indexes_in(self, ids: Container[str]) -> list[int | None]:
        """The references whose target is in ``ids``: list indexes, or None for the field's
        one reference."""
        value = self.value
        if isinstance(value, str):
            return [None] if value in ids else []
        return [i for i, target in enumerate(value) if isinstance(target, str) and target in ids]

    def indexes_not_in(self, ids: Container[str]) -> list[int | None]:
        """The references whose target is not in ``ids`` (as `indexes_in`)."""
        value = self.value
        if isinstance(value, str):
            return [] if value in ids else [None]
        return [
            i for i, target in enumerate(value) if isinstance(target, str) and target not in ids
        ]

    def at(self, index: int | None) -> tuple[Path, str]:
        """The path and target of one reference (an index from `indexes_in`)."""
        if index is None:
            assert isinstance(self.value, str)
            return self.path, self.value
        target = self.value[index]
        assert isinstance(target, str)
        return (*self.path, index), target


class Checkpoint:
    """A parsed document, with its derived indexes computed on first use."""

    def __init__(self, document: Document) -> None:
        self.document = document
        # each array read once: several rules go through the statements and the operations
        self._arrays: dict[tuple[str, ...], list[tuple[int, JsonObject]]] = {}
        # the values at each pattern read, and at each of its prefixes (`values_at`)
        self._values: dict[layout.Pattern, list[object]] = {(): [document]}

    def get(self, *keys: str) -> object:
        node: object = self.document
        for key in keys:
            if not isinstance(node, dict):
                return None
            node = node.get(key)
        return node

    def array(self, *keys: str) -> list[tuple[int, JsonObject]]:
        """(index, object) for each object in the array at ``keys``; empty when absent. The
        same list for every caller: read it, never change it."""
        found = self._arrays.get(keys)
        if found is None:
            value = self.get(*keys)
            found = (
                []
                if not isinstance(value, list)
                else [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]
            )
            self._arrays[keys] = found
        return found

    def values_at(self, pattern: layout.Pattern) -> list[object]:
        """The value at every place ``pattern`` names, in document order: what `layout.walk`
        finds for that one pattern, without a path or a record for each (the rules ask
        whether every reference resolves, every timestamp precedes the capture, before they
        need to say where one does not). The same list for every caller: read it, never
        change it."""
        found = self._values.get(pattern)
        if found is None:
            # level by level, each prefix read once (the statements' items serve each field)
            found = _step(self.values_at(pattern[:-1]), pattern[-1])
            self._values[pattern] = found
        return found

    @cached_property
    def ids_of_type(self) -> dict[str, list[str]]:
        """The string ids of each type's local objects (the ids of `local_objects`, by type,
        without a record each)."""
        found: dict[str, list[str]] = {}
        for pattern, type_ in layout.LOCAL_OBJECT_PATTERNS:
            ids = [v.get("id") for v in self.values_at(pattern) if isinstance(v, dict)]
            found.setdefault(type_, []).extend([i for i in ids if isinstance(i, str)])
        return found

    @cached_property
    def known_ids(self) -> frozenset[str]:
        """Every id a local object holds (the keys of `by_id`)."""
        return frozenset(chain.from_iterable(self.ids_of_type.values()))

    @property
    def ids_unique(self) -> bool:
        """No two local objects hold one id (OCP-S001 has nothing to report)."""
        return len(self.known_ids) == sum(map(len, self.ids_of_type.values()))

    @cached_property
    def reference_targets(self) -> dict[frozenset[str], set[str]]:
        """Every local reference's target, by the types its field allows (an empty set: any
        local object): the targets of `references`, without a path or a record for each."""
        found: dict[frozenset[str], set[str]] = {}
        for pattern, field in layout.REFERENCE_FIELD_PATTERNS:
            values = self.values_at(pattern)
            if not values:
                continue
            targets = found.setdefault(field.allowed, set())
            if field.many:
                for v in values:
                    if isinstance(v, list):  # (its strings picked in C: 45,000 on one line)
                        targets.update(filter(str.__instancecheck__, v))
            else:
                targets.update([v for v in values if isinstance(v, str)])
        return found

    @cached_property
    def local_objects(self) -> list[LocalObject]:
        """Every object that carries a string id, in document order (an application context
        entry before its drafts)."""
        found: list[LocalObject] = []
        for type_, path, value in layout.walk(self.document, layout.LOCAL_OBJECT_PATTERNS):
            if isinstance(value, dict):
                object_id = value.get("id")
                if isinstance(object_id, str):
                    found.append(LocalObject(object_id, type_, path, value))
        return found

    @cached_property
    def by_id(self) -> dict[str, LocalObject]:
        """The first object with each id (OCP-S001 reports the later ones)."""
        index: dict[str, LocalObject] = {}
        for obj in self.local_objects:
            index.setdefault(obj.id, obj)
        return index

    @cached_property
    def holders(self) -> dict[str, list[LocalObject]]:
        """Every object that holds each id, in document order: one for a unique id, several
        for a duplicate (OCP-S001), so a reference can be checked against each (OCP-S003)."""
        index: dict[str, list[LocalObject]] = {}
        for obj in self.local_objects:
            index.setdefault(obj.id, []).append(obj)
        return index

    @cached_property
    def reference_sites(self) -> list[ReferenceSite]:
        """Every reference field that holds a reference or a list of them, in the order of
        the layout's holders (its rules sort their findings by position). A site, not each
        reference: a list of 1,000 evidence ids is one object, and a path is built only for
        a reference a rule reports."""
        walked = layout.walk(self.document, layout.REFERENCE_FIELD_PATTERNS, in_order=False)
        return [
            ReferenceSite(path, field, value)
            for field, path, value in walked
            if isinstance(value, list if field.many else str)
        ]

    @property
    def references(self) -> list[Reference]:
        """Every local reference, one by one, in the order of `reference_sites`."""
        return [
            Reference(path, site.field.member, target, site.field.allowed)
            for site in self.reference_sites
            for path, target in map(site.at, site.indexes_not_in(()))
        ]

    @cached_property
    def fenced(self) -> frozenset[str]:
        """Ids named by any stop condition's refs or applies_to: the operations a stop
        condition fences (§9.3, OCP-W004). One named only in `until` is not fenced."""
        found: set[str] = set()
        for _, stop in self.stop_conditions():
            for member in ("refs", "applies_to"):
                ids = stop.get(member)
                if isinstance(ids, list):
                    found.update(i for i in ids if isinstance(i, str))
        return frozenset(found)

    @cached_property
    def created_at(self) -> Instant | None:
        return parse_instant(self.get("created_at"))

    def operations(self) -> list[tuple[int, JsonObject]]:
        return self.array("operations")

    def statements(self) -> list[tuple[int, JsonObject]]:
        return self.array("statements")

    def stop_conditions(self) -> list[tuple[int, JsonObject]]:
        return self.array("continuation", "stop_conditions")


def _step(nodes: list[object], token: str) -> list[object]:
    """The values one step of a pattern leads to from ``nodes``, as `layout.walk` steps: a
    member of an object; every item of an array for EVERY (and an object's member named
    "*", as the walk reads it)."""
    if token == layout.EVERY:
        found: list[object] = []
        for node in nodes:
            if isinstance(node, list):
                found += node
            elif isinstance(node, dict) and token in node:
                found.append(node[token])
        return found
    return [node[token] for node in nodes if isinstance(node, dict) and token in node]


# A leap second (:60) is later than every instant of second :59 and earlier than the next
# minute: second :59 with a fraction of this many nines ahead of its own digits.
_LEAP_FRACTION = "9" * 40


class Instant(tuple[int, str]):
    """A point in time, exactly as RFC 3339 wrote it: whole seconds since 1970-01-01T00:00:00Z
    and the decimal digits of the fraction of a second (no trailing zeros, so comparing the
    digit strings compares the fractions). Any year 0000-9999 with any offset, any number
    of fraction digits and leap seconds compare exactly, which datetime cannot do. (A pair:
    made and compared in C, thousands of times per document; written out, not a named
    tuple, whose class is built from generated source as the process starts.)"""

    __slots__ = ()

    def __new__(cls, seconds: int, fraction: str = "") -> Instant:
        return tuple.__new__(cls, (seconds, fraction))

    @property
    def seconds(self) -> int:
        return self[0]

    @property
    def fraction(self) -> str:
        return self[1]

    def __repr__(self) -> str:
        return f"Instant(seconds={self[0]!r}, fraction={self[1]!r})"

    @classmethod
    def of(cls, moment: datetime) -> Instant:
        """The instant of a datetime; a naive one is taken as UTC."""
        from datetime import UTC, datetime  # the clock's (pages, the guard): not the linter's

        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
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
    parts = timestamp_parts(value)  # the schema's shape, read without a regex
    if parts is None:
        return None
    # read as numbers, not by datetime: importing it costs a linter's start-up more than a
    # document's timestamps cost to read (each distinct text once, above)
    year, month, day, hour, minute, second = map(int, parts[:6])
    if hour > 23 or minute > 59 or second > 60:
        return None
    if not (1 <= month <= 12 and 1 <= day <= _days_in_month(year, month)):
        return None
    seconds = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60
    seconds += min(second, 59)
    digits, sign = parts[6], parts[7]
    fraction = digits.rstrip("0") if digits else ""
    if second == 60:
        fraction = _LEAP_FRACTION + fraction
    if sign is not None:
        offset_hours, offset_minutes = int(parts[8]), int(parts[9])
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
