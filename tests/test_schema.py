"""Level 1: the hand-authored schema, its two validators, and the findings people read."""

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from app.findings import Finding
from app.resources import schema_bytes
from app.schema import (
    SCHEMA_ID,
    _fast_validator,
    _reference_validator,
    check_schema,
    check_schema_reference,
    load_schema,
)
from tests.conftest import BLNS, CONFORMANCE

ROOT = Path(__file__).resolve().parent.parent
FREE_FORM = {"extensions", "filters", "state", "arguments"}


def _cases() -> list[dict[str, Any]]:
    return json.loads((CONFORMANCE / "manifest.json").read_text(encoding="utf-8"))


def _load(case: dict[str, Any]) -> Any:
    with (CONFORMANCE / case["file"]).open(encoding="utf-8") as handle:
        return json.load(handle)


def _schema_cases() -> list[dict[str, Any]]:
    # json-* and version-* documents never reach the schema (intake and the version gate stop them)
    return [c for c in _cases() if not c["note"].startswith(("json:", "version:"))]


def _parsable_cases() -> list[dict[str, Any]]:
    cases = []
    for case in _cases():
        try:
            _load(case)
        except ValueError:
            continue
        cases.append(case)
    return cases


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["file"] for c in cases]


def _related(a: str, b: str) -> bool:
    """Equal, or one a prefix of the other at a '/' boundary."""
    return a == b or b.startswith(a + "/") or a.startswith(b + "/")


def _keys(findings: list[Finding]) -> set[tuple[str, str]]:
    return {(f.path, f.message) for f in findings}


def minimal() -> dict[str, Any]:
    return _load({"file": "valid-minimal.ocp.json"})


def with_member(name: str, value: Any) -> dict[str, Any]:
    document = minimal()
    document[name] = value
    return document


def statement(**members: Any) -> dict[str, Any]:
    base = {
        "id": "s-1",
        "kind": "observation",
        "text": "The build passes.",
        "origin": {"type": "tool"},
    }
    return {**base, **members}


def operation(**members: Any) -> dict[str, Any]:
    base = {"id": "op-1", "kind": "action", "status": "planned", "description": "Merge the PR."}
    return {**base, **members}


def resource(**members: Any) -> dict[str, Any]:
    return {"id": "r-1", **members}


def _subschemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, child in node.items():
            if key in {"properties", "$defs"}:
                for name, sub in child.items():
                    yield from _subschemas(sub, f"{where}/{key}/{name}")
            elif isinstance(child, dict):
                yield from _subschemas(child, f"{where}/{key}")
            elif isinstance(child, list):
                for i, sub in enumerate(child):
                    yield from _subschemas(sub, f"{where}/{key}/{i}")


# --- the schema itself -----------------------------------------------------------------------


def test_schema_passes_the_draft_2020_12_metaschema() -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema())


def test_schema_id_and_dialect_are_stable() -> None:
    schema = json.loads(schema_bytes())
    assert SCHEMA_ID == "https://opencheckpoint.org/schema/opencheckpoint-0.1.schema.json"
    assert schema["$id"] == SCHEMA_ID
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] and schema["description"]
    assert load_schema() is load_schema()


def test_every_object_is_closed_except_the_free_form_ones() -> None:
    schema = load_schema()
    for where, node in _subschemas(schema):
        if node.get("type") != "object":
            continue
        name = where.rsplit("/", 1)[-1]
        if name in FREE_FORM:
            assert "additionalProperties" not in node, where
        else:
            assert node.get("additionalProperties") is False, where
            assert isinstance(node.get("title"), str), where


def test_every_array_is_never_empty() -> None:
    arrays = [(w, n) for w, n in _subschemas(load_schema()) if n.get("type") == "array"]
    assert arrays
    for where, node in arrays:
        assert node.get("minItems") == 1, where


def test_every_rule_carries_one_sentence() -> None:
    rules = [n for _, n in _subschemas(load_schema()) if "x-ocp-message" in n]
    assert len(rules) == 11
    for rule in rules:
        assert set(rule) <= {"x-ocp-message", "if", "then", "anyOf"}
        assert rule["x-ocp-message"] and "\n" not in rule["x-ocp-message"]


def test_level_1_imports_no_web_framework() -> None:
    code = "import sys, app.schema; sys.exit(bool({'starlette', 'jinja2'} & set(sys.modules)))"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_one_fast_validator_per_process() -> None:
    assert _fast_validator() is _fast_validator()


