"""Names in a large text (over 4 KB) are found where RE2 says one may start, then read by the
same `re` pattern a small text is searched with (or searched by `re` itself where names come
thick): both ways find the same credentials. The one difference: without RE2, a large text is
read in windows around the words of credentials' names, and an operator or a value more than a
thousand spaces past its name falls outside them; with RE2 it is found, as in a small text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import app.secrets as secrets

# What the name search has to get right: credentials' names with and without values, names
# it must refuse (too many underscores, too long, after a name character), quoted names, a
# Unicode space where a value starts, URLs and prose with colons, text starting with a name.
FRAGMENTS = [
    "password: hunter2-Zq9 ",
    "api_key=AbC123xyz987QWE ",
    "https://x.example/a?b=c&access_token=Zx9aQ2mmYY88ppQQ ",
    "note: plain ",
    "token = ''",
    '__secret_key: "Zx9!aQ2#mm" ',
    "password: a ",
    "X-Amz-Signature=abc ",
    "sig=",
    "Authorization: Bearer abcDEF123456ghiJKL ",
    "\u00a0",
    "key:\u00a0ab12 ",
    "_________token=abcd1234efgh ",
    "a" * 140 + "token=Zx9aQ2mmYY88 ",
    "cookie: a=1; b=2 ",
    'password="quoted pass 9" ',
    "pwd:'Zq9Zq9Zq9' ",
    "\n",
    "Token\t=\tQWERTY12345678 ",
    "1password=abcd1234 ",
    ".secret=abcd1234efgh ",
    '\\"db_password\\": \\"Zq9-Zq9-Zq9\\", ',
    "token=${X}& ",  # (past a hundred refusals: a value starting as a variable, a mask, a
    "password: ******** ",  # placeholder is passed over by the regex; one of fewer than
    "secret=[REDACTED] ",  # eight characters too)
    "api_key: abcd pwd=(Ab3)xyz12 ",
    "password: Ab3#x7 ",
    'if password == "Zq9-Zq9-Zq9" ',  # (comparisons: ==, ===, != and !== as operators)
    "token === 'Zx9aQ2mmYY88' key != \"Enter\" ",
    "api_key !== x ",
    "senha: Zq9-Zq9-Zq9 Kennwort=ab ",  # (a password's name in another language)
    "wachtwoord: ******** DB_SENHA=${X} ",
]


def _both(text: str) -> tuple[list[secrets.Span], list[secrets.Span]]:
    by_re2 = list(secrets._named_in_text(text))
    of = secrets._NamesByRe2.of
    secrets._NamesByRe2.of = classmethod(lambda cls, text: None)  # type: ignore[assignment]
    try:
        by_re = list(secrets._named_in_text(text))
    finally:
        secrets._NamesByRe2.of = of  # type: ignore[method-assign]
    return by_re2, by_re


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=400))
def test_a_large_text_gives_the_same_spans_either_way(fragments):
    text = "".join(fragments)
    text = text * (secrets._SMALL_TEXT // len(text) + 1)  # past the size `re` searches
    assert secrets._NamesByRe2.of(text) is not None  # (RE2 is installed: it takes this text)
    by_re2, by_re = _both(text)
    assert by_re2 == by_re


@pytest.mark.parametrize(
    "unit",
    [
        "password: a ",  # refused values by the thousand: past a hundred, only valued names
        "api_key: abcd token=wxyz& $env:DB_PASSWORD = ${X} --db-password=$P ",
        "token=***& password: ******** secret=[REDACTED] ",
        'sig=\u00a0\u00a0__secret_key: "Zx9!aQ2#mm" password: a ' * 2,
        "password: Zq9-Zq9-Zq9 ",  # every one a finding
        "https://example.com/a note: b ",  # no credential's name at all
    ],
)
def test_floods_give_the_same_spans_either_way(unit):
    text = unit * (40_000 // len(unit))
    by_re2, by_re = _both(text)
    assert by_re2 == by_re


def test_a_value_far_past_its_name_is_found_as_in_a_small_text():
    """An operator or value a few thousand spaces past its name (past a window of the search
    without RE2): found in a large text as in a small one."""
    snippet = "api_key=" + " " * 3000 + "AbC123xyz987QWE\n"
    [(start, end, kind)] = secrets._named_in_text(snippet)  # a small text
    assert len(snippet) <= secrets._SMALL_TEXT
    lead = "x " * 2500
    assert list(secrets._named_in_text(lead + snippet)) == [
        (start + len(lead), end + len(lead), kind)
    ]


@pytest.mark.parametrize(
    "unit",
    [
        "a.key.b.key.c:",  # a credential's name every few characters: `re` reads them
        "token = ''__secret_key: \"Zx9!aQ2#mm\" ",  # values just past where `re` stops
        "key:\u00a0ab12 ",
        "password: a password: ab\u2003cdef ",  # past a hundred refusals, values a space cuts
    ],
)
def test_thick_names_give_the_same_spans_either_way(unit):
    for length in (5_000, 9_000, 40_000):
        text = (unit * (length // len(unit) + 1))[:length]
        by_re2, by_re = _both(text)
        assert by_re2 == by_re


PASSWORD = "Wint3r-2026!"


@pytest.mark.parametrize(
    "text",
    [
        f"the service password\uff1a{PASSWORD}",  # a fullwidth colon (CJK text)
        f"Passwort\uff1a{PASSWORD}",
        f"password\u00a0= {PASSWORD}",  # a space that does not break
        f"DB_PASSWORD\u202f=\u202f{PASSWORD}",
        f"password: \u201c{PASSWORD}\u201d",  # typographic quotes
        f"the password is \u2018{PASSWORD}\u2019 for now",
    ],
)
def test_a_password_written_with_typographic_marks_is_found_without_them(text: str) -> None:
    """Marks a person or a model writes where a configuration writes ASCII are read as the ASCII
    ones: the password is found, its span the password's alone (not its quotes)."""
    assert [text[s:e] for s, e, _ in secrets.scan_text(text)] == [PASSWORD]
    assert secrets.find_secrets({"text": text})[0].path == "/text"


def test_typographic_apostrophes_and_quotes_in_prose_flag_nothing() -> None:
    text = (
        "it\u2019s fine, don\u2019t rotate the \u2018staging\u2019 token \u2014 the "
        "\u201cprod\u201d one"
    )
    assert secrets.scan_text(text) == []
