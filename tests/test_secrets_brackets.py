"""A value holding a bracket after a credential's name: what code calls or indexes (an excerpt of
a source file names where a credential comes from), or a password that holds a bracket. Code
calls an attribute, a variable, a name in lower case, or an identifier whose digits end its
words; a generated password mixes cases with digits inside its words."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets, scan_text

LAYOUTS = ["DB_PASSWORD={}", "password: {}", 'api_key = "{}"']


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "password", ["Tr0ub4dor(3x9Q", "S3cure[Pass]99", "x7Yq!2(Lm", "P@ss(w0rd)2024!"]
)
def test_a_password_holding_a_bracket_is_found(layout: str, password: str) -> None:
    text = layout.format(password)
    assert [text[start:end] for start, end, _ in scan_text(text)] == [password]
    assert find_secrets({"password": password}) != []


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "code",
    [
        "hmac.new(key2, msg",
        'os.getenv("DB")',
        "get_secret(name)",
        "b64decode(data)",
        "base64.b64decode(data)",
        "getSecret(name)",
        "getS3Object(x)",
        "Base64Decode(enc)",
        "AesGcm256(key)",
        'cfg["db"]',
        "Optional[str]",
        "SecretStr(value)",
        "$env[0]",
    ],
)
def test_code_that_calls_or_indexes_is_no_credential(layout: str, code: str) -> None:
    assert scan_text(layout.format(code)) == []
    assert find_secrets({"password": code}) == []


@pytest.mark.parametrize(
    "text",
    [
        'requests.get(url, auth=("admin", "{}"))',
        "httpx.get(url, auth = ('svc', '{}'))",
        'requests.post(url, auth=(\\"admin\\", \\"{}\\"))',  # (JSON a text quotes)
    ],
)
def test_a_password_in_an_auth_tuple_is_found(text: str) -> None:
    """A user and a password as Python's HTTP clients take them: the password withheld."""
    password = "C3J27X!DCG2Lm"
    line = text.format(password)
    assert [line[start:end] for start, end, _ in scan_text(line)] == [password]


@pytest.mark.parametrize(
    "text",
    [
        'auth=("admin", os.environ["PW"])',
        'auth=("admin", "changeme")',
        "auth=(user, password)",
        'auth=("a", "b")',
    ],
)
def test_an_auth_tuple_of_names_or_placeholders_is_not(text: str) -> None:
    assert scan_text(text) == []
