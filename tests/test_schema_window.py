"""Level 1 in windows (app/schema.py): a long array checked an item at a time gives exactly the
findings of the whole document, and a report stops checking once its listing is known, saying
"at least" of what it only counted."""

import copy
import json
from typing import Any

import jsonschema_rs
import pytest
from starlette.testclient import TestClient

from app import schema as schema_module
from app.analysis import lint
from app.config import Settings
from app.findings import MAX_PER_CODE, Omitted, merge_omitted
from app.report import FileResult, format_github, format_json, format_sarif, format_text
from app.schema import (
    LONG,
    _collect,
    _fast_validator,
    _raw_from_rust,
    _RawError,
    _Tally,
    _windowed,
    _Windowing,
    _windowing,
    check_schema,
    check_schema_reference,
    load_schema,
)
from app.web import create_app
from tests.conftest import CONFORMANCE

SMALL = 3  # arrays longer than this are windowed by `_small`: small documents show every shape


def minimal() -> dict[str, Any]:
    return json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())


def statement(i: int, **members: Any) -> dict[str, Any]:
    base = {"id": f"s-{i}", "kind": "observation", "text": "seen", "origin": {"type": "tool"}}
    return {**base, **members}


def operation(i: int, **members: Any) -> dict[str, Any]:
    base = {"id": f"op-{i}", "kind": "action", "status": "planned", "description": "Merge."}
    return {**base, **members}


def _small() -> _Windowing:
    return _Windowing(load_schema(), _fast_validator(), long=SMALL)


