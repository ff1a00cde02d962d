"""app/schema_patterns.py answers as the regexes it stands for, on every string: strings in each
pattern's shape, the same strings broken one character at a time, and text made of the
characters the patterns are about."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.checkpoint import parse_instant
from app.resources import load_schema
from app.schema_codegen import ecma_to_python
from app.schema_patterns import (
    DIGEST,
    KNOWN,
    LOCAL_ID,
    TIMESTAMP,
    is_digest,
    is_local_id,
    is_timestamp,
    timestamp_parts,
)

TESTS = {TIMESTAMP: is_timestamp, DIGEST: is_digest, LOCAL_ID: is_local_id}
# the characters the patterns are about, and a few they are not (other digits, white space)
ALPHABET = "0123456789abcdefsha-:.TtZz+_AZ \n\t٣\u00a0é"


def _broken(text: str, data: st.DataObject) -> str:
    """``text`` with one character changed, removed or added, somewhere."""
    if not text:
        return data.draw(st.text(ALPHABET, max_size=3))
    at = data.draw(st.integers(0, len(text) - 1))
    how = data.draw(st.sampled_from(["change", "remove", "add"]))
    other = data.draw(st.sampled_from(ALPHABET))
    if how == "change":
        return text[:at] + other + text[at + 1 :]
    if how == "remove":
        return text[:at] + text[at + 1 :]
    return text[:at] + other + text[at:]


@pytest.mark.parametrize("pattern", list(TESTS), ids=["timestamp", "digest", "local-id"])
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_each_test_answers_as_its_regex(pattern, data):
    regex = re.compile(pattern)
    test = TESTS[pattern]
    shaped = data.draw(st.from_regex(regex))
    assert test(shaped) is True, shaped
    for text in (_broken(shaped, data), data.draw(st.text(ALPHABET, max_size=140))):
        assert test(text) is (regex.search(text) is not None), repr(text)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
@example(data=None)
def test_timestamp_parts_are_the_regex_groups(data):
    groups = re.compile(
        r"^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
        r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))\Z"
    )
    texts = ["2026-03-02T10:00:00.250+05:30", "2026-03-02t10:00:00z", "2026-03-02T10:00:00Z\n"]
    if data is not None:
        texts = [data.draw(st.from_regex(groups))]
    for text in texts:
        match = groups.search(text)
        parts = timestamp_parts(text)
        if match is None:
            assert parts is None
            continue
        expected = tuple("" if g is None and i >= 8 else g for i, g in enumerate(match.groups()))
        assert parts == expected


def test_a_line_break_after_a_timestamp_is_not_one():
    """`$` would have let "…Z\\n" through; the schema's `\\Z` does not, nor does the reading."""
    assert parse_instant("2026-03-02T10:00:00Z") is not None
    assert parse_instant("2026-03-02T10:00:00Z\n") is None
    assert not is_timestamp("2026-03-02T10:00:00Z\n")


def test_every_known_pattern_is_the_schemas():
    """Each test stands for a pattern the shipped schema has (else nothing would call it)."""
    found = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.add(ecma_to_python(node["pattern"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(load_schema())
    assert set(KNOWN) <= found
