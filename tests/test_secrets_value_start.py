"""Where a keyword or pair rule's value starts (app/secrets/rules.py `_value_start`): the first
place after its name with a separator before it (a line end too, for a pair's or a next-line
keyword's glue) from which the value's shape runs to the match's end. One regex search finds
it; each rule's shape is held here to the place-by-place reading that defines it."""

import random
import re

import pytest

from app.secrets import rules
from app.secrets.rules import _SEP, RULES, _value_start, _value_tail


def _reference(value: str, text: str, glue_start: int, end: int, line_end: bool) -> int | None:
    shape = re.compile(value)
    for at in range(glue_start + 1, end):
        before = text[at - 1]
        separated = before in _SEP or (
            line_end and (before == "\n" or (before == "n" and text[at - 2] == "\\"))
        )
        if separated and shape.fullmatch(text, at, end):
            return at
    return None


def _shapes() -> list[tuple[str, str, bool]]:
    shapes = []
    for rule in RULES:
        build, args = rule._build, rule._args  # (how the rule is made, and from what)
        if build is rules._keyword_parts:
            shapes.append((rule.id, args[1], bool(args[5])))
        elif build is rules._pair_parts:
            shapes.append((rule.id, args[3], True))
    return shapes


SHAPES = _shapes()
PIECES = [
    *(" ", "\t", ":", "=", "|", "*", '"', "'", "`", ",", "(", "[", "{", ">", "\n", "\\n", "\u2192"),
    *("a", "Z", "0", "9", "-", "_", ".", "/", "+", "=", "key", "token", "********"),
    *("0123456789abcdef", "AKIAIOSFODNN7EXAMPLE", "Kx8zQ4hakb6oDwLjhdvDcir5iT", "xoxb-"),
]


SEPARATORS = [" ", "=", ": ", "|", "\n", "\\n", "'", "\u2192"]
ALPHABETS = [
    "0123456789abcdef",
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ALNUM := ("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ALNUM + "+/=-_.",
]


def _value_like(rng: random.Random) -> str:
    """A run as keys are written: hexadecimal, capitals, letters and digits, base64's."""
    alphabet = rng.choice(ALPHABETS)
    return "".join(rng.choices(alphabet, k=rng.choice([8, 16, 20, 24, 32, 36, 40, 43, 64, 80])))


def test_every_keyword_and_pair_rule_is_read() -> None:
    assert len(SHAPES) > 40


@pytest.mark.parametrize(("rule_id", "value", "line_end"), SHAPES, ids=[s[0] for s in SHAPES])
def test_the_value_starts_where_the_first_separated_shape_runs_to_the_end(
    rule_id: str, value: str, line_end: bool
) -> None:
    rng = random.Random(rule_id)
    tail = _value_tail(value, line_end=line_end)
    for _ in range(300):
        text = "name" + "".join(rng.choices(PIECES, k=rng.randint(0, 8)))
        text += rng.choice(SEPARATORS) + _value_like(rng)
        value_end = len(text)  # (where a match of the rule would end)
        text += "".join(rng.choices(PIECES, k=2))
        for end in {value_end, len(text), rng.randint(5, len(text))}:
            expected = _reference(value, text, 3, end, line_end)
            assert _value_start(tail, text, 3, end) == expected, (text, end)
