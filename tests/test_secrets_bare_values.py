"""An unquoted value ends where the text around it takes over: a sentence's full stop, a
list's comma, a call's closing bracket, the backslash of a quote escaped in JSON a text quotes.
A name/value entry (a Kubernetes env list) and an assignment read it alike."""

from __future__ import annotations

import pytest

from app.secrets import scan_text

SECRET = "Zq9kLm2Wx7Tp4Rv8"


def withheld(text: str) -> list[str]:
    return [text[start:end] for start, end, _ in scan_text(text)]


@pytest.mark.parametrize(
    ("written", "value"),
    [
        (SECRET + ".", SECRET),
        (SECRET + ",", SECRET),
        (SECRET + ").", SECRET),
        (SECRET + "]}", SECRET),
    ],
)
@pytest.mark.parametrize(
    "layout",
    [
        "DB_PASSWORD={}",
        "- name: DB_PASSWORD\n  value: {}",
        "{{name: DB_PASSWORD, value: {}",
    ],
)
def test_an_unquoted_value_ends_where_the_text_around_it_takes_over(
    layout: str, written: str, value: str
) -> None:
    assert withheld(layout.format(written)) == [value]


@pytest.mark.parametrize(
    "layout",
    ['{{\\"DB_PASSWORD\\": {}\\"}}', '{{\\"name\\": \\"DB_PASSWORD\\", \\"value\\": {}\\"}}'],
)
def test_the_backslash_of_an_escaped_quote_after_a_value_is_the_json_s(layout: str) -> None:
    assert withheld(layout.format(SECRET)) == [SECRET]
