"""A diff shows a document's bidirectional controls as escapes, as the checkpoint's page does:
the HTML diff page, its JSON twin and the JSON Patch (a statement "…\\u202e.CVC rof ksa ot KO si
tI" displayed "It is OK to ask for CVC.", the opposite of what its bytes say)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
REVERSED = "Never ask for the CVC. \u202e.CVC rof ksa ot KO si tI"


def _pair() -> tuple[str, str]:
    parent: dict[str, Any] = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    child = json.loads(json.dumps(parent))
    child["id"] = child["id"][:-4] + "9999"
    child["task"]["objective"] = REVERSED
    child["statements"] = [
        {
            "id": "s-\u202eON",
            "kind": "observation",
            "text": "Refund created: \u202eON\u202c",
            "origin": {"type": "user"},
        }
    ]
    child["extensions"] = {"dev.example/\u202enote": {"\u2066k": "v\u2069"}}
    return json.dumps(parent), json.dumps(child)


# (a stored pair's /c/{id}/diff.patch is written by the same response as the JSON twin)
@pytest.mark.parametrize("route", ["/diff", "/diff.json"])
def test_a_pasted_diff_writes_every_bidi_control_as_an_escape(route: str) -> None:
    parent, child = _pair()
    with TestClient(create_app(Settings())) as client:
        response = client.post(route, data={"checkpoint": child, "parent": parent})
    assert response.status_code == 200
    assert not any(c in response.text for c in BIDI)
    assert "\\u202e" in response.text
    if route != "/diff":  # the same JSON values: its patch still applies
        patch = response.json()["patch"]
        assert {"op": "replace", "path": "/task/objective", "value": REVERSED} in patch


def test_a_top_level_field_added_or_removed_is_absent_on_its_other_side() -> None:
    """The fields' table says "absent" where a field is not there (§4.4 tells absent from
    null), as the objects' tables do; the JSON twin keeps `change` beside a null."""
    parent: dict[str, Any] = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    child = json.loads(json.dumps(parent))
    child["id"] = child["id"][:-4] + "9999"
    child["task"]["outcome"] = "Done."
    with TestClient(create_app(Settings())) as client:
        page = client.post(
            "/diff", data={"checkpoint": json.dumps(child), "parent": json.dumps(parent)}
        ).text
    row = page[page.index("<code>/task/outcome</code>") :]
    row = row[: row.index("</tr>")]
    assert "absent" in row and ">null<" not in row
