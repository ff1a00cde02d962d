"""Forms never lose work (issue 27): a form sent without what it needs comes back with what was
given put back and what to fix listed; a wrong parent permalink on the Share form is named, on
the checkpoint's page again with the form refilled; a raw JSON body is a checkpoint /view
reads; every 415 names what the address accepts; a 410 says when in words a person reads;
the share page of a pair and the lineage page link the diffs."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.backends import FakeClock
from tests.conftest import CONFORMANCE

VALID = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
INVALID = (CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json").read_bytes()
SECRET = (CONFORMANCE / "secret-aws-pem-github.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}
# a storage id of the right shape that nothing is stored under
UNKNOWN_ID = "23456789abcdefghjkmnpqrstuvwxy"
NO_PARENT = "give the parent checkpoint too"


@pytest.fixture
def clock() -> FakeClock:
    # microseconds in every moment the store records, as a real clock has them
    return FakeClock(datetime(2026, 12, 3, 14, 24, 5, 123456, tzinfo=UTC))


@pytest.fixture
def client(tmp_path, clock):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings, clock=clock)) as c:
        yield c


def textarea(page: str, name: str) -> str:
    """What a browser shows in the textarea ``name`` (the newline after the tag is dropped)."""
    found = re.search(rf'<textarea id="{name}"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert found, f"no textarea {name}"
    return html.unescape(found.group(1))


def problems(page: str) -> list[str]:
    block = re.search(r'<div class="form-problems".*?</div>', page, re.S)
    assert block, "the page lists nothing to fix"
    return [
        html.unescape(re.sub("<[^>]+>", "", li))
        for li in re.findall(r"<li>(.*?)</li>", block.group(0), re.S)
    ]


# --- 1a: the home page's form ----------------------------------------------------------------


def test_compare_without_a_parent_keeps_the_pasted_checkpoint_and_asks_for_the_parent(client):
    pasted = VALID.decode()
    page = client.post("/diff", data={"checkpoint": pasted})
    assert page.status_code == 400
    assert page.headers["content-type"].startswith("text/html")
    assert textarea(page.text, "checkpoint") == pasted
    listed = problems(page.text)
    assert any(NO_PARENT in p and "paste it or choose its file" in p for p in listed)
    # the parent's part of the form is open, where the parent goes
    assert '<details class="parent-input" open>' in page.text
    # the form is the same form: both buttons, the live panel
    assert 'formaction="/diff"' in page.text and 'data-hx-post="/live"' in page.text


def test_compare_without_a_parent_puts_an_uploaded_file_back_as_text(client):
    page = client.post(
        "/diff", files={"checkpoint_file": ("mine.ocp.json", VALID, "application/json")}
    )
    assert page.status_code == 400
    assert textarea(page.text, "checkpoint") == VALID.decode()
    assert "The file “mine.ocp.json” is in the checkpoint box above" in html.unescape(page.text)
    assert any(NO_PARENT in p for p in problems(page.text))


def test_compare_with_nothing_lists_both_and_keeps_a_given_parent(client):
    page = client.post("/diff", data={"checkpoint": " ", "parent": VALID.decode()})
    assert page.status_code == 400
    assert any("paste a checkpoint" in p for p in problems(page.text))
    assert textarea(page.text, "parent") == VALID.decode()
    empty = client.post("/diff", data={"checkpoint": ""})
    listed = problems(empty.text)
    assert any("paste a checkpoint" in p for p in listed) and any(NO_PARENT in p for p in listed)


def test_view_without_a_checkpoint_shows_the_form_again(client):
    page = client.post("/view", data={"checkpoint": "", "parent": VALID.decode()})
    assert page.status_code == 400
    assert any("paste a checkpoint" in p for p in problems(page.text))
    assert textarea(page.text, "parent") == VALID.decode()


def test_a_document_with_a_credential_is_not_repeated_and_the_page_says_so(client):
    page = client.post("/diff", data={"checkpoint": SECRET.decode()})
    assert page.status_code == 400
    assert textarea(page.text, "checkpoint") == ""
    assert "BEGIN RSA PRIVATE KEY" not in page.text and "ghp_R8x2" not in page.text
    assert "appears to contain a credential, so this page does not repeat it" in page.text
    assert "go back in your browser" in page.text


def test_text_put_back_is_escaped(client):
    hostile = '</textarea><script>alert(1)</script>{"x": "<b>"}'
    page = client.post("/diff", data={"checkpoint": hostile})
    assert "<script>alert(1)" not in page.text
    assert textarea(page.text, "checkpoint") == hostile


def test_programs_still_get_a_problem_document(client):
    answer = client.post("/diff.json", data={"checkpoint": VALID.decode()})
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("application/problem+json")


# --- 1c: a raw JSON body -------------------------------------------------------------------


@pytest.mark.parametrize("media", ["application/json", "application/vnd.opencheckpoint+json"])
def test_view_reads_a_raw_json_body_as_the_form_would(client, media):
    raw = client.post("/view", content=INVALID, headers={"content-type": media})
    form = client.post("/view", data={"checkpoint": INVALID.decode()})
    assert raw.status_code == 200 and raw.headers["content-type"].startswith("text/html")
    assert "OCP-S002" in raw.text
    # the same page: the same sections, the same findings
    sections = re.compile(r'<section id="([^"]+)"')
    assert sections.findall(raw.text) == sections.findall(form.text)
    twin = client.post("/view.json", content=INVALID, headers={"content-type": media}).json()
    form_twin = client.post("/view.json", data={"checkpoint": INVALID.decode()}).json()
    assert twin["report"]["file"] == "request body"
    assert {**twin["report"], "file": None} == {**form_twin["report"], "file": None}
    assert twin["submission"]["checked"] == f"Checked the request body ({len(INVALID):,} bytes)."


def test_an_empty_raw_body_says_what_to_send(client):
    empty = client.post("/view", content=b"", headers=JSON_TYPE)
    assert empty.status_code == 400
    assert "the request body is empty" in empty.text


def test_a_raw_body_over_the_limit_is_413(tmp_path):
    from app.parse import Limits

    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), limits=Limits(max_bytes=1000))
    with TestClient(create_app(settings)) as small:
        answer = small.post("/view", content=b" " * 2000, headers=JSON_TYPE)
    assert answer.status_code == 413


def test_every_415_names_what_the_address_accepts(client):
    plain = {"content-type": "text/plain"}
    view = client.post("/view", content=VALID, headers=plain)
    assert view.status_code == 415
    for accepted in (
        "application/json",
        "application/vnd.opencheckpoint+json",
        "multipart/form-data",
        "application/x-www-form-urlencoded",
    ):
        assert accepted in view.text
    diff = client.post("/diff", content=VALID, headers=plain)
    assert diff.status_code == 415
    assert "multipart/form-data" in diff.text
    assert "application/json" not in diff.text  # /diff takes the form only
    share = client.post("/share", content=VALID, headers=plain)
    assert share.status_code == 415 and "multipart/form-data" in share.text
    guard = client.post("/api/v1/guard", content=b"{}", headers=plain)
    assert guard.status_code == 415 and "application/json" in guard.json()["detail"]
    # no advice names one media type for every address
    for answer in (view, diff, share):
        assert "Send the checkpoint as application/json or" not in answer.text
    assert (
        "names them" in client.post("/api/v1/lint", content=VALID, headers=plain).json()["advice"]
    )


# --- 1b: the Share form's parent permalink ----------------------------------------------------


def carried_fields(page: str) -> dict[str, str]:
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)
    }


def share_again(client, link: str):
    page = client.post("/view", data={"checkpoint": CHILD.decode()})
    fields = carried_fields(page.text)
    assert 'name="parent_link"' in page.text
    again = client.post("/share", data={**fields, "lifetime": "1d", "parent_link": link})
    assert again.status_code == 422
    assert again.headers["content-type"].startswith("text/html")
    # the checkpoint's page again, carrying the same checkpoint: pressing Share again works
    assert carried_fields(again.text) == fields
    assert 'id="carry"' in again.text and 'id="operations"' in again.text
    shown = re.search(r'id="parent_link"[^>]*value="([^"]*)"', again.text)
    assert shown, "the parent's permalink is not refilled"
    problem = re.search(
        r'<div class="form-problems" role="alert" id="share-problem">(.*?)</div>', again.text, re.S
    )
    assert problem, "the page says nothing of what is wrong"
    return (
        again,
        html.unescape(shown.group(1)),
        html.unescape(re.sub("<[^>]+>", "", problem.group(1))),
    )


def test_a_parent_link_that_is_no_permalink_is_named(client):
    again, shown, problem = share_again(client, "my parent, the one from Tuesday")
    assert shown == "my parent, the one from Tuesday"
    assert "Not shared yet; nothing was stored." in problem
    assert "is not a link to a stored checkpoint" in problem
    assert "Fix what is listed" not in again.text


def test_a_permalink_of_another_service_is_named(client):
    _, _, problem = share_again(client, f"https://elsewhere.example/c/{UNKNOWN_ID}")
    assert "no stored checkpoint at the parent's storage id you gave" in problem
    assert "not a permalink of this service: it links to elsewhere.example" in problem


def test_a_parent_link_to_nothing_stored_is_named(client):
    _, _, problem = share_again(client, f"http://testserver/c/{UNKNOWN_ID}")
    assert "no stored checkpoint at the parent's storage id you gave" in problem
    assert "not a permalink of this service" not in problem


def test_a_parent_link_that_expired_or_was_deleted_is_named(client, clock):
    stored = client.post("/api/v1/checkpoints?lifetime=1h", content=VALID, headers=JSON_TYPE).json()
    clock.advance(timedelta(hours=2))
    _, _, problem = share_again(client, stored["permalink"])
    assert re.search(r"The parent you gave expired on 2026-12-03 \d\d:\d\d:\d\d UTC", problem)
    deleted = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE).json()
    client.delete(
        f"/api/v1/checkpoints/{deleted['storage_id']}",
        headers={"authorization": f"Bearer {deleted['deletion_token']}"},
    )
    _, _, problem = share_again(client, deleted["permalink"])
    assert "The parent you gave was deleted by its uploader on" in problem


def test_a_good_parent_link_still_links(client):
    parent = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE).json()
    page = client.post("/view", data={"checkpoint": CHILD.decode()})
    shared = client.post(
        "/share",
        data={**carried_fields(page.text), "lifetime": "1d", "parent_link": parent["permalink"]},
    )
    assert shared.status_code == 201
    child_id = re.search(r'href="/c/([a-z0-9]+)"', shared.text).group(1)
    assert f'href="/c/{child_id}/diff"' in shared.text
