"""What a JSON finding says beyond its start: the end of its value (code points, as its
column), the advice apart from the message, an absolute help_url when the run knows a
service; and SARIF's informationUri, present with or without one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.finding_advice import split_advice
from app.project import DOCUMENTATION_URL
from tests.conftest import CONFORMANCE, assert_report

INVALID = str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")
LEAK = str(CONFORMANCE / "secret-aws-pem-github.ocp.json")
BASE = "https://ocp.example.test/viewer"


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    main(["lint", "--format", "json", *argv])
    return assert_report(capsys.readouterr().out)


def sarif(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    main(["lint", "--format", "sarif", *argv])
    return json.loads(capsys.readouterr().out)["runs"][0]


def with_emoji(tmp_path: Path) -> Path:
    """An unresolved reference after two characters beyond U+FFFF on its line, and one
    inside it: code points and UTF-16 code units differ before and within the value."""
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["progress"] = {"next": [{"description": "😀😀", "blocked_by": ["no-such-😀-step"]}]}
    text = json.dumps(document, ensure_ascii=False)  # one line: the emoji before the value
    path = tmp_path / "emoji.ocp.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_finding_ends_where_its_value_ends_in_code_points(capsys, tmp_path):
    path = with_emoji(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    (result,) = report(capsys, str(path))["results"]
    (finding,) = [f for f in result["findings"] if f["code"] == "OCP-S002"]
    line = lines[finding["line"] - 1]
    value = line[finding["column"] - 1 : finding["end_column"] - 1]
    assert value == '"no-such-😀-step"'  # code points: Python's own indexing
    assert finding["end_line"] == finding["line"]
    # SARIF counts the same region in UTF-16 code units: the emoji is two of them
    (s002,) = [r for r in sarif(capsys, str(path))["results"] if r["ruleId"] == "OCP-S002"]
    region = s002["locations"][0]["physicalLocation"]["region"]
    assert region["endColumn"] - region["startColumn"] == len(value) + 1


def test_a_finding_without_a_place_has_no_end(capsys, tmp_path):
    path = tmp_path / "bad.ocp.json"
    path.write_bytes(b"[]")
    (result,) = report(capsys, str(path))["results"]
    for finding in result["findings"]:
        if finding["line"] is None:
            assert finding["end_line"] is None and finding["end_column"] is None
        else:
            assert finding["end_column"] > finding["column"]


def test_the_advice_is_its_own_member_and_text_still_prints_both(capsys):
    (result,) = report(capsys, INVALID)["results"]
    (finding,) = result["findings"]
    assert (
        finding["message"] == "blocked_by names 's-q-accrual-ap', but no local object has that id"
    )
    assert finding["advice"] == "add the object it means or correct the id"
    main(["lint", INVALID])
    out = capsys.readouterr().out
    assert f"{finding['message']}; {finding['advice']}" in out


def test_every_credential_finding_says_what_to_do(capsys):
    (result,) = report(capsys, "--fail-on", "none", LEAK)["results"]
    for finding in result["findings"]:
        assert finding["message"].startswith("this value looks like")
        assert finding["advice"].startswith("remove the credential")


@pytest.mark.parametrize(
    ("message", "problem", "advice"),
    [
        ("no advice here", "no advice here", None),
        ("'a; b' is not a status; use one of x, y", "'a; b' is not a status", "use one of x, y"),
        ('member "k; v" twice; keep one', 'member "k; v" twice', "keep one"),
        (
            "the agent's note 'n; 1' cites none; add it",
            "the agent's note 'n; 1' cites none",
            "add it",
        ),
        ("'don't; stop' is odd; fix it", "'don't; stop' is odd", "fix it"),
        ("ends with a break; ", "ends with a break; ", None),
    ],
)
def test_the_advice_starts_at_the_first_break_outside_a_quoted_value(message, problem, advice):
    assert split_advice(message) == (problem, advice)


def test_help_url_is_absolute_with_a_base_url_or_the_public_url(capsys, monkeypatch):
    monkeypatch.delenv("OCP_PUBLIC_URL", raising=False)
    (result,) = report(capsys, INVALID)["results"]
    assert result["findings"][0]["help_url"] == "/rules/OCP-S002"  # no service: its path
    (result,) = report(capsys, "--base-url", BASE + "/", INVALID)["results"]
    assert result["findings"][0]["help_url"] == f"{BASE}/rules/OCP-S002"
    monkeypatch.setenv("OCP_PUBLIC_URL", BASE)
    (result,) = report(capsys, INVALID)["results"]
    assert result["findings"][0]["help_url"] == f"{BASE}/rules/OCP-S002"


def test_sarif_names_an_information_uri_with_or_without_a_service(capsys, monkeypatch):
    monkeypatch.delenv("OCP_PUBLIC_URL", raising=False)
    run = sarif(capsys, INVALID)
    assert run["tool"]["driver"]["informationUri"] == DOCUMENTATION_URL
    assert DOCUMENTATION_URL.startswith("https://")
    assert run["columnKind"] == "utf16CodeUnits"  # said, not left to the default
    run = sarif(capsys, "--base-url", BASE, INVALID)
    assert run["tool"]["driver"]["informationUri"] == f"{BASE}/rules"
