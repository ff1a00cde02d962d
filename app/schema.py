"""Level 1 (§8.1): the document against the hand-authored JSON Schema, in words a person can act on.

jsonschema-rs does the checking on the hot path; Python ``jsonschema`` is the reference
implementation the tests compare it with. Both feed one humanizer, which turns the validators'
raw errors into one ``Finding`` per problem.

A report lists 1,000 findings of a code, but jsonschema-rs's `iter_errors` builds every error
before it returns (16,000 for 8,000 failing statements, more than a benign lint's whole
budget), while `is_valid` stops at the first. So a report's check (``check_schema(document,
limit)``) is bounded by what it lists ("windows" below): a long array whose schema says only
``type``, ``minItems`` and ``items`` is checked an item at a time, each item by a validator of
the items subschema (jsonschema-rs compiles one for a ``$ref`` to it), the rest of the document
once with those arrays emptied; items are taken in document order until the listing is
complete, and each item left that fails `is_valid` is counted once: "at least". Per item rather
than in windows of the document: a window would revalidate the rest (and rebuild its errors)
each time, and counting needs each item alone anyway. The schema is read once for what would
make an item's errors depend on anything but the item (keywords relating items to each other or
to their count; an object around the array that compares or quotes its value): there the
document is validated whole. Paths and messages are exactly the whole document's, which the
tests hold it to, on documents of every shape and against the reference.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

import jsonschema_rs

from app.findings import Finding
from app.findings import SchemaCheck as SchemaCheck  # re-exported: the stage's result
from app.json_values import CONTAINERS, NUMBERS
from app.pointer import parse_pointer, to_pointer
from app.resources import SCHEMA_ID as SCHEMA_ID
from app.resources import load_schema as load_schema
from app.schema_codegen import ecma_to_python
from app.visible import visible

if TYPE_CHECKING:
    # The reference validator is imported where it runs (a document jsonschema-rs refuses,
    # and the tests): `ocp lint` starts without it, a third of its start-up.
    from jsonschema.exceptions import ValidationError


Token = str | int
InstancePath = tuple[Token, ...]
SchemaPath = tuple[Token, ...]

_QUOTE_LIMIT = 60  # documents can be megabytes: never quote more of a value than this
_RAW_LIMIT = 200  # the same for the validators' own messages kept in Finding.related
_MISSING = object()


# --- the schema and the two validators ------------------------------------------------------


@functools.cache
def _fast_validator() -> jsonschema_rs.Validator:
    # format is an annotation only (§8.1): a validator MUST NOT reject a value for its format.
    return jsonschema_rs.Draft202012Validator(load_schema(), validate_formats=False)


@functools.cache
def _python_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(ecma_to_python(pattern))


def _ecma_pattern(
    validator: Any, pattern: str, instance: object, schema: object
) -> Iterator[ValidationError]:
    from jsonschema.exceptions import ValidationError

    # a "string" to Draft 2020-12's type checker is a str
    if isinstance(instance, str) and not _python_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _reference_validator() -> Any:
    # Draft 2020-12 as jsonschema implements it, except that patterns follow ECMA-262 as the
    # field model requires, so that both validators accept exactly the same documents.
    # types-jsonschema leaves extend unannotated (it makes a class at run time): the class it
    # returns is used untyped, as Any.
    import jsonschema

    cls = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator, validators={"pattern": _ecma_pattern}
    )
    return cls(load_schema())


# --- raw errors, as both validators report them -------------------------------------------


@dataclass(slots=True)  # not frozen: a document may produce thousands, and frozen init is slow
class _RawError:
    instance_path: InstancePath
    schema_path: SchemaPath  # from the root, through $ref (written or, as jsonschema does, not)
    # the validator's own message, read only for the findings a report lists: thousands of
    # errors are counted, not shown, and reading each message costs more than the rest
    source: Any
    key: str | None = None  # the offending member name of a propertyNames failure

    @property
    def message(self) -> str:
        return _clip(str(self.source.message), _RAW_LIMIT)


def _raw_from_rust(
    error: jsonschema_rs.ValidationError, at: InstancePath = (), via: SchemaPath = ()
) -> _RawError:
    """``at`` and ``via``: where the validated value sits in the document and the evaluation
    path to the subschema it was validated against, when that is an item of a long array
    checked on its own (see "windows" below): the paths become the whole document's."""
    instance_path = (*at, *error.instance_path) if at else tuple(error.instance_path)
    kind = error.kind
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.PropertyNames):
        # jsonschema-rs reports a propertyNames failure with the key's own subschema as its
        # evaluation path; the absolute keyword location still reaches the right subschema.
        inner = kind.error.instance
        key = inner if isinstance(inner, str) else None
        return _RawError(instance_path, tuple(error.schema_path), error, key)
    # schema_path is the keyword's place inside $defs; the evaluation path follows each $ref from
    # the root, which is what tells how far below the document each subschema applies. An item's
    # validator starts at the "$ref" to the items subschema: that token is the path to it.
    if via:
        return _RawError(instance_path, (*via, *error.evaluation_path[1:]), error)
    return _RawError(instance_path, tuple(error.evaluation_path), error)


def _raw_from_reference(error: ValidationError) -> _RawError:
    schema_path = tuple(error.absolute_schema_path)
    key = None
    if _walk(schema_path).through_property_names and isinstance(error.instance, str):
        key = error.instance
    return _RawError(tuple(error.absolute_path), schema_path, error, key)


# --- the public checks ----------------------------------------------------------------------


