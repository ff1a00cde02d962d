"""The secret scan reads a document's strings from its text when intake read the text whole
(`Intake.verbatim`) and walking it would cost more (many small containers): both ways find
the same strings in the same order, and the same credentials at the same places."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.analysis import analyze
from app.parse import parse
from app.secrets import (
    _Layout,
    _source_strings,
    _TextOrderLayout,
    _walk_costs_more,
    first_secret,
    scan_document,
)

GITHUB = "ghp_" + "R8v2Lq9ZkT4mWx7Yp3Nc6Bd1Hf5Js0GaEu2V"
AWS_ID = "AKIA" + "Z7QUQ4R2B6N5W3XP"

# Texts with what the text path has to get right: escaped quotes and backslashes (before a
# closing quote too), colons and brackets inside strings, non-ASCII, and credentials.
texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ['a"b', "a\\", '\\"', "x: y", '": ', "[{", "\u00e9\u4e2d", '\\\\"', GITHUB, AWS_ID]
    ),
    st.builds(
        lambda a, b: f"{a} password={b}", st.text(max_size=4), st.sampled_from(["x", "hunter2-Zq9"])
    ),
)
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), texts),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)
    ),
    max_leaves=12,
)
documents = st.dictionaries(texts, values, max_size=5)


def _dumps(document: object, style: int) -> str:
    if style == 0:
        return json.dumps(document)
    if style == 1:
        return json.dumps(document, indent=2, ensure_ascii=False)
    # whitespace before a colon, as JSON allows
    return json.dumps(document, separators=(" , ", " \n: "), ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(documents, st.integers(0, 2))
def test_the_text_holds_the_strings_the_walk_finds_in_the_same_order(document, style):
    text = _dumps(document, style)
    intake = parse(text.encode())
    # (escapes such as \ud000 go to the strict parser, which gives no text to read)
    assume(intake.verbatim)
    assert intake.document == document
    read = _source_strings(text)
    assert read is not None
    layout = _TextOrderLayout(document)
    assert read[0] == layout.values
    assert read[1] == layout.names == _Layout(document).names


@settings(max_examples=300, deadline=None)
@given(documents, st.integers(0, 2))
def test_both_paths_find_the_same_credentials_at_the_same_places(document, style):
    text = _dumps(document, style)
    assert scan_document(document, source=text) == scan_document(document)
    assert (first_secret(document, source=text) is None) == (first_secret(document) is None)


def _nested(calls: int, depth: int, secret: str | None = None) -> dict[str, object]:
    """Calls whose arguments nest ``depth`` deep, alternating objects and arrays: more
    containers than strings."""
    documents = []
    for i in range(calls):
        chain: object = secret if secret and i == calls // 2 else f"leaf {i}"
        for level in range(depth):
            chain = {"k": chain} if level % 2 else [chain]
        documents.append({"id": f"op-{i}", "arguments": chain})
    return {"opencheckpoint": "0.1", "operations": documents}


def test_a_document_of_many_small_containers_is_read_from_its_text():
    text = json.dumps(_nested(50, 40))
    assert _walk_costs_more(text)
    assert not _walk_costs_more(json.dumps({"statements": [{"id": "s", "text": "a b"}] * 50}))


def test_a_credential_deep_in_small_containers_is_placed_as_the_walk_places_it():
    document = _nested(40, 30, secret=f"token {GITHUB}")
    text = json.dumps(document, indent=1)
    assert _walk_costs_more(text)
    by_text = scan_document(document, source=text)
    assert by_text == scan_document(document)
    [hit] = by_text.hits
    assert hit.path == "/operations/20/arguments" + "/k/0" * 15
    # and through the analysis, which passes intake's text along
    analysis = analyze(text.encode())
    assert [f.path for f in analysis.findings if f.code == "secret"] == [hit.path]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "x"}\u0000',  # a marker character the text path uses: never read by it
        '{"a": "\\u0001"}',  # (escaped, as JSON has it: fine)
    ],
)
def test_texts_the_path_cannot_read_fall_back_or_read_right(text):
    read = _source_strings(text)
    if "\u0000" in text:
        assert read is None
    else:
        assert read == (["\u0001"], {"a"})


def test_a_text_the_strict_parser_read_is_never_read_as_text():
    """A duplicate member: the document holds one of the two, so the text's strings are not
    the document's."""
    intake = parse(b'{"a": "ghp_first", "a": "second"}')
    assert not intake.verbatim
