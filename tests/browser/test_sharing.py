"""Sharing in Chromium: share a checkpoint, open the permalink, follow the lineage tree to the
parent, and read the diff."""

import re

import pytest

from tests.browser.conftest import conformance, submit_file

pytestmark = pytest.mark.browser


def share_through_the_page(page, data: bytes, name: str, parent_link: str | None = None) -> str:
    submit_file(page, data, name)
    assert "unlisted, not private" in page.inner_text("aside.share")
    page.select_option("#lifetime", "7d")
    if parent_link is not None:  # the parent shared before: its link proves we hold it
        page.get_by_label("Its parent’s permalink (optional)").fill(
            page.url.split("/view")[0] + parent_link
        )
    with page.expect_navigation(url="**/share"):
        page.click("aside.share button[type=submit]")
    assert "Deletion token (shown only now)" in page.inner_text("main")
    token = page.inner_text("pre.token").strip()
    assert len(token) >= 40
    link = page.locator("main a[href^='/c/']").first.get_attribute("href")
    assert re.fullmatch(r"/c/[A-Za-z0-9_-]{22,}", link)
    return link


def test_share_permalink_lineage_parent_and_diff(open_page):
    page = open_page()
    parent_link = share_through_the_page(
        page, conformance("valid-coding-refactor.ocp.json"), "parent.ocp.json"
    )
    child_link = share_through_the_page(
        page, conformance("valid-coding-refactor-child.ocp.json"), "child.ocp.json", parent_link
    )

    page.goto(child_link)
    assert "valid (levels 1–2)" in page.inner_text("#header")
    assert "Stored checkpoint" in page.inner_text("aside.stored")
    page.click("aside.stored a:has-text('lineage tree')")
    page.wait_for_url(f"**{child_link}/lineage")
    assert page.locator("svg a.node").count() == 2
    assert "match" in page.inner_text("#parent-digest + p")

    with page.expect_navigation(url=f"**{parent_link}"):
        page.click(f"svg a.node[href='{parent_link}']")
    assert "Extract the rounding logic" in page.inner_text("h1")

    page.goto(child_link)
    page.click("aside.stored a:has-text('changes since its parent')")
    page.wait_for_url(f"**{child_link}/diff")
    transitions = page.inner_text("#transitions")
    assert "op-open-pr" in transitions and "uncertain" in transitions and "completed" in transitions
    raw = page.request.get(f"{child_link}/raw")
    assert raw.body() == conformance("valid-coding-refactor-child.ocp.json")
