"""The share page of a pair links the child's diff and lineage pages; the lineage page links
each proven child's diff (issue 27)."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE
from tests.web.test_forms_keep_work import carried_fields

VALID = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings)) as c:
        yield c


# --- 3: links to the diff and the lineage ----------------------------------------------------


def test_the_share_page_of_a_pair_links_the_diff_and_the_lineage(client):
    page = client.post("/view", data={"checkpoint": CHILD.decode(), "parent": VALID.decode()})
    shared = client.post("/share", data={**carried_fields(page.text), "lifetime": "1d"})
    assert shared.status_code == 201
    child_id = re.search(r'href="/c/([a-z0-9]+)"', shared.text).group(1)
    assert f'<a href="/c/{child_id}/diff">changes since its parent</a>' in shared.text
    assert f'<a href="/c/{child_id}/lineage">lineage tree</a>' in shared.text
    assert client.get(f"/c/{child_id}/diff").status_code == 200
    assert client.get(f"/c/{child_id}/lineage").status_code == 200
    # a checkpoint shared alone links its lineage, and no diff it does not have
    alone = client.post(
        "/share",
        data={**carried_fields(client.post("/view", data={"checkpoint": VALID.decode()}).text)},
    )
    alone_id = re.search(r'href="/c/([a-z0-9]+)"', alone.text).group(1)
    assert f'href="/c/{alone_id}/lineage"' in alone.text
    assert "/diff" not in alone.text


def test_the_lineage_page_links_each_proven_childs_diff(client):
    parent = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE).json()
    child = client.post(
        f"/api/v1/checkpoints?parent={parent['storage_id']}", content=CHILD, headers=JSON_TYPE
    ).json()
    for focus in (parent, child):
        page = client.get(f"/c/{focus['storage_id']}/lineage").text
        assert f'<a href="/c/{child["storage_id"]}/diff">since its parent</a>' in page
        assert f'href="/c/{parent["storage_id"]}/diff"' not in page  # it has no stored parent
    model = client.get(f"/c/{child['storage_id']}/lineage.json").json()
    diffs = {e["storage_id"]: e["diff"] for e in model["entries"]}
    assert diffs == {
        parent["storage_id"]: None,
        child["storage_id"]: f"/c/{child['storage_id']}/diff",
    }
    focus_page = client.get(f"/c/{child['storage_id']}/lineage").text
    assert f'<a href="/c/{child["storage_id"]}/diff">changes since it</a>' in focus_page
    assert json.loads(json.dumps(model))  # the twin stays JSON