@overload
def check_schema(document: object) -> list[Finding]: ...
@overload
def check_schema(document: object, limit: int) -> SchemaCheck: ...
def check_schema(document: object, limit: int | None = None) -> list[Finding] | SchemaCheck:
    """Level-1 findings for a parsed document, in document order; ``[]`` when it conforms to
    the schema. With ``limit``, as a report lists them (`SchemaCheck`): the work is bounded by
    the first ``limit`` findings, not by how many the document holds."""
    # Integers of any size (2**80, 10**300) convert exactly. One too long for str() arrives as
    # null, which no constrained member accepts, and free-form members accept anything: the
    # verdict holds, and messages quote the document's own value, never the validator's copy.
    validator = _fast_validator()
    try:
        if validator.is_valid(document):
            return [] if limit is None else SchemaCheck()
        if limit is not None:
            return _windowed(_windowing(), document, limit)
        raw = [_raw_from_rust(error) for error in validator.iter_errors(document)]
    except (ValueError, TypeError, OverflowError, RecursionError):
        # jsonschema-rs refuses a few values a JSON parser can produce: an unpaired surrogate
        # (UnicodeEncodeError), or a very deep value that an error must carry back ("Recursion
        # limit reached"). The reference validator takes every Python value.
        findings = check_schema_reference(document)
        return findings if limit is None else SchemaCheck(_counted_past(findings, limit))
    return _humanize(document, raw)


def _counted_past(findings: list[Finding], limit: int) -> list[Finding]:
    counted = Finding(code="schema", severity="error", path="", message="")
    return findings[:limit] + [counted] * max(0, len(findings) - limit)


def check_schema_reference(document: object) -> list[Finding]:
    """The same findings, from Python jsonschema: the reference the tests hold jsonschema-rs to."""
    try:
        raw = [_raw_from_reference(error) for error in _reference_validator().iter_errors(document)]
    except (RecursionError, ValueError):
        # jsonschema builds each message with repr(instance), which fails for a value nested past
        # the interpreter's recursion limit or an integer too long to print.
        return [_unreadable_finding()]
    return _humanize(document, raw)


def _unreadable_finding() -> Finding:
    return Finding(
        code="schema",
        severity="error",
        path="",
        message="this document could not be checked against the schema because a value in it is "
        "nested too deeply or is too long a number; simplify that value",
    )


# --- windows: level 1 bounded by what a report lists -----------------------------------------
#
# jsonschema-rs builds every error before `iter_errors` returns: a document of 8,000 failing
# statements costs its 16,000 errors, though a report lists 1,000 findings. So a document that
# fails is checked in parts, in document order, and checking stops once the report's findings
# are known:
#
# - A *long array* (more than LONG items) where the schema says nothing of the array but its
#   type, its minItems and one items subschema is checked an item at a time, each item by a
#   validator of that items subschema (its errors' paths prefixed with the item's place and the
#   evaluation path to the subschema: exactly the whole document's). Nothing relates the items
#   to one another or to their count there, so an item's errors are its own. Any other keyword
#   governing the array (maxItems, uniqueItems, contains, prefixItems, unevaluatedItems, a
#   second subschema from an allOf, an if or a $ref beside it, ...) leaves it whole.
# - The rest of the document, each long array emptied, is validated once. Emptying changes
#   no error outside the array: every subschema applying to an object that holds one may read
#   its members' names but never compare or print its value (no enum, const, not, anyOf,
#   oneOf, ... there: `_OBJECT_SAFE`), and the one error emptying adds (minItems at the
#   array) is dropped.
# - Items are taken in document order, each first with `is_valid` (which stops at the first
#   error, for almost nothing); a failing item's errors are collected (itself in parts when it
#   holds long arrays). Once ``limit`` findings lie before the next item, nothing later can
#   come before them: the listing is complete and exactly the whole document's. Each item left
#   that fails is counted as one finding (it holds at least one): the report says "at least".
#   A document checked to the end has its exact count.
#
# Errors are grouped into findings as they come (the groups of different items never meet),
# so counting what lies before the next item is a bisection.

LONG = 32  # an array with more items is checked an item at a time
# A wide object's members are checked this many at a time: jsonschema-rs writes the part
# into the error of each of its bad names, so a part costs the square of its size in errors;
# smaller parts cost more calls (a thousand bad names: 36 ms in parts of 32, 29 of 16, 30 of
# 8, 31 of 4).
NAME_PART = 16
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "$comment",
        "$anchor",
        "title",
        "description",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",  # an annotation only (§8.1)
    }
)
# What may apply to an object holding a long array (or holding one that does): none of these
# reads a member's value as a whole or quotes the object in a message.
_OBJECT_SAFE = _ANNOTATIONS | {
    "$ref",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "allOf",
    "if",
    "then",
    "else",
}
# What may govern a long array itself: only its type, its count's floor and its items' shape.
_ARRAY_SAFE = _ANNOTATIONS | {"type", "minItems", "items"}
# What may govern a wide object checked a part at a time: its type and its members' names.
_MAP_SAFE = _ANNOTATIONS | {"type", "propertyNames"}
_IN_PLACE_SINGLE = ("if", "then", "else", "not")
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_LIMIT = 256  # subschemas at one place: past it (a $ref cycle), nothing is windowed


@dataclass(frozen=True, slots=True)
class _Applied:
    """A subschema applying at a place: where it is in the schema and the evaluation path from
    the root to it, as jsonschema-rs writes it."""

    node: Mapping[str, Any]
    pointer: tuple[Token, ...]
    path: SchemaPath


def _known(node: Mapping[str, Any], allowed: frozenset[str]) -> bool:
    return all(key in allowed or key.startswith("x-") for key in node)


def _types(node: Mapping[str, Any]) -> tuple[object, ...] | None:
    kind = node.get("type")
    if kind is None:
        return None
    return tuple(kind) if isinstance(kind, list) else (kind,)


