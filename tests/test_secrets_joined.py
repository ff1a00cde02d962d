"""A credential in text whose line breaks were collapsed into spaces, or set in by spaces.

A page, a log or a chat export that collapses a text's whitespace joins a pasted YAML block or
a Markdown table onto one line: `db: password: | Qw7…`, `| name | value | |---|---| | …`. A
YAML literal block or a Markdown code block sets a pasted CSV or listing in by spaces. Each is
read as its lines would be (app/secrets/detectors.py `_unflattened`, `csv_column`,
`listed_value`; app/secrets `_past_yaml_lead`).
"""

import pytest

from tests.test_secrets import found_in_text

PASSWORD = "Qw7eQLS7Idoq1J"
KEY = "1jQT9ccYm97PcyRjlp2cqIcRYJ071FFs"


@pytest.mark.parametrize(
    "text",
    [
        f"pasted: | name | value | |---|---| | DB_PASSWORD | {PASSWORD} | | DB_USER | ledger |",
        f"| name | value | | :--- | ---: | | DB_PASSWORD | {PASSWORD} |",
        # (with no space between rows: a cell beside a credential's name, as in any row)
        f"| name | value ||---|---|| DB_PASSWORD | {PASSWORD} |",
        f"| service | password | | --- | --- | | ledger | {PASSWORD} |",
        # (an empty cell keeps the columns: a row is as many cells as the separator has)
        f"| a | | b | |---|---|---| | DB_PASSWORD | {PASSWORD} | x |",
        f"| a | b | c | |---|---|---| | | DB_PASSWORD | {PASSWORD} |",
    ],
)
def test_a_table_on_one_line_is_read_as_its_rows(text: str) -> None:
    assert found_in_text(text) == [PASSWORD]


def test_a_cell_that_is_no_credential_stays_none_on_one_line() -> None:
    assert found_in_text("| setting | password | |---|---| | rotation | every 90 days |") == []
    assert found_in_text("| name | value | |---|---| | DB_PASSWORD | ******** |") == []


def test_rows_on_one_line_are_read_up_to_a_thousand_in_a_text() -> None:
    # each row a step of Python: past a thousand in a text the rest are read as written (a
    # credential after them on that line is missed; on a line of its own it is found)
    rows = " ".join(f"| DB_USER_{i} | ledger |" for i in range(1200))
    late = f"| name | value | |---|---| {rows} | DB_PASSWORD | {PASSWORD} |"
    assert found_in_text(late) == []
    early = f"| name | value | |---|---| | DB_PASSWORD | {PASSWORD} | {rows}"
    assert found_in_text(early) == [PASSWORD]
    assert found_in_text(late + f"\n| DB_PASSWORD | {PASSWORD} |") == [PASSWORD]


@pytest.mark.parametrize(
    "text",
    [
        f"db: password: | {PASSWORD} host: db",
        f"db: password: >- {PASSWORD} host: db",
        f"db: password: |+ {PASSWORD}",
        f"parameters: adminPassword: value: '{PASSWORD}'",
        f"Parameters: DBPassword: Type: String NoEcho: true Default: {PASSWORD} Region: x",
        f"DBPassword: Type: String NoEcho: true MinLength: 8 Default: {PASSWORD}",
        f"DBPassword: Default: {PASSWORD}",
    ],
)
def test_a_yaml_value_on_its_name_s_line_after_a_lead_is_read(text: str) -> None:
    assert found_in_text(text) == [PASSWORD]


@pytest.mark.parametrize(
    "text",
    [
        "db: password: | see the vault host: db",
        "password: |",
        "password: | yes |",
        f"password: |\n  {PASSWORD}\n  second line of a block\n",  # a text, not a value
        "adminPassword: value: to be set by the pipeline",
        "password: Type: String Description: the database's password",
        "DBPassword: Type: AWS::SSM::Parameter::Value<String> Default: /prod/ledger/db/password",
        "password: /prod/ledger/db/password",
    ],
)
def test_a_lead_with_no_credential_after_it_is_none(text: str) -> None:
    assert found_in_text(text) == []


@pytest.mark.parametrize("indent", ["  ", "    ", "\t"])
def test_a_csv_or_a_listing_set_in_by_spaces_is_read(indent: str) -> None:
    csv = f"attachment: |\n{indent}name,password\n{indent}app,{PASSWORD}\nnext: 1"
    assert found_in_text(csv) == [PASSWORD]
    listing = f"attachment: |\n{indent}Key          Value\n{indent}api_key      {KEY}\n"
    assert found_in_text(listing) == [KEY]
    tabbed = f"attachment: |\n{indent}name\tvalue\n{indent}DB_PASSWORD\t{PASSWORD}\n"
    assert found_in_text(tabbed) == [PASSWORD]


