"""Links in Chromium: every link a resource card offers opens the host the card names, by
Chromium's own URL parser; a uri the viewer refuses to link names the host Chromium would open;
and a hostile enum value cannot restyle the page ("uncertain skip" moving a badge off screen)."""

from __future__ import annotations

import pytest

from app.links import decide
from tests.browser.conftest import conformance, submit_file
from tests.test_links import CASES, HOSTILE_ENUMS, _document, _hostile_document

pytestmark = pytest.mark.browser

URIS = [c[0] for c in CASES if len(c[0]) < 1000]

READ_LINKS = """
(uris) => {
  const cards = {};
  for (const el of document.querySelectorAll("article[id^='obj-r-']")) {
    const uri = el.querySelector("dd.uri");
    cards[el.id.slice(4)] = {
      links: [...uri.querySelectorAll("a[href]")].map((a) => a.hostname),
      host: [...uri.querySelectorAll(".link-host code")].map((c) => c.textContent),
      note: uri.querySelector(".link-note")?.textContent ?? null,
    };
  }
  // what Chromium itself makes of each uri, link or not
  const parsed = uris.map((u) => {
    try { return new URL(u).hostname; } catch (e) { return null; }
  });
  return { cards, parsed };
}
"""


def test_every_link_opens_the_host_its_card_names(open_page):
    page = open_page()
    submit_file(page, _document(URIS))
    seen = page.evaluate(READ_LINKS, URIS)
    linked = 0
    for i, uri in enumerate(URIS):
        card = seen["cards"][f"r-{i}"]
        decision = decide(uri)
        if card["links"]:
            linked += 1
            assert decision.clickable, f"{uri!r}: linked though refused"
            [opened] = card["links"]
            # Chromium opens the ASCII form the card shows beside the Unicode one (first, where
            # the Unicode form could pass for another name), or the host
            assert opened in card["host"], f"{uri!r}: opens {opened}, card shows {card['host']}"
            assert opened == (decision.host_ascii or decision.host), uri
        else:
            assert card["note"] is not None, f"{uri!r}: neither a link nor a note"
        # the host the page names, in a link's card or a refusal's note, is the one Chromium's
        # own parser reads
        if decision.host is not None:
            assert seen["parsed"][i] == (decision.host_ascii or decision.host), uri
    assert linked >= 10


def test_a_hostile_status_cannot_move_a_badge_off_screen(open_page, minimal):
    page = open_page()
    submit_file(page, _hostile_document(minimal))
    badge = page.locator("article#obj-o-1 .card-head .badge", has_text=HOSTILE_ENUMS["skip"])
    box = badge.bounding_box()
    assert box is not None and box["x"] >= 0, "the badge was moved off screen"
    # only the skip link carries the class "skip"
    assert page.locator(".skip").count() == 1


def test_the_conformance_pages_link_only_what_the_viewer_decided(open_page):
    page = open_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    hrefs = page.evaluate(
        "() => [...document.querySelectorAll('dd.uri a[href]')].map((a) => a.getAttribute('href'))"
    )
    assert hrefs and all(decide(h).clickable for h in hrefs)
