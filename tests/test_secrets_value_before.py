"""A credential told before its name: "use `Qw7…` as the password", "Qw7… is the new password".

A note or a chat message gives the value first, then says what it is (app/secrets/detectors.py
`value_before_name`). After "as", only with a verb a person uses a credential with before it;
after "is" or "was", only a value of both cases and a digit: "known as the password manager",
"ingredient2 was the secret" tell none.
"""

import pytest

from app.secrets import find_secrets, scan_text

PASSWORD = "Tr7vKq2m" + "Xw9pLz4n"
KEY = "q7ZkR2mXw9pL" + "z4nTv8Bc3Hs6"

FOUND = [
    (f"use `{PASSWORD}` as the password", PASSWORD),
    (f"Use {PASSWORD} as your new password.", PASSWORD),
    (f"TRY {PASSWORD} AS THE PASSWORD", PASSWORD),
    (f"(enter {PASSWORD} as the admin password)", PASSWORD),
    (f"use hunter{22} as the password", "hunter22"),
    (f"enter {KEY} as your API key", KEY),
    (f"{PASSWORD} is the password for prod", PASSWORD),
    (f'"{PASSWORD}" is the new password', PASSWORD),
    (f"Login: admin. {PASSWORD} was the temporary password.", PASSWORD),
    (f"{KEY} is the access token", KEY),
    (f"{PASSWORD} is the password and admin the user", PASSWORD),
    # where a quote, a bracket, a line's mark or a query's "=" stands before it, and a clause
    # after it
    (f"['use {PASSWORD} as the password']", PASSWORD),
    (f'4410,open,"use {PASSWORD} as the password"', PASSWORD),
    (f"    41→use {PASSWORD} as the password", PASSWORD),
    (f"The log showed use {PASSWORD} as the password before the retry.", PASSWORD),
]

NOT_FOUND = [
    "It was saved as the password",
    "known as the password manager",
    "This is the password",
    "the default is the password",
    "ingredient2 was the secret",
    "use it as the password",
    "use $DB_PASSWORD as the password",
    "use {{password}} as the password",
    "use ******** as the password",
    "v2 is the token",
    f"{PASSWORD} as the password",  # (no verb: a list's line, not a value told)
    f"use {PASSWORD} is the password",
    # the name is of something else: a hash, a format, a cipher
    "use SHA256 as the password hash",
    "use Argon2id as the password hashing algorithm",
    "Base64 is the secret encoding",
    "MySQL8 is the password store",
    "use AES256 as the secret cipher",
    f"reuse {PASSWORD} as the password",  # (no verb: a word that ends with one)
]


@pytest.mark.parametrize(("text", "value"), FOUND)
def test_a_value_told_before_its_name_is_found(text: str, value: str) -> None:
    assert [text[start:end] for start, end, _ in scan_text(text)] == [value]


@pytest.mark.parametrize(("text", "value"), FOUND)
def test_it_is_found_in_a_long_text_and_in_a_statement(text: str, value: str) -> None:
    filler = "The reconciliation ran overnight and matched every account. " * 600
    long = f"{filler}{text} {filler}"
    assert [long[start:end] for start, end, _ in scan_text(long)] == [value]
    (hit,) = find_secrets({"statements": [{"text": text}]})
    assert hit.text[hit.start : hit.end] == value


@pytest.mark.parametrize("text", NOT_FOUND)
def test_prose_about_a_credential_tells_none(text: str) -> None:
    assert scan_text(text) == []
