"""Screenshots of the main page states, written to artifacts/screenshots/ for people to look at
(CI keeps them as artefacts). The test checks only that each state is the one named."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    SCREENSHOTS,
    conformance,
    own_lineage,
    paste,
    store,
    submit_file,
)

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}


def test_screenshots_of_the_main_page_states(open_page, make_context):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for old in SCREENSHOTS.glob("*.png"):
        old.unlink()

    def shot(page, name: str, full_page: bool = False) -> None:
        # a whole page of the support handoff is 18,000 px tall: Chromium takes seconds to
        # paint it on a small machine, so a full-page shot gets longer than the default 10 s
        timeout = 60_000 if full_page else None
        page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=full_page, timeout=timeout)

    page = open_page(make_context(viewport=VIEWPORT))
    page.goto("/")
    expect(page.locator("#live")).to_contain_text("Paste a checkpoint above")
    shot(page, "01-empty-form")

    paste(page, "#checkpoint", conformance("rule-S002-unresolved-blocked-by.ocp.json").decode())
    expect(page.locator("#live .verdict")).to_contain_text("invalid", timeout=5000)
    page.locator("#live-section").scroll_into_view_if_needed()
    shot(page, "02-form-with-live-findings")

    # submit what was pasted: the invalid page, scrolled to its findings
    with page.expect_navigation(url="**/view"):
        page.click("#intake button[type=submit]")
    expect(page.locator("#findings li.error")).to_have_count(1)
    page.locator(".page-header .verdict a", has_text="findings").click()
    expect(page).to_have_url(re.compile("#findings$"))
    shot(page, "04-invalid-with-findings")

    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    expect(page.locator(".page-header .verdict")).to_contain_text("valid (levels 1–2)")
    shot(page, "03-valid-support-handoff-full", full_page=True)

    submit_file(page, conformance("json-nan.ocp.json"), "json-nan.ocp.json")
    expect(page.locator("#findings a.code", has_text="json")).to_be_visible()
    shot(page, "05-json-error")

    dark = open_page(make_context(viewport=VIEWPORT, color_scheme="dark"))
    dark.goto("/")
    shot(dark, "06-empty-form-dark")
    submit_file(dark, conformance("json-nan.ocp.json"), "json-nan.ocp.json")
    shot(dark, "07-json-error-dark")
    submit_file(dark, conformance("valid-support-handoff.ocp.json"))
    shot(dark, "08-valid-support-handoff-dark")

    nojs = open_page(make_context(viewport=VIEWPORT, java_script_enabled=False))
    nojs.goto("/")
    expect(nojs.locator("#live")).to_contain_text("Without it, use the button.")
    shot(nojs, "09-no-javascript-form")
    submit_file(nojs, conformance("valid-support-handoff.ocp.json"))
    shot(nojs, "10-no-javascript-report")

    # sharing: the result with its one-time deletion token, then a stored child's lineage
    # tree and its changes since its parent (ids of their own: the server is shared)
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    with page.expect_navigation(url="**/share"):
        page.click("aside.share button[type=submit]")
    expect(page.locator("pre.token")).to_be_visible()
    shot(page, "11-shared-with-deletion-token")

    parent_document, child_document = own_lineage()
    parent_id = store(page, parent_document)["storage_id"]
    stored = [parent_id, store(page, child_document, parent=parent_id)["storage_id"]]
    page.goto(f"/c/{stored[1]}/lineage")
    expect(page.locator("svg a.node")).to_have_count(2)
    shot(page, "12-lineage-tree")
    page.goto(f"/c/{stored[1]}/diff")
    expect(page.locator("#transitions")).to_contain_text("op-open-pr")
    shot(page, "13-changes-since-the-parent")

    names = sorted(p.name for p in SCREENSHOTS.glob("*.png"))
    assert len(names) == 13, names
    for path in SCREENSHOTS.glob("*.png"):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000, path
