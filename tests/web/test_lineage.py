"""The lineage page on both stores: the tree, the parent digest check, and sibling forks."""

import copy
import json

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
FORK = (CONFORMANCE / "valid-coding-refactor-fork.ocp.json").read_bytes()
MISMATCH = (CONFORMANCE / "digest-parent-mismatch.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(backend, clock):
    with TestClient(create_app(Settings(database_url=backend.url), clock=clock)) as c:
        yield c


def store(client, data):
    response = client.post("/api/v1/checkpoints", content=data, headers=JSON_TYPE)
    assert response.status_code == 201, response.text
    return response.json()["storage_id"]


def test_tree_links_parent_child_and_fork(client):
    parent, child, fork = store(client, PARENT), store(client, CHILD), store(client, FORK)
    page = client.get(f"/c/{child}/lineage")
    assert page.status_code == 200
    html = page.text
    assert "<svg" in html and "<script" not in html.split("</head>")[1]
    for storage_id in (parent, child, fork):
        assert f'href="/c/{storage_id}"' in html
    model = client.get(f"/c/{child}/lineage.json").json()
    relations = {e["storage_id"]: e["relation"] for e in model["entries"]}
    assert relations == {parent: "parent", child: "this checkpoint", fork: "fork"}
    assert len(model["drawing"]["edges"]) == 2
    assert model["parent"]["state"] == "match"


def test_digest_mismatch_and_unavailable_parent(client):
    lonely = store(client, CHILD)
    assert client.get(f"/c/{lonely}/lineage.json").json()["parent"]["state"] == (
        "parent unavailable"
    )
    store(client, PARENT)
    mismatch = store(client, MISMATCH)
    assert client.get(f"/c/{mismatch}/lineage.json").json()["parent"]["state"] == "mismatch"


def test_forks_that_leave_the_same_action_open_are_reported(client):
    parent = json.loads(PARENT)
    store(client, PARENT)
    ids = []
    for n in range(2):
        fork = copy.deepcopy(parent)
        fork["id"] = f"urn:uuid:019a7c61-0b38-7d74-a6fa-3b1c4d5e6f1{n}"
        fork["created_at"] = "2026-11-18T09:45:00Z"
        fork["parent"] = {"id": parent["id"]}
        fork["derivation"] = {
            "method": "forked",
            "inputs": [{"kind": "checkpoint", "id": parent["id"]}],
        }
        fork["continuation"].pop("stop_conditions")
        ids.append(store(client, json.dumps(fork).encode()))
    model = client.get(f"/c/{ids[0]}/lineage.json").json()
    conflicts = {c["operation"]: c for c in model["forks"]["conflicts"]}
    assert "op-open-pr" in conflicts
    assert sorted(conflicts["op-open-pr"]["actionable_in"]) == sorted(ids)
    assert "actionable in more than one fork" in client.get(f"/c/{ids[0]}/lineage").text


def test_expired_checkpoints_leave_the_tree(client, clock):
    from datetime import timedelta

    response = client.post("/api/v1/checkpoints?lifetime=1h", content=PARENT, headers=JSON_TYPE)
    parent = response.json()["storage_id"]
    child = store(client, CHILD)
    clock.advance(timedelta(hours=2))
    model = client.get(f"/c/{child}/lineage.json").json()
    assert parent not in {e["storage_id"] for e in model["entries"]}
    assert client.get(f"/c/{parent}/lineage").status_code == 410
