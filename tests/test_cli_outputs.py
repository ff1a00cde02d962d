"""Several outputs in one run (`--output-format FORMAT=PATH` beside `--format` on stdout), each
file written whole; and usage and configuration errors under `--format json|sarif` still print
the contract's one JSON object for a failed run, exit 2, while text and github keep stderr."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from app import outputs
from app.cli import main
from tests.conftest import CONFORMANCE, assert_report
from tests.conftest import SARIF_SCHEMA as SARIF_SCHEMA_FILE

SARIF_SCHEMA = json.loads(SARIF_SCHEMA_FILE.read_text())
LEAK = CONFORMANCE / "secret-aws-pem-github.ocp.json"
INVALID = CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json"
VALID = CONFORMANCE / "valid-minimal.ocp.json"
OCP = Path(sys.executable).parent / "ocp"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copyfile(LEAK, tmp_path / "leak.ocp.json")
    shutil.copyfile(INVALID, tmp_path / "bad.ocp.json")
    (tmp_path / "sub").mkdir()
    shutil.copyfile(VALID, tmp_path / "sub" / "ok.ocp.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["lint", *argv])
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_each_output_file_holds_its_format_beside_stdout(capsys, work):
    status, out, _ = run(
        capsys,
        "--fail-on",
        "secret",
        "--output-format",
        "sarif=ocp.sarif",
        "--output-format=json=report.json",
        "--output-format",
        "github=annotations.txt",
        "leak.ocp.json",
        "bad.ocp.json",
    )
    assert status == 1  # the run fails, and every file is there
    assert out.splitlines()[-1].startswith("2 files: 1 valid, 1 invalid")  # text on stdout
    log = json.loads((work / "ocp.sarif").read_text())
    jsonschema.validate(log, SARIF_SCHEMA)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"secret", "OCP-S002"}
    report = assert_report((work / "report.json").read_text())
    assert [r["file"] for r in report["results"]] == ["leak.ocp.json", "bad.ocp.json"]
    assert report["failure"].startswith("ocp lint fails: 1 file is invalid")
    github = (work / "annotations.txt").read_text().splitlines()
    assert github[-1].startswith("::error title=ocp lint failed::")
    assert not list(work.glob(".*.tmp"))  # no temporary file left


def test_a_text_file_is_what_the_terminal_would_show_without_colour(capsys, work, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run(capsys, "--output-format", "text=lint.txt", "bad.ocp.json")
    assert "\x1b[" in out and "\x1b[" not in (work / "lint.txt").read_text()
    assert (work / "lint.txt").read_text().splitlines()[0].startswith("bad.ocp.json:")


def test_a_file_is_replaced_whole_never_left_half_written(capsys, work, monkeypatch):
    (work / "ocp.sarif").write_text("the previous log")
    real_replace = os.replace

    def refuse(source, target):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device", str(target))

    monkeypatch.setattr(outputs.os, "replace", refuse)
    status, _, err = run(capsys, "--output-format", "sarif=ocp.sarif", "bad.ocp.json")
    assert status == 2 and "No space left on device" in err
    assert (work / "ocp.sarif").read_text() == "the previous log"  # untouched
    assert not list(work.glob(".*.tmp"))
    monkeypatch.setattr(outputs.os, "replace", real_replace)
    run(capsys, "--output-format", "sarif=ocp.sarif", "bad.ocp.json")
    json.loads((work / "ocp.sarif").read_text())


@pytest.mark.parametrize(
    "value", ["sarif", "xml=out.xml", "sarif=", "sarif=-"], ids=["no-path", "format", "empty", "-"]
)
def test_an_output_that_is_not_format_equals_path_is_a_usage_error(capsys, work, value):
    status, _, err = run(capsys, "--output-format", value, "bad.ocp.json")
    assert status == 2 and "--output-format" in err and "Traceback" not in err


def test_an_output_in_a_missing_folder_or_named_twice_is_a_usage_error(capsys, work):
    status, out, err = run(
        capsys, "--format", "json", "--output-format", "sarif=no/such/x.sarif", "bad.ocp.json"
    )
    assert status == 2 and "no folder no/such" in err
    assert assert_report(out)["errors"] == [err.strip().removeprefix("ocp: ")]
    twice = ["--output-format", "json=a.json", "--output-format", "sarif=./a.json"]
    status, _, err = run(capsys, *twice, "leak.ocp.json")
    assert status == 2 and "names ./a.json twice" in err


# --- usage and configuration errors under a machine format ----------------------------------

ERRORS = {
    "unknown-option": (["--bogus"], "unrecognized arguments: --bogus"),
    "bad-choice": (["--fail-on", "secrets"], "'secrets' is not a code"),
    "bad-value": (["--select", ","], "give codes or prefixes"),
    "config": (["--config", "missing.toml"], "missing.toml: no such file"),
    "config-folder": (["--config", "sub"], "sub: is a folder; name the configuration file"),
    "base-url": (["--base-url", "ftp://x"], "--base-url must be"),
    "stdin-twice": (["-", "-"], "standard input (-) can be read only once"),
    "stdin-parent-and-child": (["--parent", "-", "-"], "standard input (-) can be read only once"),
    # (the report would replace the checkpoint it reports on)
    "output-over-input": (["--output-format", "json=bad.ocp.json"], "which this run lints"),
    "output-into-linted-folder": (
        ["--output-format", "json=sub/report.ocp.json", "sub"],
        "is in sub, which this run lints",
    ),
}


def failed_run(argv: list[str], fmt: str, cwd: Path, env: dict[str, str] | None = None):
    return subprocess.run(
        [str(OCP), "lint", "--format", fmt, *argv, *([] if "-" in argv else ["bad.ocp.json"])],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("case", list(ERRORS))
def test_a_usage_error_under_json_is_one_report_with_the_error(work, case):
    argv, said = ERRORS[case]
    done = failed_run(argv, "json", work)
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    report = assert_report(done.stdout)
    assert report["results"] == [] and said in report["errors"][0]


@pytest.mark.parametrize("case", list(ERRORS))
def test_a_usage_error_under_sarif_is_a_failed_invocation(work, case):
    argv, said = ERRORS[case]
    done = failed_run(argv, "sarif", work)
    assert done.returncode == 2
    log = json.loads(done.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error" and said in notification["message"]["text"]
    assert log["runs"][0]["results"] == []


def test_a_larger_document_limit_alone_starts_every_command(work):
    """OCP_MAX_BYTES raised alone: the service's per-client rate and quota, unset, grow with
    it, so `ocp lint` does not refuse to start over settings it never reads."""
    done = failed_run([], "json", work, env={"OCP_MAX_BYTES": str(64 * 1024 * 1024)})
    assert done.returncode == 1  # bad.ocp.json is invalid: linted, not refused
    report = assert_report(done.stdout)
    assert "errors" not in report and [r["valid"] for r in report["results"]] == [False]


def test_an_environment_that_cannot_be_used_is_a_failed_run_too(work):
    done = failed_run([], "json", work, env={"OCP_MAX_BYTES": "lots"})
    assert done.returncode == 2
    assert "OCP_MAX_BYTES must be an integer" in assert_report(done.stdout)["errors"][0]


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_text_and_github_keep_usage_errors_on_stderr(work, fmt):
    for argv, said in ERRORS.values():
        done = failed_run(argv, fmt, work)
        assert done.returncode == 2 and said in done.stderr
        assert done.stdout == ""


def test_a_failed_run_still_writes_each_output_file(work):
    done = subprocess.run(
        [str(OCP), "lint", "--output-format", "sarif=ocp.sarif", "--bogus", "bad.ocp.json"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    log = json.loads((work / "ocp.sarif").read_text())
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_a_plain_passing_run_imports_none_of_what_only_some_runs_need():
    """Start-up: a run of one file, one format, that passes, loads no output writer, no
    failure sentence, no folder walk, no advice splitting (JSON only) and no SARIF constant."""
    probe = (
        "import io, sys, contextlib\n"
        "from app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['lint', {str(VALID)!r}])\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert "app.cli" in loaded
    later = {"app.outputs", "app.run_failure", "app.walk", "app.finding_advice", "app.project"}
    assert loaded & (later | {"pathspec"}) == set()
    # nor what a valid document's text report never uses: the validator (the schema stage's
    # screen passed it), hashing (OpenSSL), argparse's terminal-width lookup (shutil and the
    # compressors it imports)
    assert loaded & {"jsonschema_rs", "app.schema", "hashlib", "_hashlib", "shutil"} == set()


def test_a_stdin_filename_with_no_standard_input_is_said_to_be_ignored(work, capsys):
    """--stdin-filename names standard input: a run that reads none says it was ignored,
    and lints as it would without it."""
    status, _, err = run(capsys, "--stdin-filename", "x.ocp.json", "bad.ocp.json")
    assert status == 1
    assert "--stdin-filename names standard input (-), which this run does not read" in err


def test_a_sarif_root_that_is_no_folder_here_is_said(work, capsys):
    """--sarif-root naming no folder on this machine: the SARIF still names files relative to
    it (a job may lint a checkout elsewhere), and the run says so on standard error."""
    status, out, err = run(
        capsys, "--format", "sarif", "--sarif-root", "no/such/root", "bad.ocp.json"
    )
    assert status == 1 and json.loads(out)["runs"][0]["results"]
    assert "--sarif-root no/such/root: no such folder here" in err