class _Place:
    """What the schema says of one place in a document, as far as windows go: the subschemas
    applying there, or, for a place it says nothing of, no ``_Place`` at all."""

    def __init__(self, root: Mapping[str, Any], applied: tuple[_Applied, ...]) -> None:
        self.root = root
        self.applied = applied
        # a failing type would quote the object: only where an object is allowed
        self.object_safe = all(
            _known(a.node, _OBJECT_SAFE) and "object" in (_types(a.node) or ("object",))
            for a in applied
        )
        self._members: dict[str, _Place | None] = {}  # kept for the process: see `member`

    def member(self, name: str) -> _Place | None:
        """The place of member ``name`` of an object here; None when it is free-form or not
        understood (then nothing below it is windowed)."""
        if name in self._members:
            return self._members[name]
        found = self._member(name)
        if any(name in a.node.get("properties", ()) for a in self.applied):
            # only the names the schema writes are kept: a document's own are unbounded
            self._members[name] = found
        return found

    def _member(self, name: str) -> _Place | None:
        found: list[_Applied] = []
        for a in self.applied:
            node = a.node
            if "patternProperties" in node or "unevaluatedProperties" in node:
                return None
            properties = node.get("properties")
            if isinstance(properties, Mapping) and name in properties:
                found.append(
                    _Applied(
                        properties[name],
                        (*a.pointer, "properties", name),
                        (*a.path, "properties", name),
                    )
                )
            elif isinstance(node.get("additionalProperties"), Mapping):
                found.append(
                    _Applied(
                        node["additionalProperties"],
                        (*a.pointer, "additionalProperties"),
                        (*a.path, "additionalProperties"),
                    )
                )
        return _place(self.root, found) if found else None

    @functools.cached_property
    def array(self) -> tuple[_Place, str, SchemaPath, int] | None:
        """For an array here whose items may be checked one at a time: their place, the
        pointer of their subschema, the evaluation path to it and the array's minItems; None
        otherwise."""
        # $refs with nothing beside them lead to the one subschema that says something here
        said = [a for a in self.applied if not _known(a.node, _ANNOTATIONS | {"$ref"})]
        if len(said) != 1:
            return None
        [a] = said
        node = a.node
        items = node.get("items")
        floor = node.get("minItems", 0)
        if (
            not _known(node, _ARRAY_SAFE)
            or "array" not in (_types(node) or ("array",))
            or not isinstance(items, Mapping)
            or not isinstance(floor, int)
        ):
            return None
        place = _place(self.root, [_Applied(items, (*a.pointer, "items"), (*a.path, "items"))])
        if place is None:
            return None
        return place, "#" + to_pointer(place.applied[0].pointer), (*a.path, "items"), floor

    @functools.cached_property
    def key_map(self) -> tuple[str, SchemaPath] | None:
        """For an object here whose members the schema checks by their names alone
        (propertyNames, as for extensions): the pointer of that subschema and the evaluation
        path to it; None otherwise. Its members may be checked a part at a time."""
        said = [a for a in self.applied if not _known(a.node, _ANNOTATIONS | {"$ref"})]
        if len(said) != 1:
            return None
        [a] = said
        node = a.node
        if (
            not _known(node, _MAP_SAFE)
            or not isinstance(node.get("propertyNames"), Mapping)  # (false: one error, whole)
            or "object" not in (_types(node) or ("object",))
        ):
            return None
        return "#" + to_pointer(a.pointer), a.path


def _place(root: Mapping[str, Any], applied: Iterable[_Applied]) -> _Place | None:
    """Every subschema applying at a place, following $ref and the in-place applicators
    (allOf, anyOf, oneOf, if, then, else, not: each might apply); None when one of them is not
    understood (a boolean schema, a $ref that is not a local pointer, $dynamicRef, ...)."""
    out: list[_Applied] = []
    stack = list(applied)
    while stack:
        a = stack.pop()
        node = a.node
        if not isinstance(node, Mapping) or len(out) >= _IN_PLACE_LIMIT:
            return None
        if "$dynamicRef" in node or "$recursiveRef" in node or "dependentSchemas" in node:
            return None
        out.append(a)
        ref = node.get("$ref")
        if ref is not None:
            target = _ref_target(root, ref)
            if target is None:
                return None
            pointer, resolved = target
            stack.append(_Applied(resolved, pointer, (*a.path, "$ref")))
        for keyword in _IN_PLACE_LISTS:
            for i, sub in enumerate(node.get(keyword, ())):
                stack.append(_Applied(sub, (*a.pointer, keyword, i), (*a.path, keyword, i)))
        for keyword in _IN_PLACE_SINGLE:
            if keyword in node:
                sub = node[keyword]
                stack.append(_Applied(sub, (*a.pointer, keyword), (*a.path, keyword)))
    return _Place(root, tuple(out))


def _ref_target(
    root: Mapping[str, Any], ref: object
) -> tuple[tuple[Token, ...], Mapping[str, Any]] | None:
    if not isinstance(ref, str):
        return None
    local = ref[len(SCHEMA_ID) :] if ref.startswith(SCHEMA_ID) else ref
    if local != "#" and not local.startswith("#/"):
        return None
    node = _resolve_ref(root, local)
    if node is None:
        return None
    tokens: tuple[Token, ...] = tuple(parse_pointer(local[1:]))
    return tokens, node


