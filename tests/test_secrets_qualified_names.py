"""A credential's name that says which of its kind it is: an environment, a version or a side
after it (DB_PASSWORD_PROD, API_KEY_V2, Mailjet's MJ_APIKEY_PRIVATE), or a note in brackets
after a label ("Datadog API key (EU)"). The name is read as the name alone; what it names
something else by (an id, a length, an expiry, a sort order) keeps it none."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets, scan_text
from tests.test_secrets import rnd

KEY = "aB3" + rnd(29)
PASSWORD = "Pw9" + rnd(11)


@pytest.mark.parametrize(
    "name",
    [
        "DB_PASSWORD_PROD",
        "API_KEY_V2",
        "SECRET_KEY_STAGING",
        "STRIPE_KEY_LIVE",
        "MJ_APIKEY_PRIVATE",
        "apiKeyProd",
        "api_token_value",
        "API_KEY_PROD_2",
        "Datadog API key (EU)",
        "API key [staging]",
        "Password (old)",
    ],
)
def test_a_qualified_name_s_value_is_found(name: str) -> None:
    value = PASSWORD if "assword" in name.lower() else KEY
    (hit,) = find_secrets({"extensions": {"x": {name: value}}})
    assert hit.path == f"/extensions/x/{name}" and not hit.in_key
    if " " not in name:
        # and as an environment file's line, in a text large enough for RE2 to read it too
        for padding in ("", "# settings\n" * 3000):
            text = f"{padding}{name}={value}\nLOG_LEVEL=info\n"
            assert [text[s:e] for s, e, _ in scan_text(text)] == [value], (name, len(text))


@pytest.mark.parametrize(
    "name",
    [
        "API_KEY_ID",
        "API_KEY_NAME",
        "TOKEN_EXPIRY",
        "PASSWORD_MIN_LENGTH",
        "SORT_KEY_PROD",
        "MJ_APIKEY_PUBLIC",
        "sort key (asc)",
        "Partition key [v2]",
    ],
)
def test_a_name_qualified_as_something_else_holds_none(name: str) -> None:
    assert find_secrets({"extensions": {"x": {name: KEY}}}) == []
