"""What an issue tracker is given of a stored checkpoint (issue 27): the badge at
/c/{id}/badge.svg and the Markdown summary at /c/{id}.md, rendered as a tracker renders them."""

import json
import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Limits, Settings
from app.render.tracker import must_verify, summary_markdown
from app.web import create_app
from app.web.pages import page_view
from tests.conftest import CONFORMANCE

SUPPORT = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
INVALID = (CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json").read_bytes()
NAUGHTY = json.loads((Path(__file__).parents[1] / "data/naughty-strings/blns.json").read_text())
JSON_TYPE = {"content-type": "application/json"}
BASE = "http://testserver"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def client(tmp_path, clock):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings, clock=clock)) as c:
        yield c


def share(client, data=SUPPORT, lifetime=None):
    url = "/api/v1/checkpoints" + (f"?lifetime={lifetime}" if lifetime else "")
    response = client.post(url, content=data, headers=JSON_TYPE)
    assert response.status_code == 201, response.text
    return response.json()


def share_child(client, parent, child):
    """``child`` stored as the child of the stored ``parent`` (its storage id given)."""
    response = client.post(
        f"/api/v1/checkpoints?parent={parent['storage_id']}",
        content=json.dumps(child).encode(),
        headers=JSON_TYPE,
    )
    assert response.status_code == 201, response.text
    return response.json()


def badge_words(response) -> str:
    """What the badge says, read from the SVG as an XML parser reads it."""
    root = ET.fromstring(response.content)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("role") == "img"
    texts = [t.text for t in root.iter(f"{SVG_NS}text")]
    title = root.find(f"{SVG_NS}title").text
    assert title == root.get("aria-label") == ": ".join(texts)
    return " ".join(texts)


# --- the badge ---------------------------------------------------------------------------------


def test_badge_says_the_verdict_and_what_to_verify_first(client):
    created = share(client)
    response = client.get(created["badge"])
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    twin = client.get(f"/c/{created['storage_id']}.json").json()
    count = sum(line["count"] for line in twin["view"]["summary"]["lines"])
    assert count > 1  # the support hand-off records an uncertain refund and stop conditions
    assert badge_words(response) == f"OpenCheckpoint valid · {count} to verify first"