class _Windowing:
    """The windows of one schema: its places, its whole-document validator and a validator
    for each items subschema a long array is checked against, made on first use."""

    def __init__(
        self, schema: Mapping[str, Any], validator: jsonschema_rs.Validator, long: int = LONG
    ) -> None:
        self.schema = schema
        self.validator = validator
        self.long = long
        # a $dynamicRef resolves through the places around an item: none is checked alone
        dynamic = any(word in json.dumps(schema) for word in ('"$dynamicRef"', '"$recursiveRef"'))
        root = None if dynamic else _place(schema, [_Applied(schema, (), ())])
        self.root = root or _Place(schema, ())  # says nothing: nothing is windowed
        self._registry: jsonschema_rs.Registry | None = None
        self._validators: dict[str, jsonschema_rs.Validator] = {}

    def items_validator(self, pointer: str) -> jsonschema_rs.Validator:
        validator = self._validators.get(pointer)
        if validator is None:
            base = str(self.schema.get("$id", "urn:ocp-viewer:schema"))
            if self._registry is None:
                self._registry = jsonschema_rs.Registry([(base, dict(self.schema))])
            validator = self._validators[pointer] = jsonschema_rs.Draft202012Validator(
                {"$ref": base + pointer}, registry=self._registry, validate_formats=False
            )
        return validator

    def long_arrays(self, place: _Place, value: object) -> list[_LongArray]:
        """The long arrays in ``value`` (at ``place``) that are checked an item at a time, in
        document order; none inside another (its items are checked each in turn)."""
        found: list[_LongArray] = []
        self._find(place, value, (), found)
        return found

    def _find(
        self, place: _Place, value: object, path: InstancePath, found: list[_LongArray]
    ) -> None:
        if isinstance(value, dict):
            if not place.object_safe:
                return
            key_map = place.key_map
            if key_map is not None:
                if len(value) > self.long:
                    pointer, via = key_map
                    members = list(value.items())
                    parts: list[object] = [
                        dict(members[i : i + NAME_PART]) for i in range(0, len(members), NAME_PART)
                    ]
                    validator = self.items_validator(pointer)
                    names = self.items_validator(pointer + "/propertyNames")
                    found.append(_LongArray(path, parts, place, validator, via, names))
                return
            for name, child in value.items():
                if isinstance(child, CONTAINERS):
                    below = place.member(name)
                    if below is not None:
                        self._find(below, child, (*path, name), found)
        elif isinstance(value, list):
            array = place.array
            if array is None:
                return
            items, pointer, via, floor = array
            if len(value) < floor:
                return  # its minItems error quotes it whole: nothing in it is emptied
            if len(value) > self.long:
                found.append(_LongArray(path, value, items, self.items_validator(pointer), via))
                return
            for i, item in enumerate(value):
                if isinstance(item, CONTAINERS):
                    self._find(items, item, (*path, i), found)


@dataclass(frozen=True, slots=True)
class _LongArray:
    path: InstancePath  # below the value it was found in
    items: list[object]
    place: _Place  # of each item
    validator: jsonschema_rs.Validator  # of the items subschema
    via: SchemaPath  # the evaluation path from the root to it
    # A wide object whose members are checked by name only (see `_Place.key_map`): ``items``
    # are parts of it, each checked by the object's own subschema, whose errors (a member's
    # name) are the object's. jsonschema-rs quotes the whole object in each such error, so
    # 5,000 bad names in one extensions object took 46 s checked whole. ``names``: the
    # validator of the propertyNames subschema, which explains a failing part name by name
    # (the same errors, in the same order, at the same schema path; a part's errors each
    # carried a copy of it: 7.6 µs a bad name, 2.7 by name).
    names: jsonschema_rs.Validator | None = None

    @property
    def by_name(self) -> bool:
        return self.names is not None


class _Tally:
    """The findings of raw errors as they come, grouped as `_humanize` groups them; with a
    limit, whether that many lie before the next item (then the listing is complete).

    Every finding of an item checked lies before the next item; only the findings of the rest
    of a document (or of an item holding long arrays), validated first, can lie past it. Their
    places are sorted once (`rest`), so each count is a bisection."""

    def __init__(self, document: object, limit: int | None) -> None:
        self.document = document
        self.limit = limit
        self.groups: dict[tuple[Any, ...], _Group] = {}
        self.reading = _DocumentOrder(document)
        self.messages: dict[tuple[Any, ...], str] = {}  # see `_message_key`
        self._rests: list[list[tuple[int, ...]]] = []  # the places of each rest being checked
        self.done = False  # the listing is complete: the rest is only counted
        self.more = 0  # failing items past that point

    def add(self, errors: Iterable[_RawError]) -> list[InstancePath]:
        """The places of the findings these errors start."""
        groups = self.groups
        started = []
        for error in errors:
            for key, path, order, message in _explain(self.document, error, self.messages):
                group = groups.get(key)
                if group is None:
                    group = groups[key] = _Group(path, order, message)
                    started.append(path)
                group.related.append(error)
        return started

    @contextmanager
    def rest(self, errors: Iterable[_RawError]) -> Iterator[None]:
        """The errors of a rest, whose findings count as they lie, while its items are checked."""
        started = self.add(errors)
        counting = self.limit is not None
        self._rests.append(sorted(map(self.reading.of, started)) if counting else [])
        try:
            yield
        finally:
            self._rests.pop()

    def settle(self, before: InstancePath) -> None:
        """Done once ``limit`` findings lie before ``before``: nothing checked later can."""
        if self.limit is None or self.done:
            return
        place = self.reading.of(before)
        past = sum(len(rest) - bisect.bisect_left(rest, place) for rest in self._rests)
        self.done = len(self.groups) - past >= self.limit


@functools.cache
def _windowing() -> _Windowing:
    return _Windowing(load_schema(), _fast_validator())


def _windowed(windowing: _Windowing, document: object, limit: int | None) -> SchemaCheck:
    tally = _Tally(document, limit)
    _collect(windowing, tally, windowing.root, document, (), windowing.validator, ())
    findings = _listed(document, tally.groups, limit, tally.reading)
    return SchemaCheck(findings, tally.more)


