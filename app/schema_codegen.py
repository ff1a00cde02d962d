"""The schema stage's screen written out as Python source: app/schema_checks.py.

The screen answers "does this document conform to the schema" in pure Python, for the small
documents a linter's run sees (app/schema_screen.py). Built from the schema as each process
started (a closure per subschema), it cost `ocp lint` of one small file a tenth of its run
(issue 28). Written out as a module, it is compiled once, into a .pyc, like any other code:
the process loads it prepared. This module writes that source from the schema;
tests/test_schema_screen.py holds the shipped file to what it writes from the shipped schema,
and the screen to both validators on every document of the suite.

    .venv/bin/python -m app.schema_codegen      (make schema-checks)

It knows exactly the keywords the schema uses (Draft 2020-12, with `format` an annotation as
§8.1 says, and patterns in ECMA-262's dialect as the field model requires) and refuses to write
a screen of a schema holding any other, so a keyword added to the schema can never be silently
ignored.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path

from app import TYPE_CHECKING
from app.resources import SCHEMA_FILE, load_schema
from app.schema_patterns import KNOWN

if TYPE_CHECKING:
    from typing import Any

# Where the written screen goes, beside this module.
TARGET = Path(__file__).with_name("schema_checks.py")

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

# JSON's types, not Python's: True is not 1; 1.0 is an integer (Draft 2020-12).
_TYPES = {
    "object": "isinstance(v, dict)",
    "array": "isinstance(v, list)",
    "string": "isinstance(v, str)",
    "boolean": "isinstance(v, bool)",
    "null": "v is None",
    "number": "(isinstance(v, (int, float)) and not isinstance(v, bool))",
    "integer": (
        "((isinstance(v, int) and not isinstance(v, bool))"
        " or (isinstance(v, float) and v.is_integer()))"
    ),
}

_HEADER = '''"""The schema stage's screen: whether a value conforms to the OpenCheckpoint schema.

