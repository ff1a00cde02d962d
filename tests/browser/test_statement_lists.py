"""A long list and the statement filter in Chromium (issue 12): without JavaScript, "next"
on an unsaved page sends its Share form back and lists the next statements; with it, a
choice in the filter hides what does not match at once."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import store, submit_file
from tests.test_statement_query import document

pytestmark = pytest.mark.browser


def test_without_javascript_next_lists_the_next_statements(make_context) -> None:
    page = make_context(java_script_enabled=False).new_page()
    submit_file(page, document(questions=200), "long.ocp.json")
    cards = page.locator("#kind-question-origin-user li.statement")
    expect(cards).to_have_count(150)
    with page.expect_navigation(url="**/view?kind=question&origin=user&from=150*"):
        page.get_by_role("button", name="next 50").click()
    expect(cards).to_have_count(50)
    expect(cards.first).to_have_attribute("id", "obj-q-150")
    expect(page.locator("#kind-question-origin-user .pager")).to_contain_text(
        "Statements 151–200 of 200"
    )
    # and back
    with page.expect_navigation():
        page.get_by_role("button", name="previous").click()
    expect(cards.first).to_have_attribute("id", "obj-q-0")


def test_the_filter_hides_what_does_not_match_at_once(open_page) -> None:
    page = open_page()
    submit_file(page, document(questions=3, agent_observations=4))
    statements = page.locator("#statements li.statement")
    expect(statements).to_have_count(7)
    page.locator("form.filters select[name=kind]").select_option("question")
    expect(page.locator("#statements li.statement:visible")).to_have_count(3)
    expect(page.locator("form.filters .filter-status")).to_have_text(
        "3 of the 7 statements listed on this page match."
    )
    page.locator("form.filters select[name=kind]").select_option("")
    page.locator("form.filters select[name=status]").select_option("retracted")
    expect(page.locator("#statements li.statement:visible")).to_have_count(2)
    expect(page.locator("#kind-question")).to_be_hidden()


def test_a_stored_page_s_filter_is_in_its_address_and_can_be_sent(open_page) -> None:
    """The filter changes the address of a stored page as it filters, so the filtered view
    can be sent; the address, opened afresh (even without JavaScript), filters the same."""
    page = open_page()
    created = store(page, json.loads(document(questions=3, agent_observations=4)))
    page.goto(f"/c/{created['storage_id']}")
    page.locator("form.filters select[name=kind]").select_option("question")
    expect(page.locator("#statements li.statement:visible")).to_have_count(3)
    assert page.url.endswith(f"/c/{created['storage_id']}?kind=question#statements")
    sent = page.url
    page.locator("form.filters select[name=kind]").select_option("")
    assert "kind=" not in page.url
    fresh = open_page()
    fresh.goto(sent)
    expect(fresh.locator("#statements li.statement:visible")).to_have_count(3)
    expect(fresh.locator("form.filters select[name=kind]")).to_have_value("question")