def test_badge_of_a_checkpoint_with_nothing_to_verify_says_what_it_records(client):
    """Nothing to verify is what the document records, never that it is safe to continue."""
    created = share(client, (CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    words = badge_words(client.get(created["badge"]))
    assert words == "OpenCheckpoint valid · records nothing to verify first"


def test_badge_of_an_invalid_checkpoint_says_reject(client):
    created = share(client, INVALID)
    assert badge_words(client.get(created["badge"])) == "OpenCheckpoint invalid · reject it"


def test_badge_is_cached_by_etag_and_never_by_a_shared_cache(client):
    created = share(client)
    first = client.get(created["badge"])
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "private, no-cache"
    again = client.get(created["badge"], headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    head = client.head(created["badge"])
    assert head.status_code == 200 and head.headers["etag"] == etag


def test_expired_deleted_and_unknown_documents_still_get_a_badge(client, clock):
    expiring = share(client, lifetime="1h")
    deleted = share(client)
    client.delete(
        f"/api/v1/checkpoints/{deleted['storage_id']}",
        headers={"authorization": f"Bearer {deleted['deletion_token']}"},
    )
    clock.advance(timedelta(hours=1, seconds=1))
    expired = client.get(expiring["badge"])
    assert expired.status_code == 200  # an embedded image shows why, not a broken picture
    assert badge_words(expired) == "OpenCheckpoint expired"
    assert badge_words(client.get(deleted["badge"])) == "OpenCheckpoint deleted"
    unknown = client.get("/c/" + "z" * 30 + "/badge.svg")
    assert unknown.status_code == 404
    assert badge_words(unknown) == "OpenCheckpoint not found"


# --- the Markdown ------------------------------------------------------------------------------


def rendered(markdown: str) -> list[Any]:
    """Every inline token of the Markdown as a CommonMark renderer parses it."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    flat = []
    for token in tokens:
        flat.append(token)
        flat.extend(token.children or [])
    return flat


def assert_safe_to_paste(markdown: str, permalink: str) -> None:
    tokens = rendered(markdown)
    assert not [t for t in tokens if t.type in ("html_inline", "html_block")], markdown
    links = [t.attrs["href"] for t in tokens if t.type == "link_open"]
    images = [t.attrs["src"] for t in tokens if t.type == "image"]
    assert links, markdown
    for href in links:
        assert href == permalink or href.startswith(permalink + "#"), href
    assert images == [permalink + "/badge.svg"]
    # nothing turns into a link in a renderer that links bare addresses (GFM autolinks), and
    # no link's text names a host: an id that looks like one is in code beside the link
    plain = " ".join(t.content for t in tokens if t.type == "text")
    assert not re.search(r"(?i)(https?:|www\.|mailto:|javascript:)", plain), plain
    inside = False
    for token in tokens:
        inside = {"link_open": True, "link_close": False}.get(token.type, inside)
        if inside and token.type in ("text", "code_inline"):
            assert not re.search(r"[.:]", token.content), token.content


def test_markdown_has_the_verdict_the_summary_and_a_link_to_each_card(client):
    created = share(client)
    response = client.get(created["markdown"])
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    assert response.headers["cache-control"] == "private, no-cache"
    markdown = response.text
    assert_safe_to_paste(markdown, created["permalink"])
    twin = client.get(f"/c/{created['storage_id']}.json").json()
    for line in twin["view"]["summary"]["lines"]:
        for item in line["items"]:
            assert f"[`{item['id']}`]({created['permalink']}#{item['anchor']})" in markdown
    assert "valid \\(levels 1–2\\)" in markdown
    # the objective is document text: a tracker preview never carries it
    objective = json.loads(SUPPORT)["task"]["objective"]
    assert objective[:30] not in markdown
    again = client.get(created["markdown"], headers={"if-none-match": response.headers["etag"]})
    assert again.status_code == 304


def test_page_copies_the_same_markdown_and_shows_the_badge(client):
    created = share(client)
    page = client.get(f"/c/{created['storage_id']}").text
    button = re.search(r'data-copy-text="([^"]*)" data-copy-fallback="([^"]+)"', page)
    assert button, "no copy-as-Markdown button"
    import html

    assert html.unescape(button.group(1)) == client.get(created["markdown"]).text
    assert button.group(2) == f"/c/{created['storage_id']}.md"
    assert f'src="/c/{created["storage_id"]}/badge.svg"' in page


def test_share_page_gives_a_snippet_for_a_ticket(client):
    form = client.post(
        "/view", files={"checkpoint_file": ("c.json", SUPPORT, "application/json")}
    ).text
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    shared = client.post("/share", data={**fields, "lifetime": "1h"})
    assert shared.status_code == 201
    permalink = re.search(r'<dt>Permalink</dt><dd><a href="[^"]+">([^<]+)</a>', shared.text)[1]
    snippet = f"[![OpenCheckpoint]({permalink}/badge.svg)]({permalink})"
    assert f'<pre class="snippet" id="snippet-1">{snippet}</pre>' in shared.text
    assert_safe_to_paste(snippet, permalink)


def hostile(text: str) -> bytes:
    """The support hand-off with ``text`` as every id, description and text an object the
    summary names holds, and as its objective: what a document author controls."""
    document = json.loads(SUPPORT)
    document["task"]["objective"] = text

    def spoil(node: Any) -> None:
        if isinstance(node, dict):
            for key in list(node):
                if key in ("id", "description", "text", "title") and isinstance(node[key], str):
                    node[key] = text
                else:
                    spoil(node[key])
        elif isinstance(node, list):
            for item in node:
                spoil(item)

    spoil({k: v for k, v in document.items() if k not in ("id",)})
    return json.dumps(document).encode()


ATTACKS = [
    "x](https://evil.example/steal)",
    "`](https://evil.example) <img src=x onerror=alert(1)>",
    "![pwn](https://evil.example/p.png)",
    "<script>alert(1)</script>",
    "javascript:alert(1)",
    "www.evil.example",
    "op-refund](https://evil.example)",
    "a\n\n# heading\n[x]: https://evil.example",
    "https://evil.example/a_b*c",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_markdown_is_safe_to_paste_whatever_the_document_holds(client, attack):
    created = share(client, hostile(attack))
    assert_safe_to_paste(client.get(created["markdown"]).text, created["permalink"])


def test_markdown_of_every_naughty_string_is_safe_to_paste():
    """The Big List of Naughty Strings as every text and id: the render model is made as the
    service makes it, and the Markdown rendered by markdown-it-py."""
    permalink = f"{BASE}/c/" + "a" * 30
    checked = 0
    for text in NAUGHTY:
        if not text.strip():
            continue
        result = lint(hostile(text))
        view = page_view(result, Limits())
        markdown = summary_markdown(view, permalink)
        if must_verify(view):
            assert_safe_to_paste(markdown, permalink)
            checked += 1
    assert checked > 400


def test_markdown_of_a_child_says_what_it_lost_since_the_parent(client):
    from tests.test_whole_truth import HANDOFF, compacted_child

    parent = share(client, json.dumps(HANDOFF).encode())
    child = share_child(client, parent, compacted_child())
    markdown = client.get(child["markdown"]).text
    assert_safe_to_paste(markdown, child["permalink"])
    assert "**Since the parent:**" in markdown
    assert "- dropped stop condition [`stop-email`](" in markdown
    assert "no omission names it" in markdown


def test_a_ticket_learns_of_a_newer_checkpoint_and_of_what_a_child_dropped(client):
    """The page opens with "a newer checkpoint is stored" (§10.3) and with what the child
    lost of its parent: its badge, Markdown, title and link preview say so too."""
    from tests.test_whole_truth import HANDOFF, compacted_child

    parent = share(client, json.dumps(HANDOFF).encode())
    before = badge_words(client.get(parent["badge"]))
    assert "newer" not in before
    child = share_child(client, parent, compacted_child())
    assert "a newer one is stored: read it first" in badge_words(client.get(parent["badge"]))
    markdown = client.get(parent["markdown"]).text
    assert "**A newer checkpoint of this lineage is stored**" in markdown
    assert_safe_to_paste(markdown, parent["permalink"])
    title, tags = preview_of(client, parent["storage_id"])
    assert "a newer one is stored" in title
    assert "a newer checkpoint is stored" in tags["og:description"]
    # the child's count to verify first holds what it dropped of its parent's
    _, child_tags = preview_of(client, child["storage_id"])
    assert "of the parent&#39;s objects in force dropped or changed" in child_tags["og:description"]


# --- link previews -----------------------------------------------------------------------------

SLACKBOT = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"


def preview_of(client, storage_id: str) -> tuple[str, dict[str, str]]:
    """The page's title and its Open Graph and Twitter tags, as a chat app's fetcher reads
    them (it runs no script)."""
    page = client.get(f"/c/{storage_id}", headers={"user-agent": SLACKBOT}).text
    title = re.search(r"<title>([^<]*)</title>", page)[1]
    tags = dict(
        re.findall(r'<meta (?:property|name)="((?:og|twitter):[a-z_:]+)" content="([^"]*)"', page)
    )
    return title, tags


def test_a_chat_preview_tells_what_must_be_verified_and_nothing_of_the_document(client):
    import html

    from PIL import Image

    created = share(client)
    title, tags = preview_of(client, created["storage_id"])
    title, tags = html.unescape(title), {k: html.unescape(v) for k, v in tags.items()}
    assert tags["og:title"] == "OpenCheckpoint · valid · 17 to verify first · task active"
    assert title.startswith(tags["og:title"])
    # the uncertain refund and the two stop conditions of the support hand-off
    assert tags["og:description"].startswith(
        "Verify first: 1 operation with an unknown outcome · 2 stop conditions in force"
    )
    assert "valid never means authorized" in tags["og:description"]
    document = json.loads(SUPPORT)
    texts = [document["task"]["objective"], document["task"]["outcome"]]
    texts += [s["text"] for s in document["statements"]]
    for value in [title, *tags.values()]:
        for text in texts:
            assert text[:24] not in value
    assert tags["twitter:card"] == "summary_large_image"
    image = client.get(tags["og:image"].removeprefix(BASE), headers={"user-agent": SLACKBOT})
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.headers["cache-control"] == "private, no-cache"
    import io

    card = Image.open(io.BytesIO(image.content))
    assert card.format == "PNG" and card.size == (1200, 630)
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    again = client.get(
        tags["og:image"].removeprefix(BASE), headers={"if-none-match": image.headers["etag"]}
    )
    assert again.status_code == 304


def test_previews_differ_with_what_must_be_verified(client):
    """Every valid active checkpoint once previewed the same: now the counts say which is which."""
    support = preview_of(client, share(client)["storage_id"])[1]
    coding = preview_of(
        client,
        share(client, (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes())["storage_id"],
    )[1]
    invalid = preview_of(client, share(client, INVALID)["storage_id"])[1]
    assert (
        len({support["og:description"], coding["og:description"], invalid["og:description"]}) == 3
    )
    assert invalid["og:title"] == "OpenCheckpoint · invalid · reject it · task active"
    assert invalid["og:description"].startswith("Invalid: 1 error")
