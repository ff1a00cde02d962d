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
    phone turned lays it out again). At a desktop size the whole summary is in the first
    screen. A phone's first screen holds its start (the heading and its first lines): the
    summary names every kind of thing to verify (issue 26), which for a rich document is
    longer than a phone's screen, and it is never clipped to fit (issue 27)."""
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
            if size == "desktop":
                end = box["y"] + box["height"]
            else:
                lines = page.locator("#summary li")
                third = (
                    lines.nth(min(2, lines.count() - 1)).bounding_box() if lines.count() else box
                )
                assert third is not None
                end = third["y"] + third["height"]
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
