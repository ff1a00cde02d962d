"""The summary of what to verify first is inside the first screen, at a desktop size and at a
phone size, for the conformance documents a reviewer reads (issue 12), and each of its lines
leads to where the page shows what it counts."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOTS, conformance, submit_file
from tests.conftest import manifest

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# the valid documents of the public conformance set: what a reviewer is handed
DOCUMENTS = sorted(
    case["file"]
    for case in manifest()
    if case["file"].startswith("valid-") and not case.get("parent")
)


def test_the_summary_fits_in_the_first_screen(open_page, make_context) -> None:
    """Each document's page loaded once, then laid out at each size (as a window resized or a
    phone turned lays it out again). The summary names every kind of thing to verify (issue
    26) and puts each object's own words, whole, beside its id (issue 27), so for a rich
    document it is longer than a screen: what the first screen must hold is its start. At a
    desktop size, the heads of its first three lines (what kinds of thing there are to
    verify, and how many); on a phone, the head of its first line and that line's first
    object."""
    page = open_page(make_context(viewport=SIZES["desktop"]))
    assert DOCUMENTS
    too_low = []
    for name in DOCUMENTS:
        submit_file(page, conformance(name), name)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            summary = page.locator("#summary")
            assert summary.count() == 1, name
            box = summary.bounding_box()
            assert box is not None
            heads = page.locator("#summary a.line-head")
            if not heads.count():
                end = box["y"] + box["height"]
            elif size == "desktop":
                third = heads.nth(min(2, heads.count() - 1)).bounding_box()
                assert third is not None
                end = third["y"] + third["height"]
            else:
                first = page.locator("#summary ul.summary-lines > li").first
                item = first.locator("ul.summary-items > li").first
                shown = (item if item.count() else first).bounding_box()
                assert shown is not None
                end = shown["y"] + shown["height"]
            if end > viewport["height"]:
                too_low.append(f"{name} ({size}): ends at {end:.0f} px")
            if name == "valid-support-handoff.ocp.json":
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=SCREENSHOTS / f"20-summary-{size}.png")
    assert not too_low, f"the summary is not in the first screen: {too_low}"


def test_each_line_of_the_summary_leads_to_what_it_counts(open_page) -> None:
    page = open_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    links = page.locator("#summary a").evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
    assert len(links) > 10
    for href in links:
        assert href.startswith("#"), href
        assert page.locator(f"[id='{href[1:]}']").count() == 1, href
    text = page.locator("#summary").inner_text()
    assert "op-refund" in text and "stop-refund" in text
    for word in ("safe", "authorized", "resumable", "allowed"):
        assert word not in text.lower()


def test_print_keeps_the_summary_findings_and_cards_and_drops_the_forms(open_page) -> None:
    page = open_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    page.emulate_media(media="print")
    for shown in ("#summary", "#findings", "#obj-op-refund", "#obj-stop-refund"):
        assert page.locator(shown).first.is_visible(), shown
    for hidden in ("aside.share", "#source", "header.site", "nav.toc"):
        assert not page.locator(hidden).first.is_visible(), hidden
    page.emulate_media(media="screen")
    assert page.locator("aside.share").is_visible()
