"""Diff routes: stored child against stored parent, any two, a pasted pair; HTML, JSON and
JSON Patch; and `ocp diff` on the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.diff import apply_patch
from app.web import create_app
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
T001 = (CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(backend, clock):
    with TestClient(create_app(Settings(database_url=backend.url), clock=clock)) as c:
        yield c


def store(client, data, parent=None):
    url = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    return client.post(url, content=data, headers=JSON_TYPE).json()["storage_id"]


def test_stored_child_against_its_parent(client):
    child = store(client, CHILD, store(client, PARENT))
    page = client.get(f"/c/{child}/diff")
    assert page.status_code == 200
    assert "op-open-pr" in page.text and "Operation status transitions" in page.text
    model = client.get(f"/c/{child}/diff.json").json()
    assert model["parent_link"]["digest"] == "match"
    assert any(
        t["id"] == "op-open-pr" and t["to"] == "completed" for t in model["operation_transitions"]
    )
    patch = client.get(f"/c/{child}/diff.patch")
    assert patch.headers["content-type"] == "application/json-patch+json"
    assert apply_patch(json.loads(PARENT), patch.json()) == json.loads(CHILD)


def test_reopened_terminal_operation_is_an_error_finding(client):
    parent, child = store(client, PARENT), store(client, T001)
    model = client.get("/diff.json", params={"from": parent, "to": child}).json()
    assert [f["code"] for f in model["lineage_findings"]] == ["OCP-T001"]
    html = client.get("/diff", params={"from": parent, "to": child}).text
    assert "leaves a terminal status (OCP-T001)" in html


def test_missing_parent_and_missing_ids(client):
    lonely = store(client, CHILD)
    assert client.get(f"/c/{lonely}/diff").status_code == 404
    assert client.get("/diff").status_code == 400
    assert client.get("/diff", params={"from": lonely, "to": "A" * 24}).status_code == 404


def test_pasted_pair(client):
    response = client.post("/diff", data={"checkpoint": T001.decode(), "parent": PARENT.decode()})
    assert response.status_code == 200
    assert "OCP-T001" in response.text
    assert client.post("/diff", data={"checkpoint": CHILD.decode()}).status_code == 400


def test_secret_values_never_reach_the_diff_page(client):
    secret = (CONFORMANCE / "secret-userinfo-password.ocp.json").read_bytes()
    base = (CONFORMANCE / "valid-finance-variance.ocp.json").read_bytes()
    response = client.post("/diff", data={"checkpoint": secret.decode(), "parent": base.decode()})
    assert "Wint3r-2026" not in response.text


OCP = Path(sys.executable).parent / "ocp"


def test_ocp_diff_cli():
    run = subprocess.run(
        [
            str(OCP),
            "diff",
            str(CONFORMANCE / "valid-coding-refactor.ocp.json"),
            str(CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "error OCP-T001" in run.stdout
    as_json = subprocess.run(
        [
            str(OCP),
            "diff",
            "--format",
            "json",
            str(CONFORMANCE / "valid-coding-refactor.ocp.json"),
            str(CONFORMANCE / "valid-coding-refactor-child.ocp.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout)["parent_link"]["digest"] == "match"
    missing = subprocess.run([str(OCP), "diff", "/nope", "/nope2"], capture_output=True, timeout=60)
    assert missing.returncode == 2