def _collect(
    windowing: _Windowing,
    tally: _Tally,
    place: _Place,
    value: object,
    at: InstancePath,
    validator: jsonschema_rs.Validator,
    via: SchemaPath,
) -> None:
    """Every error of ``value`` (at ``at`` in the document, validated by ``validator`` whose
    subschema the evaluation path ``via`` reaches) into ``tally``, long arrays an item at a
    time, until the tally is done; the items left that fail are counted."""
    arrays = windowing.long_arrays(place, value)
    if not arrays:
        tally.add(_raw_from_rust(e, at, via) for e in validator.iter_errors(value))
        return
    emptied = {(*at, *array.path) for array in arrays}
    rest = _emptied(value, [array.path for array in arrays])
    # emptying a long array adds its minItems error, the only one at its own place
    errors = (_raw_from_rust(e, at, via) for e in validator.iter_errors(rest))
    with tally.rest(raw for raw in errors if raw.instance_path not in emptied):
        _items(windowing, tally, arrays, at)


def _items(
    windowing: _Windowing, tally: _Tally, arrays: list[_LongArray], at: InstancePath
) -> None:
    """The items of each long array in turn: a failing one's errors until the tally is done,
    then only whether it fails."""
    for array in arrays:
        base = (*at, *array.path)
        if array.by_name:
            # as an array's items: a failing part's errors until the tally is done, then only
            # whether it fails (179,000 bad names in a 4.4 MB document took 26 s listed whole)
            is_valid = array.validator.is_valid
            for part in array.items:
                if isinstance(part, dict) and part:
                    tally.settle((*base, next(iter(part))))
                if is_valid(part):
                    continue
                if tally.done:
                    tally.more += 1
                    continue
                names = array.names
                assert names is not None and isinstance(part, dict)  # (by_name: parts of one)
                tally.add(
                    _RawError(base, tuple(error.schema_path), error, name)
                    for name in part
                    if not names.is_valid(name)
                    for error in names.iter_errors(name)
                )
            continue
        tally.settle((*base, 0))
        is_valid = array.validator.is_valid
        for i, item in enumerate(array.items):
            if is_valid(item):
                continue
            if tally.done:
                tally.more += 1
                continue
            _collect(windowing, tally, array.place, item, (*base, i), array.validator, array.via)
            tally.settle((*base, i + 1))


def _emptied(value: object, paths: list[InstancePath]) -> object:
    """A copy of ``value`` with the array (or the wide object) at each path empty, sharing
    everything else."""
    if any(not path for path in paths):
        return {} if isinstance(value, dict) else []
    heads: dict[Token, list[InstancePath]] = {}
    for path in paths:
        heads.setdefault(path[0], []).append(path[1:])
    if isinstance(value, dict):
        copy: dict[str, object] = dict(value)
        for token, rest in heads.items():
            copy[str(token)] = _emptied(copy[str(token)], rest)
        return copy
    assert isinstance(value, list)  # the paths were found along the document's containers
    items = list(value)
    for token, rest in heads.items():
        items[int(token)] = _emptied(items[int(token)], rest)
    return items


# --- walking the schema along an error's schema path --------------------------------------

