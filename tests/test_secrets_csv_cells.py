"""A credential in a CSV's quoted cell, each quote in it doubled (a ticket export, a tool's log
saved as CSV): a cell of PAGER_DUTY_KEY=""…"" is read with its quotes as one
(app/secrets/detectors.py `csv_quoted_decoding`).
"""

import pytest

from tests.test_secrets import found_in_text

KEY = "D1yF2bYEZfuKn17fByoNlW2hjaC2whYwHT3ZM2oy"


@pytest.mark.parametrize(
    "cell",
    [
        f'PAGER_DUTY_KEY=""{KEY}""',
        f'{{""datadog_key"": ""{KEY}""}}',
        f'env:\n- name: DD_API_KEY\n  value: ""{KEY}""\n',
        f'api_key = ""{KEY}"" # from the vault',
    ],
)
def test_a_quoted_cell_s_doubled_quotes_are_read_as_one(cell: str) -> None:
    for text in (f'id,message\n4410,"{cell}"\n', f'"{cell}",open\n', f'x,"{cell}"'):
        assert found_in_text(text) == [KEY], text


def test_code_s_strings_are_no_cells() -> None:
    # an empty string, and a string no comma or line break closes, are read as written
    assert found_in_text('conn = connect(host, password="")\nlog(a,"x""y")\n') == []
    assert found_in_text('password,note\n"",""""\n') == []


def test_quoted_cells_are_read_up_to_a_thousand_in_a_text() -> None:
    rows = "\n".join(f'{i},"say ""hi"" {i}"' for i in range(1000))
    late = f'{rows}\n1001,"PAGER_DUTY_KEY=""{KEY}"""\n'
    assert found_in_text(late) == []
    early = f'1,"PAGER_DUTY_KEY=""{KEY}"""\n{rows}\n'
    assert found_in_text(early) == [KEY]
