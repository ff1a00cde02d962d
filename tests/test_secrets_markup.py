"""A credential a page or a note sets in markup: a label in Markdown's strong emphasis or an HTML
inline tag, a definition list, an HTML table's cells. Each is read as the plain text it stands
for, a character for a character (app/secrets `_markup_read`), so a hit's place is the text's.
"""

import pytest

from tests.test_secrets import found_in_text

PASSWORD = "Qw7eQLS7Idoq1J"
KEY = "1jQT9ccYm97PcyRjlp2cqIcRYJ071FFs"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"**Password:** {PASSWORD}", PASSWORD),
        (f"**Password**: {PASSWORD}", PASSWORD),
        (f"- __DB password__: {PASSWORD}", PASSWORD),
        (f"<li><b>Password:</b> {PASSWORD}</li>", PASSWORD),
        (f"<p><strong>API key</strong>: {KEY}</p>", KEY),
        (f"<dl><dt>Password</dt><dd>{PASSWORD}</dd></dl>", PASSWORD),
        (f"<table><tr><td>DB_PASSWORD</td><td>{PASSWORD}</td></tr></table>", PASSWORD),
        (
            f'<table><tr class="r"><td style="w">DB_PASSWORD</td><td>{PASSWORD}</td></tr></table>',
            PASSWORD,
        ),
        (f"<TABLE><TR><TD>api_key</TD><TD>{KEY}</TD></TR></TABLE>", KEY),
        (f"<p>enable secret 0 {PASSWORD}</p>", PASSWORD),
    ],
)
def test_a_credential_set_in_markup_is_found_where_it_stands(text: str, value: str) -> None:
    assert found_in_text(text) == [value]


HEADED_TABLE = f"""<table>
  <thead>
    <tr><th>User</th><th>Password</th></tr>
  </thead>
  <tbody>
    <tr><td>admin</td><td>{PASSWORD}</td></tr>
    <tr class="last"><td>ops</td><td>Zq9xK2mP4vL7</td></tr>
  </tbody>
</table>"""
CELL_A_LINE = f"""<table>
<tr>
  <th>Service</th>
  <th>API key</th>
</tr>
<tr>
  <td>ledger</td>
  <td>{KEY}</td>
</tr>
</table>"""


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            f"<table><tr><th>Name</th><th>Password</th></tr><tr><td>admin</td><td>{PASSWORD}</td>"
            "</tr></table>",
            [PASSWORD],
        ),
        (HEADED_TABLE, [PASSWORD, "Zq9xK2mP4vL7"]),
        (CELL_A_LINE, [KEY]),
        (CELL_A_LINE.upper().replace(KEY.upper(), KEY), [KEY]),
    ],
)
def test_an_html_tables_header_names_what_its_column_holds(text: str, values: list[str]) -> None:
    # (a header row of <th> cells read as a Markdown table's header and its separator row; a
    # table set out a row or a cell to a line read as rows one after another)
    assert found_in_text(text) == values


@pytest.mark.parametrize(
    "text",
    [
        "<table><tr><th>Parameter</th><th>Type</th></tr>"
        "<tr><td>password</td><td>string</td></tr></table>",
        "<table>\n<tr>\n  <th>User</th>\n  <th>Password</th>\n</tr>\n<tr>\n"
        "  <td>admin</td>\n  <td>(set on first login)</td>\n</tr>\n</table>",
        "<table><tr><td>password</td><td>None</td></tr></table>",
    ],
)
def test_an_html_table_of_what_is_no_credential_holds_none(text: str) -> None:
    assert found_in_text(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "password: ******** (ask the on-call engineer)",
        "**Note:** the password is in the vault",
        "<b>Password:</b> see the vault",
        "<code>username</code> or <code>password</code>.</p>",
        "<table><tr><td>password</td><td>string</td><td>required</td></tr></table>",
        '<tr><td>private_key</td><td>"_RSAPrivateKey",</td></tr>',
        "__init__(self, password=None)",
    ],
)
def test_markup_around_what_is_no_credential_stays_none(text: str) -> None:
    assert found_in_text(text) == []


@pytest.mark.parametrize(
    "token",
    [
        "live_Zq9xK2mP4vL7nR1tY8wB3cF6hJ0dS5gA2eU9iO__",  # (a token's "__" before a ";")
        "glpat-l-__f5ddRYmypx9TGbfz",
    ],
)
def test_a_token_s_underscores_are_no_emphasis(token: str) -> None:
    for text in (f"TOKEN={token}; next", f"value {token} end", f"**Token:** {token}"):
        assert found_in_text(text) == [token], text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"Password (temporary): {PASSWORD}", PASSWORD),
        (f"DB password (staging) : {PASSWORD}", PASSWORD),
        (f"API key (prod): {KEY}", KEY),
    ],
)
def test_an_aside_between_a_label_and_its_colon(text: str, value: str) -> None:
    # (a few words in brackets before the colon read as spaces: app/secrets `_aside_read`)
    assert found_in_text(text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "if (password): return",
        "Password (see the vault): rotate monthly",
        f"Note (temporary): {PASSWORD}",  # (no credential's name before the brackets)
        "cache key (sha): abc123def456",
    ],
)
def test_an_aside_after_no_credential_s_name_stays_none(text: str) -> None:
    assert found_in_text(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"Name | Value\n--- | ---\nDB_PASSWORD | {PASSWORD}\n", PASSWORD),
        (f"service | api_key | env\n---|---|---\nledger | {KEY} | prod\n", KEY),
        (f"Name | Value\r\n:--- | ---:\r\nDB_PASSWORD | {PASSWORD}\r\n", PASSWORD),
    ],
)
def test_a_table_without_its_outer_pipes_is_read(text: str, value: str) -> None:
    # (GitHub's Markdown: the separator line says where the header and the rows are)
    assert found_in_text(text) == [value]


def test_a_table_without_its_outer_pipes_naming_none_stays_none() -> None:
    assert found_in_text("Name | Value\n--- | ---\nDB_PASSWORD | ********\n") == []
    assert found_in_text("a | b\n---|---\npassword | string\n") == []


def test_no_mark_spans_two_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strings are searched for marks together, a line each: a string ending in a masked
    value, "********", and the next starting with a letter hold no pair's mark between them,
    and neither is read for markup (each read was a step of Python)."""
    import app.secrets as secrets

    read: list[str] = []
    original = secrets._markup_read
    monkeypatch.setattr(secrets, "_markup_read", lambda text: read.append(text) or original(text))
    strings = [f"svc{i}_password -> ********" for i in range(50)] + ["**Password:** x"]
    assert secrets._markup_strings(strings)[-1] == "  Password:   x"
    assert read == ["**Password:** x"]
