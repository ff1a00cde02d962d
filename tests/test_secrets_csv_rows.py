"""A CSV's row that pairs a credential's name with its value (NAME,VALUE: variables exported to a
spreadsheet, gitleaks' own list of contexts to test): a name that opens a line, a comma, then a
value with no space, quoted or not, judged as the second of two strings side by side is (both
cases and digits, or a generated run). Code's and prose's commas after a name pair nothing."""

from __future__ import annotations

import pytest

from app.secrets import scan_text
from tests.test_secrets import rnd

TOKEN = rnd(40, "abcdefghijklmnopqrstuvwxyz0123456789")
PASSWORD = "Pw9" + rnd(11)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"githubToken,{TOKEN},", TOKEN),
        (f"name,value\nDATADOG_API_KEY,{TOKEN}\nLOG_LEVEL,info\n", TOKEN),
        (f'key,value\r\nTWITTER_API_SECRET,"{TOKEN}"\r\n', TOKEN),
        (f"service,password\ndb_password,{PASSWORD}\n", PASSWORD),
    ],
)
def test_a_csv_row_pairing_a_name_with_its_value_is_found(text: str, value: str) -> None:
    # (and in a text large enough for RE2 to find the name)
    for padding in ("", "# exported\n" * 3000):
        assert [(padding + text)[s:e] for s, e, _ in scan_text(padding + text)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        f"token, err := jwt.Parse({TOKEN})",  # Go's two results
        f"x = 1; token,{TOKEN}",  # not at a line's start
        "password,hunter22\n",  # one case: a list's word as often as a password
        'api_key,"string","required"\n',  # a schema's row
        "token,expires_at,scope\n",  # a header alone
    ],
)
def test_a_comma_after_a_name_elsewhere_pairs_nothing(text: str) -> None:
    for padding in ("", "# exported\n" * 3000):
        assert scan_text(padding + text) == []