def test_a_csv_row_less_indented_than_its_header_is_no_row_of_it() -> None:
    assert found_in_text(f"  name,password\napp,{PASSWORD}\n") == []
    assert found_in_text(f"  name,password\n  web,{PASSWORD}\napp,other\n") == [PASSWORD]


@pytest.mark.parametrize(
    "text",
    [
        f"Username: admin\nPassword:\n{PASSWORD}\n",
        f"Password:\n  {PASSWORD}",  # (YAML's plain scalar on the next line)
        f"API key:\r\n{KEY}\r\n",
    ],
)
def test_a_value_alone_on_the_line_after_its_label_is_read(text: str) -> None:
    assert found_in_text(text) == [PASSWORD if PASSWORD in text else KEY]


HEX_KEY = "eee65f53e9421ce5" + "0211670eae679f02"
UUID_KEY = "6822a6b2-4735-af1c-" + "a7a1-149075139237"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a key generated in one case, as a web page's field is copied with its label
        (f"Datadog API Key:\n{HEX_KEY}\n", HEX_KEY),
        (f"Heroku API Key:\n{UUID_KEY}\n", UUID_KEY),
        (f"token:\n  {HEX_KEY}\n", HEX_KEY),
    ],
)
def test_a_key_in_one_case_alone_on_the_line_after_its_label_is_read(text: str, value: str) -> None:
    assert found_in_text(text) == [value]
    assert found_in_text("# notes\n" * 3000 + text) == [value]  # (RE2 reads a text this long)


@pytest.mark.parametrize(
    "text",
    [
        "password:\n  secretKeyRef:\n    name: db",
        "Password:\nRequired",
        "Password:\n********",
        "password:\n  - first\n  - second",
        "Password:\nhunter2",  # (a next line's word needs both cases and digits)
        "token:\n  ${TOKEN}",
        "password:\nSee the vault",
        f"password:\n\n{PASSWORD}",  # (a blank line between: no label's value)
        f"Password:\n{HEX_KEY}",  # (a password's in one case is a word, or a digest)
        f"Request ID:\n{UUID_KEY}",
        f"Cache key:\n{UUID_KEY}",
        f"Commit:\n{HEX_KEY}eee65f53",
        "token:\n  abcdefghijklmnop",
    ],
)
def test_a_next_line_that_is_no_value_is_none(text: str) -> None:
    assert found_in_text(text) == []


AWS_SECRET = "q7Rr+XUtnFE3I/K7MDENG/" + "bPxRfiCYzVbG4pZeKQ"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # a web page's fields copied: each label alone on its line, its value on the next
        (f"Site\nus5\nDatadog API Key\n{HEX_KEY}\nCreated\n2026-12-07\n", HEX_KEY),
        (f"Heroku API Key\n{UUID_KEY}\n", UUID_KEY),
        (f"Access key ID\nAKIAZ7QW3RTY5UIOPA7Q\nSecret access key\n{AWS_SECRET}\n", AWS_SECRET),
        (f"Secret access key\r\n{AWS_SECRET}\r\n", AWS_SECRET),
        (f"Client secret\n  {PASSWORD}\n", PASSWORD),
        (f"Username\nadmin\nPassword\n{PASSWORD}\n", PASSWORD),
    ],
)
def test_a_value_under_its_label_with_no_colon_is_read(text: str, value: str) -> None:
    assert value in found_in_text(text)
    assert value in found_in_text("# notes\n" * 3000 + text)  # (RE2 reads a text this long)


@pytest.mark.parametrize(
    "text",
    [
        "API Key\nYour API key signs each request.",
        "Password\n********",
        "Password\nhunter2hunter2",  # (a password's word: both cases and a digit it lacks)
        f"Sort key\n{UUID_KEY}",
        f"Primary key\n{HEX_KEY}",
        "Public key\nssh-ed25519AAAAC3NzaC1lZDI1NTE5",
        f"The deploy uses the key\n{HEX_KEY}",  # (a sentence, not a label)
        f"API key:\n\n{HEX_KEY}",  # (a blank line between)
    ],
)
def test_a_line_under_a_label_that_is_no_value_is_none(text: str) -> None:
    assert found_in_text(text) == []