Written by app/schema_codegen.py from schema/{schema_file}: do not edit it, write it again
(`make schema-checks`). Each function answers for one subschema, named in its comment by its
place in the schema; `conforms` answers for the whole document.
"""

from __future__ import annotations

import re

from app import TYPE_CHECKING
from app.calls import same_value  # JSON's equality, as a call's arguments compare
{known}
if TYPE_CHECKING:
    from collections.abc import Callable

    Check = Callable[[object], bool]

# The schema's patterns, in Python's dialect, each compiled when a string first meets it.
_PATTERNS: tuple[str, ...] = {patterns}
_COMPILED: dict[int, re.Pattern[str]] = {{}}


def _search(index: int, value: str) -> bool:
    pattern = _COMPILED.get(index)
    if pattern is None:
        pattern = _COMPILED[index] = re.compile(_PATTERNS[index])
    return pattern.search(value) is not None


def _always(v: object) -> bool:
    return True


def _never(v: object) -> bool:
    return False
'''


# A test that is one call of another subschema's check, such as `_ref3(v)`.
_CALL = re.compile(r"_\w+\(v\)")


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


def generate(schema: Mapping[str, Any]) -> str:
    """The source of the screen of ``schema``: a module whose ``conforms(value)`` answers."""
    return _Writer(schema).module()


class _Writer:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.functions: list[str] = []
        self.tables: list[str] = []
        self.by_ref: dict[str, str] = {}
        self.patterns: dict[str, int] = {}
        self.known: set[str] = set()  # the tests of app/schema_patterns.py the checks call

    def module(self) -> str:
        conforms = self.check(self.root, "")
        patterns = repr(tuple(self.patterns)) if self.patterns else "()"
        known = (
            f"from app.schema_patterns import {', '.join(sorted(self.known))}  # regexes' answers\n"
            if self.known
            else ""
        )
        head = _HEADER.format(schema_file=SCHEMA_FILE, patterns=patterns, known=known)
        parts = [head, *self.functions, "\n".join(self.tables), f"conforms = {conforms}\n"]
        return "\n\n".join(part.rstrip("\n") + "\n" for part in parts)

    def _name(self) -> str:
        return f"_s{len(self.functions)}"

    def _function(self, where: str, body: str, name: str | None = None) -> str:
        name = name or self._name()
        comment = f"    # {where or '(the document)'}\n"
        self.functions.append(f"def {name}(v: object) -> bool:\n{comment}{body}")
        return name

    def _table(self, text: str, annotation: str | None = None) -> str:
        """A constant the functions read, written after them (a table of members names the
        functions of their values)."""
        name = f"_t{len(self.tables)}"
        self.tables.append(f"{name}: {annotation} = {text}" if annotation else f"{name} = {text}")
        return name

    def check(self, node: object, where: str, name: str | None = None) -> str:
        """The name of the function that answers for ``node`` (at ``where`` in the schema);
        ``name``: the one it must have (a $ref's, reserved before its target is written)."""
        if node is True and name is None:
            return "_always"
        if node is False and name is None:
            return "_never"
        if isinstance(node, bool):
            return self._function(where, f"    return {node}\n", name)
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
        tests = self._tests(node, where)
        if not tests and name is None:
            return "_always"
        if not tests:
            return self._function(where, "    return True\n", name)
        if name is None and len(tests) == 1 and _CALL.fullmatch(tests[0]):
            return tests[0].removesuffix("(v)")  # a subschema that is one other check: that one
        body = "\n        and ".join(tests)
        return self._function(where, f"    return (\n        {body}\n    )\n", name)

    def _tests(self, node: Mapping[str, Any], where: str) -> list[str]:
        """The expressions over ``v`` that must all hold for ``node``."""
        tests: list[str] = []
        if "$ref" in node:
            tests.append(f"{self._ref(node['$ref'])}(v)")
        if "type" in node:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            unknown = [n for n in names if n not in _TYPES]
            if unknown:
                raise UnscreenableSchema(f"unknown type {unknown[0]!r}")
            types = [_TYPES[n] for n in names]
            tests.append(types[0] if len(types) == 1 else "(" + " or ".join(types) + ")")
        if "enum" in node:
            options = list(node["enum"])
            if all(isinstance(option, str) for option in options):
                # the usual enum: a string's equality is Python's
                words = self._table(f"frozenset({sorted(options)!r})")
                tests.append(f"(isinstance(v, str) and v in {words})")
            else:
                values = self._table(repr(tuple(options)))
                tests.append(f"any(same_value(v, option) for option in {values})")
        if "const" in node:
            tests.append(f"same_value(v, {self._table(repr(node['const']))})")
        tests.extend(self._object(node, where))
        tests.extend(self._array(node, where))
        tests.extend(self._string(node))
        for n, sub in enumerate(node.get("allOf", ())):
            tests.append(f"{self.check(sub, f'{where}/allOf/{n}')}(v)")
        if "anyOf" in node:
            options_any = [
                f"{self.check(sub, f'{where}/anyOf/{n}')}(v)" for n, sub in enumerate(node["anyOf"])
            ]
            tests.append("(" + " or ".join(options_any) + ")")
        if "not" in node:
            tests.append(f"not {self.check(node['not'], f'{where}/not')}(v)")
        if "if" in node and "then" in node:
            condition = self.check(node["if"], f"{where}/if")
            consequence = self.check(node["then"], f"{where}/then")
            tests.append(f"(not {condition}(v) or {consequence}(v))")
        # "if" alone or "then" alone constrains nothing (Draft 2020-12 §10.2.2)
        return tests

    def _ref(self, ref: str) -> str:
        if not ref.startswith("#/"):
            raise UnscreenableSchema(f"$ref {ref!r} is not within the schema")
        if ref not in self.by_ref:
            # the name first, so a schema that refers to itself is written (and recurses only
            # as deep as the document does)
            name = self.by_ref[ref] = f"_ref{len(self.by_ref)}"
            target: object = self.root
            for token in ref[2:].split("/"):
                token = token.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, Mapping) or token not in target:
                    raise UnscreenableSchema(f"$ref {ref!r} resolves to nothing")
                target = target[token]
            self.check(target, ref[1:], name)
        return self.by_ref[ref]

    def _object(self, node: Mapping[str, Any], where: str) -> list[str]:
        properties = {
            name: self.check(sub, f"{where}/properties/{name}")
            for name, sub in node.get("properties", {}).items()
        }
        required = tuple(node.get("required", ()))
        extra = node.get("additionalProperties", True)
        extra_check = None if extra is True else self.check(extra, f"{where}/additionalProperties")
        names = (
            self.check(node["propertyNames"], f"{where}/propertyNames")
            if "propertyNames" in node
            else None
        )
        if not (properties or required or extra_check or names):
            return []
        lines = ["    if not isinstance(v, dict):", "        return True"]
        if required:
            lines += [
                f"    for name in {self._table(repr(required))}:",
                "        if name not in v:",
                "            return False",
            ]
        if properties or extra_check or names:
            lines.append("    for name, member in v.items():")
            if names is not None:
                lines += [f"        if not {names}(name):", "            return False"]
            if properties:
                members = ", ".join(f"{k!r}: {f}" for k, f in properties.items())
                table = self._table("{" + members + "}", "dict[str, Check]")
                lines += [
                    f"        sub = {table}.get(name)",
                    "        if sub is not None:",
                    "            if not sub(member):",
                    "                return False",
                ]
                if extra_check is not None:
                    lines += [
                        f"        elif not {extra_check}(member):",
                        "            return False",
                    ]
            elif extra_check is not None:
                lines += [f"        if not {extra_check}(member):", "            return False"]
        lines.append("    return True")
        return [f"{self._function(f'{where} (members)', chr(10).join(lines) + chr(10))}(v)"]

    def _array(self, node: Mapping[str, Any], where: str) -> list[str]:
        tests = []
        if "minItems" in node:
            tests.append(f"(not isinstance(v, list) or len(v) >= {int(node['minItems'])})")
        if "items" in node:
            item = self.check(node["items"], f"{where}/items")
            tests.append(f"(not isinstance(v, list) or all({item}(x) for x in v))")
        return tests

    def _string(self, node: Mapping[str, Any]) -> list[str]:
        tests = []
        # lengths count code points, as Python's len does (and both validators)
        if "minLength" in node:
            tests.append(f"(not isinstance(v, str) or len(v) >= {int(node['minLength'])})")
        if "maxLength" in node:
            tests.append(f"(not isinstance(v, str) or len(v) <= {int(node['maxLength'])})")
        if "pattern" in node:
            pattern = ecma_to_python(node["pattern"])
            known = KNOWN.get(pattern)
            if known is not None:  # a string test that answers as the regex would
                self.known.add(known)
                tests.append(f"(not isinstance(v, str) or {known}(v))")
            else:
                index = self.patterns.setdefault(pattern, len(self.patterns))
                tests.append(f"(not isinstance(v, str) or _search({index}, v))")
        return tests


def main() -> int:
    """Write app/schema_checks.py from the shipped schema; say whether it changed."""
    source = generate(load_schema())
    changed = not TARGET.exists() or TARGET.read_text(encoding="utf-8") != source
    if changed:
        TARGET.write_text(source, encoding="utf-8")
    print(f"{TARGET}: {'written' if changed else 'unchanged'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
