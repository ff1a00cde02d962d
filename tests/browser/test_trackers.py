"""A permalink where it is pasted (issue 27), in Chromium at a phone's width and a desktop's:
a ticket that renders the page's "copy as Markdown" text as a tracker does (CommonMark, the
badge embedded from the service), and a chat app's preview of the permalink."""

import html
import json
import re

import pytest
from markdown_it import MarkdownIt
from playwright.sync_api import expect

from tests.browser.conftest import conformance, store

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
# The tracker's page and the service share this machine: a real tracker is on the internet,
# and Chromium asks before a page reaches the local network; the test says yes.
LOCAL_NETWORK = ["local-network-access"]
SLACKBOT = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"


def open_elsewhere(page, path: str, body: str) -> None:
    """Open ``body`` as a page of another site: another origin (port 9, which nothing serves)
    on the same machine, so Chromium's private-network rules treat it as a tracker's or a chat
    app's page."""
    url = f"http://127.0.0.1:9{path}"
    page.route(url, lambda route: route.fulfill(content_type="text/html", body=body))
    page.goto(url)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_ticket_shows_the_badge_and_links_each_card(make_context, open_page, server, viewport):
    page = open_page(make_context(viewport=VIEWPORTS[viewport], permissions=LOCAL_NETWORK))
    support = json.loads(conformance("valid-support-handoff.ocp.json"))
    created = store(page, support)
    page.goto(f"/c/{created['storage_id']}")
    button = page.get_by_role("button", name="copy as Markdown")
    copied = button.get_attribute("data-copy-text")
    assert button.is_visible()
    box = button.bounding_box()
    # a target a finger can take on a phone (44 px), a pointer's minimum elsewhere (WCAG 2.5.8)
    assert box["height"] >= (44 if viewport == "phone" else 24)
    assert box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]

    # the ticket: the tracker's renderer turns the Markdown into HTML in its own page
    ticket = MarkdownIt("commonmark").render(copied)
    open_elsewhere(page, "/ticket/1", f"<!doctype html><title>Ticket</title><main>{ticket}</main>")
    badge = page.locator("main img")
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth)")
    assert badge.count() == 1
    assert badge.get_attribute("src") == f"{server}/c/{created['storage_id']}/badge.svg"
    assert badge.evaluate("img => img.naturalWidth") > 100
    assert "to verify first" in badge.get_attribute("alt")
    hrefs = page.locator("main a").evaluate_all("links => links.map(a => a.href)")
    assert hrefs and all(h.startswith(created["permalink"]) for h in hrefs)
    # nothing of the document's own words reached the ticket
    text = page.inner_text("main")
    assert support["task"]["objective"][:30] not in text
    assert "2 stop conditions" in text.replace("\n", " ")

    # each card link opens the card on the page
    first_card = next(h for h in hrefs if "#obj-" in h)
    with page.expect_navigation():
        page.locator("main a[href*='#obj-']").first.click()
    assert page.url == first_card
    anchor = first_card.split("#", 1)[1]
    expect(page.locator(f"[id='{anchor}']")).to_be_visible()  # unfolded where it was folded


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_chat_preview_card_is_served_for_the_permalink(make_context, open_page, viewport):
    context = make_context(
        viewport=VIEWPORTS[viewport], user_agent=SLACKBOT, permissions=LOCAL_NETWORK
    )
    page = open_page(context)
    created = store(page, json.loads(conformance("valid-support-handoff.ocp.json")))
    response = page.request.get(f"/c/{created['storage_id']}", headers={"user-agent": SLACKBOT})
    source = response.text()
    tags = dict(re.findall(r'<meta property="(og:[a-z:_]+)" content="([^"]*)"', source))
    assert "to verify first" in html.unescape(tags["og:title"])
    # the card as a chat app shows it: an image in its own page
    card = f'<!doctype html><title>Chat</title><img alt="" src="{tags["og:image"]}">'
    open_elsewhere(page, "/chat", card)
    page.wait_for_function("() => document.images[0].complete && document.images[0].naturalWidth")
    size = page.locator("img").evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert size == [1200, 630]
