"""The form and what it leads to, as a person uses it: the live panel, which input was checked,
pasted text kept on Back, copy links, a version this viewer does not implement, every rule
page, and links on the port the service answers on."""

from __future__ import annotations

import json
import random
import re
import string

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.parse import Limits
from app.rules import RULES
from app.web import create_app
from app.web.carried import carried
from tests.conftest import CONFORMANCE

VALID = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
HANDOFF = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
INVALID = (CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json").read_bytes()
TOKEN = "ghp_" + "".join(random.Random(11).choices(string.ascii_letters + string.digits, k=36))


@pytest.fixture
def client(tmp_path):
    settings = Settings(
        database_url=str(tmp_path / "db.sqlite3"), limits=Limits(max_bytes=64 * 1024)
    )
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_live_panel_says_what_it_checked(client):
    pasted = client.post("/live", data={"checkpoint": VALID.decode()})
    assert f"Checked the pasted checkpoint ({len(VALID):,} bytes)." in pasted.text
    uploaded = client.post(
        "/live",
        files={
            "checkpoint_file": ("child.ocp.json", INVALID, "application/json"),
            "parent_file": ("parent.ocp.json", VALID, "application/json"),
        },
    )
    assert "the checkpoint file “child.ocp.json”" in uploaded.text
    assert "with the parent file “parent.ocp.json”" in uploaded.text


def test_a_chosen_file_and_pasted_text_the_page_says_which_was_checked(client):
    both = {
        "checkpoint": (None, INVALID.decode()),
        "checkpoint_file": ("f.ocp.json", VALID, "application/json"),
    }
    live = client.post("/live", files=both)
    assert "The pasted checkpoint text was not checked" in live.text
    page = client.post("/view", files=both)
    assert "The pasted checkpoint text was not checked" in page.text
    twin = client.post("/view.json", files=both).json()
    assert twin["submission"]["notes"] == [
        "The pasted checkpoint text was not checked: a chosen file is checked instead. "
        "Clear the file choice to check the pasted text."
    ]


def test_a_file_part_without_a_file_name_is_still_the_file(client):
    """A client that is not a browser may send the file's part with no file name (so the form
    parser hands it over as text): it is the checkpoint all the same, and wins over text."""
    boundary = "B0undary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="checkpoint"\r\n\r\n'
        f"{INVALID.decode()}\r\n"
        f'--{boundary}\r\nContent-Disposition: form-data; name="checkpoint_file"\r\n'
        f"Content-Type: application/json\r\n\r\n{VALID.decode()}\r\n--{boundary}--\r\n"
    ).encode()
    headers = {"content-type": f"multipart/form-data; boundary={boundary}"}
    report = client.post("/api/v1/lint", content=body, headers=headers)
    assert report.status_code == 200 and report.json()["results"][0]["valid"] is True
    twin = client.post("/view.json", content=body, headers=headers).json()
    assert twin["submission"]["checked"] == f"Checked the checkpoint file ({len(VALID):,} bytes)."
    assert twin["submission"]["notes"] == [
        "The pasted checkpoint text was not checked: the checkpoint file is checked instead."
    ]


def test_a_refused_live_check_replaces_the_last_verdict(client):
    """htmx swaps in only successful answers: a 413 left "valid · 0 errors" on screen."""
    too_big = "x" * (64 * 1024 + 1)
    response = client.post("/live", data={"checkpoint": too_big})
    assert response.status_code == 200
    assert "Not checked: the pasted checkpoint is larger than 65,536 bytes." in response.text
    assert "valid" not in response.text
    whole_body = client.post(
        "/live",
        content=b"x" * (300 * 1024),
        headers={"content-type": "multipart/form-data; boundary=b"},
    )
    assert whole_body.status_code == 200
    assert "Not checked:" in whole_body.text


def test_the_live_panel_never_echoes_a_credential(client):
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["progress"] = {"next": [{"description": "Deploy.", "blocked_by": [TOKEN]}]}
    data = json.dumps(doc)
    live = client.post("/live", data={"checkpoint": data})
    assert "OCP-S002" in live.text
    assert TOKEN not in live.text and TOKEN[:20] not in live.text
    for twin in (
        client.post("/view.json", data={"checkpoint": data}).text,
        client.post(
            "/api/v1/lint", content=data, headers={"content-type": "application/json"}
        ).text,
        client.post("/view", data={"checkpoint": data}).text,
    ):
        assert TOKEN not in twin


