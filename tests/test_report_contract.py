"""The lint report is what docs/report.md documents and schema/lint-report.schema.json states:
every shape `ocp lint --format json` prints (each conformance case, a parent, a policy, an
unreadable file, a run's own error), the API's answer and the schema as the wheel ships it."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from starlette.testclient import TestClient

from app.cli import main
from app.config import Settings
from app.resources import REPORT_SCHEMA_FILE, report_schema_bytes
from app.rules import RULES
from app.web import create_app
from tests.conftest import CONFORMANCE, ROOT, assert_report, manifest

REPORT_DOC = ROOT / "docs" / "report.md"


def lint_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    status = main(["lint", "--format", "json", *argv])
    out, _ = capsys.readouterr()
    return status, assert_report(out)


def test_every_conformance_case_in_one_run_is_a_documented_report(capsys):
    files = [str(CONFORMANCE / c["file"]) for c in manifest() if not c.get("parent")]
    status, report = lint_json(capsys, *files)
    assert status == 1  # the set holds invalid cases
    assert [r["file"] for r in report["results"]] == files
    codes = {f["code"] for r in report["results"] for f in r["findings"]}
    # the shapes of every kind of finding appear: parse, version, schema, rules, secrets
    assert {"json", "version", "schema", "secret", "OCP-S002", "OCP-W003"} <= codes


@pytest.mark.parametrize(
    "case", [c for c in manifest() if c.get("parent")], ids=lambda c: c["file"]
)
def test_a_pair_is_a_documented_report_with_its_parent_and_notes(capsys, case):
    _, report = lint_json(
        capsys, "--parent", str(CONFORMANCE / case["parent"]), str(CONFORMANCE / case["file"])
    )
    (result,) = report["results"]
    assert result["parent"]["parsed"] is True and "notes" in result


def test_a_policy_s_suppressed_and_ignored_findings_are_documented(capsys, tmp_path, monkeypatch):
    bad = "rule-S002-unresolved-blocked-by.ocp.json"
    shutil.copyfile(CONFORMANCE / bad, tmp_path / bad)
    (tmp_path / "ocp.toml").write_text(
        'ignore = ["OCP-W002"]\n'
        "[[accepted]]\n"
        'code = "OCP-S002"\n'
        'path = "/progress/next/0/blocked_by/0"\n'
        f'file = "{bad}"\n'
        'reason = "the accrual question lives in the ledger"\n'
    )
    monkeypatch.chdir(tmp_path)
    _, report = lint_json(capsys, bad)
    (result,) = report["results"]
    assert [s["reason"] for s in result["suppressed"]] == [
        "the accrual question lives in the ledger"
    ]
    assert isinstance(result["ignored"], int)


def test_an_unreadable_file_and_an_unreadable_parent_are_documented(capsys, tmp_path):
    status, report = lint_json(capsys, str(tmp_path / "missing.ocp.json"))
    assert status == 2
    (result,) = report["results"]
    assert result["valid"] is False and result["error"]
    status, report = lint_json(
        capsys,
        "--parent",
        str(tmp_path / "nope.ocp.json"),
        str(CONFORMANCE / "valid-minimal.ocp.json"),
    )
    assert status == 2 and report["errors"]


def test_a_report_that_strays_from_the_contract_is_caught():
    """The schema is exact: a renamed member, a wrong type or an unknown code fails it."""
    good = json.loads(report_schema_bytes())
    assert good["$defs"]["Finding"]["unevaluatedProperties"] is False
    base = {
        "tool": {"name": "ocp-viewer", "version": "0.1.0", "spec_version": "0.1"},
        "note": "valid means levels 1–2 only",
        "results": [
            {
                "file": "x.ocp.json",
                "valid": True,
                "digest": None,
                "levels": {"syntax": "pass", "semantics": "pass"},
                "counts": {"errors": 0, "warnings": 0},
                "findings": [],
                "omitted": [],
            }
        ],
    }
    assert_report(base)
    finding = {
        "code": "OCP-S002",
        "severity": "error",
        "path": "/a",
        "line": 1,
        "column": 2,
        "end_line": 1,
        "end_column": 5,
        "message": "m",
        "advice": "a",
        "help_url": "/rules/OCP-S002",
    }
    for kept in (finding, {**finding, "help_url": "https://ocp.example.org/v/rules/OCP-S002"}):
        report = json.loads(json.dumps(base))
        report["results"][0]["findings"] = [kept]
        assert_report(report)
    for strayed in (
        {**finding, "pointer": "/a"},
        {**finding, "severity": "fatal"},
        {**finding, "code": "OCP-X001"},
        {**finding, "line": 0},
        {k: v for k, v in finding.items() if k != "help_url"},
        {k: v for k, v in finding.items() if k != "advice"},
        {k: v for k, v in finding.items() if k != "end_column"},
        {**finding, "advice": ""},
        {**finding, "help_url": "https://ocp.example.org/OCP-S002"},
    ):
        report = json.loads(json.dumps(base))
        report["results"][0]["findings"] = [strayed]
        with pytest.raises(AssertionError):
            assert_report(report)


def test_the_api_answers_the_same_documented_report(tmp_path):
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as client:
        for name in ("valid-support-handoff.ocp.json", "rule-W003-awaiting-op-expired.ocp.json"):
            answer = client.post(
                "/api/v1/lint",
                content=(CONFORMANCE / name).read_bytes(),
                headers={"content-type": "application/json"},
            )
            assert answer.status_code == 200
            assert_report(answer.json())


def test_the_schema_ships_in_the_package_and_the_document_names_every_code():
    assert report_schema_bytes() == (ROOT / "schema" / REPORT_SCHEMA_FILE).read_bytes()
    text = REPORT_DOC.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)[^)]*\)", text):  # its links stay in the project
        if "://" not in target:
            resolved = (REPORT_DOC.parent / target).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), target
    members = json.loads(report_schema_bytes())["$defs"]["FindingMembers"]["properties"]
    pattern = re.compile(members["code"]["pattern"])
    for code in RULES:
        assert pattern.fullmatch(code), code
        assert f"`{code}`" in text or code.startswith(("OCP-", "lineage-")), code


@pytest.mark.parametrize("text", [b"", b"\n", b"   \n\n  ", b"\r\n\t", b"{", b'{"a":'])
def test_a_document_that_ends_early_has_a_span_of_one_character(tmp_path, capsys, text):
    """Its error stands where the text ends: the span is one character past it, never empty
    (schema/lint-report.schema.json: end_column is past column on the same line)."""
    path = tmp_path / "short.ocp.json"
    path.write_bytes(text)
    main(["lint", "--format", "json", str(path)])
    [finding] = assert_report(capsys.readouterr().out)["results"][0]["findings"]
    assert finding["end_line"] == finding["line"]
    assert finding["end_column"] == finding["column"] + 1
