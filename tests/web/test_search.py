"""The page's search without JavaScript (issue 27): ?q= lists only the cards whose text holds
the words, casefolded, on a stored page and its JSON twin, and on an unsaved page by its Share
form sent back to /view; the page says how many matched and links every card again. A query is
text, never markup and never a pattern."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from markupsafe import escape
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

HANDOFF = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as c:
        yield c


@pytest.fixture
def permalink(client: TestClient) -> str:
    created = client.post("/api/v1/checkpoints", content=HANDOFF, headers=JSON_TYPE)
    assert created.status_code == 201
    return f"/c/{created.json()['storage_id']}"


def card_ids(page: str) -> set[str]:
    """The ids of the statement, operation, resource and application context cards a page
    lists."""
    return set(re.findall(r'<(?:li|article) id="obj-([^"]+)" class="card ', page))


def twin_ids(view: dict[str, Any]) -> set[str]:
    statements = view["statements"]["groups"]
    return {
        *(c["id"] for g in statements for o in g["by_origin"] for c in o["items"]),
        *(c["id"] for g in view["operations"]["groups"] for c in g["items"]),
        *(c["id"] for c in view["resources"]["items"]),
        *(c["id"] for c in view["application_context"]["items"]),
    }


def search_note(page: str) -> str:
    found = re.search(r'<p class="note search-note" role="status">(.*?)</p>', page, re.S)
    assert found, "a searched page says what the search found"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def test_a_stored_page_lists_only_the_cards_holding_the_words(client, permalink) -> None:
    every = client.get(permalink).text
    page = client.get(permalink, params={"q": "SUBSCRIPTION"})
    assert page.status_code == 200
    assert page.headers["cache-control"] == "private, no-cache"  # rendered, never kept
    shown = card_ids(page.text)
    assert shown and shown < card_ids(every)
    document = json.loads(HANDOFF)
    holding = {
        o["id"]
        for key in ("statements", "operations", "resources")
        for o in document[key]
        if "subscription" in json.dumps(o, ensure_ascii=False).casefold()
    }
    # every card holding the words is listed (a card also holds the viewer's words about it)
    assert holding <= shown
    assert "s-instr-keep-sub" in shown
    note = search_note(page.text)
    assert re.match(r"\d+ of the \d+ cards hold “SUBSCRIPTION”: Statements \d+", note), note
    assert "Show all cards" in note
    assert f'<a href="{permalink}#search">Show all cards</a>' in page.text
    # the box keeps the query, and the header and summary are still there
    assert 'name="q" type="search" value="SUBSCRIPTION"' in page.text
    assert 'id="summary' in page.text or "Verify before continuing" in page.text


def test_the_json_twin_lists_the_same_cards(client, permalink) -> None:
    page = client.get(permalink, params={"q": "refund"}).text
    twin = client.get(permalink + ".json", params={"q": "refund"})
    assert twin.status_code == 200
    view = twin.json()["view"]
    assert twin_ids(view) == card_ids(page)
    search = view["search"]
    assert search["query"] == "refund"
    assert 0 < search["matched"] < search["searched"]
    assert sum(s["matched"] for s in search["sections"]) == search["matched"]
    assert f"{search['matched']} of the {search['searched']} cards" in search_note(page)
    # no search: no search member, every card
    plain = client.get(permalink + ".json").json()["view"]
    assert "search" not in plain
    assert twin_ids(view) < twin_ids(plain)


def test_casefolding_matches_what_lower_case_would_not(client) -> None:
    document = json.loads(HANDOFF)
    document["statements"][0]["text"] = "Keep the STRASSE address on file."
    created = client.post(
        "/api/v1/checkpoints", content=json.dumps(document).encode(), headers=JSON_TYPE
    ).json()
    view = client.get(f"/c/{created['storage_id']}.json", params={"q": "straße"}).json()["view"]
    assert twin_ids(view) == {document["statements"][0]["id"]}


def test_no_match_says_so_and_links_every_card(client, permalink) -> None:
    page = client.get(permalink, params={"q": "zebra-crossing-nowhere"}).text
    assert card_ids(page) == set()
    assert search_note(page).startswith("No card holds “zebra-crossing-nowhere”.")
    assert "Show all cards" in search_note(page)
    view = client.get(permalink + ".json", params={"q": "zebra-crossing-nowhere"}).json()["view"]
    assert view["search"]["matched"] == 0
    assert view["search"]["sections"] == []
    assert twin_ids(view) == set()


def test_an_empty_or_blank_query_lists_everything(client, permalink) -> None:
    every = card_ids(client.get(permalink).text)
    for q in ("", "   "):
        page = client.get(permalink, params={"q": q}).text
        assert card_ids(page) == every
        assert 'class="note search-note"' not in page
        assert "search" not in client.get(permalink + ".json", params={"q": q}).json()["view"]


@pytest.mark.parametrize(
    ("query", "markup"),
    [
        ("<script>alert(1)</script>", "<script>alert"),
        ('"><img src=x onerror=alert(1)>', "<img src=x"),
        ("&amp;", 'value="&amp;"'),
    ],
)
def test_a_hostile_query_is_text(client, permalink, query, markup) -> None:
    page = client.get(permalink, params={"q": query})
    assert page.status_code == 200
    assert markup not in page.text  # never written as markup
    assert f'value="{escape(query)}"' in page.text  # the box shows it as text
    assert search_note(page.text).startswith(f"No card holds “{query}”.")
    assert card_ids(page.text) == set()


@pytest.mark.parametrize("query", [".*", "(", "[a-z]+", "\\", "^", "$", "a|b", "?", "€"])
def test_a_regex_metacharacter_is_matched_as_itself(client, permalink, query) -> None:
    view = client.get(permalink + ".json", params={"q": query}).json()["view"]
    assert view["search"]["query"] == query
    cards = [
        *(c for g in view["statements"]["groups"] for o in g["by_origin"] for c in o["items"]),
        *(c for g in view["operations"]["groups"] for c in g["items"]),
        *view["resources"]["items"],
    ]
    # every listed card holds the characters themselves, never what they would match
    for card in cards:
        assert query.casefold() in json.dumps(card, ensure_ascii=False).casefold(), card["id"]
    if query in (".*", "[a-z]+", "a|b", "^", "$"):
        assert cards == []
    assert client.get(permalink, params={"q": query}).status_code == 200


def test_a_parenthesis_finds_the_cards_that_hold_one(client, permalink) -> None:
    view = client.get(permalink + ".json", params={"q": "("}).json()["view"]
    for group in view["operations"]["groups"]:
        for card in group["items"]:
            assert "(" in json.dumps(card, ensure_ascii=False)


def test_a_ten_thousand_character_query(client, permalink) -> None:
    query = "refund " * 1428 + "xxxx"
    assert len(query) == 10_000
    page = client.get(permalink, params={"q": query})
    assert page.status_code == 200
    assert card_ids(page.text) == set()
    note = search_note(page.text)
    assert note.startswith("No card holds “refund refund")
    assert len(note) < 400  # the note shortens the query; the box keeps it whole
    assert f'value="{query.strip()}"' in page.text
    twin = client.get(permalink + ".json", params={"q": query}).json()["view"]
    assert twin["search"]["matched"] == 0


def test_an_unsaved_page_searches_by_its_share_form(client) -> None:
    page = client.post(
        "/view",
        files={"checkpoint_file": ("c.ocp.json", HANDOFF, "application/json")},
        data={"q": "subscription"},
    )
    assert page.status_code == 200
    assert "s-instr-keep-sub" in card_ids(page.text)
    every = client.post(
        "/view", files={"checkpoint_file": ("c.ocp.json", HANDOFF, "application/json")}
    ).text
    assert card_ids(page.text) < card_ids(every)
    # the box belongs to the Share form, which carries the document, and its Filter button
    # comes first in that form, so Enter in the box filters and never shares
    assert 'name="q" type="search" value="subscription" form="carry"' in page.text
    assert page.text.index('formaction="/view#search"') < page.text.index('id="carry"')
    assert 'formaction="/view?q=#search">Show all cards</button>' in page.text
    # ?q= on the address comes first: what "Show all cards" sends
    shown_all = client.post(
        "/view?q=",
        files={"checkpoint_file": ("c.ocp.json", HANDOFF, "application/json")},
        data={"q": "subscription"},
    ).text
    assert card_ids(shown_all) == card_ids(every)
    twin = client.post(
        "/view.json",
        files={"checkpoint_file": ("c.ocp.json", HANDOFF, "application/json")},
        data={"q": "subscription"},
    )
    assert twin.status_code == 200
    assert twin_ids(twin.json()["view"]) == card_ids(page.text)


def test_a_search_never_finds_a_redacted_credential(client) -> None:
    document = json.loads(HANDOFF)
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    document["statements"][0]["text"] = f"Use the token {secret} for the API."
    page = client.post(
        "/view",
        files={
            "checkpoint_file": (
                "c.ocp.json",
                json.dumps(document).encode(),
                "application/json",
            )
        },
        data={"q": secret[4:20]},
    )
    assert page.status_code == 200
    assert secret not in page.text
    assert document["statements"][0]["id"] not in card_ids(page.text)
