"""The pages in real Chromium: the form, the report, live linting, JavaScript off, keyboard.

Every page comes from `open_page`: any console error, CSP violation, dialog or page error
fails the test (see conftest.py)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import conformance, paste, submit_file, submit_text
from tests.conftest import manifest

pytestmark = pytest.mark.browser

SECTIONS = ["#findings", "#before-continuing", "#statements", "#operations", "#source"]
VALID = [c["file"] for c in manifest() if c["file"].startswith("valid-")]


def verdict(page: Page) -> str:
    return page.text_content(".page-header .verdict strong") or ""


def test_paste_and_submit_shows_the_report(open_page):
    page = open_page()
    submit_text(page, conformance("valid-support-handoff.ocp.json").decode())
    assert verdict(page) == "valid (levels 1–2)"
    expect(page.locator("h1")).to_have_count(1)
    expect(page).to_have_title(re.compile("valid"))
    for section in SECTIONS:
        expect(page.locator(section)).to_be_visible()
    expect(page.locator("#findings")).to_contain_text("No findings")
    # every operation card shows the viewer's advice, starting with what to verify first
    cards = page.locator("#operations article.operation")
    assert cards.count() > 0
    for card in cards.all():
        advice = card.locator(".advice")
        expect(advice).to_be_visible()
        expect(advice).to_contain_text("What to verify")
        expect(advice.locator(".first-step")).to_contain_text("First:")
    # the uncertain refund asks to verify before resuming
    expect(page.locator("#operations")).to_contain_text("verify_first")
    # the source is numbered and every line links to itself
    lines = page.locator("#source li")
    assert lines.count() == len(conformance("valid-support-handoff.ocp.json").splitlines())
    expect(lines.first.locator("a.ln")).to_have_attribute("href", "#L1")


def test_upload_an_invalid_file_and_follow_the_finding_links(open_page):
    page = open_page()
    submit_file(page, conformance("rule-S002-unresolved-blocked-by.ocp.json"), "s002.ocp.json")
    assert verdict(page) == "invalid"
    expect(page.locator(".page-header .eyebrow")).to_contain_text("s002.ocp.json")
    finding = page.locator("#findings li.error").filter(has_text="OCP-S002")
    expect(finding).to_have_count(1)
    expect(finding.locator("a.code")).to_have_attribute("href", "/rules/OCP-S002")
    # the object link points at an element of this page
    object_link = finding.locator("a[href^='#obj-']")
    expect(object_link).to_have_count(1)
    target = object_link.get_attribute("href")[1:]
    assert page.evaluate("(id) => document.getElementById(id) !== null", target), target
    expect(finding.locator(".path")).to_have_text("/progress/next/0/blocked_by/0")
    # the line link changes the fragment and lands on a marked source line
    line_link = finding.locator("a[href^='#L']")
    expect(line_link).to_have_count(1)
    href = line_link.get_attribute("href")
    assert re.fullmatch(r"#L[1-9][0-9]*", href), href
    line_link.click()
    expect(page).to_have_url(re.compile(re.escape(href) + "$"))
    line = page.locator(f"#source li{href}")
    expect(line).to_have_class(re.compile("has-finding"))
    expect(line).to_contain_text("error OCP-S002")
    assert page.evaluate("() => document.querySelector(':target').id") == href[1:]
    expect(line).to_be_in_viewport()
    # and the rule link opens the rule's page
    finding.locator("a.code").click()
    expect(page).to_have_url(re.compile("/rules/OCP-S002$"))
    expect(page.locator("h1")).to_have_text("OCP-S002")


def test_live_linting_updates_the_panel_without_a_reload(open_page):
    page = open_page()
    page.goto("/")
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.evaluate("() => { window.__stillHere = 'same page'; }")
    live = page.locator("#live")
    expect(live).to_contain_text("with JavaScript the findings appear here")

    invalid = conformance("rule-S002-unresolved-blocked-by.ocp.json").decode()
    page.fill("#checkpoint", invalid)  # fires input, as typing does
    expect(live.locator(".verdict")).to_contain_text("invalid", timeout=5000)
    expect(live.locator("a.code", has_text="OCP-S002")).to_have_attribute("href", "/rules/OCP-S002")
    expect(live).to_contain_text("/progress/next/0/blocked_by/0")

    fixed = json.loads(invalid)
    fixed["progress"]["next"][0].pop("blocked_by")
    paste(page, "#checkpoint", json.dumps(fixed, indent=2))
    expect(live.locator(".verdict")).to_contain_text("valid (levels 1–2)", timeout=5000)
    expect(live).not_to_contain_text("OCP-S002")

    # typing something that is not JSON: a json finding, still live
    page.locator("#checkpoint").press("Control+End")
    page.keyboard.type(" trailing")
    expect(live.locator(".verdict")).to_contain_text("invalid", timeout=5000)
    expect(live.locator("a.code", has_text="json").first).to_be_visible()

    assert page.evaluate("() => window.__stillHere") == "same page", "the page was reloaded"
    assert navigations == [], navigations
    assert page.url.endswith("/")


def test_without_javascript_the_form_and_rule_pages_work(open_page, make_context):
    page = open_page(make_context(java_script_enabled=False))
    page.goto("/")
    expect(page.locator("#live")).to_contain_text("Without it, use the button.")
    submit_text(page, conformance("valid-support-handoff.ocp.json").decode())
    assert verdict(page) == "valid (levels 1–2)"
    for section in SECTIONS:
        expect(page.locator(section)).to_be_visible()
    expect(page.locator("#operations .advice").first).to_be_visible()
    # copy-link buttons need JavaScript, so they stay hidden without it
    expect(page.locator("button[data-copy-link]").first).to_be_hidden()
    # a finding page and the rule pages
    submit_file(page, conformance("rule-S002-unresolved-blocked-by.ocp.json"))
    page.locator("#findings a.code", has_text="OCP-S002").click()
    expect(page.locator("h1")).to_have_text("OCP-S002")
    page.goto("/rules")
    rows = page.locator("table.rules tbody tr")
    assert rows.count() > 10
    page.locator("table.rules a", has_text="OCP-S001").click()
    expect(page).to_have_url(re.compile("/rules/OCP-S001$"))
    expect(page.locator("h1")).to_have_text("OCP-S001")
    expect(page.locator("article.doc")).not_to_be_empty()


def test_no_console_errors_on_any_page(open_page, problems):
    page = open_page()
    for path in ("/", "/rules", "/rules/OCP-S001"):
        response = page.goto(path)
        assert response is not None and response.status == 200, path
        page.wait_for_load_state("load")
        # the scripts ran, so a silent page is not just a page without script
        assert page.evaluate("() => typeof htmx") == "object", path
        assert page.evaluate("() => document.documentElement.classList.contains('js')"), path
    for name in [*VALID, "json-nan.ocp.json"]:
        submit_file(page, conformance(name), name)
        page.wait_for_load_state("load")
        expected = "invalid" if name.startswith("json-") else "valid (levels 1–2)"
        assert verdict(page) == expected, name
        assert page.evaluate("() => typeof htmx") == "object", name
    problems.assert_clean()


def test_keyboard_skip_link_then_navigation(open_page):
    page = open_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    active = """() => { const a = document.activeElement;
                        return [a.tagName, a.id, a.className, a.textContent.trim()]; }"""
    page.keyboard.press("Tab")
    assert page.evaluate(active)[2:] == ["skip", "Skip to content"]
    skip = page.locator("a.skip")
    expect(skip).to_be_in_viewport()  # shown while it has focus
    page.keyboard.press("Tab")
    assert page.evaluate(active)[3] == "OpenCheckpoint viewer"
    assert (
        page.evaluate("() => document.activeElement.closest('nav').getAttribute('aria-label')")
        == "Site"
    )
    page.keyboard.press("Tab")
    assert page.evaluate(active)[3] == "Rules"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(active)[2] == "skip"
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile("#main$"))
    assert page.evaluate(active)[:2] == ["MAIN", "main"]
    expect(skip).not_to_be_in_viewport()
    # the next Tab continues inside main, not back at the top
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.querySelector('main').contains(document.activeElement)")


def test_the_watchers_catch_console_errors_csp_violations_dialogs_and_page_errors(
    open_page, problems
):
    """The harness itself: each kind of problem is recorded, so a clean page is clean."""
    page = open_page()
    page.goto("/")
    page.evaluate("() => console.error('an error on purpose')")
    page.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.__pwned = 1"; document.body.append(s); }"""
    )
    page.evaluate("() => alert('a dialog on purpose')")
    page.evaluate("() => setTimeout(() => { throw new Error('thrown on purpose'); })")
    for _ in range(100):  # the page error and the CSP report arrive asynchronously
        if problems.page_errors and problems.csp_violations:
            break
        page.wait_for_timeout(50)
    assert page.evaluate("() => typeof window.__pwned") == "undefined"
    found = problems.unexpected()
    assert any("an error on purpose" in t for t in found["console errors"]), found
    assert any("Content Security Policy" in t for t in found["console errors"]), found
    assert [v["directive"] for v in found["CSP violations"]] == ["script-src-elem"], found
    assert found["dialogs"] == ["alert: a dialog on purpose"], found
    assert any("thrown on purpose" in t for t in found["page errors"]), found
    problems.expect(lambda text: "on purpose" in text or "Content Security Policy" in text)
    problems.expect(lambda text: "script-src-elem" in text)
    problems.assert_clean()


def test_drag_and_drop_a_file_onto_the_form(open_page):
    """Where JavaScript runs, dropping a file on the checkpoint field chooses it."""
    page = open_page()
    page.goto("/")
    data = conformance("rule-S002-unresolved-blocked-by.ocp.json").decode()
    page.evaluate(
        """(text) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([text], "dropped.ocp.json", {type: "application/json"}));
            const target = document.querySelector("[data-drop-target='checkpoint']");
            const options = {dataTransfer: transfer, bubbles: true};
            target.dispatchEvent(new DragEvent("dragover", options));
            target.dispatchEvent(new DragEvent("drop", options));
        }""",
        data,
    )
    assert "dropped.ocp.json" in page.inner_text(".drop-status")
    assert page.eval_on_selector("#checkpoint_file", "el => el.files[0].name") == "dropped.ocp.json"
    page.wait_for_selector("#live .findings li.error")  # the change also lints it live
    with page.expect_navigation(url="**/view"):
        page.click("#intake button[type=submit]")
    assert "OCP-S002" in page.inner_text("#findings")
