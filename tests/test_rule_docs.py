"""Every finding code has a page in docs/rules, and each page's examples do what it says:
the failing example raises the page's code and no other error, the passing one neither."""

import re
from pathlib import Path

import pytest

from app.analysis import lint
from app.rules import RULES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
BLOCK = re.compile(r"^```json (failing|passing|parent)\n(.*?)^```", re.M | re.S)
SECTIONS = [
    "## What it checks",
    "## Why it matters",
    "## Failing example",
    "## Passing example",
    "## How to fix",
]


def examples(code: str) -> dict[str, bytes]:
    text = (DOCS / f"{code}.md").read_text()
    return {kind: body.encode() for kind, body in BLOCK.findall(text)}


def findings(data: bytes, parent: bytes | None, code: str) -> list:
    """What the linter reports on ``data``: with its parent, the lineage checks too, their
    notes among them (a note is never an error, so the assertions below hold for notes)."""
    result = lint(data, parent=parent)
    return [*result.findings, *result.lineage]


def test_the_index_lists_every_code():
    index = (DOCS / "README.md").read_text()
    for code in RULES:
        assert f"({code}.md)" in index, code


@pytest.mark.parametrize("code", sorted(RULES))
def test_page_structure(code):
    text = (DOCS / f"{code}.md").read_text()
    assert text.startswith(f"# {code}: ")
    positions = [text.index(s) for s in SECTIONS]
    assert positions == sorted(positions), code
    for word in ("safe to resume", "resumable", "is authorized"):
        assert word not in text.lower()


@pytest.mark.parametrize("code", sorted(RULES))
def test_examples_do_what_the_page_says(code):
    blocks = examples(code)
    assert {"failing", "passing"} <= set(blocks), code
    parent = blocks.get("parent")
    failing = findings(blocks["failing"], parent, code)
    assert code in {f.code for f in failing}, [f.to_dict() for f in failing]
    other_errors = [f for f in failing if f.severity == "error" and f.code != code]
    assert not other_errors, [f.to_dict() for f in other_errors]
    passing = findings(blocks["passing"], parent, code)
    assert code not in {f.code for f in passing}
    assert not [f for f in passing if f.severity == "error"], [f.to_dict() for f in passing]
    if parent is not None:
        assert lint(parent).valid
