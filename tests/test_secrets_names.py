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
    "[password]: x ",  # (a "]" is read after a quote only: an INI section's name is no key)
    '$cfg["db_password"] = "Zq9-Zq9-Zq9"; ',
    "cfg['token']: 'Zx9aQ2mmYY88' ",
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
        "[password]: x ",  # (RE2 took a "]" with no quote before it: each a step refused)
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
        f"password\u00a0= {PASSWORD}",  # a space that does not break
        f"DB_PASSWORD\u202f=\u202f{PASSWORD}",
        f"password: \u201c{PASSWORD}\u201d",  # typographic quotes
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


# What a review of the placements' reading found (each at the commits that added it): a
# terminal's colour inside a name, CJK documentation's fullwidth colon, any character past
# ASCII taken for glue, a pattern named like a token, each flagged; a title's or a link's
# contents, a Windows user named after an escape's letter, a second credential in a string
# already flagged, each missed.
NOT_FLAGGED_AS_READ = [
    'public\x1b[1mToken\x1b[0m = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
    "next_page_\x1b[1mtoken\x1b[0m: CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA0cHJ0",
    'csrf\x1b[1m_token\x1b[0m = "Zx8pL2mQ9vR4tY7uI1oP3aS6dF"',
    "PUBLIC_\x1b[1mAPI_KEY\x1b[0m=pk_live_51HkLm2eZvKYlo2C8a9B7c6D5e4F3g2H1",
    "aws secretsmanager create-secret --secret-string file\x1b[36m:\x1b[0m//secret.json",
    "Password\uff1a\u8bf7\u8054\u7cfb\u7ba1\u7406\u5458\u83b7\u53d6",
    "token\uff1a\u7528\u6237\u767b\u5f55\u51ed\u8bc1\uff0c\u6709\u6548\u671f2\u5c0f\u65f6",
    "password\uff1a123456\uff08\u4ec5\u6d4b\u8bd5\u73af\u5883\uff09",
    "Datadog API key r\u00e9voqu\u00e9e, empreinte d41d8cd98f00b204e9800998ecf8427e",
    "Datadog API key \u2705 rotated d41d8cd98f00b204e9800998ecf8427e",
    'token_pat = "build-[0-9]+"',
    "io_key: analog_input_3",
    # JSON Python wrote (every character past ASCII escaped by its code) of prose after a name
    '{"msg": "password: \\u8bf7\\u8054\\u7cfb\\u7ba1\\u7406\\u5458"}',
    '{"msg": "Passwort: \\u00e4ndern Sie es"}',
    '{"msg": "api_key: \\u043d\\u0435 \\u0437\\u0430\\u0434\\u0430\\u043d"}',
]


@pytest.mark.parametrize("text", NOT_FLAGGED_AS_READ)
def test_text_read_through_its_marks_flags_nothing(text: str) -> None:
    assert secrets.scan_text(text) == []
    assert secrets.find_secrets({"text": text}) == []


CREDENTIAL = "Zk8hZNlwsekkq"
TOKEN = "ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a shell's title holds the command it runs; a link's URL what it opens
        (f"\x1b]0;ops@web1: mysql -u root -p{CREDENTIAL} ledger\x07$ ls\n", [CREDENTIAL]),
        (
            f"see \x1b]8;;https://x.example.com/dl?access_token={TOKEN}\x1b\\dl\x1b]8;;\x1b\\",
            [TOKEN],
        ),
        (
            f"\x1b]8;;https://deploy:{CREDENTIAL}@git.example.com/r.git\x1b\\r\x1b]8;;\x1b\\",
            [f"deploy:{CREDENTIAL}"],  # (a URI's userinfo is withheld whole)
        ),
        # a Windows user whose name starts with an escape's letter; a tab escaped in a password
        (f"net use Z: \\\\fs01\\share /user:CORP\\tom {CREDENTIAL}", [CREDENTIAL]),
        ("DB_PASSWORD=Kq8\\tVt3xLp9Z", ["Kq8\\tVt3xLp9Z"]),
    ],
)
def test_a_credential_beside_marks_is_found_where_it_stands(text: str, found: list[str]) -> None:
    assert [text[s:e] for s, e, _ in secrets.scan_text(text)] == found
    assert [text[h.start : h.end] for h in secrets.find_secrets({"text": text})] == found


def test_a_string_flagged_as_written_still_has_what_its_escapes_hide_found() -> None:
    """A token read as written and an AWS secret on the escaped line after it: the document
    scan finds both, as `scan_text` does (the decoders once ran only on strings nothing else
    flagged, and the secret's name, read across the escape, was left to them)."""
    secret = "wJalrXUtnFEMIK7MDENGbPxRfiCYzq8t3vX9pL2a"
    text = f"AWS_ACCESS_KEY_ID=AKIAQ3EGRZ7XK2MPL4HB\\nAWS_SECRET_ACCESS_KEY={secret}"
    kinds = [kind for _, _, kind in secrets.scan_text(text)]
    assert len(kinds) == 2
    hits = secrets.find_secrets({"text": text})
    assert [text[h.start : h.end] for h in hits] == ["AKIAQ3EGRZ7XK2MPL4HB", secret]
