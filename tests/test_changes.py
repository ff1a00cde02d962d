"""The cards of a child mark what changed since its parent (issue 12): added, changed, a
status that moved, each naming its entry on the diff page."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.render import build_view
from app.web import create_app
from app.web.pages import checkpoint_html
from tests.conftest import CONFORMANCE

NOW = datetime(2026, 12, 1, tzinfo=UTC)
PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()


def test_cards_mark_what_was_added_and_changed_and_a_status_that_moved() -> None:
    view = build_view(lint(CHILD, parent=PARENT), now=NOW)
    operations = {c["id"]: c for g in view["operations"]["groups"] for c in g["items"]}
    moved = [c for c in operations.values() if (c["since_parent"] or {}).get("status")]
    assert moved, "an operation whose status moved since the parent"
    for card in moved:
        status = card["since_parent"]["status"]
        assert status["before"] != status["after"] == card["status"]
    added = [r for r in view["resources"]["items"] if r["since_parent"]]
    assert {r["since_parent"]["state"] for r in added} >= {"added"}
    # alone, nothing is marked
    alone = build_view(lint(CHILD), now=NOW)
    assert not any(r["since_parent"] for r in alone["resources"]["items"])


def test_an_unsaved_childs_page_shows_the_marks_without_links() -> None:
    page = checkpoint_html("child.ocp.json", lint(CHILD, parent=PARENT))
    assert "uncertain → completed since the parent" in page
    assert "added since the parent" in page
    assert 'class="badge since since-added">added since the parent</span>' in page


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(database_url=str(tmp_path / "s.sqlite3")))) as c:
        yield c


def test_a_stored_childs_marks_link_to_the_field_level_change(client) -> None:
    json_type = {"content-type": "application/json"}
    parent = client.post("/api/v1/checkpoints", content=PARENT, headers=json_type).json()
    child = client.post(
        f"/api/v1/checkpoints?parent={parent['storage_id']}", content=CHILD, headers=json_type
    ).json()
    page = client.get(f"/c/{child['storage_id']}").text
    links = re.findall(r'class="badge since since-\w+"><a href="([^"]+)"', page)
    assert len(links) >= 5
    diff = client.get(f"/c/{child['storage_id']}/diff").text
    for link in links:
        path, anchor = link.split("#")
        assert path == f"/c/{child['storage_id']}/diff"
        assert f'id="{anchor}"' in diff, anchor
