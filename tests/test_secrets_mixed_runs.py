"""The base64 anchor's narrow form (app/secrets `_MIXED_RUN_RE2`): RE2 looks for runs holding
both cases, and the strings sent on to the base64 detector are the ones the plain run sends.

The anchor keeps a run of [A-Za-z0-9+/_-] at least 24 long with both cases in it. `re` (a
small text) finds every run of 24 and refuses the single-case ones in Python; RE2 (a large
text) looks for mixed runs only, and refuses those under 24; past one refused run per 500
characters it looks for the plain run instead. All three ways must flag the same strings.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import secrets
from app.secrets import _ANCHORS, _MIXED_RUN_RE2, _candidates
from app.secrets.engine import Engine, Hay, _re2_module
from app.secrets.rules import RULES

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
_ANCHOR = next(i for i, a in enumerate(_ANCHORS) if a.narrow is not None)
_BIT = secrets._ANCHOR_BITS[_ANCHOR]


def _kept_runs(text: str) -> list[tuple[int, int]]:
    """The runs the anchor keeps, by its plain regex and its test, in Python."""
    plain = re.compile(_ANCHORS[_ANCHOR].regex)
    return [
        m.span()
        for m in plain.finditer(text)
        if m.group() != m.group().lower() and m.group() != m.group().upper()
    ]


def _narrow_runs(text: str) -> list[tuple[int, int]]:
    """The runs RE2's narrow form finds that the anchor's test keeps. Every match it finds,
    kept or refused, is a whole run: the scan goes on from its end, with either regex."""
    re2 = _re2_module()
    assert re2 is not None
    compiled = re2._re2.RE2(_MIXED_RUN_RE2.encode(), re2.Options())
    raw = text.encode("ascii", "replace")  # (as the engine reads a text: "?" for the rest)
    found, pos = [], 0
    while (span := compiled.Match(re2._Anchor.UNANCHORED, raw, pos, len(raw))[0])[0] >= 0:
        start, end = span
        assert start == 0 or text[start - 1] not in _B64, (text, span)
        assert end == len(text) or text[end] not in _B64, (text, span)
        run = text[start:end]
        if len(run) >= 24 and run != run.lower() and run != run.upper():
            found.append(span)
        pos = end
    return found


# Texts of runs that change case rarely and late, with digits and symbols between the letters,
# runs a character either side of 24, the separators around them, and characters beyond
# ASCII (which the engines read as "?", no character of a run).
_PIECES = st.sampled_from(
    [
        *("a", "B", "0", "-", "/", "aaaaaaaa", "BBBBBBBB", "00000000", "x9", "Q"),
        *(" ", "\n", ".", ":", "é", "Ä", "😀"),
    ]
)
_TEXTS = st.lists(_PIECES, max_size=60).map("".join) | st.text(
    alphabet=_B64 + " .\néÄ😀", max_size=120
)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_the_narrow_form_finds_every_run_the_anchor_keeps(text: str) -> None:
    assert _narrow_runs(text) == _kept_runs(text)


def test_the_narrow_form_finds_a_run_of_24_however_its_parts_are_shared() -> None:
    """Every run of 21 to 26 characters with one change of case: digits before the first
    letter, slashes between it and the letter of the other case, then the rest."""
    for total in range(21, 27):
        for before in range(total - 1):
            for between in range(total - 1 - before):
                after = total - 2 - before - between
                for first, second, rest in (("a", "B", "0"), ("Z", "y", "y"), ("q", "R", "-")):
                    run = "0" * before + first + "/" * between + second + rest * after
                    text = f"x {run} y"
                    assert _narrow_runs(text) == _kept_runs(text), run


def test_the_narrow_form_passes_over_single_case_runs_in_one_search() -> None:
    """Digests, ids and paths (single-case runs of 24 and more) cost RE2 one search in all,
    where the plain run stops at each of them."""
    digests = " ".join(f"{i:064x}" for i in range(2000)) + " " + "ABCD" * 20
    engine = Engine(list(_ANCHORS))
    hay = Hay(digests)
    narrow = engine.searcher(_ANCHOR, hay, True, _MIXED_RUN_RE2)
    assert narrow(0) is None  # (the last run is upper case: single-case too)
    plain = engine.searcher(_ANCHOR, hay, True)
    assert plain(0) == (0, 64)


def _flagged(strings: list[str]) -> list[int]:
    bits, _ = _candidates(strings)
    return sorted(i for i, b in bits.items() if b & _BIT)


def _large(strings: list[str]) -> list[str]:
    """The strings after enough benign text that the scan searches them with RE2."""
    return ["words and more words " * 1500, *strings]


def test_the_strings_flagged_are_the_same_with_re_and_with_re2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    encoded = "U29tZSB0ZXh0IHRoYXQgaXMgYmFzZTY0"  # base64 of text: mixed, 32 characters
    strings = _large(
        [
            "sha256 " + "ab12" * 16,  # single case
            "CamelCaseName other words",  # mixed, short
            f"note {encoded} end",
            "0000000000aB and aaaaaaaaaaaaaaaaaaaaaaB",  # mixed, 12 and 23 long
            "a" * 23 + "B",  # mixed, 24 long
            "-" * 30 + "a" + "0" * 10 + "Z",  # the change of case deep in a run
        ]
    )
    by_re2 = _flagged(strings)
    assert by_re2 == [3, 5, 6]
    monkeypatch.setattr(Engine, "uses_re2", lambda self, hay: False)
    assert _flagged(strings) == by_re2


def test_a_text_thick_with_short_mixed_runs_still_flags_a_long_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past one refused run per 500 characters RE2 looks for the plain run: the mixed run of
    24 after thousands of short ones (camelCase names) is still found, and so is a string
    after it."""
    searched: list[str | None] = []
    searcher = Engine.searcher

    def spy(self: Engine, index: int, hay: Hay, re2: bool, narrow: str | None = None) -> object:
        if index == len(RULES) + _ANCHOR:  # (the scan's engine: the rules, then the anchors)
            searched.append(narrow)
        return searcher(self, index, hay, re2, narrow)

    monkeypatch.setattr(Engine, "searcher", spy)
    names = " ".join(f"getValue{i}Of" for i in range(5000))  # mixed runs of 10 to 15
    encoded = "U29tZSB0ZXh0IHRoYXQgaXMgYmFzZTY0"
    strings = _large([names, f"then {encoded}", "sha256 " + "ab12" * 16, f"{encoded} again"])
    assert _flagged(strings) == [2, 4]
    assert searched == [_MIXED_RUN_RE2, None]  # the narrow form, then the plain run
