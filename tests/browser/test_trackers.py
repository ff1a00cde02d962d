"""A permalink where it is pasted (issue 27), in Chromium at a phone's width and a desktop's:
a ticket that renders the page's "copy as Markdown" text as a tracker does (CommonMark, the
badge embedded from the service), and a chat app's preview of the permalink."""

import html
import json
import re

import pytest
from markdown_it import MarkdownIt

from tests.browser.conftest import conformance, store

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
SLACKBOT = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_ticket_shows_the_badge_and_links_each_card(make_context, open_page, server, viewport):
    page = open_page(make_context(viewport=VIEWPORTS[viewport]))
    support = json.loads(conformance("valid-support-handoff.ocp.json"))
    created = store(page, support)
    page.goto(f"/c/{created['storage_id']}")
    button = page.get_by_role("button", name="copy as Markdown")
    copied = button.get_attribute("data-copy-text")
    assert button.is_visible()
    box = button.bounding_box()
    assert box["height"] >= 24 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]

    # the ticket: the tracker's renderer turns the Markdown into HTML in its own page
    ticket = MarkdownIt("commonmark").render(copied)
    page.set_content(f"<!doctype html><title>Ticket</title><main>{ticket}</main>")
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
    page.goto(first_card)
    anchor = first_card.split("#", 1)[1]
    card = page.locator(f"[id='{anchor}']")
    assert card.is_visible()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_chat_preview_card_is_served_for_the_permalink(make_context, open_page, viewport):
    context = make_context(viewport=VIEWPORTS[viewport], user_agent=SLACKBOT)
    page = open_page(context)
    created = store(page, json.loads(conformance("valid-support-handoff.ocp.json")))
    response = page.request.get(f"/c/{created['storage_id']}", headers={"user-agent": SLACKBOT})
    source = response.text()
    tags = dict(re.findall(r'<meta property="(og:[a-z:_]+)" content="([^"]*)"', source))
    assert "to verify first" in html.unescape(tags["og:title"])
    # the card as a chat app shows it: an image in its own page
    page.set_content(f'<!doctype html><title>Chat</title><img alt="" src="{tags["og:image"]}">')
    page.wait_for_function("() => document.images[0].complete && document.images[0].naturalWidth")
    size = page.locator("img").evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert size == [1200, 630]
