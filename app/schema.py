"""Level 1 (§8.1): the document against the hand-authored JSON Schema, in words a person can act on.

jsonschema-rs does the checking on the hot path; Python ``jsonschema`` is the reference
implementation the tests compare it with. Both feed one humanizer, which turns the validators'
raw errors into one ``Finding`` per problem.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import ValidationError

from app.findings import Finding
from app.pointer import parse_pointer, to_pointer
from app.resources import SCHEMA_FILE, schema_bytes

SCHEMA_ID = "https://opencheckpoint.org/schema/opencheckpoint-0.1.schema.json"

Token = str | int
InstancePath = tuple[Token, ...]
SchemaPath = tuple[Token, ...]

_QUOTE_LIMIT = 60  # documents can be megabytes: never quote more of a value than this
_RAW_LIMIT = 200  # the same for the validators' own messages kept in Finding.related
_MISSING = object()


# --- the schema and the two validators ------------------------------------------------------


@functools.cache
def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_bytes())
    if schema.get("$id") != SCHEMA_ID:
        # The $id is published (§5.1: an immutable schema at a stable URL); never drift from it.
        raise RuntimeError(f"{SCHEMA_FILE} has $id {schema.get('$id')!r}, expected {SCHEMA_ID}")
    return schema


@functools.cache
def _fast_validator() -> jsonschema_rs.Validator:
    # format is an annotation only (§8.1): a validator MUST NOT reject a value for its format.
    return jsonschema_rs.Draft202012Validator(load_schema(), validate_formats=False)


def _ecma_to_python(pattern: str) -> str:
    """ECMA-262 ``$`` (what JSON Schema prescribes) matches only at the very end of the string;
    Python's also matches before a final newline, so it becomes ``\\Z``."""
    out: list[str] = []
    in_class = False
    chars = iter(pattern)
    for char in chars:
        if char == "\\":
            out.append(char + next(chars, ""))
        elif in_class:
            in_class = char != "]"
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
        else:
            out.append(r"\Z" if char == "$" else char)
    return "".join(out)


@functools.cache
def _python_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(_ecma_to_python(pattern))


def _ecma_pattern(
    validator: Any, pattern: str, instance: object, schema: object
) -> Iterator[ValidationError]:
    # a "string" to Draft 2020-12's type checker is a str
    if isinstance(instance, str) and not _python_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _reference_validator() -> Any:
    # Draft 2020-12 as jsonschema implements it, except that patterns follow ECMA-262 as the
    # field model requires, so that both validators accept exactly the same documents.
    # types-jsonschema leaves extend unannotated (it makes a class at run time): the class it
    # returns is used untyped, as Any.
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


def _raw_from_rust(error: jsonschema_rs.ValidationError) -> _RawError:
    instance_path = tuple(error.instance_path)
    kind = error.kind
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.PropertyNames):
        # jsonschema-rs reports a propertyNames failure with the key's own subschema as its
        # evaluation path; the absolute keyword location still reaches the right subschema.
        inner = kind.error.instance
        key = inner if isinstance(inner, str) else None
        return _RawError(instance_path, tuple(error.schema_path), error, key)
    # schema_path is the keyword's place inside $defs; the evaluation path follows each $ref from
    # the root, which is what tells how far below the document each subschema applies.
    return _RawError(instance_path, tuple(error.evaluation_path), error)


def _raw_from_reference(error: ValidationError) -> _RawError:
    schema_path = tuple(error.absolute_schema_path)
    key = None
    if _walk(schema_path).through_property_names and isinstance(error.instance, str):
        key = error.instance
    return _RawError(tuple(error.absolute_path), schema_path, error, key)


# --- the public checks ----------------------------------------------------------------------


def check_schema(document: object, limit: int | None = None) -> list[Finding]:
    """Level-1 findings for a parsed document, in document order; ``[]`` when it conforms to
    the schema. With ``limit``, the findings past the first ``limit`` are there to be counted
    and have no message (a report lists at most that many: app/findings.py `capped`)."""
    # Integers of any size (2**80, 10**300) convert exactly. One too long for str() arrives as
    # null, which no constrained member accepts, and free-form members accept anything: the
    # verdict holds, and messages quote the document's own value, never the validator's copy.
    validator = _fast_validator()
    try:
        if validator.is_valid(document):
            return []
        raw = [_raw_from_rust(error) for error in validator.iter_errors(document)]
    except (ValueError, TypeError, OverflowError, RecursionError):
        # jsonschema-rs refuses a few values a JSON parser can produce: an unpaired surrogate
        # (UnicodeEncodeError), or a very deep value that an error must carry back ("Recursion
        # limit reached"). The reference validator takes every Python value.
        return check_schema_reference(document)
    return _humanize(document, raw, limit)


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


@dataclass(frozen=True, slots=True)
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


def _humanize(
    document: object, errors: Iterable[_RawError], limit: int | None = None
) -> list[Finding]:
    """One finding a problem, in document order. With ``limit``, only the first ``limit``
    findings get their message (the rest are only counted: see `check_schema_capped`), and
    the others have an empty one."""
    groups: dict[tuple[Any, ...], _Group] = {}
    for error in errors:
        for key, path, order, message in _explain(document, error):
            group = groups.get(key)
            if group is None:
                group = groups[key] = _Group(path, order, message)
            group.related.append(error)
    reading = _DocumentOrder(document)
    ordered = sorted(
        groups.items(),
        key=lambda item: (reading.of(item[1].path), item[1].order),
    )
    listed = ordered if limit is None else ordered[:limit]
    findings = [
        Finding(
            code="schema",
            severity="error",
            path=to_pointer(group.path),
            message=group.message(),
            related=tuple(error.message for error in group.related),
        )
        for _, group in listed
    ]
    counted = Finding(code="schema", severity="error", path="", message="")
    return findings + [counted] * (len(ordered) - len(listed))


def _explain(document: object, error: _RawError) -> list[Explained]:
    """The findings one raw error belongs to, each as (group key, path, message)."""
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
        site = _site(document, error, walk)
        unknown = _unknown_members(site)
        if unknown:
            # Reported at the closed object, which is what breaks the rule; the member's name
            # is in the message. (An unknown top-level member is a finding on the document.)
            return [
                (
                    ("unknown", (*site.path, m)),
                    site.path,
                    m,
                    functools.partial(_unknown_message, site, m),
                )
                for m in unknown
            ]
    key = ("keyword", id(walk.frames[-1].node), walk.keyword, error.instance_path)

    def message() -> str:
        return _keyword_message(walk.keyword, _site(document, error, walk))

    return [(key, error.instance_path, walk.keyword, message)]


def _site(document: object, error: _RawError, walk: _Walk) -> _Site:
    path = error.instance_path
    depth = len(path)
    return _Site(
        path=path,
        value=_value_at(document, path),
        node=walk.frames[-1].node,
        own=_title_at(walk, depth),
        parent=_title_at(walk, depth - 1) if depth else None,
        parent_schema=_object_schema_at(walk, depth - 1) if depth else None,
        raw=error.message,
    )


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
    if noun is None or isinstance(site.value, dict | list) or site.value is _MISSING:
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


def _unknown_members(site: _Site) -> list[str]:
    if not isinstance(site.value, dict):
        return []
    known = site.node.get("properties", {})
    return [member for member in site.value if member not in known]


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
    if isinstance(value, int | float):
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
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
