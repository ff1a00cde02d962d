"""`ocp lint`: exit codes, standard input, many files, and the four formats."""

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from app.cli import main
from tests.conftest import CONFORMANCE, SHARED

VALID = str(CONFORMANCE / "valid-coding-refactor.ocp.json")
CHILD = str(CONFORMANCE / "valid-coding-refactor-child.ocp.json")
INVALID = str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")
WARNED = str(CONFORMANCE / "rule-W003-awaiting-op-expired.ocp.json")
NOT_JSON = str(CONFORMANCE / "json-nan.ocp.json")
SECRETS = str(CONFORMANCE / "secret-signed-url-bearer.ocp.json")
SARIF_SCHEMA = json.loads((SHARED / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
GNU_LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning) (?P<code>\S+) .+$"
)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_valid_file_exits_0(capsys):
    status, out, _ = run(capsys, "lint", VALID)
    assert status == 0
    assert out.strip().endswith("valid (levels 1–2): 0 errors, 0 warnings")


def test_warnings_alone_still_exit_0(capsys):
    status, out, _ = run(capsys, "lint", WARNED)
    assert status == 0
    assert "warning OCP-W003" in out


def test_invalid_file_exits_1_with_gnu_style_lines(capsys):
    status, out, _ = run(capsys, "lint", INVALID)
    assert status == 1
    finding_lines = [line for line in out.splitlines() if GNU_LINE.match(line)]
    assert len(finding_lines) == 1
    match = GNU_LINE.match(finding_lines[0])
    assert match["code"] == "OCP-S002" and match["sev"] == "error"
    assert match["file"] == INVALID
    # the line and column point at the dangling reference in the file
    text = Path(INVALID).read_text().splitlines()
    line = text[int(match["line"]) - 1]
    assert line[int(match["col"]) - 1] == '"'


def test_missing_file_is_exit_2_not_a_pass(capsys):
    status, _, err = run(capsys, "lint", "/no/such/file.ocp.json")
    assert status == 2
    assert "no such file" in err


def test_missing_file_among_others_still_reports_the_others(capsys):
    status, out, err = run(capsys, "lint", "--format", "json", VALID, "/nope.json", INVALID)
    assert status == 2
    report = json.loads(out)
    assert [r["file"] for r in report["results"]] == [VALID, INVALID]
    assert "/nope.json" in err


def test_directory_and_bad_option_are_usage_errors(capsys, tmp_path):
    assert run(capsys, "lint", str(tmp_path))[0] == 2
    with pytest.raises(SystemExit) as exc:
        main(["lint", "--format", "xml", VALID])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["lint"])
    assert exc.value.code == 2


def test_many_files_one_process_and_the_worst_status_wins(capsys):
    status, out, _ = run(capsys, "lint", "--format", "json", VALID, INVALID, NOT_JSON)
    assert status == 1
    report = json.loads(out)
    assert [r["valid"] for r in report["results"]] == [True, False, False]
    assert report["results"][2]["levels"] == {"syntax": "fail", "semantics": "not_run"}


def test_json_report_matches_the_contract(capsys):
    _, out, _ = run(capsys, "lint", "--format", "json", INVALID)
    report = json.loads(out)
    assert set(report["tool"]) == {"name", "version", "spec_version"}
    assert report["tool"]["spec_version"] == "0.1"
    [result] = report["results"]
    assert result["digest"].startswith("sha-256:") and len(result["digest"]) == 8 + 64
    assert result["levels"] == {"syntax": "pass", "semantics": "fail"}
    [finding] = result["findings"]
    assert {"code", "severity", "path", "line", "column", "message", "help_url"} <= set(finding)
    assert finding["help_url"] == "/rules/OCP-S002"
    assert finding["path"] == "/progress/next/0/blocked_by/0"


def test_standard_input(capsys, monkeypatch):
    import io

    data = Path(INVALID).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(capsys, "lint", "--format", "json", "-")
    assert status == 1
    assert json.loads(out)["results"][0]["file"] == "-"


def test_standard_input_through_the_installed_script():
    ocp = Path(sys.executable).parent / "ocp"
    run_ = subprocess.run(
        [str(ocp), "lint", "--format", "text", "-"],
        input=Path(VALID).read_bytes(),
        capture_output=True,
        timeout=60,
    )
    assert run_.returncode == 0
    assert run_.stdout.decode().startswith("-: valid")


def test_parent_enables_lineage_rules(capsys):
    t001 = str(CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json")
    status, out, _ = run(capsys, "lint", "--format", "json", "--parent", VALID, t001)
    assert status == 1
    codes = [f["code"] for f in json.loads(out)["results"][0]["findings"]]
    assert codes == ["OCP-T001"]
    assert run(capsys, "lint", "--parent", VALID, CHILD)[0] == 0


def test_unusable_parent_is_a_usage_error(capsys):
    status, _, err = run(capsys, "lint", "--parent", NOT_JSON, CHILD)
    assert status == 2
    assert "parent is not a JSON checkpoint" in err
    assert run(capsys, "lint", "--parent", "/nope", CHILD)[0] == 2


def test_sarif_is_valid_sarif_2_1_0_with_described_rules(capsys):
    status, out, _ = run(
        capsys, "lint", "--format", "sarif", "--base-url", "https://ocp.example", INVALID, SECRETS
    )
    assert status == 1
    log = json.loads(out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    [run_] = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {"OCP-S002", "schema", "secret", "json"}
    for rule in rules:
        assert rule["helpUri"] == f"https://ocp.example/rules/{rule['id']}"
        assert rule["fullDescription"]["text"]
    results = run_["results"]
    assert {r["ruleId"] for r in results} == {"OCP-S002", "secret"}
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["partialFingerprints"]["ocpFinding/v1"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    fingerprints = [r["partialFingerprints"]["ocpFinding/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)


def test_sarif_fingerprints_are_stable_across_runs(capsys):
    first = json.loads(run(capsys, "lint", "--format", "sarif", INVALID)[1])
    second = json.loads(run(capsys, "lint", "--format", "sarif", INVALID)[1])
    assert first == second


def test_github_annotations_escape_their_data(capsys):
    status, out, _ = run(capsys, "lint", "--format", "github", INVALID, WARNED)
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"::error file={INVALID},line=")
    assert ",title=OCP-S002::" in lines[0]
    assert any(line.startswith("::warning ") and "title=OCP-W003" in line for line in lines)
    from app.report import _gh_data, _gh_property

    assert _gh_data("50%\nnext") == "50%25%0Anext"
    assert _gh_property("a:b,c") == "a%3Ab%2Cc"


def test_no_traceback_on_hostile_bytes(tmp_path, capsys):
    for i, data in enumerate(
        [b"\xff\xfe\x00", b"{" * 10_000, b'{"a":' + b"1" * 100_000 + b"}", b""]
    ):
        path = tmp_path / f"{i}.json"
        path.write_bytes(data)
        status, out, err = run(capsys, "lint", "--format", "json", str(path))
        assert status == 1
        assert json.loads(out)["results"][0]["findings"][0]["code"] == "json"
        assert "Traceback" not in err
