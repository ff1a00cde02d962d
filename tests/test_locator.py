"""The locator's readings in runs (app/positions.py: members and elements a match at a time, small
containers and the rest of an array stepped over in one) find what a plain reading finds, for
any document written any way; and text that does not parse still ends the reading."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.positions import locate, offsets
from tests.test_perf_paths import _every_pointer, _reference_offsets

# Names that need escapes in the text or in a pointer, that look like indices, or are empty.
NAMES = ["a", "id", "", "~", "/", "a/b", "x~1y", 'q"t', "b\\s", "é", "\U0001f600", "0", "01", "\n"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "s", 'q"', "\\", '\\"', "{[]}", "\u2028", "é\U0001f600", "x" * 300]),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=20),
        st.dictionaries(st.one_of(st.sampled_from(NAMES), st.text(max_size=6)), inner, max_size=12),
    ),
    max_leaves=80,
)
LAYOUTS = st.fixed_dictionaries(
    {
        "indent": st.sampled_from([None, 0, 2, "\t"]),
        "ensure_ascii": st.booleans(),
        "separators": st.sampled_from([None, (",", ":"), (" ,\n\n", " :  ")]),
    }
)


def _agrees(text: str, pointers: list[str]) -> dict[str, int]:
    found = offsets(text, pointers)
    expected = {p: o for p in pointers if (o := _reference_offsets(text, p)) is not None}
    assert found == expected
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=VALUES, layout=LAYOUTS, crlf=st.booleans())
def test_every_value_of_any_document_is_where_a_plain_reading_finds_it(
    document: Any, layout: dict[str, Any], crlf: bool
) -> None:
    text = json.dumps(document, **layout)
    if crlf:
        text = text.replace("\n", "\r\n")
    pointers = _every_pointer(document)
    extra = [p + "/0" for p in pointers[:5]] + ["/nothing", "/01", "/-1", "/~2", "x", "/9" * 3]
    found = _agrees(text, [*reversed(pointers), *extra])
    assert set(pointers) <= set(found)
    # every pointer resolves, one of them twice: the reading stops once it has found them all
    first = pointers[: len(pointers) // 2 + 1]
    assert _agrees(text, [*first, first[-1]]).keys() == set(first)


def test_runs_longer_than_one_match_reads_are_read_to_their_end() -> None:
    # 8 members and 16 elements a match: values asked for on each side of every boundary
    document = {
        "members": {f"m{i}": i for i in range(40)},
        "elements": list(range(70)),
        "mixed": [*range(20), {"k": [1, 2]}, *range(20), [[3]], "s"],
    }
    for layout in ({}, {"indent": 2}, {"separators": (",", ":")}):
        text = json.dumps(document, **layout)  # type: ignore[arg-type]
        found = _agrees(text, _every_pointer(document))
        assert text[found["/members/m39"] :].startswith("39")
        assert text[found["/elements/69"] :].startswith("69")
        assert text[found["/mixed/41/0/0"] :].startswith("3")


def test_what_no_path_enters_is_stepped_over_whatever_its_shape() -> None:
    # deeper than one match steps over, wider than it counts, strings that end in a backslash
    # or hold an escaped quote, whitespace by the thousand: all skipped to reach the last value
    deep: Any = "bottom"
    for _ in range(12):
        deep = [{"d": deep}]
    document = {
        "deep": deep,
        "wide": [{"i": i, "s": "\\" * (i % 3) + '"' * (i % 2)} for i in range(200)],
        "strings": ["\\", '\\"', '"\\', "\\\\", "x" * 10_000, "\\u0041"],
        "list": [deep, {"a": "b"}, *range(100), "after"],
        "last": True,
    }
    text = json.dumps(document, indent=1).replace("\n", "\n" + "\n" * 50)
    found = _agrees(text, ["/last", "/list/0", "/list/102", "/wide/199/s", "/strings/5"])
    assert text[found["/last"] :].startswith("true")
    assert text[found["/list/102"] :].startswith('"after"')


def test_pointers_in_any_order_share_their_steps() -> None:
    text = '{"a": {"b": [10, {"c": 20}]}, "~": {"/": 30}}'
    # a parent asked for after its children, twice, and escaped tokens
    pointers = ["/a/b/1/c", "/a/b", "/a/b/0", "/a/b", "/~0/~1", "/~0", "", "/a/b/1"]
    found = _agrees(text, pointers)
    assert found["/~0/~1"] == text.index("30")
    assert found[""] == 0


def test_text_that_does_not_parse_ends_the_reading() -> None:
    # a brace that closes an array, and text that stops inside an array: the reading ends
    # with what it found before (it used to go round forever on both)
    text = '{"a": [1}, "b": 2}'
    assert offsets(text, ["/a/5", "/b"]) == {"/b": text.index("2")}
    assert offsets('{"a": [1, 2', ["/a/1", "/a/5"]) == {"/a/1": 10}
    assert locate('{"a": [1, 2', ["/a/1"]) == {"/a/1": (1, 11)}
