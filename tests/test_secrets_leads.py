"""A long text's told keys and passwords are matched where RE2 finds their names (and, for a
key, a run long enough for its value on the line after them): the same matches as `re` finds
trying every character (app/secrets/detectors.py `_matched_at_leads`).

A text past `RE2_RUNS_FROM` characters is read that way, a shorter one by `finditer`: the
findings of a text must not depend on its length, so each pattern is held to `finditer`'s
matches on texts where the name stands at a text's start, after a character of a name, a
hyphen, a letter past ASCII that `re` folds to ASCII's ("ſ", the Kelvin sign), in any case.
"""

import random
import re

import pytest

from app import secrets
from app.secrets import RE2_RUNS_FROM, detectors, scan_text
from app.secrets.detectors import _folded, _matched_at_leads, _matched_from, _read_low
from tests.test_secrets_engine import CORPUS

# (each pattern and what RE2 finds first: its name, as `key_in_prose` reads them)
LEADS = [(pattern.pattern, pattern, lead) for pattern, lead in detectors._TOLD_KEY_LEADS.items()]

FRAGMENTS = [
    *("the ", "api ", "API_", "access-", "deploy ", "x-", "X-Api-", "with ", "using the "),
    *("key", "token", "TOKEN", "secret", "Secret", "api-key", "session ", "refresh "),
    *("password", "PASSWORD", "paſſword", "db password", "passphrase"),
    *(" is ", " was ", " to ", " was reset to ", " for the admin account is ", " -> ", " → "),
    *(" — ", ": ", " ", "\t", "\n", "-", "_", "a", "ſ", "\u212a", "İ", "ı", "é", '"', "'"),
    *(
        "ecret",
        "ey",
        "oken",
        "Kx8zQ4hakb6oDwLjhdvDcir5iT",
        "9f3b2c1d8e7a6b5c4d3e2f1a0b9c8d7e",
        "expire.",
        "valid",
    ),
]


def _random_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(FRAGMENTS, k=rng.randint(1, 40))) for _ in range(count)]


def _spans(matches: object) -> list[tuple[int, int]]:
    return [m.span() for m in matches]  # type: ignore[attr-defined]


TEXTS = [
    "\n".join(CORPUS),
    "token is Kx8zQ4hakb6oDwLjhdvDcir5iT at the start",
    "ſtoken is Kx8zQ4hakb6oDwLjhdvDcir5iT after a long s",
    "the \u212aey is Kx8zQ4hakb6oDwLjhdvDcir5iT with a Kelvin sign",
    "the ſecret is Kx8zQ4hakb6oDwLjhdvDcir5iT, a long s inside the name",
    "the toKen was 9f3b2c1d8e7a6b5c4d3e2f1a0b9c8d7e (İ and ı: ACCESS_TOKEN İs)",
    "the api key and the token is Kx8zQ4hakb6oDwLjhdvDcir5iT",
    "send X-API-KEY 9f3b2c1d8e7a6b5c4d3e2f1a0b9c8d7e, x-api-key-2 Kx8zQ4hakb6oDwLjhdvDcir5iT",
    *_random_texts(400, 29),
    # a value's run on the next line, or after a line of runs too short
    "the api key is\nKx8zQ4hakb6oDwLjhdvDcir5iT, the token was 9f3b2c1d8e7a6b5c4d3e2f1a0b9c8d7e",
    "token to expire. " * 40 + "\nthe secret — Kx8zQ4hakb6oDwLjhdvDcir5iT\n" + "key is short " * 40,
    "a token to x\ntoken is Kx8zQ4hakb6oDwLjhdvDcir5iT\nkey\nkey was "
    "9f3b2c1d8e7a6b5c4d3e2f1a0b9c8d7e",
]


@pytest.mark.parametrize(("regex", "pattern", "lead"), LEADS, ids=[r[:24] for r, _, _ in LEADS])
def test_matches_at_the_names_re2_finds_are_those_finditer_finds(
    regex: str, pattern: re.Pattern[str], lead: str
) -> None:
    for text in TEXTS:
        raw = _read_low(_folded(text))
        by_leads = _matched_at_leads(pattern, lead, text, raw, detectors._TOLD_KEY_RUN)
        assert _spans(by_leads) == _spans(pattern.finditer(text)), text


def test_a_told_password_is_matched_where_re2_finds_its_name_as_finditer_matches() -> None:
    pattern = detectors._PASSWORD_IS
    for text in TEXTS:
        long_text = text + " " * RE2_RUNS_FROM
        names = detectors._prose_names(_folded(long_text))
        assert names is not None
        by_names = _matched_from(pattern, long_text, names.starts())
        assert _spans(by_names) == _spans(pattern.finditer(long_text)), text


