"""A report lists the first MAX_PER_CODE findings of each code and counts the rest, in every
output: a document holding 480,000 problems must not make a 45 MB page or a 1.4 GB lint."""

import json
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.findings import MAX_PER_CODE
from app.parse import MIB, Limits
from app.web import create_app
from tests.conftest import CONFORMANCE

EXTRA = 250  # findings beyond the cap: counted, never listed


def _unresolved(n: int) -> bytes:
    """A checkpoint whose n statements each cite evidence no local object has (OCP-S002)."""
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["statements"] = [
        {
            "id": f"s{i}",
            "kind": "observation",
            "text": "seen",
            "origin": {"type": "tool", "name": "t"},
            "evidence": [f"missing-{i}"],
        }
        for i in range(n)
    ]
    return json.dumps(document, indent=1).encode()


@pytest.fixture(scope="module")
def flooded() -> bytes:
    return _unresolved(MAX_PER_CODE + EXTRA)


def test_the_report_lists_the_cap_and_counts_the_rest(flooded: bytes) -> None:
    result = lint(flooded)
    codes = [f.code for f in result.findings]
    assert codes.count("OCP-S002") == MAX_PER_CODE
    omitted = [(o.code, o.severity, o.count) for o in result.omitted]
    assert omitted == [("OCP-S002", "error", EXTRA)]
    assert result.errors == MAX_PER_CODE + EXTRA  # the verdict counts every one
    assert not result.valid
    # the first found are the ones listed, each positioned
    assert result.findings[0].path == "/statements/0/evidence/0"
    assert all(f.line is not None for f in result.findings)


def test_under_the_cap_nothing_is_omitted() -> None:
    result = lint(_unresolved(3))
    assert result.omitted == ()
    assert result.errors == 3


def _cli(fmt: str, path: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "app.cli", "lint", "--format", fmt, path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    return run.stdout


def test_every_cli_format_says_how_many_are_not_listed(flooded: bytes, tmp_path) -> None:
    path = tmp_path / "flooded.ocp.json"
    path.write_bytes(flooded)
    sentence = f"{EXTRA:,} more OCP-S002 errors not listed"

    report = json.loads(_cli("json", str(path)))["results"][0]
    assert len(report["findings"]) == MAX_PER_CODE
    assert report["omitted"] == [{"code": "OCP-S002", "severity": "error", "count": EXTRA}]
    assert report["counts"]["errors"] == MAX_PER_CODE + EXTRA

    text = _cli("text", str(path))
    assert sentence in text
    assert text.count(" error OCP-S002 ") == MAX_PER_CODE
    assert f"invalid: {MAX_PER_CODE + EXTRA} errors" in text

    github = _cli("github", str(path))
    assert github.count("::error ") == MAX_PER_CODE
    assert sentence in github

    run = json.loads(_cli("sarif", str(path)))["runs"][0]
    assert len(run["results"]) == MAX_PER_CODE
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["note"]
    assert sentence in notes[0]["message"]["text"]
    assert run["invocations"][0]["executionSuccessful"] is True


def test_the_page_its_json_twin_and_the_api_count_the_rest(flooded: bytes) -> None:
    with TestClient(create_app(Settings(limits=Limits(max_bytes=5 * MIB)))) as client:
        page = client.post("/view", data={"checkpoint": flooded.decode()})
        assert page.status_code == 200
        assert f"{EXTRA:,} more OCP-S002 errors not listed" in page.text

        twin = client.post("/view.json", data={"checkpoint": flooded.decode()}).json()["report"]
        assert twin["omitted"] == [{"code": "OCP-S002", "severity": "error", "count": EXTRA}]
        assert len(twin["findings"]) == MAX_PER_CODE

        api = client.post(
            "/api/v1/lint", content=flooded, headers={"content-type": "application/json"}
        ).json()["results"][0]
        assert api["counts"]["errors"] == MAX_PER_CODE + EXTRA
        assert len(api["findings"]) == MAX_PER_CODE