def test_pasted_text_survives_back(client):
    """autocomplete="off" made browsers drop the textareas' text on Back."""
    form = client.get("/").text
    for textarea in re.findall(r"<textarea[^>]*>", form):
        assert "autocomplete" not in textarea


def test_copy_links_only_where_the_page_has_an_address(client):
    unsaved = client.post("/view", data={"checkpoint": VALID.decode()}).text
    assert 'rel="canonical"' not in unsaved  # app.js shows copy links only under a canonical URL
    created = client.post(
        "/api/v1/checkpoints", content=VALID, headers={"content-type": "application/json"}
    ).json()
    stored = client.get(f"/c/{created['storage_id']}").text
    assert f'<link rel="canonical" href="{created["permalink"]}">' in stored
    assert "data-copy-link=" in stored


def test_a_version_this_viewer_does_not_implement_is_not_interpreted(client):
    doc = json.loads((CONFORMANCE / "valid-support-handoff.ocp.json").read_text())
    doc["opencheckpoint"] = "0.2"
    page = client.post("/view", data={"checkpoint": json.dumps(doc, indent=2)}).text
    assert "implements OpenCheckpoint 0.1 only" in page
    for section in (
        'id="before-continuing"',
        'id="operations"',
        'id="statements"',
        'id="continuation"',
    ):
        assert section not in page
    assert "Verify first" not in page and "Stop conditions" not in page
    assert 'id="source"' in page and 'id="findings"' in page
    view = client.post("/view.json", data={"checkpoint": json.dumps(doc)}).json()["view"]
    assert view["version_refused"] is True
    assert view["operations"] is None and view["before_continuing"] is None
    assert view["header"]["opencheckpoint"] == "0.2"


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_page_answers(client, code):
    response = client.get(f"/rules/{code}")
    assert response.status_code == 200, response.text[:500]
    assert f"<h1>{code}" in response.text or code in response.text


def test_links_use_the_host_and_port_the_request_came_to(tmp_path):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings), base_url="http://reviewer.example:8765") as client:
        created = client.post(
            "/api/v1/checkpoints", content=VALID, headers={"content-type": "application/json"}
        )
        body = created.json()
        assert body["permalink"] == f"http://reviewer.example:8765/c/{body['storage_id']}"
        assert created.headers["location"] == body["permalink"]
        page = client.get(f"/c/{body['storage_id']}").text
        assert f'<meta property="og:url" content="{body["permalink"]}">' in page
        twin = client.get(f"/c/{body['storage_id']}.json").json()
        assert twin["stored"]["permalink"] == body["permalink"]
        assert "8000" not in json.dumps(twin["stored"])


def test_the_public_url_setting_wins(tmp_path):
    settings = Settings(
        database_url=str(tmp_path / "db.sqlite3"), public_url="https://ocp.example.org"
    )
    with TestClient(create_app(settings), base_url="http://internal:9000") as client:
        body = client.post(
            "/api/v1/checkpoints", content=VALID, headers={"content-type": "application/json"}
        ).json()
        assert body["permalink"].startswith("https://ocp.example.org/c/")


def test_the_share_result_can_be_copied_and_deleted(client):
    import base64

    shared = client.post(
        "/share", files={"checkpoint_b64": (None, base64.b64encode(VALID).decode())}
    )
    assert shared.status_code == 201
    html = shared.text
    assert html.count("data-copy-text=") == 4  # permalink, raw, the ticket snippet, token
    storage_id = re.search(r'href="/c/([A-Za-z0-9_-]+)"', html).group(1)
    assert f'href="/c/{storage_id}/delete"' in html


def test_sharing_a_checkpoint_checked_with_its_parent_stores_both(client):

    child = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
    page = client.post(
        "/view",
        files={
            "checkpoint_file": ("child.ocp.json", child, "application/json"),
            "parent_file": ("parent.ocp.json", VALID, "application/json"),
        },
    ).text
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
    assert carried(fields, "parent", 1 << 20) == VALID
    shared = client.post("/share", files={name: (None, value) for name, value in fields.items()})
    assert shared.status_code == 201
    assert shared.text.count("Deletion token (shown only now)") == 2
    child_id, parent_id = re.findall(r'<a href="/c/([A-Za-z0-9_-]+)">http', shared.text)
    twin = client.get(f"/c/{child_id}.json").json()
    assert twin["stored"]["parent"]["state"] == "linked"
    assert twin["stored"]["parent"]["link"] == f"/c/{parent_id}"
    assert client.get(f"/c/{child_id}/diff").status_code == 200