# --- conformance --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _schema_cases(), ids=_ids(_schema_cases()))
def test_conformance_schema_findings(case: dict[str, Any]) -> None:
    expected = [e["path"] for e in case["errors"] if e["code"] == "schema"]
    findings = check_schema(_load(case))
    for finding in findings:
        assert (finding.code, finding.severity) == ("schema", "error")
        assert finding.line is None and finding.column is None
        assert finding.related, finding
        assert any(_related(finding.path, path) for path in expected), finding
    for path in expected:
        assert any(_related(f.path, path) for f in findings), (path, findings)


@pytest.mark.parametrize("case", _parsable_cases(), ids=_ids(_parsable_cases()))
def test_both_validators_agree(case: dict[str, Any]) -> None:
    document = _load(case)
    fast, reference = check_schema(document), check_schema_reference(document)
    assert _keys(fast) == _keys(reference)
    try:
        fast_valid = _fast_validator().is_valid(document)
    except ValueError:
        # jsonschema-rs cannot take an unpaired surrogate; check_schema fell back (asserted above).
        assert "surrogate" in case["note"]
        return
    assert fast_valid == _reference_validator().is_valid(document) == (not fast)


# --- the rules, in the words people read ------------------------------------------------------

RULE_CASES = [
    (
        "statements",
        statement(kind="instruction", origin={"type": "agent"}),
        "an instruction's origin.type must be user or system",
    ),
    (
        "statements",
        statement(kind="external", origin={"type": "user"}),
        "an external statement's origin.type must not be user or system",
    ),
    ("statements", statement(kind="decision"), "a decision statement needs a rationale"),
    (
        "statements",
        statement(kind="hypothesis", verification={"state": "verified"}),
        "a hypothesis must not be verified: record the confirmation as a new observation and "
        "mark the hypothesis superseded by it",
    ),
    (
        "statements",
        statement(kind="hypothesis", status="resolved", resolution="Yes."),
        "only a question can have status resolved",
    ),
    (
        "statements",
        statement(kind="question", status="resolved"),
        "a resolved question needs a resolution",
    ),
    (
        "statements",
        statement(superseded_by="s-2"),
        "only a superseded statement carries superseded_by (a statement without status is "
        "active): set status to superseded or remove superseded_by",
    ),
    (
        "statements",
        statement(status="active", superseded_by="s-2"),
        "only a superseded statement carries superseded_by (a statement without status is "
        "active): set status to superseded or remove superseded_by",
    ),
    (
        "statements",
        statement(status="superseded"),
        "a superseded statement must name its replacement in superseded_by",
    ),
    (
        "operations",
        operation(status="approved"),
        "approved and rejected operations must be of kind approval and carry an approval record",
    ),
    (
        "operations",
        operation(kind="approval", status="rejected"),
        "approved and rejected operations must be of kind approval and carry an approval record",
    ),
    (
        "operations",
        operation(status="uncertain"),
        "an uncertain operation whose effect is absent, non_idempotent or unknown must have "
        "a resume other than retry",
    ),
    (
        "operations",
        operation(status="uncertain", effect="unknown", resume="retry"),
        "an uncertain operation whose effect is absent, non_idempotent or unknown must have "
        "a resume other than retry",
    ),
    ("resources", resource(kind="file"), "a resource needs a uri, a locator, or both"),
]


@pytest.mark.parametrize(("member", "item", "message"), RULE_CASES)
def test_rule_message(member: str, item: dict[str, Any], message: str) -> None:
    document = with_member(member, [item])
    for check in (check_schema, check_schema_reference):
        findings = check(document)
        assert [(f.path, f.message) for f in findings] == [(f"/{member}/0", message)]


