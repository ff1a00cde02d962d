"""A credential a note points at with an arrow or a dash: "Password → …", "DB_PASSWORD -> …",
"Stripe key — …". The arrow, or a dash past ASCII, with a space on either side, is read as an
operator whose value is judged as prose judges one (app/secrets `_NAME_OP`, `_TOLD_IS`); code's
arrows (a lambda, a return type, a member's access) and an agent's numbered lines ("    41→…")
stay what they are.
"""

import pytest

from app.secrets import find_secrets
from tests.test_secrets import found_in_text

PASSWORD = "Qw7eQLS7Idoq1J"
KEY = "1jQT9ccYm97PcyRjlp2cqIcRYJ071FFs"
STRIPE = "sk_live_51HxQwErTyUiOpAsDfGhJkLzXcVbNm"

FOUND = [
    (f"Password → {PASSWORD}", PASSWORD),
    (f"password -> {PASSWORD}", PASSWORD),
    (f"new password ⇒ {PASSWORD}", PASSWORD),
    (f"The DB password — {PASSWORD} — was rotated", PASSWORD),
    (f"DB_PASSWORD → {PASSWORD}", PASSWORD),
    (f"- DB_PASSWORD -> {PASSWORD}", PASSWORD),
    (f"API key → {KEY}", KEY),
    (f"- API key – {KEY}", KEY),
    (f'PAGER_DUTY_KEY — "{KEY}"', KEY),
    (f"**Stripe key** — `{STRIPE}`", STRIPE),
    # an aside in brackets between the name and the arrow (app/secrets `_aside_read`)
    (f"Password (prod) → {PASSWORD}", PASSWORD),
    (f"API key (old) = {KEY}", KEY),
]

NOT_FOUND = [
    "{ token -> token.trim() }",
    "map { password -> hash(password) }",
    "login -> token -> session",
    "fn secret_key() -> String",
    "password -> hashed",
    "API_TOKEN -> ${API_TOKEN}",
    "password → auth[2]",
    "password -> enforce_bytes(auth[1], name='auth')",
    "password → utf8_to_utf16_dup(v);",
    "Set-Cookie → chips=ahoy2; vienna=finger",
    "Settings → Security → Password → Reset",
    "the password — as the vault holds it — is rotated monthly",
    "if (password) == other2Pw9:",
]


@pytest.mark.parametrize(("text", "value"), FOUND)
def test_a_value_an_arrow_or_a_dash_points_at_is_found(text: str, value: str) -> None:
    assert found_in_text(text) == [value]


@pytest.mark.parametrize(("text", "value"), FOUND)
def test_both_engines_find_it_in_a_long_text(text: str, value: str) -> None:
    # past 24,000 characters RE2 finds the names and the anchors (app/secrets/engine.py)
    prose = "The ledger job ran; nothing else to note here. " * 600
    long_text = f"{prose}\n{text}\n{prose}"
    assert found_in_text(long_text) == [value]


@pytest.mark.parametrize(("text", "value"), FOUND)
def test_it_is_found_in_a_checkpoint_statement(text: str, value: str) -> None:
    document = {"statements": [{"id": "s-1", "text": text}]}
    hits = find_secrets(document)
    assert [(hit.path, text[hit.start : hit.end]) for hit in hits] == [
        ("/statements/0/text", value)
    ]


@pytest.mark.parametrize("text", NOT_FOUND)
def test_code_and_prose_arrows_are_no_credential(text: str) -> None:
    assert found_in_text(text) == []


def test_an_agents_numbered_lines_keep_their_arrow_mark() -> None:
    # (the lines as an agent's file-reading tool prints them: number, arrow, line)
    lines = ["import os", f"DB_PASSWORD = '{PASSWORD}'", "connect()"]
    text = "\n".join(f"{i + 41:6d}\u2192{line}" for i, line in enumerate(lines))
    assert found_in_text(text) == [PASSWORD]
    assert found_in_text(f"{41:6d}\u2192password = get_password()") == []
