"""Every page that shows document data — the permalink, its JSON-free lineage and diff pages,
a pasted diff, the 410 page and the link-preview tags — renders hostile text in Chromium
without running anything, opening a dialog or breaking the CSP."""

import json
import re

import pytest

from tests.browser.conftest import conformance, paste, store

pytestmark = pytest.mark.browser

HOSTILE = [
    "<script>window.__pwned=1</script>",
    '"><img src=x onerror="window.__pwned=1;alert(1)">',
    "'><svg onload=window.__pwned=1>",
    "javascript:window.__pwned=1",
    "</title><script>window.__pwned=1</script>",
    "<style>body{display:none}</style>",
    '<a href="javascript:alert(1)">click</a>',
    "{{7*7}} ${7*7} <%= 7*7 %>",
]


def hostile(document: dict, tag: str) -> dict:
    """The document with hostile text in its id and in every kind of text field."""
    text = " ".join(HOSTILE) + f" [{tag}]"
    document = json.loads(json.dumps(document))
    document["id"] = f"{HOSTILE[0]}{tag}"
    document["task"]["objective"] = text
    document["task"]["outcome"] = text
    for statement in document.get("statements", []):
        statement["text"] = text
        statement["origin"]["name"] = text
    for resource in document.get("resources", []):
        resource["title"] = text
        resource["excerpt"] = text
    for operation in document.get("operations", []):
        operation["description"] = text
    document.setdefault("extensions", {})["com.example.hostile"] = {HOSTILE[1]: HOSTILE[0]}
    return document


def assert_inert(page) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"
    # the one SVG is the lineage tree, drawn by the server and labelled by its own title, and
    # the one image the stored page's badge, which the service draws from fixed words
    drawn = "main figure.lineage > svg[aria-labelledby=tree-title]"
    badge = 'img.badge[src^="/c/"][src$="/badge.svg"]'
    assert (
        page.locator(f"img:not({badge}), iframe, object, embed, main svg:not({drawn})").count() == 0
    )


def test_stored_pages_lineage_diff_and_gone(open_page, problems):
    page = open_page()
    parent = hostile(json.loads(conformance("valid-coding-refactor.ocp.json")), "parent")
    child = hostile(json.loads(conformance("valid-coding-refactor-child.ocp.json")), "child")
    child["parent"] = {"id": parent["id"]}
    parent_created = store(page, parent)
    parent_id = parent_created["storage_id"]
    child_created = store(page, child, parent=parent_id)
    child_id = child_created["storage_id"]

    for path in (
        f"/c/{child_id}",
        f"/c/{child_id}/lineage",
        f"/c/{child_id}/diff",
        f"/diff?from={parent_id}&to={child_id}",
    ):
        page.goto(path)
        assert_inert(page)
        assert HOSTILE[0] in page.inner_text("main"), path  # shown as text, literally

    page.goto(f"/c/{child_id}")
    for meta in page.locator("meta[property^='og:'], meta[name^='twitter:']").all():
        content = meta.get_attribute("content") or ""
        assert "<" not in content and "__pwned" not in content
        assert "[child]" not in content  # never document text

    deleted = page.request.delete(
        f"/api/v1/checkpoints/{child_id}",
        headers={"authorization": f"Bearer {child_created['deletion_token']}"},
    )
    assert deleted.ok
    problems.expect(lambda text: "410" in text)  # the browser logs the failed load
    response = page.goto(f"/c/{child_id}")
    assert response.status == 410
    assert re.search(r"deleted by its uploader on ", page.inner_text("main"))
    assert_inert(page)


def test_pasted_diff_of_hostile_documents(open_page):
    page = open_page()
    parent = hostile(json.loads(conformance("valid-coding-refactor.ocp.json")), "parent")
    child = hostile(json.loads(conformance("valid-coding-refactor-child.ocp.json")), "child")
    child["parent"] = {"id": parent["id"]}
    page.goto("/")
    paste(page, "#checkpoint", json.dumps(child, indent=2))
    page.click("details.parent-input summary")
    paste(page, "#parent", json.dumps(parent, indent=2))
    with page.expect_navigation(url="**/diff"):
        page.click("button[formaction='/diff']")
    assert_inert(page)
    assert "Changes from the parent" in page.inner_text("h1")
