"""An anchor whose marks come thick searches each string left alone (app/secrets `_mark_each`):
the strings it marks are the same as its search through the text of all strings marks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import app.secrets as secrets
from app.secrets import _candidates, _never_a_newline, scan_text
from app.secrets.engine import Engine

# Strings some anchor that never matches a newline marks (a percent escape, an HTML one, a
# pointer's, JSON's, an e-mail address, a base64 run of both cases), near misses of them, and
# others; newlines and characters past ASCII inside some.
_MARKED = (
    "page%20{i}",
    "a &amp; b {i}",
    "/a~1b/{i}",
    "u{i}@host",
    "c:\\\\dir{i}\\tx",
    "bG9nIGxpbmUgMSBvZiB0aGUgZGVwbG95{i}",
    "x{i} ABCDEFGHIJKLMNOPQRSTUVWXYZa",
    "x%2{i}",
    "&amp{i}",
    "~2/{i}",
    "a\\b{i}",
    "0123456789abcdef0123456789abcdef{i}",
    "AbCdEfGhIjKlMnOpQrStUvW {i}",
    "ABCDEFGHIJKL\u00e9MNOPQRSTUVWxyz{i}",
)
_OTHER = ("note {i}", "line {i}\nnext %41", "caf\u00e9 {i} &lt;", "{i}", "", "\n~0\n", "AB\nab" * 9)


@st.composite
def _strings(draw: st.DrawFn) -> list[str]:
    forms = draw(st.lists(st.sampled_from(_MARKED + _OTHER), min_size=1, max_size=12))
    count = draw(st.integers(min_value=40, max_value=900))
    thick = draw(st.integers(min_value=1, max_value=12))
    return [forms[i % len(forms)].format(i=i) if i % thick == 0 else f"w{i}" for i in range(count)]


@pytest.mark.parametrize("re2", [True, False])
@settings(max_examples=60, deadline=None)
@given(strings=_strings())
def test_strings_marked_alone_are_those_the_search_marks(re2: bool, strings: list[str]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        if re2:
            scan_text("x" * 30_000)  # (RE2 loaded: every text is then searched by it)
        else:
            patch.setattr(Engine, "uses_re2", lambda self, hay: False)
        marked_alone = _candidates(strings)
        patch.setattr(secrets, "_MARKS_SEEN", 10**9)  # (never: the search goes on)
        assert marked_alone == _candidates(strings)


def test_a_regex_is_known_never_to_match_a_newline_only_when_its_text_says_so() -> None:
    for regex in ("~[01]", "%[0-7][0-9A-Fa-f]", "&(?:quot|amp);", "@", "\\t", "a\\.b"):
        assert _never_a_newline(regex), regex
    for regex in ("\\n--pass", "[^ ]@", "a.b", "\\s", "\\S+", "\\W", "\\D", "\\x0a", "\\012"):
        assert not _never_a_newline(regex), regex


# Flags, names alone, variables, names before a value, in a call's arguments as a list.
_ARGUMENTS = (
    "--svc{i}-password",
    "--api-key",
    "svc{i}_api_key",
    "DB_PASSWORD",
    "${{SVC{i}_TOKEN}}",
    "env:SVC{i}_TOKEN",
    "password={i}Xk9#vLq2Rt",
    "token: {i}",
    "the password is in the vault",
    "Zx{i}Vb9QkLm2Np7Rt4Wy",
    "-p",
    "api_key 'Qw{i}Er7TyU9iOp3'",
)


@settings(max_examples=40, deadline=None)
@given(
    forms=st.lists(st.sampled_from(_ARGUMENTS), min_size=1, max_size=8),
    count=st.integers(min_value=1, max_value=3000),
)
def test_names_sorted_out_together_are_read_as_one_by_one(forms: list[str], count: int) -> None:
    """The strings only the name's anchor marks are sorted out together (app/secrets `_hits`):
    the credentials found are the same as when each is looked at in turn."""
    document = {"argv": [forms[i % len(forms)].format(i=i) for i in range(count)]}
    together = secrets.find_secrets(document)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "_NAME_ONLY", -1)  # (no string's bits: each in turn)
        assert secrets.find_secrets(document) == together


@pytest.mark.parametrize("re2", [True, False])
@pytest.mark.parametrize(
    "others",
    [
        ("0123456789abcdef0123456789abcdef{i}",),  # a digest: one case, long enough
        ("AbCdEfGhIjKlMnOpQrStUvW {i}", "ab-CD-ef{i}"),  # both cases, too short
        ("ABCDEFGHIJKL\u00e9MNOPQRSTUVWxyz{i}", "A" * 24 + "\n" + "b" * 24),
        ("x{i} ABCDEFGHIJKLMNOPQRSTUVWXYZa", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzZ{i}"),
    ],
)
def test_base64_runs_marked_alone_are_those_the_search_marks(
    re2: bool, others: tuple[str, ...]
) -> None:
    """The base64 run's anchor marks a run of 24 or more with both cases: searched alone, past
    its first marks, a string is marked by the same test (not by its run's length alone, nor
    by a run cut by a character past ASCII or a newline)."""
    forms = ("bG9nIGxpbmUgMSBvZiB0aGUgZGVwbG95{i}", *others)
    strings = [forms[i % len(forms)].format(i=i) for i in range(600)]
    with pytest.MonkeyPatch.context() as patch:
        if re2:
            scan_text("x" * 30_000)
        else:
            patch.setattr(Engine, "uses_re2", lambda self, hay: False)
        marked_alone = _candidates(strings)
        patch.setattr(secrets, "_MARKS_SEEN", 10**9)
        assert marked_alone == _candidates(strings)
