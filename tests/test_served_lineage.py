"""Stored lineage through a real `ocp serve` (no settings but its database): a child that
reopens a completed operation and is dated before its parent is invalid on its permalink, its
JSON twin, its link preview and its lineage page; an anonymous upload claiming the parent's id
changes none of it; the parent says a newer checkpoint is stored; the lineage page follows
proven links only."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from tests.conftest import CONFORMANCE
from tests.serve import Server, request
from tests.web.test_lineage import reopening_child

# `make check` leaves this out: it starts a real `ocp serve`.
pytestmark = pytest.mark.slow

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("served-lineage")
    with Server(workdir, {"OCP_DATABASE_URL": str(workdir / "ocp.sqlite3")}) as server:
        yield server


def store(served: Server, data: bytes, parent: str | None = None) -> str:
    path = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    reply = request(served.port, "POST", path, data, JSON)
    assert reply.status == 201, reply.body[:300]
    body = reply.json()
    assert isinstance(body, dict)
    return str(body["storage_id"])


def get_json(served: Server, path: str) -> dict:
    reply = request(served.port, "GET", path)
    assert reply.status == 200, (path, reply.status)
    body = reply.json()
    assert isinstance(body, dict)
    return body


def test_a_stored_child_is_checked_against_its_parent_everywhere(served: Server) -> None:
    parent = store(served, PARENT)
    child = store(served, reopening_child(PARENT, digest=True), parent)
    # an anonymous upload under the parent's id, with other bytes
    impostor = json.loads(PARENT)
    impostor["task"]["objective"] = "Something else entirely."
    store(served, json.dumps(impostor).encode())

    twin = get_json(served, f"/c/{child}.json")
    codes = {f["code"] for f in twin["report"]["findings"]}
    assert {"OCP-T001", "OCP-T002"} <= codes and twin["report"]["valid"] is False
    assert twin["stored"]["parent"]["state"] == "linked"
    assert twin["stored"]["parent"]["link"] == f"/c/{parent}"

    page = request(served.port, "GET", f"/c/{child}").body.decode()
    assert "<strong>invalid</strong>" in page
    title = re.search(r'<meta property="og:title" content="([^"]*)"', page)
    assert title is not None and "invalid" in title.group(1)

    lineage = get_json(served, f"/c/{child}/lineage.json")
    focus = next(e for e in lineage["entries"] if e["storage_id"] == child)
    assert focus["valid"] is False and focus["checked_with_parent"] is True
    assert lineage["claimed"]["parents"] == 1  # the impostor: counted, not linked
    assert {e["storage_id"] for e in lineage["entries"]} == {parent, child}

    newer = get_json(served, f"/c/{parent}.json")["stored"]["newer"]
    assert newer["linked"] and newer["linked"][0]["link"] == f"/c/{child}"

    diff = get_json(served, f"/c/{child}/diff.json")
    assert {f["code"] for f in diff["lineage_findings"]} >= {"OCP-T001", "OCP-T002"}