def test_a_long_text_tells_the_keys_a_short_one_tells() -> None:
    """The same sentences, each alone and in a text past RE2_RUNS_FROM: the same keys."""
    sentences = [
        "the staging api key is Kx8zQ4hakb6oDwLjhdvDcir5iT.",
        "we call it with X-API-Key 9Jx3bQ2cW1d8e7a6b5c4d3e2 each time",
        "the session token 7Hq2XbN9wLm4Kp8Rt3Vz6YcQe was leaked",
        "call the API with token Qp7Zk2Lm9Xw4Rt8Vb3Nc6YhJ today",
        "set token to expire.",
    ]
    alone = [[(s[a:b], kind) for a, b, kind in scan_text(s)] for s in sentences]
    assert all(alone[:4]) and not alone[4]
    filler = "\nnothing to see here. " * 300 + "\n"
    long_text = filler.join(sentences) + filler
    found = [(long_text[a:b], kind) for a, b, kind in scan_text(long_text)]
    assert found == [hit for hits in alone for hit in hits]


COMMAND_PIECES = [
    *("--password", "--passwd=", "--pass ", "-Password ", "-passout pass:", "-storepass "),
    *("-srckeypass ", "--password-stdin <<< ", "--with-token <<< ", "psexec ", "PsExec64.exe "),
    *("plink ", "pscp.exe ", "curl ", "wget ", "-u ", "--user=", "mysql ", "mariadb ", "-p"),
    *("sshpass -p ", "docker login ", "helm registry login ", "redis-cli ", "-a ", "ldapsearch "),
    *("-w ", "smbclient ", "-U ", "az login ", "ssh-keygen ", "-N ", "openssl ", "-k ", "zip "),
    *("-P ", "7z ", "7za ", "rabbitmqctl add_user ", "net use ", "/user:", "NET USER ", "lftp "),
    *("security add-generic-password ", "-x-", "a-", "x", " ", "\t", "\n", "|", ";", "user:"),
    *("Kx8zQ4hakb6oDwLjhdvDcir5iT", "'Qw7 mP2'", "$PASS", "admin", "%"),
]


def test_a_command_line_is_matched_where_re2_finds_a_flag_or_a_command_as_finditer_matches() -> (
    None
):
    pattern, lead = detectors._COMMAND_LINE_PASSWORD, detectors._COMMAND_LEADS
    rng = random.Random(41)
    texts = ["".join(rng.choices(COMMAND_PIECES, k=rng.randint(1, 30))) for _ in range(1500)]
    for text in [*texts, "--password Kx8zQ4hakb6oDwLjhdvDcir5iT", "-storepass x"]:
        by_leads = _matched_at_leads(pattern, lead, text, _read_low(_folded(text)), after="")
        assert _spans(by_leads) == _spans(pattern.finditer(text)), text


WITH_PIECES = [
    *("with ", "WITH ", "and ", "using the ", "use ", "username admin ", "user ops@x.io ", "x"),
    *("password ", "Password: ", "passphrase ", "PASSWORD:", "pass ", "_with ", "ſ", "\u212a"),
    *("paſſword ", "uſername ", "wıth ", "İ"),
    *("Kx8zQ4ha", "Wint3r-2026!", "'xyz'", " ", "\t", "\n", "-", "é"),
]


def test_a_password_after_with_is_matched_in_lower_case_as_finditer_matches() -> None:
    low_form, pattern = detectors._WITH_PASSWORD_LOW, detectors._WITH_PASSWORD
    rng = random.Random(43)
    texts = ["".join(rng.choices(WITH_PIECES, k=rng.randint(1, 20))) for _ in range(3000)]
    for text in texts:
        found = detectors._matched_in_lower_case(low_form, pattern, text)
        assert _spans(found) == _spans(pattern.finditer(text)), text


def test_a_value_quoted_after_a_name_is_found_led_by_its_quote_as_by_the_name_s_end() -> None:
    """The two forms of `_QUOTED_AFTER_NAME` (a space and a quote, the name's end behind them)
    find, in order, what one regex led by the name's ends finds."""
    ends = "|".join(secrets._QUOTED_NAME_ENDS)
    by_name = re.compile(
        rf"(?:{ends}) (?P<quote>[\"'])(?P<value>[^\s\"'`\\<>]{{4,128}}+)(?P=quote)"
    )
    pieces = ["password", "key", "token", "pw", " ", "'", '"', "abcd", "ab", "x'y", "`", "\\"]
    pieces += ["\n", "secretword", "phrase", "wd", "passphrase 'Qw7x9'", ' "Kx8zQ4ha"']
    rng = random.Random(47)
    for _ in range(20_000):
        text = "".join(rng.choices(pieces, k=rng.randint(1, 12)))
        forms = [form.finditer(text) for form in detectors._QUOTED_AFTER_NAME]
        found = [(m.start("quote"), m.span("value")) for m in detectors._in_order(*forms)]
        assert found == [(m.start("quote"), m.span("value")) for m in by_name.finditer(text)]
