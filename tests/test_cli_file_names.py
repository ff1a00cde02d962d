"""A file whose name is not UTF-8 (bytes Python reads as lone surrogates): every format reports
it, SARIF percent-encodes its bytes, JSON and the terminal write them as \\xff, and no output
raises on it (a SARIF run crashed with a traceback and wrote nothing for upload-sarif)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import jsonschema
import pytest

from app.cli import main
from tests.conftest import CONFORMANCE
from tests.conftest import SARIF_SCHEMA as SARIF_SCHEMA_FILE

NAME = os.fsdecode(b"bad\xff\xfe.ocp.json")
SARIF_SCHEMA = json.loads(SARIF_SCHEMA_FILE.read_text())


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copyfile(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json", tmp_path / NAME)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("named", [NAME, "."])
def test_sarif_percent_encodes_the_bytes_of_a_name(
    work: Path, capsys: pytest.CaptureFixture[str], named: str
) -> None:
    status, out, _ = run(capsys, "lint", "--format", "sarif", named)
    assert status == 1  # the file is invalid: no crash, no exit 2
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SCHEMA)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }
    assert uris == {"bad%FF%FE.ocp.json"}


def test_json_writes_the_name_s_bytes_as_escapes_it_can_hold(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "lint", "--format", "json", ".")
    assert status == 1
    out.encode("utf-8")  # I-JSON: no lone surrogate
    assert [r["file"] for r in json.loads(out)["results"]] == ["bad\\xff\\xfe.ocp.json"]


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_the_terminal_formats_write_the_name_s_bytes_as_escapes(
    work: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    status, out, _ = run(capsys, "lint", "--format", fmt, ".")
    assert status == 1
    assert "bad\\xff\\xfe.ocp.json" in out and "\\udc" not in out


def test_a_missing_file_s_name_is_said_as_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "lint", os.fsdecode(b"gone\xff.ocp.json"))
    assert status == 2
    assert "gone\\xff.ocp.json: no such file" in err