VALID_ITEMS = [
    ("statements", statement(kind="instruction", origin={"type": "user"})),
    ("statements", statement(kind="instruction", origin={"type": "system"})),
    ("statements", statement(kind="external", origin={"type": "external"})),
    ("statements", statement(kind="decision", rationale="Cheaper.")),
    ("statements", statement(kind="hypothesis", verification={"state": "unverified"})),
    ("statements", statement(kind="question", status="resolved", resolution="Yes.")),
    ("statements", statement(status="superseded", superseded_by="s-2")),
    ("statements", statement(status="retracted")),
    ("statements", statement(kind="decision", rationale="Cheaper.", resolution="Done.")),
    (
        "operations",
        operation(
            kind="approval",
            status="approved",
            approval={
                "decided_by": "lead",
                "decided_at": "2026-11-20T07:00:00Z",
                "evidence": ["r"],
            },
        ),
    ),
    ("operations", operation(status="uncertain", effect="idempotent", resume="retry")),
    ("operations", operation(status="uncertain", effect="none")),
    ("operations", operation(status="uncertain", effect="non_idempotent", resume="verify_first")),
    ("operations", operation(kind="input", call={"tool": "ask_user", "arguments": {"q": 1}})),
    ("resources", resource(uri="erp:invoice/42")),
    ("resources", resource(locator={"system": "SAP", "type": "invoice", "key": "42"})),
    ("resources", resource(uri="x:1", excerpt="é" * 4096)),
    ("application_context", {"application": "Excel", "drafts": [{"status": "saved"}]}),
]


@pytest.mark.parametrize(("member", "item"), VALID_ITEMS)
def test_what_the_field_model_allows_is_valid(member: str, item: dict[str, Any]) -> None:
    document = with_member(member, [item])
    assert check_schema(document) == []
    assert check_schema_reference(document) == []


def test_should_rules_are_never_schema_errors() -> None:
    requirement = {"id": "q-1", "kind": "extension", "description": "x", "necessity": "required"}
    assert check_schema(with_member("continuation", {"requirements": [requirement]})) == []


def test_format_is_an_annotation_only() -> None:
    # matches the pattern, is no real date-time: §8.1 forbids rejecting it for its format
    document = with_member("created_at", "2026-13-45T25:61:61Z")
    assert check_schema(document) == check_schema_reference(document) == []


# --- one finding per problem, at the deepest useful place -------------------------------------


def test_a_decision_without_rationale_is_one_finding() -> None:
    document = with_member("statements", [statement(kind="decision")])
    [finding] = check_schema(document)
    assert finding.path == "/statements/0"
    assert len(finding.related) == 1
    assert finding.to_dict()["related_errors"] == 1


def test_a_cascade_collapses_into_one_finding_that_counts_its_errors() -> None:
    document = with_member("operations", [operation(status="approved")])
    [finding] = check_schema(document)
    assert finding.path == "/operations/0"
    assert len(finding.related) == 2  # kind is not approval, and no approval record
    assert finding.to_dict()["related_errors"] == 2


def test_unknown_member_is_reported_at_the_closed_object() -> None:
    document = with_member("statements", [statement(foo=1)])
    [finding] = check_schema(document)
    assert finding.path == "/statements/0"
    assert finding.message == (
        "unknown member 'foo' in this statement; statements are closed: put extension data in "
        "extensions under a namespaced key"
    )


def test_unknown_member_of_an_object_without_extensions_lists_its_members() -> None:
    document = with_member("statements", [statement(origin={"type": "tool", "who": "x"})])
    [finding] = check_schema(document)
    assert finding.path == "/statements/0/origin"
    assert finding.message == (
        "unknown member 'who' in this origin; an origin has only the members type, name and ref"
    )


def test_each_unknown_member_is_its_own_finding() -> None:
    document = minimal()
    document.update(notes="x", tags=[])
    findings = check_schema(document)
    assert [f.path for f in findings] == ["", ""]
    assert ["'notes'" in findings[0].message, "'tags'" in findings[1].message] == [True, True]


def test_missing_members_are_reported_at_the_object() -> None:
    document = minimal()
    document["task"] = {}
    [finding] = check_schema(document)
    assert finding.path == "/task"
    assert finding.message == "this task is missing its required members 'objective' and 'status'"
    del document["task"]
    assert [f.message for f in check_schema(document)] == [
        "this checkpoint is missing its required member 'task'"
    ]


def test_enum_names_the_field_and_its_values() -> None:
    document = minimal()
    document["task"]["status"] = "foo"
    [finding] = check_schema(document)
    assert finding.path == "/task/status"
    assert finding.message == (
        "'foo' is not a task status; use one of active, blocked, awaiting_input, paused, "
        "completed, abandoned"
    )


