"""The public conformance set: validity, codes and paths for every case, through the same
`lint` the CLI, the API and the pages use. The project's own harness (tests/conformance.py)
runs over the installed wheel's `ocp` in tests/test_installed.py; here, that it can fail."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.analysis import lint
from tests.conformance import related
from tests.conftest import CONFORMANCE, ROOT, manifest


@pytest.mark.parametrize("case", manifest(), ids=lambda c: c["file"])
def test_conformance_case(case):
    data = (CONFORMANCE / case["file"]).read_bytes()
    parent = (CONFORMANCE / case["parent"]).read_bytes() if case.get("parent") else None
    result = lint(data, parent=parent)

    assert result.valid == case["valid"]
    findings = [f for f in result.findings if f.code != "secret"]
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        got = [f for f in findings if f.severity == severity]
        expected = case.get(key, [])
        for e in expected:
            assert any(f.code == e["code"] and related(f.path, e["path"]) for f in got), (
                f"missing {severity} {e['code']} at {e['path']}: {[(f.code, f.path) for f in got]}"
            )
        allowed = {e["code"] for e in expected}
        assert {f.code for f in got} <= allowed, [(f.code, f.path, f.message) for f in got]
        # schema findings match by path prefix; every other code by its exact path
        for f in got:
            if f.code != "schema":
                assert any(f.path == e["path"] for e in expected if e["code"] == f.code), f

    secret_paths = case.get("secrets", []) + [
        e["path"] for e in case.get("errors", []) if e["code"] == "OCP-S008"
    ]
    flagged = [f.path for f in result.findings if f.code == "secret"]
    for path in case.get("secrets", []):
        assert any(related(p, path) for p in flagged), f"secret at {path} not flagged"
    for path in flagged:
        assert any(related(path, s) for s in secret_paths), f"false positive at {path}"

    for f in result.findings:
        assert f.line is not None and f.column is not None, f
        assert f.message.strip(), f


def test_every_finding_in_the_set_carries_its_value_position():
    """Line and column are those of the value at the finding's path."""
    from app.positions import offsets

    for case in manifest():
        result = lint((CONFORMANCE / case["file"]).read_bytes())
        if result.document is None:
            continue
        places = offsets(result.text, [f.path for f in result.findings])
        for f in result.findings:
            assert f.path in places, f
            text = result.text
            offset = places[f.path]
            line = text.count("\n", 0, offset) + 1
            assert (f.line, f.column) == (line, offset - text.rfind("\n", 0, offset)), f


def test_the_harness_names_a_case_the_linter_disagrees_with(tmp_path):
    """A manifest that expects the wrong thing is reported, case by case, and fails the run."""
    case = next(c for c in manifest() if c["file"] == "rule-S002-unresolved-blocked-by.ocp.json")
    (tmp_path / case["file"]).write_bytes((CONFORMANCE / case["file"]).read_bytes())
    wrong = {**case, "valid": True, "errors": [], "secrets": ["/task/objective"]}
    (tmp_path / "manifest.json").write_text(json.dumps([wrong]))
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "conformance.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"{case['file']}:"
    assert "  exit 1 disagrees with valid=False" not in lines  # the exit matches the report
    assert any("valid is False, expected True" in line for line in lines)
    assert any("unexpected error OCP-S002" in line for line in lines)
    assert any("credential at '/task/objective' is not flagged" in line for line in lines)
    assert lines[-1] == f"conformance {tmp_path.name}: 0/1 cases agree"