def test_a_pasted_parent_with_crlf_line_ends_is_checked_as_sent(client):
    """A browser sends a textarea's line breaks as CRLF whatever the document had; the viewer
    reads pasted text with LF. parent.digest is checked against both, and the page says which
    matched: no false tamper warning for a parent file that had CRLF line ends."""
    import hashlib

    parent = VALID.decode().replace("\n", "\r\n")  # a parent file written with CRLF
    child = json.loads((CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_text())
    child["parent"]["digest"] = "sha-256:" + hashlib.sha256(parent.encode()).hexdigest()
    page = client.post(
        "/view", data={"checkpoint": json.dumps(child, indent=2), "parent": parent}
    ).text
    assert "matches parent.digest (the pasted text's bytes as your browser sent them)" in page
    twin = client.post(
        "/view.json", data={"checkpoint": json.dumps(child), "parent": parent}
    ).json()
    assert "digest" not in {f["code"] for f in twin["report"]["findings"]}
    assert twin["report"]["parent"]["digest_check"] == "match"
    # and a parent that had LF, pasted (so sent with CRLF), matches as read
    lf_child = json.loads((CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_text())
    page = client.post(
        "/view",
        data={"checkpoint": json.dumps(lf_child), "parent": VALID.decode().replace("\n", "\r\n")},
    ).text
    assert "matches parent.digest (the pasted text with its line ends made LF)" in page


def test_a_child_shared_alone_is_linked_by_its_parents_permalink(client):
    """A parent shared earlier, then its child alone: the share form asks for the parent's
    link (holding it is the proof), and the child's page then links the parent and the diff.
    A link that is not a permalink, or one to another checkpoint, is refused, saying why."""
    import base64

    parent = client.post(
        "/api/v1/checkpoints", content=VALID, headers={"content-type": "application/json"}
    ).json()
    child = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
    page = client.post(
        "/view", files={"checkpoint_file": ("child.ocp.json", child, "application/json")}
    ).text
    assert 'name="parent_link"' in page and '<label for="parent_link">' in page
    encoded = base64.b64encode(child).decode()

    def share(link: str):
        return client.post("/share", data={"checkpoint_b64": encoded, "parent_link": link})

    refused = share("https://example.org/not-a-permalink")
    assert refused.status_code == 422
    assert "not a link to a stored checkpoint" in refused.text
    other = client.post(
        "/api/v1/checkpoints",
        content=HANDOFF,
        headers={"content-type": "application/json"},
    ).json()
    wrong = share(other["permalink"])
    assert wrong.status_code == 422 and "not the one this checkpoint names" in wrong.text

    shared = share(f"  {parent['permalink']}  ")
    assert shared.status_code == 201
    child_id = re.search(r'<a href="/c/([A-Za-z0-9_-]+)">http', shared.text).group(1)
    twin = client.get(f"/c/{child_id}.json").json()
    assert twin["stored"]["parent"]["state"] == "linked"
    assert twin["stored"]["parent"]["link"] == f"/c/{parent['storage_id']}"
    assert client.get(f"/c/{child_id}/diff").status_code == 200
    # a document that names no parent is not asked for one
    alone = client.post(
        "/view",
        files={"checkpoint_file": ("h.ocp.json", HANDOFF, "application/json")},
    ).text
    assert 'name="parent_link"' not in alone


@pytest.mark.parametrize("address", ["/view", "/view.json", "/live"])
def test_a_file_name_is_shown_with_its_credentials_withheld_and_its_controls_escaped(
    client, address
):
    """The browser sends the file name: a token in it is repeated nowhere, and a U+202E or
    an ESC in it reaches the page as an escape (app/visible.py), as the CLI writes names."""
    name = f"<b>x</b>\u202eevil {TOKEN} \x1b[31m.json"
    answer = client.post(address, files={"checkpoint_file": (name, VALID, "application/json")})
    assert answer.status_code == 200
    shown = answer.text
    assert TOKEN not in shown
    assert "\u202e" not in shown and "\x1b" not in shown
    assert "\\u202eevil" in shown and "\\e[31m" in shown
    if not address.endswith(".json"):
        assert "<b>x</b>" not in shown  # escaped, as always
