"""The empty form's "Load an example": a link (no JavaScript) to the page of a checkpoint that
ships with the program, valid, showing what a reviewer must verify first."""

from __future__ import annotations

import json
import re

from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.resources import example_bytes
from app.web import create_app


def test_the_bundled_example_is_a_valid_checkpoint() -> None:
    result = lint(example_bytes())
    assert result.valid
    assert result.errors == 0 and result.warnings == 0


def test_the_form_links_to_the_example_page(tmp_path) -> None:
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as client:
        form = client.get("/").text
        assert re.search(r'<a class="button secondary" href="/example">Load an example</a>', form)
        page = client.get("/example")
        assert page.status_code == 200
        objective = json.loads(example_bytes())["task"]["objective"]
        assert objective in page.text
        summary = page.text[page.text.index('id="summary"') :]
        assert "op-pay" in summary[:4000]  # the uncertain payment comes first
        # shareable like any checked document
        assert 'name="checkpoint_gz64"' in page.text
