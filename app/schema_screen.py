"""Whether a document conforms to the schema, answered in pure Python: the schema stage's screen.

Importing jsonschema-rs costs a bare Python start-up and more again (the extension and the
standard modules it loads: `email.utils`, `socket`, `decimal`), about as much as everything
else `ocp lint` of one small file does (issue 28). Most documents a linter sees conform, and
for those the stage has nothing to say. So the stage first asks this screen; only a document
it does not pass goes to jsonschema-rs (app/schema.py), which finds and words the errors.

The screen is the schema compiled once into closures, one per subschema, each answering
"does this value conform". It knows exactly the keywords the schema uses (Draft 2020-12, with
`format` an annotation as §8.1 says, and patterns in ECMA-262's dialect as the field model
requires) and refuses to build from a schema holding any other, so a keyword added to the schema
can never be silently ignored here. A document it passes is one both validators pass; the
tests hold the three to the same answer on every document of the suite and on generated ones.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Mapping, Sequence

from app import TYPE_CHECKING
from app.calls import same_value  # JSON's equality, as a call's arguments compare
from app.resources import load_schema

if TYPE_CHECKING:
    from typing import Any

# The screen walks in Python, some fifteen times slower than jsonschema-rs checks (0.8 ms for
# a 17 KB document): it pays only while jsonschema-rs is not loaded yet, and for a document
# small enough that the walk costs less than that import (about 20 ms).
SCREEN_MAX_BYTES = 64 * 1024

Check = Callable[[object], bool]

# Keywords that constrain nothing (annotations), and the ones the screen implements.
_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "title", "description", "examples", "default", "format"}
)
_EXTENSION_PREFIX = "x-"  # the project's own annotations (x-ocp-message)
_APPLIED = frozenset(
    {
        "$ref",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "propertyNames",
        "items",
        "minItems",
        "enum",
        "const",
        "pattern",
        "minLength",
        "maxLength",
        "allOf",
        "anyOf",
        "not",
        "if",
        "then",
    }
)


class UnscreenableSchema(RuntimeError):
    """The schema uses a keyword the screen does not implement: it must not guess."""


def ecma_to_python(pattern: str) -> str:
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


def conforms(document: object) -> bool:
    """True when ``document`` conforms to the schema, as jsonschema-rs would say."""
    return _screen()(document)


def screen_pays(size: int) -> bool:
    """Whether screening a document of ``size`` bytes saves time: in a process that has not
    loaded the validator (a linter's run; a service loads it as it starts), and small."""
    return size <= SCREEN_MAX_BYTES and "jsonschema_rs" not in sys.modules


@functools.cache
def _screen() -> Check:
    return _Compiler(load_schema()).compile(load_schema())


# --- JSON's types, not Python's (True is not 1; 1.0 is an integer) -----------------------------


def _is_type(name: str) -> Check:
    if name == "object":
        return lambda value: isinstance(value, dict)
    if name == "array":
        return lambda value: isinstance(value, list)
    if name == "string":
        return lambda value: isinstance(value, str)
    if name == "boolean":
        return lambda value: isinstance(value, bool)
    if name == "null":
        return lambda value: value is None
    if name == "number":
        return lambda value: isinstance(value, int | float) and not isinstance(value, bool)
    if name == "integer":
        # Draft 2020-12: any number with a zero fractional part is an integer (1.0 included)
        return lambda value: (
            (isinstance(value, int) and not isinstance(value, bool))
            or (isinstance(value, float) and value.is_integer())
        )
    raise UnscreenableSchema(f"unknown type {name!r}")


def _all(checks: Sequence[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]
    frozen = tuple(checks)
    return lambda value: all(check(value) for check in frozen)


def _always(value: object) -> bool:
    return True


def _never(value: object) -> bool:
    return False


class _Compiler:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.by_ref: dict[str, Check] = {}

    def compile(self, node: object) -> Check:
        if node is True:
            return _always
        if node is False:
            return _never
        if not isinstance(node, Mapping):
            raise UnscreenableSchema(f"a subschema is a {type(node).__name__}")
        unknown = [
            key
            for key in node
            if key not in _APPLIED
            and key not in _ANNOTATIONS
            and key != "$defs"
            and not key.startswith(_EXTENSION_PREFIX)
        ]
        if unknown:
            raise UnscreenableSchema(f"keywords {sorted(unknown)} are not screened")
        checks: list[Check] = []
        if "$ref" in node:
            checks.append(self._ref(node["$ref"]))
        if "type" in node:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            types = [_is_type(name) for name in names]
            checks.append(types[0] if len(types) == 1 else lambda v: any(t(v) for t in types))
        if "enum" in node:
            options = tuple(node["enum"])
            if all(isinstance(option, str) for option in options):
                words = frozenset(options)  # the usual enum: a string's equality is Python's
                checks.append(lambda v: isinstance(v, str) and v in words)
            else:
                checks.append(lambda v: any(same_value(v, option) for option in options))
        if "const" in node:
            constant = node["const"]
            checks.append(lambda v: same_value(v, constant))
        checks.extend(self._object(node))
        checks.extend(self._array(node))
        checks.extend(self._string(node))
        for key in ("allOf",):
            if key in node:
                checks.append(_all([self.compile(sub) for sub in node[key]]))
        if "anyOf" in node:
            options_any = tuple(self.compile(sub) for sub in node["anyOf"])
            checks.append(lambda v: any(option(v) for option in options_any))
        if "not" in node:
            negated = self.compile(node["not"])
            checks.append(lambda v: not negated(v))
        if "if" in node and "then" in node:
            condition, consequence = self.compile(node["if"]), self.compile(node["then"])
            checks.append(lambda v: not condition(v) or consequence(v))
        elif "then" in node or "if" in node:
            pass  # "if" alone or "then" alone constrains nothing (Draft 2020-12 §10.2.2)
        return _all(checks) if checks else _always

    def _ref(self, ref: str) -> Check:
        if not ref.startswith("#/"):
            raise UnscreenableSchema(f"$ref {ref!r} is not within the schema")
        if ref not in self.by_ref:
            # a placeholder first, so a schema that refers to itself compiles (and recurses
            # only as deep as the document does)
            compiled: list[Check] = []
            self.by_ref[ref] = lambda v: compiled[0](v)
            target: object = self.root
            for token in ref[2:].split("/"):
                token = token.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, Mapping) or token not in target:
                    raise UnscreenableSchema(f"$ref {ref!r} resolves to nothing")
                target = target[token]
            compiled.append(self.compile(target))
        return self.by_ref[ref]

    def _object(self, node: Mapping[str, Any]) -> list[Check]:
        checks: list[Check] = []
        properties = {name: self.compile(sub) for name, sub in node.get("properties", {}).items()}
        required = tuple(node.get("required", ()))
        extra = node.get("additionalProperties", True)
        extra_check = None if extra is True else self.compile(extra)
        names = self.compile(node["propertyNames"]) if "propertyNames" in node else None
        if not (properties or required or extra_check or names):
            return checks

        def check(value: object) -> bool:
            if not isinstance(value, dict):
                return True
            for name in required:
                if name not in value:
                    return False
            for name, member in value.items():
                if names is not None and not names(name):
                    return False
                sub = properties.get(name)
                if sub is not None:
                    if not sub(member):
                        return False
                elif extra_check is not None and not extra_check(member):
                    return False
            return True

        checks.append(check)
        return checks

    def _array(self, node: Mapping[str, Any]) -> list[Check]:
        checks: list[Check] = []
        if "minItems" in node:
            least = node["minItems"]
            checks.append(lambda v: not isinstance(v, list) or len(v) >= least)
        if "items" in node:
            item = self.compile(node["items"])
            checks.append(lambda v: not isinstance(v, list) or all(item(x) for x in v))
        return checks

    def _string(self, node: Mapping[str, Any]) -> list[Check]:
        checks: list[Check] = []
        # lengths count code points, as Python's len does (and both validators)
        if "minLength" in node:
            shortest = node["minLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) >= shortest)
        if "maxLength" in node:
            longest = node["maxLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) <= longest)
        if "pattern" in node:
            # compiled on first use: a document without such a string never pays for it
            pattern = node["pattern"]
            regex = functools.cache(lambda: re.compile(ecma_to_python(pattern)))
            checks.append(lambda v: not isinstance(v, str) or regex().search(v) is not None)
        return checks
