"""What people do on the pages, in real Chromium: a live check that is refused, Back after
submitting, copy links, deleting with the token, and a phone-sized screen."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import conformance, paste, store, submit_text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_a_refused_live_check_does_not_keep_the_last_verdict(open_page):
    page = open_page()
    page.goto("/")
    live = page.locator("#live")
    paste(page, "#checkpoint", conformance("valid-minimal.ocp.json").decode())
    expect(live.locator(".verdict")).to_contain_text("valid (levels 1–2)", timeout=5000)
    expect(live).to_contain_text("Checked the pasted checkpoint")
    # over the service's 5 MiB document limit
    paste(page, "#checkpoint", '{"a": "' + "x" * (5 * 1024 * 1024 + 10) + '"}')
    expect(live.locator(".live-refused")).to_contain_text("Not checked", timeout=15000)
    expect(live.locator(".verdict")).to_have_count(0)


def test_a_chosen_file_and_pasted_text_the_panel_says_which(open_page):
    page = open_page()
    page.goto("/")
    paste(page, "#checkpoint", conformance("rule-S002-unresolved-blocked-by.ocp.json").decode())
    page.set_input_files(
        "#checkpoint_file",
        files=[
            {
                "name": "minimal.ocp.json",
                "mimeType": "application/json",
                "buffer": conformance("valid-minimal.ocp.json"),
            }
        ],
    )
    live = page.locator("#live")
    expect(live).to_contain_text("the checkpoint file “minimal.ocp.json”", timeout=5000)
    expect(live).to_contain_text("The pasted checkpoint text was not checked")


def test_pasted_text_is_still_there_after_back(open_page):
    page = open_page()
    text = conformance("valid-support-handoff.ocp.json").decode()
    submit_text(page, text)
    page.go_back()
    expect(page.locator("#checkpoint")).to_have_value(text)


def test_copy_links_copy_the_permalink_and_hide_on_unsaved_pages(open_page, make_context):
    context = make_context(permissions=["clipboard-read", "clipboard-write"])
    page = open_page(context)
    submit_text(page, conformance("valid-support-handoff.ocp.json").decode())
    assert page.locator("button[data-copy-link]").first.is_hidden()

    document = json.loads(conformance("valid-support-handoff.ocp.json"))
    created = store(page, document)
    page.goto(f"/c/{created['storage_id']}")
    button = page.locator("#operations button[data-copy-link]").first
    expect(button).to_be_visible()
    button.click()
    expect(button).to_have_text("Copied")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == created["permalink"] + "#operations"
    # what it copied opens the page at that section
    page.goto(copied)
    expect(page.locator("#operations")).to_be_visible()


def test_delete_with_the_token_from_the_share_page(open_page, make_context, problems):
    # the wrong token's 403 and the deleted permalink's 410 are what this test is about
    problems.expect(lambda text: "status of 403" in text or "status of 410" in text)
    context = make_context(permissions=["clipboard-read", "clipboard-write"])
    page = open_page(context)
    submit_text(page, conformance("valid-coding-refactor.ocp.json").decode())
    with page.expect_navigation(url="**/share"):
        page.click(".share button[type=submit]")
    expect(page.locator("h1")).to_have_text("Shared")
    token = page.text_content("#deletion-token").strip()
    copy_token = page.locator("button[data-copy-text]", has_text="copy the token")
    copy_token.click()
    assert page.evaluate("() => navigator.clipboard.readText()") == token
    permalink = page.locator("dd a").first.get_attribute("href")

    page.click("text=delete it now")
    expect(page.locator("h1")).to_have_text("Delete a stored checkpoint")
    page.fill("#token", "not-the-token")
    page.click("form button[type=submit]")
    expect(page.locator("#delete-error")).to_contain_text("not the deletion token")
    expect(page.locator("#token")).to_be_visible()
    page.fill("#token", token)
    page.click("form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Deleted")
    response = page.goto(permalink)
    assert response is not None and response.status == 410


def long_pointer_document() -> str:
    doc = json.loads(conformance("valid-support-handoff.ocp.json"))
    long_name = "com.example." + "segment" * 30
    doc["extensions"] = {long_name: {"k" * 120: "v" * 300}}
    doc["task"]["unknown_" + "x" * 150] = 1  # a schema finding with a long pointer
    return json.dumps(doc, indent=2)


@pytest.mark.parametrize(
    "name", ["valid-support-handoff.ocp.json", "rule-S002-unresolved-blocked-by.ocp.json", "long"]
)
def test_a_phone_never_scrolls_sideways(open_page, make_context, name):
    context = make_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = open_page(context)
    text = long_pointer_document() if name == "long" else conformance(name).decode()
    submit_text(page, text)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px screen"
    offenders = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .filter(e => !e.closest('pre, .table-scroll, [tabindex]'))
            .slice(0, 5).map(e => e.tagName + '.' + e.className)"""
    )
    assert offenders == [], offenders
    assert re.search(r"valid|invalid", page.text_content(".page-header .verdict") or "")


def test_a_live_finding_s_line_and_column_lead_into_the_pasted_text(open_page):
    """Each live finding's "line L, column C" is a link: the caret lands on that place of the
    pasted text (columns count code points: an emoji before it is one)."""
    page = open_page()
    page.goto("/")
    document = json.loads(conformance("rule-S002-unresolved-blocked-by.ocp.json"))
    document["task"]["objective"] = "🧾 " + document["task"]["objective"]
    text = json.dumps(document, indent=2, ensure_ascii=False)
    paste(page, "#checkpoint", text)
    link = page.locator("#live a.pos").first
    expect(link).to_be_visible(timeout=5000)
    line, column = int(link.get_attribute("data-line")), int(link.get_attribute("data-column"))
    link.click()
    expect(page.locator("#checkpoint")).to_be_focused()
    caret = page.locator("#checkpoint").evaluate("box => box.selectionStart")
    before = page.locator("#checkpoint").evaluate("(box, n) => box.value.slice(0, n)", caret)
    lines = before.split("\n")
    assert len(lines) == line
    assert len(lines[-1]) + 1 == column  # a Python str counts code points
    expected_line = text.split("\n")[line - 1]
    assert expected_line[column - 1 :].lstrip().startswith('"')  # the value's own start
