import json
import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the property tests with a fixed seed, so a red run can be reproduced and a green one
# is not luck; locally they explore new examples every run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# The store fixtures (SQLite and a throwaway PostgreSQL) serve the store and the web tests.
pytest_plugins = ["tests.backends"]

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"
JSONTESTSUITE = SHARED / "data" / "jsontestsuite" / "test_parsing"
BLNS = SHARED / "data" / "naughty-strings" / "blns.json"


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
