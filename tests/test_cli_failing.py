"""Why a run fails: an apparent credential fails `ocp lint` by default (fail-on's default is
secret), a project turns that off, and every format says why the run failed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from app.cli import main
from tests.conftest import CONFORMANCE, assert_report
from tests.conftest import SARIF_SCHEMA as SARIF_SCHEMA_FILE

LEAK = CONFORMANCE / "secret-aws-pem-github.ocp.json"  # a PEM key, an AWS key, a GitHub token
INVALID = CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json"
VALID = CONFORMANCE / "valid-minimal.ocp.json"
BY_FLAG = "1 file holds an apparent credential; failing by fail-on = secret (given by --fail-on)"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copyfile(LEAK, tmp_path / "leak.ocp.json")
    shutil.copyfile(INVALID, tmp_path / "bad.ocp.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lint(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["lint", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_credential_passes_by_default_as_the_report_contract_says(capsys, project):
    # report-contract.md: exit 0 "when every file is valid (warnings allowed)"
    status, out, _ = lint(capsys, "leak.ocp.json")
    assert status == 0 and "fails" not in out


def test_a_credential_fails_the_run_with_fail_on_secret_and_the_text_says_why(capsys, project):
    status, out, _ = lint(capsys, "--fail-on", "secret", "leak.ocp.json")
    assert status == 1
    last = out.splitlines()[-1]
    assert last == f"ocp lint fails: {BY_FLAG}", last


def test_fail_on_none_and_an_empty_list_fail_on_errors_only(capsys, project):
    assert lint(capsys, "--fail-on", "none", "leak.ocp.json")[0] == 0
    (project / "ocp.toml").write_text("fail-on = []\n")
    status, out, _ = lint(capsys, "leak.ocp.json")
    assert status == 0 and "fails" not in out
    # an invalid file still fails: none means errors only
    assert lint(capsys, "bad.ocp.json")[0] == 1


def test_a_configuration_s_fail_on_is_named(capsys, project):
    (project / "ocp.toml").write_text('fail-on = ["OCP-W"]\n')
    assert lint(capsys, "leak.ocp.json")[0] == 0  # the project chose other warnings
    (project / "ocp.toml").write_text('fail-on = ["secret", "OCP-W"]\n')
    status, out, _ = lint(capsys, "leak.ocp.json")
    assert status == 1
    named = f"failing by fail-on = secret (set in {project / 'ocp.toml'})"
    assert out.splitlines()[-1].endswith(named)


def test_github_prints_one_error_naming_why_beside_the_warnings(capsys, project):
    status, out, _ = lint(
        capsys, "--format", "github", "--fail-on", "secret", "leak.ocp.json", "bad.ocp.json"
    )
    assert status == 1
    lines = out.splitlines()
    assert sum(line.startswith("::warning ") for line in lines) == 3  # the credentials
    run_errors = [line for line in lines if line.startswith("::error title=ocp lint failed::")]
    assert run_errors == [
        f"::error title=ocp lint failed::ocp lint fails: 1 file is invalid; {BY_FLAG}"
    ]
    assert lines[-1] == run_errors[0]
    # a passing run prints none
    status, out, _ = lint(capsys, "--format", "github", str(VALID))
    assert status == 0 and "::error" not in out


def test_sarif_marks_a_finding_that_fails_the_run_as_an_error(capsys, project):
    status, out, _ = lint(capsys, "--format", "sarif", "--fail-on", "secret", "leak.ocp.json")
    assert status == 1
    log = json.loads(out)
    jsonschema.validate(log, json.loads(SARIF_SCHEMA_FILE.read_text()))
    (run,) = log["runs"]
    assert [r["level"] for r in run["results"]] == ["error"] * 3
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["secret"]["defaultConfiguration"]["level"] == "warning"  # the code's own
    _, out, _ = lint(capsys, "--format", "sarif", "leak.ocp.json")
    assert [r["level"] for r in json.loads(out)["runs"][0]["results"]] == ["warning"] * 3


def test_json_says_why_as_failure_only_when_the_run_fails(capsys, project):
    status, out, _ = lint(capsys, "--format", "json", "--fail-on", "secret", "leak.ocp.json")
    report = assert_report(out)
    assert status == 1 and report["failure"] == f"ocp lint fails: {BY_FLAG}"
    assert report["results"][0]["valid"] is True  # the verdict stays the specification's
    status, out, _ = lint(capsys, "--format", "json", str(VALID))
    assert status == 0 and "failure" not in assert_report(out)
