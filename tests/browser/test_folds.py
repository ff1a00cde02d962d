"""A page a reviewer moves through (issue 12): sections fold and unfold with or without
JavaScript, a link into a folded section unfolds it, and the keys j and k move between
findings."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import conformance, submit_file

pytestmark = pytest.mark.browser


def test_bookkeeping_and_the_source_start_folded_and_unfold_on_a_click(open_page) -> None:
    page = open_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    for section in ("statements", "operations", "before-continuing", "resources"):
        assert page.locator(f"#{section} > details.fold").get_attribute("open") is not None
    source = page.locator("#source > details.fold")
    assert source.get_attribute("open") is None
    expect(page.locator("#L1")).to_be_hidden()
    page.locator("#source summary").click()
    expect(page.locator("#L1")).to_be_visible()
    # and folds again: what a reviewer has read goes out of the way
    page.locator("#statements summary").click()
    expect(page.locator("#statements .matrix, #statements table").first).to_be_hidden()


def test_a_line_link_opens_the_folded_source_at_that_line(open_page) -> None:
    page = open_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    link = page.locator("a.src", has_text="line").first
    target = link.get_attribute("href")
    assert target and target.startswith("#L")
    expect(page.locator(target)).to_be_hidden()
    link.click()
    expect(page.locator(target)).to_be_visible()
    expect(page.locator(target)).to_be_in_viewport()


def test_an_address_with_a_line_fragment_opens_the_source_without_a_click(open_page) -> None:
    page = open_page()
    submit_file(page, conformance("rule-S002-unresolved-blocked-by.ocp.json"))
    page.evaluate("location.hash = '#L3'")
    expect(page.locator("#L3")).to_be_visible()


def test_without_javascript_a_folded_section_still_unfolds(make_context) -> None:
    context = make_context(java_script_enabled=False)
    page = context.new_page()
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    expect(page.locator("#L1")).to_be_hidden()
    page.locator("#source summary").click()
    expect(page.locator("#L1")).to_be_visible()
    # the keys' hint needs the script: not shown without it
    submit_file(page, _three_unresolved())
    expect(page.locator("#findings .js-only")).to_have_count(1)
    expect(page.locator("#findings .js-only")).to_be_hidden()


def _three_unresolved() -> bytes:
    document = json.loads(conformance("valid-minimal.ocp.json"))
    document["statements"] = [
        {
            "id": f"s-{i}",
            "kind": "hypothesis",
            "text": "It may be so.",
            "origin": {"type": "agent"},
            "evidence": [f"missing-{i}"],
        }
        for i in range(3)
    ]
    return json.dumps(document, indent=2).encode()


def test_keys_j_and_k_move_between_findings(open_page) -> None:
    page = open_page()
    submit_file(page, _three_unresolved())
    findings = page.locator("ol.findings > li[id]")
    expect(findings).to_have_count(3)
    ids = [findings.nth(i).get_attribute("id") for i in range(3)]
    expect(page.locator("#findings .js-only")).to_be_visible()

    def focused() -> str:
        return str(page.evaluate("document.activeElement.id"))

    page.keyboard.press("j")
    assert focused() == ids[0]
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert focused() == ids[2]
    page.keyboard.press("j")  # past the last: stays
    assert focused() == ids[2]
    page.keyboard.press("k")
    assert focused() == ids[1]
    expect(findings.nth(1)).to_be_in_viewport()
    # typing in a field is typing, not moving
    page.goto("/")
    page.locator("#checkpoint").press("j")
    assert page.locator("#checkpoint").input_value() == "j"
