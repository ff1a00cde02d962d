"""The schema stage's pure-Python screen (app/schema_screen.py) answers as both validators do.

A document the screen passes is never shown to jsonschema-rs, so a screen that passed one the
validators fail would hide its errors. Each test holds the three to one answer: on every JSON
document the suite carries, and on every one-value change of valid documents (each leaf
replaced by a value of every JSON type and by near-misses of the schema's patterns, each member
dropped, an unknown member added to each object)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import analysis
from app.analysis import lint
from app.report import FileResult, report_dict
from app.resources import load_schema
from app.schema import _fast_validator, _reference_validator
from app.schema_codegen import TARGET, UnscreenableSchema, generate
from app.schema_screen import conforms
from tests.conftest import CONFORMANCE

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

Token = str | int
REPLACEMENTS: list[object] = [
    None,
    True,
    False,
    0,
    1,
    1.0,
    1.5,
    -1,
    "",
    "x",
    "x\n",  # a pattern's "$" is the very end in ECMA-262, not before a final newline
    "a" * 129,
    "2026-01-01T00:00:00Z\n",
    "sha-256:" + "0" * 64 + "\n",
    [],
    {},
    [1],
    {"x": 1},
]


def _validators_say(document: object, *, reference: bool = True) -> bool:
    fast = _fast_validator().is_valid(document)
    if reference:  # some hundred times slower: not for thousands of variants
        by_reference = not any(True for _ in _reference_validator().iter_errors(document))
        assert fast == by_reference, "the two validators disagree: test_schema.py is the place"
    return fast


def _documents() -> Iterator[tuple[str, object]]:
    for path in sorted(DATA.rglob("*.json")):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue  # not JSON (the JSON test suite's refused texts), or nested past Python's
            # recursion limit (what the linter's own parser refuses with a finding)
        yield str(path.relative_to(ROOT)), document


def _leaves(value: object, at: tuple[Token, ...] = ()) -> Iterator[tuple[Token, ...]]:
    yield at
    if isinstance(value, dict):
        for name, member in value.items():
            yield from _leaves(member, (*at, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*at, index))


def _with(document: object, at: tuple[Token, ...], value: object) -> object:
    changed = copy.deepcopy(document)
    holder: Any = changed
    for token in at[:-1]:
        holder = holder[token]
    holder[at[-1]] = value
    return changed


def _without(document: object, at: tuple[Token, ...]) -> object:
    changed = copy.deepcopy(document)
    holder: Any = changed
    for token in at[:-1]:
        holder = holder[token]
    del holder[at[-1]]
    return changed


def test_every_document_of_the_suite_gets_the_validators_answer() -> None:
    seen = 0
    for name, document in _documents():
        try:
            expected = _validators_say(document)
        except (ValueError, TypeError, OverflowError, RecursionError):
            continue  # jsonschema-rs refuses the value itself (a lone surrogate)
        assert conforms(document) == expected, name
        seen += 1
    assert seen > 150  # the conformance documents and the test suite's own


@pytest.mark.parametrize(
    "name", ["valid-support-handoff.ocp.json", "valid-minimal.ocp.json"], ids=str
)
def test_every_one_value_change_of_a_valid_document(name: str) -> None:
    document = json.loads((CONFORMANCE / name).read_text(encoding="utf-8"))
    assert conforms(document) and _validators_say(document)
    changes = failing = 0
    for at in _leaves(document):
        variants: list[object] = []
        if at:
            variants += [_with(document, at, value) for value in REPLACEMENTS]
            if isinstance(at[-1], str):
                variants.append(_without(document, at))
        holder: Any = document
        for token in at:
            holder = holder[token]
        if isinstance(holder, dict):
            variants.append(_with(document, (*at, "undefined_member"), 1) if at else None)
        for variant in variants:
            if variant is None:
                continue
            expected = _validators_say(variant, reference=False)
            assert conforms(variant) == expected, (at, json.dumps(variant)[:300])
            changes += 1
            failing += not expected
    # the changes reach the schema's constraints: most fail it, some are still valid
    assert changes > 100 and 0 < failing < changes


def _screen_of(schema: dict[str, Any]) -> Any:
    """The screen the writer writes for ``schema``, loaded."""
    namespace: dict[str, Any] = {}
    exec(compile(generate(schema), "<screen>", "exec"), namespace)
    return namespace["conforms"]


def test_json_equality_is_not_pythons() -> None:
    check = _screen_of({"enum": [1, "a", [True]]})
    assert check(1) and check(1.0) and check("a") and check([True])
    assert not check(True) and not check([1]) and not check("b")
    integer = _screen_of({"type": "integer"})
    assert integer(2) and integer(2.0) and not integer(True) and not integer(2.5)
    assert not _screen_of({"const": {"a": [1]}})({"a": [True]})
    assert _screen_of({"const": {"a": [1]}})({"a": [1.0]})


@pytest.mark.parametrize(
    "keyword",
    [
        {"else": {}},
        {"patternProperties": {"^x": {}}},
        {"maximum": 3},
        {"$ref": "https://example.org/other.json"},
    ],
    ids=str,
)
def test_a_keyword_it_does_not_implement_is_refused_not_ignored(keyword: dict[str, Any]) -> None:
    with pytest.raises(UnscreenableSchema):
        generate(keyword)


def test_the_shipped_screen_is_what_the_writer_writes_from_the_shipped_schema() -> None:
    """app/schema_checks.py is written from the schema (raising on any keyword it would skip):
    a schema changed without writing the screen again fails here. The fix: make schema-checks."""
    assert TARGET.read_text(encoding="utf-8") == generate(load_schema())


def test_a_schema_that_refers_to_itself_is_screened_as_deep_as_the_value_goes() -> None:
    tree = {
        "$defs": {
            "node": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/node"}}}}
        },
        "$ref": "#/$defs/node",
    }
    check = _screen_of(tree)
    assert check({"kids": [{"kids": [{}]}]}) and not check({"kids": [{"kids": [3]}]})


def _report(path: Path) -> dict[str, Any]:
    return dict(report_dict([FileResult(path.name, lint(path.read_bytes()))]))


def test_a_report_is_the_same_with_and_without_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(CONFORMANCE.glob("*.json"))
    monkeypatch.setattr(analysis, "screen_pays", lambda size: True)
    screened = [_report(path) for path in files]
    monkeypatch.setattr(analysis, "screen_pays", lambda size: False)
    validated = [_report(path) for path in files]
    assert screened == validated
    verdicts = [r["results"][0]["valid"] for r in validated]
    assert any(verdicts) and not all(verdicts)


def _loads_validator(path: Path) -> bool:
    probe = (
        "import sys\nfrom app.cli import main\n"
        f"main(['lint', '--quiet', {str(path)!r}])\n"
        "print('jsonschema_rs' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, cwd=ROOT
    )
    return run.stdout.strip().splitlines()[-1] == "True"


def test_a_linter_run_loads_jsonschema_rs_only_for_a_document_the_screen_fails() -> None:
    assert not _loads_validator(CONFORMANCE / "valid-support-handoff.ocp.json")
    invalid = next(
        CONFORMANCE / case["file"]
        for case in json.loads((CONFORMANCE / "manifest.json").read_text(encoding="utf-8"))
        if case["note"].startswith("schema:")
    )
    assert _loads_validator(invalid)
