"""Each stage runs once per document: a request (or a CLI run) that shows a checkpoint and its
parent parses, validates, checks and scans each document once, and runs the lineage rules once.

The stages are counted where the analysis calls them (app/analysis.py; the position locator
in app/positions.py, which it imports where a finding is placed), and where storing's gates
call them before it (app/store/storable.py), so a consumer that re-ran one (linting the
parent again to render it, rescanning for secrets, re-running the lineage rules in the diff,
parsing an upload in the gates and again in the analysis) shows up here."""

from __future__ import annotations

import collections
import functools
import json

import pytest
from starlette.testclient import TestClient

import app.analysis
import app.positions
import app.store.storable
from app.cli import main
from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
STAGES = {
    "parse": "intake",
    "check_level_one": "schema",
    "check_document": "rules",
    "scan_document": "secrets",
    "check_lineage": "lineage",
}
GATES = {"parse": "intake", "first_secret": "secrets"}
# The position locator, which the analysis imports where a finding is placed
LOCATOR = {"offsets": "positions"}


@pytest.fixture
def stages(monkeypatch):
    """Counts of each stage run, by name; ``positions`` by the text walked."""
    counts: collections.Counter[str] = collections.Counter()
    walks: collections.Counter[int] = collections.Counter()
    places = [(app.analysis, f, s) for f, s in STAGES.items()]
    places += [(app.store.storable, f, s) for f, s in GATES.items()]
    places += [(app.positions, f, s) for f, s in LOCATOR.items()]
    for module, function, stage in places:
        original = getattr(module, function)

        @functools.wraps(original)
        def counted(*args, __original=original, __stage=stage, **kwargs):
            counts[__stage] += 1
            if __stage == "positions":
                walks[hash(args[0])] += 1
            return __original(*args, **kwargs)

        monkeypatch.setattr(module, function, counted)
    counts.walks = walks  # type: ignore[attr-defined]
    return counts


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as c:
        yield c


PAIR_FORM = {
    "checkpoint_file": ("child.ocp.json", CHILD, "application/json"),
    "parent_file": ("parent.ocp.json", PARENT, "application/json"),
}
ONCE_EACH = {"intake": 2, "schema": 2, "rules": 2, "secrets": 2, "lineage": 1}


def assert_once_per_document(stages) -> None:
    assert {k: v for k, v in stages.items() if k != "positions"} == ONCE_EACH
    # positions: at most one walk for the findings and one for the objects' lines, per text
    assert all(n <= 2 for n in stages.walks.values()), stages.walks


@pytest.mark.parametrize("path", ["/view", "/view.json", "/live", "/diff", "/diff.json"])
def test_a_checkpoint_and_its_parent_are_each_analysed_once(client, stages, path):
    response = client.post(path, files=PAIR_FORM)
    assert response.status_code == 200, response.text[:300]
    assert_once_per_document(stages)


def test_the_api_lints_a_pair_once(client, stages):
    response = client.post("/api/v1/lint", files=PAIR_FORM)
    assert response.status_code == 200
    assert_once_per_document(stages)


def test_a_stored_document_is_analysed_once_per_instance(client, stages):
    created = client.post(
        "/api/v1/checkpoints", content=PARENT, headers={"content-type": "application/json"}
    ).json()
    stored = dict(stages)
    assert stored == {"intake": 1, "schema": 1, "rules": 1, "secrets": 1}
    for path in (f"/c/{created['storage_id']}", f"/c/{created['storage_id']}.json"):
        assert client.get(path).status_code == 200
    client.app.state.page_cache = type(client.app.state.page_cache)()  # pages again, not bytes
    assert client.get(f"/c/{created['storage_id']}").status_code == 200
    # one analysis served the page, its twin and the re-rendered page
    assert stages["intake"] == 2 and stages["rules"] == 2


def test_ocp_lint_analyses_its_parent_once_for_every_file(stages, tmp_path, capsys):
    files = []
    for i in range(3):
        path = tmp_path / f"child-{i}.ocp.json"
        path.write_bytes(CHILD)
        files.append(str(path))
    status = main(
        [
            "lint",
            "--format",
            "json",
            "--parent",
            str(CONFORMANCE / "valid-coding-refactor.ocp.json"),
            *files,
        ]
    )
    assert status == 0
    assert len(json.loads(capsys.readouterr().out)["results"]) == 3
    assert stages["intake"] == 4 and stages["schema"] == 4 and stages["lineage"] == 3


def test_ocp_diff_analyses_each_document_once(stages, capsys):
    status = main(
        [
            "diff",
            "--format",
            "json",
            str(CONFORMANCE / "valid-coding-refactor.ocp.json"),
            str(CONFORMANCE / "valid-coding-refactor-child.ocp.json"),
        ]
    )
    assert status == 0
    capsys.readouterr()
    assert_once_per_document(stages)