_NAMED = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"})
_INDEXED = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SINGLE = frozenset(
    {
        "items",
        "additionalProperties",
        "contains",
        "not",
        "if",
        "then",
        "else",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
# Keywords whose subschema applies to a member or an item, one level below the current instance.
_DESCENDS = frozenset(
    {
        "properties",
        "patternProperties",
        "prefixItems",
        "items",
        "additionalProperties",
        "contains",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_MAX_REF_HOPS = 32


@dataclass(frozen=True, slots=True)
class _Frame:
    node: Mapping[str, Any]
    depth: int  # how many instance-path tokens below the document this subschema applies


@dataclass(frozen=True, slots=True)
class _Walk:
    frames: tuple[_Frame, ...]
    keyword: str
    through_property_names: bool


def _resolve_ref(root: Mapping[str, Any], ref: str) -> Mapping[str, Any] | None:
    if ref.startswith(SCHEMA_ID):
        ref = ref[len(SCHEMA_ID) :]
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for token in parse_pointer(ref[1:]):
        node = node[int(token)] if isinstance(node, list) else node.get(token)
        if node is None:
            return None
    return node if isinstance(node, Mapping) else None


@functools.lru_cache(maxsize=4096)
def _walk(schema_path: SchemaPath) -> _Walk:
    """The subschemas along ``schema_path``. A document's errors repeat a few schema paths
    thousands of times: each is walked once."""
    return _walk_uncached(schema_path)


def _walk_uncached(schema_path: SchemaPath) -> _Walk:
    root = load_schema()
    node: Mapping[str, Any] = root
    frames = [_Frame(root, 0)]
    depth, index, hops, through_names = 0, 0, 0, False
    keyword = str(schema_path[-1]) if schema_path else ""
    while index < len(schema_path):
        token = schema_path[index]
        ref = node.get("$ref")
        if isinstance(ref, str) and (token == "$ref" or token not in node) and hops < _MAX_REF_HOPS:
            # jsonschema-rs writes "$ref" into its paths; Python jsonschema leaves it out.
            target = _resolve_ref(root, ref)
            if target is None:
                break
            node, hops = target, hops + 1
            frames.append(_Frame(node, depth))
            index += token == "$ref"
            continue
        width = 2 if token in _NAMED or token in _INDEXED else 1 if token in _SINGLE else 0
        # an int token is an index, never a keyword (its width is 0)
        if width == 0 or not isinstance(token, str) or index + width >= len(schema_path):
            keyword = str(token)  # the keyword that failed, e.g. anyOf, not, additionalProperties
            break
        try:
            child = node[token][schema_path[index + 1]] if width == 2 else node[token]
        except (KeyError, IndexError, TypeError):
            break
        if not isinstance(child, Mapping):
            keyword = str(token)
            break
        depth += token in _DESCENDS
        through_names = through_names or token == "propertyNames"
        node, hops, index = child, 0, index + width
        frames.append(_Frame(node, depth))
    return _Walk(tuple(frames), keyword, through_names)


@functools.lru_cache(maxsize=4096)
def _rule_of(schema_path: SchemaPath) -> _Frame | None:
    """The innermost rule along a schema path, found once per path."""
    return _innermost_rule(_walk(schema_path))


def _innermost_rule(walk: _Walk) -> _Frame | None:
    for frame in reversed(walk.frames):
        if isinstance(frame.node.get("x-ocp-message"), str):
            return frame
    return None


def _title_at(walk: _Walk, depth: int) -> str | None:
    for frame in reversed(walk.frames):
        if frame.depth < depth:
            break
        title = frame.node.get("title")
        if frame.depth == depth and isinstance(title, str):
            return title
    return None


def _object_schema_at(walk: _Walk, depth: int) -> Mapping[str, Any] | None:
    for frame in reversed(walk.frames):
        if frame.depth < depth:
            break
        if frame.depth == depth and isinstance(frame.node.get("properties"), Mapping):
            return frame.node
    return None


# --- from raw errors to findings -------------------------------------------------------------


@dataclass(slots=True)
class _Group:
    path: InstancePath
    order: str  # among the findings at one path: a fixed text, known without the message
    message: Callable[[], str]  # built only for the findings a report lists
    related: list[_RawError] = field(default_factory=list)


@dataclass(slots=True)  # (not frozen: one for each finding listed, and frozen init is slow)
class _Site:
    """Where an error sits, and what the schema calls that place and the object around it."""

    path: InstancePath
    value: object
    node: Mapping[str, Any]  # the subschema holding the failing keyword
    own: str | None  # title of the failing value's shape ("timestamp", "task", ...)
    parent: str | None  # title of the object or array holding the value
    parent_schema: Mapping[str, Any] | None
    raw: str

    @property
    def member(self) -> str | None:
        return self.path[-1] if self.path and isinstance(self.path[-1], str) else None

    @property
    def where(self) -> str:
        if not self.path:
            return "the document"
        last = self.path[-1]
        if isinstance(last, int):
            container = self.path[-2] if len(self.path) > 1 else None
            return f"item {last} of '{_clip(str(container))}'" if container else f"item {last}"
        if self.parent:
            return f"'{_clip(last)}' in this {self.parent}"
        return f"'{_clip(last)}'"

    @property
    def optional(self) -> bool:
        required = (self.parent_schema or {}).get("required", ())
        return self.member is not None and self.member not in required

    @property
    def tail(self) -> str:
        """How to make an empty value go away."""
        if self.path and isinstance(self.path[-1], int):
            return " or remove the item"
        return " or leave the member out" if self.optional else ""


# (group key, path, what orders it among the findings at that path, its message when needed)
Explained = tuple[tuple[Any, ...], InstancePath, str, Callable[[], str]]


def _humanize(document: object, errors: Iterable[_RawError]) -> list[Finding]:
    """One finding a problem, in document order."""
    tally = _Tally(document, None)
    tally.add(errors)
    return _listed(document, tally.groups, None, tally.reading)


def _listed(
    document: object,
    groups: Mapping[tuple[Any, ...], _Group],
    limit: int | None,
    reading: _DocumentOrder,
) -> list[Finding]:
    """The findings of ``groups`` in document order. With ``limit``, only the first ``limit``
    get their message and the validators' texts (the rest are only counted), and the others
    have an empty one."""
    ordered = sorted(groups.values(), key=lambda group: (reading.of(group.path), group.order))
    listed = ordered if limit is None else ordered[:limit]
    findings = [
        Finding(
            code="schema",
            severity="error",
            path=to_pointer(group.path),
            message=group.message(),
            related=tuple(error.message for error in group.related),
        )
        for group in listed
    ]
    counted = Finding(code="schema", severity="error", path="", message="")
    return findings + [counted] * (len(ordered) - len(listed))


def _explain(
    document: object, error: _RawError, messages: dict[tuple[Any, ...], str]
) -> list[Explained]:
    """The findings one raw error belongs to, each as (group key, path, message); a keyword's
    message is kept in ``messages`` for the findings whose message would be the same."""
    walk = _walk(error.schema_path)
    rule = _rule_of(error.schema_path)
    if rule is not None:
        # An if/then or anyOf rule fails as a cascade of inner errors: all of them are the one
        # problem the rule names, at the object the rule applies to.
        where = error.instance_path[: rule.depth]
        text: str = rule.node["x-ocp-message"]
        return [(("rule", id(rule.node), where), where, text, lambda: text)]
    if error.key is not None:
        path = (*error.instance_path, error.key)
        key_name = error.key
        return [(("key", path), path, key_name, lambda: _key_message(walk, key_name))]
    if walk.keyword == "additionalProperties":
        path = error.instance_path
        unknown = _unknown_members(_value_at(document, path), walk.frames[-1].node)
        if unknown:
            # Reported at the closed object, which is what breaks the rule; the member's name
            # is in the message. (An unknown top-level member is a finding on the document.)
            # The site, its titles and the validator's text are read only for a listed one.
            return [
                (
                    ("unknown", (*path, m)),
                    path,
                    m,
                    functools.partial(_unknown_message_of, document, error, walk, m),
                )
                for m in unknown
            ]
    key = ("keyword", id(walk.frames[-1].node), walk.keyword, error.instance_path)

    def message() -> str:
        value = _value_at(document, error.instance_path)
        same = _message_key(walk, error, value)
        text = None if same is None else messages.get(same)
        if text is None:
            text = _keyword_message(walk.keyword, _site(error, walk, value))
            if same is not None:
                messages[same] = text
        return text

    return [(key, error.instance_path, walk.keyword, message)]


def _message_key(walk: _Walk, error: _RawError, value: object) -> tuple[Any, ...] | None:
    """What a keyword's message is made of (`_Site`, `_keyword_message`), or None for a value
    it is not read from this way: the failing keyword, the schema path (which gives the
    subschema and the titles, with the depth), the last token of the place (and the one
    before an item's index), the value, and the validator's text. A document's thousand
    findings of one mistake (each statement's unknown kind, each its missing origin) then
    build one message, not a thousand."""
    path = error.instance_path
    kind = value.__class__
    if kind in (str, int, bool) or value is None or value is _MISSING:
        shown: object = (kind, value)
    elif kind is float:
        shown = (kind, repr(value))  # (-0.0 equals 0.0, and is written otherwise)
    elif kind is dict and walk.keyword == "required":
        node = walk.frames[-1].node
        missing = tuple(m for m in node.get("required", ()) if m not in value)  # type: ignore[operator]
        if missing:
            # (what `_required_message` says: the object's title and what it lacks, wherever
            # it stands, each statement of a list its own index)
            return (walk.keyword, error.schema_path, len(path), missing, error.message)
        return None
    else:
        return None
    last = path[-1] if path else None
    before = path[-2] if len(path) > 1 and isinstance(last, int) else None
    return (walk.keyword, error.schema_path, len(path), last, before, shown, error.message)


def _site(error: _RawError, walk: _Walk, value: object) -> _Site:
    """Where a keyword failed: ``value`` is what the document holds there (`_value_at`)."""
    path = error.instance_path
    own, parent, parent_schema = _titles(error.schema_path, len(path))
    return _Site(
        path,
        value,
        walk.frames[-1].node,
        own,
        parent,
        parent_schema,
        error.message,
    )


@functools.lru_cache(maxsize=4096)
def _titles(
    schema_path: SchemaPath, depth: int
) -> tuple[str | None, str | None, Mapping[str, Any] | None]:
    """A site's titles and the schema of the object around it (`_Site`), read from the walk of
    its schema path once for each depth: a document's thousand findings share a few."""
    walk = _walk(schema_path)
    if not depth:
        return _title_at(walk, depth), None, None
    return _title_at(walk, depth), _title_at(walk, depth - 1), _object_schema_at(walk, depth - 1)


def _value_at(document: object, path: InstancePath) -> object:
    node = document
    for token in path:
        if not _has(node, token):
            return _MISSING
        node = node[token]  # type: ignore[index]
    return node


def _has(node: object, token: Token) -> bool:
    if isinstance(node, dict):
        return token in node
    return isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node)


class _DocumentOrder:
    """Sort keys that read findings top to bottom: members in the order the document wrote
    them. Each path prefix is ordered once, each object's members indexed once: a document's
    thousands of findings share their objects' paths."""

    def __init__(self, document: object) -> None:
        self.document = document
        self._orders: dict[InstancePath, tuple[int, ...]] = {(): ()}
        self._nodes: dict[InstancePath, object] = {(): document}
        self._indexes: dict[int, dict[str, int]] = {}

    def of(self, path: InstancePath) -> tuple[int, ...]:
        known = self._orders.get(path)
        if known is not None:
            return known
        parent_path, token = path[:-1], path[-1]
        parent = self.of(parent_path)
        node = self._nodes.get(parent_path)
        if isinstance(node, dict) and isinstance(token, str):
            position = self._position(node, token)
            child = node.get(token)
        elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
            position, child = token, node[token]
        else:
            position, child = (token if isinstance(token, int) else 0), None
        self._nodes[path] = child
        order = self._orders[path] = (*parent, position)
        return order

    def _position(self, node: dict[str, object], token: str) -> int:
        if len(node) <= 16:  # most objects: a look along their few members costs less
            for i, key in enumerate(node):
                if key == token:
                    return i
            return len(node)
        index = self._indexes.get(id(node))
        if index is None:
            index = self._indexes[id(node)] = {key: i for i, key in enumerate(node)}
        return index.get(token, len(index))


# --- messages ----------------------------------------------------------------------------------


def _keyword_message(keyword: str, site: _Site) -> str:
    builder = _MESSAGES.get(keyword)
    message = builder(site) if builder else None
    return message or f"{site.where} is not valid here: {_clip(site.raw)}"


def _type_message(site: _Site) -> str:
    expected = _expected_shape(site.node.get("type"), site.own)
    return f"{site.where} must be {expected}, not {_kind_of(site.value)}"


def _enum_message(site: _Site) -> str | None:
    options = ", ".join(str(option) for option in site.node.get("enum", ()))
    noun = site.own or (
        f"{site.parent} {site.member.replace('_', ' ')}" if site.parent and site.member else None
    )
    if noun is None or isinstance(site.value, CONTAINERS) or site.value is _MISSING:
        return f"{site.where} must be one of {options}, not {_kind_of(site.value)}"
    return f"{_quote(site.value)} is not {_article(noun)} {noun}; use one of {options}"


def _const_message(site: _Site) -> str:
    return f"{site.where} must be {json.dumps(site.node.get('const'))}"


def _pattern_message(site: _Site) -> str | None:
    value = site.value
    if not isinstance(value, str):
        return None
    if site.own == "timestamp" and _NO_OFFSET.match(value):
        return (
            f"timestamp {_quote(value)} has no offset: end it with Z or +hh:mm / -hh:mm, "
            f"for example {value}Z"
            if len(value) <= _QUOTE_LIMIT
            else f"timestamp {_quote(value)} has no offset: end it with Z or +hh:mm / -hh:mm"
        )
    if site.own == "digest" and _python_regex(site.node["pattern"]).search(value.lower()):
        return f"the hex digits of digest {_quote(value)} must be lowercase"
    shape = _PATTERN_HELP.get(site.own or "")
    if shape is None:
        return f"{site.where} does not match the pattern {site.node.get('pattern')}"
    return f"{_quote(value)} is not a valid {site.own}: {shape}"


def _min_items_message(site: _Site) -> str:
    item = _items_title(site.node)
    noun = {None: "entry", "text": "entry", "local id reference": "local id"}.get(item, item)
    return f"{site.where} is an empty list; list at least one {noun}{site.tail}"


def _min_length_message(site: _Site) -> str:
    return f"{site.where} is an empty string; write the text{site.tail}"


def _max_length_message(site: _Site) -> str:
    limit = site.node.get("maxLength")
    length = len(site.value) if isinstance(site.value, str) else "too many"
    hint = {
        "excerpt": "keep a short excerpt and reference the full content as a resource",
        "content": "put larger content in a resource and name it in content_ref",
    }.get(site.member or "", "shorten it")
    return f"{site.where} is {length} characters long, over the limit of {limit}; {hint}"


def _required_message(site: _Site) -> str | None:
    if not isinstance(site.value, dict):
        return None
    missing = [m for m in site.node.get("required", ()) if m not in site.value]
    if not missing:
        return None
    noun = "member" if len(missing) == 1 else "members"
    return f"this {site.own or 'object'} is missing its required {noun} {_join_quoted(missing)}"


def _unknown_members(value: object, node: Mapping[str, Any]) -> list[str]:
    if not isinstance(value, dict):
        return []
    known = node.get("properties", {})
    return [member for member in value if member not in known]


def _unknown_message_of(document: object, error: _RawError, walk: _Walk, member: str) -> str:
    return _unknown_message(_site(error, walk, _value_at(document, error.instance_path)), member)


def _unknown_message(site: _Site, member: str) -> str:
    title = site.own or "object"
    known = list(site.node.get("properties", {}))
    start = f"unknown member '{_clip(member)}' in this {title}"
    if "extensions" in known:
        return (
            f"{start}; {_plural(title)} are closed: put extension data in extensions "
            "under a namespaced key"
        )
    return f"{start}; {_article(title)} {title} has only the members {_join(known)}"


def _key_message(walk: _Walk, key: str) -> str:
    if walk.frames and walk.frames[-1].node.get("title") == "extension key":
        return (
            f"extension key {_quote(key)} is not namespaced: use a lowercase reverse-DNS name "
            "you control, optionally followed by a /-separated path, for example "
            "com.example.crm or org.example.finance/v2"
        )
    return f"member name {_quote(key)} is not allowed here"


_MESSAGES: dict[str, Callable[[_Site], str | None]] = {
    "type": _type_message,
    "enum": _enum_message,
    "const": _const_message,
    "pattern": _pattern_message,
    "minItems": _min_items_message,
    "minLength": _min_length_message,
    "maxLength": _max_length_message,
    "required": _required_message,
}

_NO_OFFSET = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?\Z")

_PATTERN_HELP = {
    "local id": "use 1 to 128 letters, digits, '.', '_', ':' or '-', starting with a letter or "
    "digit, for example 'step-1'",
    "timestamp": "write an RFC 3339 date-time with an explicit offset, for example "
    "2026-11-20T08:00:00Z or 2026-11-20T09:00:00+01:00",
    "digest": "write sha-256, sha-384 or sha-512, a colon and the hash in lowercase hex "
    "(64, 96 or 128 digits), for example "
    "sha-256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
}


def _items_title(array_schema: Mapping[str, Any]) -> str | None:
    items = array_schema.get("items")
    if not isinstance(items, Mapping):
        return None
    ref = items.get("$ref")
    target = _resolve_ref(load_schema(), ref) if isinstance(ref, str) else items
    title = (target or {}).get("title")
    return title if isinstance(title, str) else None


def _expected_shape(json_type: object, title: str | None) -> str:
    if title == "text":
        return "text (a non-empty string)"
    if title and json_type == "object":
        return f"{_article(title)} {title} (a JSON object)"
    if title and json_type == "string":
        return f"{_article(title)} {title} (a string)"
    return {
        "object": "a JSON object",
        "array": "a list (a JSON array)",
        "string": "a string",
        "integer": "an integer",
        "number": "a number",
        "boolean": "true or false",
    }.get(str(json_type), f"of type {json_type}")


def _kind_of(value: object) -> str:
    if value is _MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, NUMBERS):
        return "a number"
    if isinstance(value, str):
        return "an empty string" if not value else "a string"
    return "an array" if isinstance(value, list) else "an object"


def _quote(value: object) -> str:
    if isinstance(value, str):
        # json.dumps escapes newlines and control characters, so the message stays one line.
        return "'" + _clip(json.dumps(value, ensure_ascii=False)[1:-1]) + "'"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        # str() of a huge int is slow or refused (sys.int_info.str_digits_check_threshold).
        return "a very large number" if value.bit_length() > 192 else _clip(str(value))
    if isinstance(value, float):
        return _clip(repr(value))
    return _kind_of(value)


def _clip(text: str, limit: int = _QUOTE_LIMIT) -> str:
    """Document text a message quotes: cut at ``limit`` characters, and every character that
    could move a cursor, recolour a terminal or reorder the line written as an escape
    (app/visible.py): a message is printed as it is by whatever reads a report (jq -r, a CI
    log), and a member name is the document's text as much as a value is."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return visible(shown)


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _plural(noun: str) -> str:
    if noun.endswith("s"):
        return f"{noun} objects"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def _join(words: list[str]) -> str:
    if len(words) < 2:
        return "".join(words) or "none"
    return ", ".join(words[:-1]) + " and " + words[-1]


def _join_quoted(words: list[str]) -> str:
    return _join([f"'{_clip(word)}'" for word in words])
