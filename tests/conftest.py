import functools
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import settings

from app.resources import report_schema_bytes

# CI runs the property tests with a fixed seed, so a red run can be reproduced and a green one
# is not luck; locally they explore new examples every run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# The store fixtures (SQLite and a throwaway PostgreSQL) serve the store and the web tests.
pytest_plugins = ["tests.backends"]

ROOT = Path(__file__).resolve().parent.parent
# The suite's data, inside the repository (tests/data/README.md says where each set came from).
DATA = ROOT / "tests" / "data"
CONFORMANCE = DATA / "conformance"
JSONTESTSUITE = DATA / "jsontestsuite" / "test_parsing"
BLNS = DATA / "naughty-strings" / "blns.json"
SARIF_SCHEMA = DATA / "sarif" / "sarif-schema-2.1.0.json"
SPEC_TEXT = DATA / "spec" / "opencheckpoint-v0.1.txt"


@functools.cache
def _report_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(report_schema_bytes())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def assert_report(report: str | dict[str, Any]) -> dict[str, Any]:
    """``report`` (the text ``--format json`` printed, or its data) as data, once it is shown
    to be what docs/report.md and schema/lint-report.schema.json say a report is."""
    data: dict[str, Any] = json.loads(report) if isinstance(report, str) else report
    errors = sorted(_report_validator().iter_errors(data), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    return data


def manifest() -> list[dict]:
    return json.loads((CONFORMANCE / "manifest.json").read_text())


@pytest.fixture
def minimal() -> dict:
    """The smallest valid checkpoint, as a fresh dict to extend."""
    return json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())


@pytest.fixture(autouse=True)
def _no_colour_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's output checks read plain text whatever the runner's environment says."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