def test_bad_extension_key_is_reported_at_the_key() -> None:
    document = with_member("extensions", {"com.example.ok": 1, "MyExt": {"a": 1}})
    for check in (check_schema, check_schema_reference):
        [finding] = check(document)
        assert finding.path == "/extensions/MyExt"
        assert finding.message.startswith("extension key 'MyExt' is not namespaced")
        assert "com.example.crm" in finding.message


@pytest.mark.parametrize(
    ("member", "value", "path", "message"),
    [
        (
            "progress",
            {"completed": [{"id": "step one", "description": "x"}]},
            "/progress/completed/0/id",
            "'step one' is not a valid local id: use 1 to 128 letters, digits, '.', '_', ':' or "
            "'-', starting with a letter or digit, for example 'step-1'",
        ),
        (
            "created_at",
            "2026-11-20T08:00:00",
            "/created_at",
            "timestamp '2026-11-20T08:00:00' has no offset: end it with Z or +hh:mm / -hh:mm, "
            "for example 2026-11-20T08:00:00Z",
        ),
        (
            "created_at",
            "20 November 2026",
            "/created_at",
            "'20 November 2026' is not a valid timestamp: write an RFC 3339 date-time with an "
            "explicit offset, for example 2026-11-20T08:00:00Z or 2026-11-20T09:00:00+01:00",
        ),
        (
            "parent",
            {"id": "urn:x", "digest": "sha-256:" + "AB" * 32},
            "/parent/digest",
            f"the hex digits of digest '{('sha-256:' + 'AB' * 32)[:59]}…' must be lowercase",
        ),
        (
            "parent",
            {"id": "urn:x", "digest": "sha-384:" + "ab" * 32},
            "/parent/digest",
            f"'{('sha-384:' + 'ab' * 32)[:59]}…' is not a valid digest: write sha-256, "
            "sha-384 or sha-512, a colon and the hash in lowercase hex (64, 96 or 128 digits), "
            "for example "
            "sha-256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ),
        (
            "statements",
            [],
            "/statements",
            "'statements' in this checkpoint is an empty list; list at least one statement or "
            "leave the member out",
        ),
        (
            "opencheckpoint",
            0.1,
            "/opencheckpoint",
            "'opencheckpoint' in this checkpoint must be \"0.1\"",
        ),
        (
            "id",
            "",
            "/id",
            "'id' in this checkpoint is an empty string; write the text",
        ),
        (
            "resources",
            [resource(uri="x:1", excerpt="x" * 4097)],
            "/resources/0/excerpt",
            "'excerpt' in this resource is 4097 characters long, over the limit of 4096; keep a "
            "short excerpt and reference the full content as a resource",
        ),
        (
            "statements",
            ["just text"],
            "/statements/0",
            "item 0 of 'statements' must be a statement (a JSON object), not a string",
        ),
    ],
)
def test_keyword_messages(member: str, value: Any, path: str, message: str) -> None:
    document = with_member(member, value)
    for check in (check_schema, check_schema_reference):
        assert [(f.path, f.message) for f in check(document)] == [(path, message)]


def test_patterns_follow_ecma_262_dollar() -> None:
    # Python's re lets $ match before a final newline; JSON Schema patterns do not.
    document = with_member("statements", [statement(id="s-1\n")])
    assert [f.path for f in check_schema(document)] == ["/statements/0/id"]
    assert _keys(check_schema(document)) == _keys(check_schema_reference(document))


def test_quoted_values_are_capped() -> None:
    document = minimal()
    document["task"]["status"] = "x" * 1_000_000
    document["created_at"] = "y" * 1_000_000
    findings = check_schema(document)
    assert len(findings) == 2
    for finding in findings:
        assert len(finding.message) < 300
        assert all(len(raw) <= 200 for raw in finding.related)


def test_findings_follow_document_order() -> None:
    document = minimal()
    document["task"]["status"] = "done"
    document["created_at"] = "soon"
    document["statements"] = [statement(kind="decision"), statement(id="a b")]
    assert [f.path for f in check_schema(document)] == [
        "/created_at",
        "/task/status",
        "/statements/0",
        "/statements/1/id",
    ]


# --- any value a JSON parser can produce ------------------------------------------------------


@pytest.mark.parametrize("value", [2**53, 2**80, -(2**80), 10**300, 1e308, -0.0, 5e-324])
def test_huge_and_odd_numbers_do_not_raise(value: object) -> None:
    document = with_member("extensions", {"com.example.ledger": {"n": value, "l": [value]}})
    assert check_schema(document) == []
    document["task"]["status"] = value
    fast, reference = check_schema(document), check_schema_reference(document)
    assert [f.path for f in fast] == ["/task/status"]
    assert _keys(fast) == _keys(reference)


def test_deep_nesting_does_not_raise() -> None:
    deep: Any = "leaf"
    for level in range(64):
        deep = {"k": deep} if level % 2 else [deep]
    document = with_member("extensions", {"com.example.deep": deep})
    assert check_schema(document) == []
    document["task"]["objective"] = deep
    [finding] = check_schema(document)
    assert finding.path == "/task/objective"
    assert _keys([finding]) == _keys(check_schema_reference(document))


def test_nesting_past_the_validators_limits_does_not_raise() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    document = with_member("extensions", {"com.example.deep": deep})
    document["bogus"] = 1
    [finding] = check_schema(document)
    assert finding.path == "" and "'bogus'" in finding.message
    document["task"] = deep
    assert check_schema(document)  # one clear finding, never a crash


@pytest.mark.parametrize("top", [[], [1, 2], "text", 0, 2**80, 1.5, True, None])
def test_a_top_level_that_is_not_an_object_does_not_raise(top: object) -> None:
    [finding] = check_schema(top)
    assert finding.path == ""
    assert finding.message.startswith("the document must be a checkpoint (a JSON object), not ")
    assert _keys([finding]) == _keys(check_schema_reference(top))


def test_unpaired_surrogates_fall_back_to_the_reference() -> None:
    document = json.loads(json.dumps(with_member("statements", [statement(kind="bogus")])))
    document["statements"][0]["text"] = "\ud800"
    document["extensions"] = {"\udfff": 1}
    findings = check_schema(document)
    assert _keys(findings) == _keys(check_schema_reference(document))
    assert {f.path for f in findings} == {"/statements/0/kind", "/extensions/\udfff"}


def test_naughty_strings_do_not_raise() -> None:
    strings = [s for s in json.loads(BLNS.read_text(encoding="utf-8")) if isinstance(s, str)]
    document = minimal()
    document["statements"] = [statement(id=f"s-{i}", text=s) for i, s in enumerate(strings) if s]
    document["extensions"] = dict.fromkeys(strings, 1)
    document["task"]["status"] = strings[-1]
    fast = check_schema(copy.deepcopy(document))
    assert _keys(fast) == _keys(check_schema_reference(document))
    assert all(f.path.startswith(("/extensions/", "/task/status")) for f in fast)


def _many_mistakes() -> dict[str, Any]:
    """A document making each mistake many times over, with values that differ and values
    that repeat, in objects and array items: what a message kept for the same mistake must
    tell apart."""
    document = _load({"file": "valid-support-handoff.ocp.json"})
    statements = document["statements"]
    base = statements[0]
    for i in range(60):
        kind = ("rumour", "gossip", "rumour", 7, None, ["x"])[i % 6]
        statement = {**base, "id": f"s-x{i}", "kind": kind}
        if i % 4 == 0:
            statement.pop("origin", None)
        if i % 5 == 0:
            statement["text"] = ""
        if i % 9 == 0:
            del statement["text"]  # one statement missing two members, another missing one
        statements.append(statement)
    document["resources"] = [
        {"id": f"r-{i}", "kind": ("file", "disk", 3)[i % 3], "uri": ("a", "", None)[i % 3]}
        for i in range(40)
    ]
    for i, resource in enumerate(document["resources"]):
        if i % 7 == 0:
            del resource["uri"]  # a rule's finding at an item, each told where it is
    return document


def test_a_mistake_made_many_times_reads_as_each_one_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The messages of a thousand findings of one mistake are built once (`_message_key`):
    each still names its own place, value and what is missing, as built one by one."""
    import app.schema as schema_module

    document = _many_mistakes()
    kept = [(f.path, f.message) for f in check_schema(document)]
    listed = [(f.path, f.message) for f in check_schema(document, 1000).findings]
    monkeypatch.setattr(schema_module, "_message_key", lambda *_: None)
    alone = [(f.path, f.message) for f in check_schema(document)]
    assert len(alone) > 120
    assert kept == alone
    assert listed == alone
    assert len({message for _, message in alone}) > 10
