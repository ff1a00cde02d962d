"""A credential in a log a collector wrote a line at a time, a prefix before each line
(`kubectl logs --timestamps`, `docker logs -t`, a logger's time, level and fields, the journal,
`docker compose logs`): a key a program printed, or a YAML block, is read only without the
prefixes, and the scan reads the text again so (issue 29). The hit is placed in the text as
written."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets, redact, scan_text
from tests.test_secrets import pem

PREFIXES = [
    "2026-12-07T09:14:03.123456789Z ",  # kubectl logs --timestamps, docker logs -t
    "2026-12-07T09:14:03+01:00 ",
    "2026-12-07 09:14:03,123 INFO [main] ",  # a logger's
    "2026-12-07 09:14:03.123 WARN [pool-1-thread-2] [req-42] ",
    "Dec  7 09:14:03 web-1 deploy[4242]: ",  # the journal's
    "api-1  | ",  # docker compose logs
]


def prefixed(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_a_key_a_program_printed_is_found_through_the_prefixes(prefix: str) -> None:
    key = pem("RSA ")
    text = prefixed(f"starting\n{key}\nready", prefix)
    (span,) = scan_text(text)
    found = text[span[0] : span[1]]
    assert found.startswith("-----BEGIN") and found.replace("\n" + prefix, "\n") == key
    shown = redact(text)
    assert shown.startswith(prefix + "starting\n") and shown.endswith(prefix + "ready")
    assert not any(line in shown for line in key.split("\n")[1:-1])


@pytest.mark.parametrize("prefix", PREFIXES)
def test_a_yaml_block_logged_line_by_line_is_read_through_the_prefixes(prefix: str) -> None:
    from tests.test_secrets_recall import _document

    doc = _document()
    block = "db:\n  password: |\n    Qw7vDwfnK41J1i\n  host: db"
    doc["resources"][0]["excerpt"] = prefixed(f"config loaded:\n{block}", prefix)
    (hit,) = find_secrets(doc)
    assert hit.path == "/resources/0/excerpt" and hit.text is not None
    assert hit.text[hit.start : hit.end] == "Qw7vDwfnK41J1i"


@pytest.mark.parametrize(
    "text",
    [
        prefixed("token refreshed for user 42\nkey rotation scheduled\nsecret store ready", p)
        for p in PREFIXES
    ]
    + [
        "2026-12-07T09:14:03Z\n2026-12-07T09:15:03Z",  # (times alone, values a line each)
        prefixed("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE", PREFIXES[0]),
        "| a | b |\n| c | d |",
        "a | b\nc | d",
    ],
)
def test_an_ordinary_log_holds_no_credential(text: str) -> None:
    assert scan_text(text) == []
