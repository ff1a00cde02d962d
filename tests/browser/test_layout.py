"""Layout defects a reader sees (issue 27), measured in Chromium at a phone's width (390) and
a desktop's (1280): nothing runs off the screen sideways, no box clips what it holds, and no
word of the viewer's own (a rule's code, a column heading) is broken mid-word."""

from __future__ import annotations

import pytest

from tests.browser.conftest import conformance, own_lineage, store, submit_file

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}

# Every word of up to 24 letters in the chosen elements, measured with the element's own
# font: a box narrower than a word it holds has broken that word across lines. (Longer
# "words", and paths, ids and member names, may break.)
BROKEN_WORDS = """
(selector) => {
  const canvas = document.createElement("canvas").getContext("2d");
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.offsetParent) continue;
    const style = getComputedStyle(el);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    // an inline box is as wide as its widest line: a word broken in it makes it narrower
    const box = el.getBoundingClientRect();
    // text set upright (vertical writing) runs down its box: its room is the box's height
    const upright = style.writingMode.startsWith("vertical");
    const room = upright
      ? box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)
      : box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
    for (const word of el.innerText.split(/\\s+/)) {
      // a path, an id or a member name (/a/b, op-x.y, checked_at) may break; a word may not
      if (word.length < 2 || word.length > 24 || /[\\/._:"-]/.test(word)) continue;
      if (canvas.measureText(word).width > room + 1) broken.push(`${el.tagName} "${word}"`);
    }
  }
  return broken;
}
"""
# Elements whose content is wider than their box and is cut off (overflow hidden or clip).
CLIPPED = """
(selector) => [...document.querySelectorAll(selector)]
  .filter(el => el.offsetParent && el.scrollWidth > el.clientWidth + 1 &&
          ["hidden", "clip"].includes(getComputedStyle(el).overflowX))
  .map(el => `${el.tagName}.${el.className}`)
"""


WIDER = """
(width) => [...document.querySelectorAll("body *")]
  .filter(el => el.getBoundingClientRect().right > width + 1)
  .filter(el => !el.closest(".table-scroll, .table-wrap"))
  .map(el => `${el.tagName}.${el.className}#${el.id}`).slice(-6)
"""


def assert_laid_out(page, where: str, words: str, width: int) -> None:
    sideways = page.evaluate("() => document.documentElement.scrollWidth")
    assert sideways <= width, (
        f"{where}: the page is {sideways} px wide on a {width} px screen: "
        f"{page.evaluate(WIDER, width)}"
    )
    broken = page.evaluate(BROKEN_WORDS, words)
    assert not broken, f"{where}: words broken mid-word: {broken[:8]}"
    clipped = page.evaluate(CLIPPED, "main *")
    assert not clipped, f"{where}: boxes clip what they hold: {clipped[:8]}"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_rules_and_the_home_page(make_context, open_page, viewport):
    page = open_page(make_context(viewport=VIEWPORTS[viewport]))
    width = VIEWPORTS[viewport]["width"]
    page.goto("/rules")
    assert page.locator("table.rules code").count() > 5  # code spans, not raw backticks
    assert "`" not in page.inner_text("table.rules")
    assert_laid_out(page, "/rules", "table.rules th, table.rules td", width)
    page.goto("/")
    assert_laid_out(page, "/", "main label, main button, main th", width)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_checked_page_and_its_share_form(make_context, open_page, viewport):
    page = open_page(make_context(viewport=VIEWPORTS[viewport]))
    width = VIEWPORTS[viewport]["width"]
    submit_file(page, conformance("valid-support-handoff.ocp.json"))
    assert_laid_out(page, "/view", "#summary a.line-head, main th, main h3, aside.share", width)
    menu = page.locator("#lifetime").bounding_box()
    card = page.locator("aside.share").bounding_box()
    assert menu["x"] + menu["width"] <= card["x"] + card["width"], "the menu leaves its card"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_stored_pair_its_lineage_and_its_diff(make_context, open_page, viewport):
    page = open_page(make_context(viewport=VIEWPORTS[viewport]))
    width = VIEWPORTS[viewport]["width"]
    parent, child = own_lineage()
    stored_parent = store(page, parent)
    stored_child = store(page, child, parent=stored_parent["storage_id"])
    sid = stored_child["storage_id"]
    for path in (f"/c/{sid}", f"/c/{sid}/lineage", f"/c/{sid}/diff"):
        page.goto(path)
        # the viewer's own words: headings, column heads, the lineage table's cells
        assert_laid_out(
            page, path, "main h2, main h3, main thead th, table.lineage-entries td", width
        )
    page.goto(f"/c/{sid}/lineage")
    # the lineage tree's boxes hold the whole of each storage id (they once cut it at the
    # prefix two ids share)
    labels = page.locator("figure.lineage .node .label").all_text_contents()
    assert len(labels) == 2 and len(set(labels)) == 2, labels
    for label, document in zip(labels, (parent, child), strict=True):
        assert label.endswith(document["id"][-12:]), (label, document["id"])