def _keys(findings: list[Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(f.path, f.message, f.related) for f in findings]


# --- documents of each shape ---------------------------------------------------------------------


def _failing_statements(n: int) -> dict[str, Any]:
    """bench/worst.py's schema-errors: each statement fails twice (an unknown kind, no origin)."""
    document = minimal()
    document["statements"] = [{"id": f"s-{i}", "kind": "rumour", "text": "x"} for i in range(n)]
    return document


def _late_errors() -> dict[str, Any]:
    """Errors only past the first items, and before and after the long array."""
    document = minimal()
    document["task"]["status"] = "sleeping"
    document["statements"] = [statement(i) for i in range(40)]
    document["statements"][25]["kind"] = "rumour"
    document["statements"][39]["origin"] = {"type": "gossip"}
    document["zzz"] = 1  # an unknown member written after the statements
    return document


def _two_arrays() -> dict[str, Any]:
    document = minimal()
    document["statements"] = [
        statement(i, kind="rumour" if i % 3 else "observation") for i in range(12)
    ]
    document["operations"] = [
        operation(i, status="maybe" if i % 2 else "planned") for i in range(9)
    ]
    document["operations"][4]["effect"] = 7
    return document


def _rules_in_items() -> dict[str, Any]:
    """Rules (if/then) fail inside windowed items, as a cascade collapsed into one finding."""
    document = minimal()
    document["statements"] = [
        statement(0, kind="decision"),  # no rationale
        statement(1, kind="instruction", origin={"type": "agent"}),
        statement(2, status="resolved"),
        statement(3, superseded_by="s-0"),
        statement(4, kind="hypothesis", verification={"state": "verified"}),
        statement(5, extensions={"Not-Namespaced": 1, "com.example.ok": 2}),
        statement(6, surplus=True, other=None),
        statement(7, text=""),
    ]
    return document


def _nested_long_arrays() -> dict[str, Any]:
    """Long arrays inside the items of a long array, and inside a short one."""
    document = minimal()
    document["statements"] = [
        statement(i, evidence=[f"e-{j}" if (i + j) % 4 else j for j in range(7)]) for i in range(6)
    ]
    document["operations"] = [operation(0, depends_on=[1, "op-2", None, "x", 2.5])]
    return document


def _odd_items() -> dict[str, Any]:
    """Items that are not objects; an array where an object belongs; empty arrays."""
    document = minimal()
    document["statements"] = [1, "two", None, [statement(0)], statement(4), {"id": 5}, True]
    document["resources"] = []
    document["progress"] = {"completed": [{"description": ""}] * 5, "next": []}
    document["source"]["session_refs"] = [{"protocol": "p"}] * 6
    return document


def _wide_extensions() -> dict[str, Any]:
    """Extensions objects with more members than a long array has items, names good and bad
    mixed, at the top and in a statement: checked a part at a time."""
    document = minimal()
    names = [f"com.example.k{i}" if i % 3 else f"Bad_{i}" for i in range(100)]
    document["extensions"] = {name: i for i, name in enumerate(names)}
    document["statements"] = [
        statement(0, extensions={name: [i] for i, name in enumerate(reversed(names))}),
        statement(1, text=""),
    ]
    return document


SHAPES = {
    "wide extensions": _wide_extensions(),
    "failing statements": _failing_statements(20),
    "late errors": _late_errors(),
    "two long arrays": _two_arrays(),
    "rules in items": _rules_in_items(),
    "nested long arrays": _nested_long_arrays(),
    "odd items": _odd_items(),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_windowed_findings_are_the_whole_documents(name: str) -> None:
    document = SHAPES[name]
    whole = check_schema(document)
    assert whole  # every shape fails the schema
    for windowing in (_small(), _windowing()):
        checked = _windowed(windowing, copy.deepcopy(document), None)
        assert _keys(checked.findings) == _keys(whole)
        assert checked.more == 0  # checked to the end: the count is exact
    # and the same findings as the reference implementation's
    reference = check_schema_reference(document)
    assert {(f.path, f.message) for f in reference} == {(f.path, f.message) for f in whole}


@pytest.mark.parametrize("name", list(SHAPES))
@pytest.mark.parametrize("limit", [1, 2, 5, 9])
def test_a_listing_stopped_early_is_the_whole_documents_first(name: str, limit: int) -> None:
    document = SHAPES[name]
    whole = check_schema(document)
    checked = _windowed(_small(), document, limit)
    listed = [f for f in checked.findings if f.message]
    assert _keys(listed) == _keys(whole[:limit])  # in document order
    counted = len(checked.findings) - len(listed) + checked.more
    # what was only counted is a lower bound of what was not listed, exact when all was checked
    assert counted <= len(whole) - len(listed)
    if checked.more == 0:
        assert counted == len(whole) - len(listed)
    assert counted > 0 or len(whole) <= limit


def test_a_wide_object_of_bad_names_is_read_to_the_limit_then_only_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the first ``limit`` findings, a wide object's parts are only checked for whether
    they fail, as a long array's items are: 179,000 bad extension names were each explained,
    26 s for a 4.4 MB document whose report lists 1,000."""
    document = minimal()
    document["extensions"] = {f"Bad_{i}": i for i in range(2000)}
    first = [f.path for f in check_schema(document)[:10]]
    explained: list[object] = []
    real = schema_module._explain

    def counting(document: object, error: Any, messages: Any) -> Any:
        explained.append(error)
        return real(document, error, messages)

    monkeypatch.setattr(schema_module, "_explain", counting)
    checked = _windowed(_windowing(), document, 10)
    listed = [f for f in checked.findings if f.message]
    assert [f.path for f in listed] == first
    assert len(explained) < 10 + 2 * LONG  # the parts holding the first ten, no more
    # each part left holds at least one bad name: counted, as a lower bound
    assert checked.more >= (2000 - 10 - 2 * LONG) // LONG
    assert checked.unlisted[0].at_least


def test_paths_and_messages_of_late_items_are_their_own_places() -> None:
    document = minimal()
    document["statements"] = [statement(i) for i in range(6000)]
    document["statements"][5000]["kind"] = "rumour"
    document["statements"][5999]["evidence"] = ["e-1", 2]
    checked = check_schema(document, MAX_PER_CODE)
    assert checked.more == 0
    assert [(f.path, f.message) for f in checked.findings] == [
        (
            "/statements/5000/kind",
            "'rumour' is not a statement kind; use one of instruction, constraint, decision, "
            "observation, hypothesis, question, external",
        ),
        (
            "/statements/5999/evidence/1",
            "item 1 of 'evidence' must be a local id reference (a string), not a number",
        ),
    ]
    assert _keys(checked.findings) == _keys(check_schema(document))


def test_a_long_failing_array_is_listed_to_the_cap_and_counted_at_least() -> None:
    document = _failing_statements(MAX_PER_CODE)  # 2,000 findings, two a statement
    whole = check_schema(document)
    checked = check_schema(document, MAX_PER_CODE)
    assert _keys(checked.findings[:MAX_PER_CODE]) == _keys(whole[:MAX_PER_CODE])
    # the listing ends inside statement 499: statements 500 to 999 are each counted once
    assert len(checked.findings) == MAX_PER_CODE
    assert checked.more == 500
    assert checked.unlisted == (Omitted("schema", "error", 500, at_least=True),)


def test_errors_in_two_long_arrays_are_listed_in_document_order() -> None:
    document = minimal()
    document["operations"] = [operation(i, kind="guess") for i in range(60)]
    document["statements"] = [statement(i, kind="rumour") for i in range(60)]  # written after
    checked = check_schema(document, 70)
    paths = [f.path for f in checked.findings if f.message]
    assert paths == [f"/operations/{i}/kind" for i in range(60)] + [
        f"/statements/{i}/kind" for i in range(10)
    ]
    assert checked.more == 50


# --- the lower bound in every output ---------------------------------------------------------


@pytest.fixture(scope="module")
def bounded() -> Any:
    data = json.dumps(_failing_statements(MAX_PER_CODE + 500)).encode()
    return lint(data)


def test_the_report_says_at_least(bounded: Any) -> None:
    [omitted] = bounded.omitted
    assert omitted == Omitted("schema", "error", 1000, at_least=True)
    assert bounded.errors == 2000 and not bounded.valid  # a lower bound of the 3,000
    report = json.loads(format_json([FileResult("doc.json", bounded)]))
    [result] = report["results"]
    assert result["omitted"] == [
        {"code": "schema", "severity": "error", "count": 1000, "at_least": True}
    ]
    assert result["counts"] == {"errors": 2000, "warnings": 0, "errors_at_least": True}
    text = format_text([FileResult("doc.json", bounded)])
    assert (
        "doc.json: at least 1,000 more schema errors not listed: a report lists the first" in text
    )
    assert text.endswith("doc.json: invalid: at least 2000 errors, 0 warnings\n")
    sarif = json.loads(format_sarif([FileResult("doc.json", bounded)]))
    [note] = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["message"]["text"].startswith("doc.json: at least 1,000 more schema errors")
    github = format_github([FileResult("doc.json", bounded)])
    assert "::notice file=doc.json,title=schema::at least 1,000 more schema errors" in github


def test_the_page_and_the_api_say_at_least() -> None:
    data = json.dumps(_failing_statements(MAX_PER_CODE + 500))
    with TestClient(create_app(Settings())) as client:
        page = client.post("/view", data={"checkpoint": data})
        assert page.status_code == 200
        assert "at least 1,000 more schema errors not listed" in page.text
        api = client.post(
            "/api/v1/lint", content=data, headers={"content-type": "application/json"}
        ).json()["results"][0]
    assert api["counts"] == {"errors": 2000, "warnings": 0, "errors_at_least": True}
    assert api["omitted"] == [
        {"code": "schema", "severity": "error", "count": 1000, "at_least": True}
    ]


def test_an_exact_count_says_no_at_least() -> None:
    result = lint(json.dumps(_failing_statements(10)).encode())
    assert result.omitted == ()
    report = json.loads(format_json([FileResult("doc.json", result)]))
    assert report["results"][0]["counts"] == {"errors": 20, "warnings": 0}
    assert "at least" not in format_text([FileResult("doc.json", result)])


def test_a_merge_with_a_lower_bound_is_a_lower_bound() -> None:
    exact = Omitted("OCP-S002", "error", 3)
    bound = Omitted("schema", "error", 5, at_least=True)
    assert merge_omitted([exact, bound], [Omitted("schema", "error", 2)]) == (
        exact,
        Omitted("schema", "error", 7, at_least=True),
    )
    assert exact.to_dict() == {"code": "OCP-S002", "severity": "error", "count": 3}


# --- what forbids windows ------------------------------------------------------------------------

LIST = {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/entry"}}
ENTRY = {
    "type": "object",
    "required": ["n"],
    "additionalProperties": False,
    "properties": {
        "n": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
}


def _schema(**lists: Any) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/window-test.json",
        "type": "object",
        "properties": lists,
        "$defs": {"entry": ENTRY},
    }


class _Raw(_Tally):
    """Raw errors as they come, without the humanizer (which reads the project's schema)."""

    def __init__(self, document: object) -> None:
        super().__init__(document, None)
        self.raw: list[_RawError] = []

    def add(self, errors: Any) -> None:
        self.raw.extend(errors)


def _raw_keys(errors: list[_RawError]) -> list[tuple[Any, ...]]:
    keys = [(e.instance_path, e.schema_path, e.message, e.key) for e in errors]
    return sorted(keys, key=repr)


def _windowed_raw(schema: dict[str, Any], document: object) -> list[tuple[Any, ...]]:
    validator = jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    windowing = _Windowing(schema, validator, long=SMALL)
    tally = _Raw(document)
    _collect(windowing, tally, windowing.root, document, (), validator, ())
    return _raw_keys(tally.raw)


def _entries() -> list[Any]:
    return [{"n": 1}, {"n": "two"}, {"m": 3}, {"n": 4, "tags": [1, "a", 2, 3, 4]}, 5, {"n": 1}]


@pytest.mark.parametrize(
    "governed",
    [
        {**LIST, "maxItems": 100},
        {**LIST, "uniqueItems": True},
        {**LIST, "contains": {"required": ["m"]}},
        {**LIST, "minContains": 2, "contains": {"required": ["m"]}},
        {**LIST, "prefixItems": [{"type": "object"}]},
        {**LIST, "unevaluatedItems": False},
        {"allOf": [LIST, {"items": {"required": ["m"]}}]},
        {"anyOf": [LIST, {"type": "null"}]},
        {"$ref": "#/$defs/list", "maxItems": 9},
        {"items": {"$ref": "#/$defs/entry"}, "minItems": 10},  # more than the long arrays' items
    ],
    ids=lambda s: ",".join(sorted(k for k in s if k != "items")),
)
def test_an_array_governed_by_another_keyword_is_validated_whole(governed: dict[str, Any]) -> None:
    schema = _schema(plain=LIST, governed=governed)
    schema["$defs"]["list"] = LIST
    validator = jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    windowing = _Windowing(schema, validator, long=SMALL)
    document = {"plain": _entries(), "governed": _entries()}
    paths = [a.path for a in windowing.long_arrays(windowing.root, document)]
    assert paths[0] == ("plain",)
    assert not any(path[0] == "governed" for path in paths if len(path) == 1)
    whole = _raw_keys([_raw(e) for e in validator.iter_errors(document)])
    assert _windowed_raw(schema, document) == whole


@pytest.mark.parametrize(
    "holder",
    [
        {"enum": [{}]},
        {"const": {}},
        {"not": {"required": ["x"]}},
        {"anyOf": [{"required": ["list"]}]},
        {"oneOf": [{"required": ["list"]}]},
        {"maxProperties": 0},
        {"type": "array"},
        {"if": {"properties": {"list": {"maxItems": 2}}}, "then": {"required": ["x"]}},
        {"patternProperties": {"^l": {}}},
    ],
    ids=lambda s: ",".join(sorted(s)),
)
def test_an_object_that_reads_or_quotes_a_long_array_keeps_it_whole(holder: dict[str, Any]) -> None:
    schema = _schema(holder={"type": "object", "properties": {"list": LIST}, **holder})
    validator = jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    windowing = _Windowing(schema, validator, long=SMALL)
    document = {"holder": {"list": _entries()}}
    assert windowing.long_arrays(windowing.root, document) == []
    assert _windowed_raw(schema, document) == _raw_keys(
        [_raw(e) for e in validator.iter_errors(document)]
    )


def test_windowed_raw_errors_are_the_whole_documents_through_allof_and_refs() -> None:
    schema = _schema(
        plain=LIST,
        referred={"$ref": "#/$defs/list"},
        held={"allOf": [{"properties": {"inner": LIST}}, {"required": ["inner"]}]},
    )
    schema["$defs"]["list"] = LIST
    validator = jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    windowing = _Windowing(schema, validator, long=SMALL)
    document = {"plain": _entries(), "referred": _entries(), "held": {"inner": _entries()}}
    found = [a.path for a in windowing.long_arrays(windowing.root, document)]
    assert found == [("plain",), ("referred",), ("held", "inner")]
    assert _windowed_raw(schema, document) == _raw_keys(
        [_raw(e) for e in validator.iter_errors(document)]
    )


def _raw(error: jsonschema_rs.ValidationError) -> _RawError:
    return _raw_from_rust(error)


@pytest.mark.parametrize(
    "names",
    [
        {"pattern": "^[a-z]+$", "maxLength": 3, "not": {"const": "zz"}},  # written in place
        {"$ref": "#/$defs/name"},  # through a $ref
        {"allOf": [{"pattern": "^[a-z]"}, {"minLength": 2}]},
        False,  # no name at all: one error quoting the object, which is checked whole
    ],
)
def test_a_wide_object_s_names_are_explained_as_the_whole_document_s(names: Any) -> None:
    """A wide object checked by name only has each failing part explained name by name, by the
    propertyNames subschema's own validator: the raw errors (place, schema path, message, the
    name) are those of the whole document, in its order."""
    schema = _schema(wide={"type": "object", "propertyNames": names})
    schema["$defs"]["name"] = {"type": "string", "pattern": "^[a-z]+$", "maxLength": 3}
    members = ["ab", "ABCDE", "zz", "a", "toolong", "Q", "ok", "x1"] * 2
    document = {"wide": {f"{name}{i}" if i >= 8 else name: i for i, name in enumerate(members)}}
    validator = jsonschema_rs.Draft202012Validator(schema, validate_formats=False)
    windowing = _Windowing(schema, validator, long=SMALL)
    windowed = [a.by_name for a in windowing.long_arrays(windowing.root, document)]
    assert windowed == ([True] if names is not False else [])
    whole = [_raw(e) for e in validator.iter_errors(document)]
    assert whole and _windowed_raw(schema, document) == _raw_keys(whole)
