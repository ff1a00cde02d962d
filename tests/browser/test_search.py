"""Search and fold on the checkpoint page, in Chromium, on a phone and a desktop (issue 27):
/ goes to the search box, typing counts the matches, Next and Previous scroll to the card
that holds one and unfold its section; Collapse all and Expand all; ? lists the shortcuts in
a dialog that Escape closes, giving focus back; and without JavaScript the box is a form that
filters the cards on the service."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import conformance, store, submit_file
from tests.browser.test_accessibility import axe_script  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
HANDOFF = json.loads(conformance("valid-support-handoff.ocp.json"))


def open_stored(page: Page) -> str:
    permalink = f"/c/{store(page, HANDOFF)['storage_id']}"
    page.goto(permalink)
    return permalink


def focused_id(page: Page) -> str:
    return str(page.evaluate("() => document.activeElement && document.activeElement.id"))


def in_view(page: Page, selector: str) -> bool:
    return bool(
        page.locator(selector).evaluate(
            "(el) => { const r = el.getBoundingClientRect();"
            " return r.bottom > 0 && r.top < innerHeight && r.height > 0; }"
        )
    )


def folded_sections(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#main details.fold",
        "(ds) => ds.filter((d) => !d.open).map((d) => d.closest('section').id)",
    )


@pytest.mark.parametrize("size", SIZES)
def test_slash_types_a_search_and_next_unfolds_the_card_of_a_match(open_page, make_context, size):
    page = open_page(make_context(viewport=SIZES[size]))
    open_stored(page)
    page.locator("body").press("/")
    assert focused_id(page) == "search-q"
    page.keyboard.type("subscription")
    count = page.locator("#search-count")
    # (typed a key at a time: a pause between two keys under load counts a prefix first; the
    # count is busy until the whole word's is shown)
    expect(count).not_to_have_attribute("aria-busy", "true")
    expect(count).to_have_text(re.compile(r"^\d+ match(es)?$"))
    total = int(count.inner_text().split()[0])
    assert total >= 2
    # the matches are marked without adding an element to the page
    assert page.evaluate("() => CSS.highlights.get('search').size") == total
    assert page.locator("mark").count() == 0
    # fold everything, then step to the first match: its section opens and it is on screen
    page.get_by_role("button", name="Collapse all").click()
    assert "statements" in folded_sections(page)
    page.get_by_role("button", name="Next match").click()
    expect(count).to_have_text(f"1 of {total}")
    current = page.locator(".search-card")
    expect(current).to_have_count(1)
    assert current.evaluate("(el) => !el.closest('details:not([open])')")
    assert in_view(page, ".search-card")
    assert page.evaluate("() => CSS.highlights.get('search-current').size") == 1
    first = current.evaluate("(el) => el.id || el.outerHTML.slice(0, 80)")
    # Next moves on, Previous comes back; from the first, Previous goes to the last
    page.get_by_role("button", name="Next match").click()
    expect(count).to_have_text(f"2 of {total}")
    assert in_view(page, ".search-card")
    page.get_by_role("button", name="Previous match").click()
    expect(count).to_have_text(f"1 of {total}")
    assert current.evaluate("(el) => el.id || el.outerHTML.slice(0, 80)") == first
    page.get_by_role("button", name="Previous match").click()
    expect(count).to_have_text(f"{total} of {total}")
    assert in_view(page, ".search-card")
    # Enter and Shift+Enter in the box step too; the page stays where it is (no request)
    url = page.url
    page.locator("#search-q").press("Enter")
    expect(count).to_have_text(f"1 of {total}")
    page.locator("#search-q").press("Shift+Enter")
    expect(count).to_have_text(f"{total} of {total}")
    assert page.url == url
    # a word nowhere on the page
    page.locator("#search-q").fill("zebra-crossing-nowhere")
    expect(count).to_have_text("No matches")
    expect(page.get_by_role("button", name="Next match")).to_be_disabled()
    # Escape clears the box
    page.locator("#search-q").press("Escape")
    expect(page.locator("#search-q")).to_have_value("")
    expect(count).to_have_text("")


@pytest.mark.parametrize("size", SIZES)
def test_a_slash_typed_in_a_field_is_text(open_page, make_context, size):
    page = open_page(make_context(viewport=SIZES[size]))
    open_stored(page)
    page.locator("#search-q").fill("a")
    page.locator("#search-q").press("/")
    expect(page.locator("#search-q")).to_have_value("a/")
    page.locator("#search-q").press("?")
    expect(page.locator("#search-q")).to_have_value("a/?")
    expect(page.locator("#shortcuts")).not_to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_collapse_all_and_expand_all(open_page, make_context, size):
    page = open_page(make_context(viewport=SIZES[size]))
    open_stored(page)
    every = page.locator("#main details").count()
    assert every > 5
    page.get_by_role("button", name="Collapse all").click()
    assert page.locator("#main details[open]").count() == 0
    expect(page.locator("#statements .card").first).not_to_be_visible()
    page.get_by_role("button", name="Expand all").click()
    assert page.locator("#main details:not([open])").count() == 0
    expect(page.locator("#statements .card").first).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_question_mark_lists_the_shortcuts_and_escape_closes_them(open_page, make_context, size):
    page = open_page(make_context(viewport=SIZES[size]))
    open_stored(page)
    dialog = page.locator("dialog#shortcuts")
    expect(dialog).not_to_be_visible()
    page.locator("body").press("?")
    expect(dialog).to_be_visible()
    assert dialog.evaluate("(d) => d.open && d.matches(':modal')")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    keys = dialog.locator("dt").all_inner_texts()
    for key in ("/", "?", "j", "k", "Enter", "Escape"):
        assert any(key in k for k in keys), (key, keys)
    page.keyboard.press("Escape")
    expect(dialog).not_to_be_visible()
    # opened from its button, focus comes back to the button
    button = page.get_by_role("button", name="Keyboard shortcuts")
    button.focus()
    button.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).not_to_be_visible()
    expect(button).to_be_focused()
    # and its Close button closes it too
    button.click()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).not_to_be_visible()
    expect(button).to_be_focused()


@pytest.mark.parametrize("size", SIZES)
def test_without_javascript_the_search_filters_the_cards(open_page, make_context, size):
    page = open_page(make_context(viewport=SIZES[size], java_script_enabled=False))
    permalink = open_stored(page)
    every = page.locator("#main .card").count()
    # the tools that need a script are not shown
    expect(page.get_by_role("button", name="Collapse all")).not_to_be_visible()
    expect(page.get_by_role("button", name="Next match")).not_to_be_visible()
    page.get_by_label("Search this checkpoint").fill("subscription")
    with page.expect_navigation():
        page.get_by_role("button", name="Filter the cards").click()
    assert "q=subscription" in page.url
    shown = page.locator("#main .card").count()
    assert 0 < shown < every
    expect(page.locator("#obj-s-instr-keep-sub")).to_be_visible()
    note = page.locator(".search-note")
    expect(note).to_contain_text(re.compile(r"\d+ of the \d+ cards hold “subscription”"))
    with page.expect_navigation():
        note.get_by_role("link", name="Show all cards").click()
    assert page.url.split("#")[0].endswith(permalink)
    assert page.locator("#main .card").count() == every


def test_without_javascript_enter_filters_an_unsaved_page_and_never_shares_it(
    open_page, make_context
):
    page = open_page(make_context(viewport=SIZES["phone"], java_script_enabled=False))
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    every = page.locator("#main .card").count()
    page.get_by_label("Search this checkpoint").fill("subscription")
    with page.expect_navigation(url="**/view#search"):
        page.get_by_label("Search this checkpoint").press("Enter")
    assert page.get_by_role("heading", name="Stored checkpoint").count() == 0
    assert 0 < page.locator("#main .card").count() < every
    expect(page.locator(".search-note")).to_contain_text("cards hold “subscription”")
    with page.expect_navigation():
        page.get_by_role("button", name="Show all cards").click()
    assert page.locator("#main .card").count() == every


AXE_ON = """
async (selector) => {
  const result = await axe.run(selector, { resultTypes: ["violations", "incomplete"] });
  return result.violations.concat(result.incomplete)
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "));
}
"""


@pytest.mark.parametrize("size", SIZES)
def test_the_tools_and_the_shortcuts_have_no_serious_axe_violations(
    open_page,
    make_context,
    axe_script,  # noqa: F811  (the fixture imported above)
    size,
):
    page = open_page(make_context(viewport=SIZES[size], bypass_csp=True))
    permalink = open_stored(page)
    page.goto(permalink + "?q=refund")
    page.add_script_tag(path=axe_script)
    page.locator("#search-q").press("Enter")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(AXE_ON, "#search") == [], scheme
        page.locator("body").press("?")
        assert page.evaluate(AXE_ON, "#shortcuts") == [], scheme
        page.keyboard.press("Escape")
