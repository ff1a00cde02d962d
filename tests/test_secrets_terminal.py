"""A terminal's escape sequences are found alike by both their regexes: the whole one
(`TERMINAL_SEQUENCE`, whose sequences start with an ESC or a BEL) and the one used where a
text holds no BEL (`_ESC_SEQUENCE`, led by the ESC alone, which `re` skips to in C)."""

import random

from app.secrets import scan_text
from app.secrets.detectors import (
    _ESC_SEQUENCE,
    TERMINAL_SEQUENCE,
    _terminal_piece,
    _without_sequences,
    terminal_sequences,
)

PIECES = [
    *("\x1b", "\x1b[", "\x1b[0m", "\x1b[1;32m", "\x1b[38;5;196m", "\x1b[?25l", "\x1b[ q"),
    *("\x1b]", "\x1b]8;;https://x/", "\x1b]8;id=1;", "\x1b]0;", "\x1b]12345", "\x1b\\", "\x1b\x1b"),
    *("[", "]", "8;", ";", "0", "m", "\\", "\x1e", " ", "\n", "a", "password: ", "ghp_"),
]


def _sequences(pattern: object, text: str) -> list[tuple[int, int, bool]]:
    return [
        (m.start(), m.end(), m.group("framing") is not None)
        for m in pattern.finditer(text)  # type: ignore[attr-defined]
    ]


def test_without_a_bel_both_regexes_find_the_same_sequences() -> None:
    rng = random.Random(31)
    for _ in range(3000):
        text = "".join(rng.choices(PIECES, k=rng.randint(1, 30)))
        assert _sequences(_ESC_SEQUENCE, text) == _sequences(TERMINAL_SEQUENCE, text), text


def test_a_text_holding_a_bel_is_read_by_the_whole_regex() -> None:
    text = "\x1b]0;build\x07 done \x1b[0m"
    assert terminal_sequences(text) is TERMINAL_SEQUENCE
    assert terminal_sequences("\x1b[0m done") is _ESC_SEQUENCE
    assert _sequences(TERMINAL_SEQUENCE, text) == [(0, 4, True), (9, 10, True), (16, 20, False)]


def test_a_token_between_colours_is_found_in_a_long_output_and_a_short_one() -> None:
    token = "ghp_" + "Zq7XbN9wLm4Kp8Rt3Vz6YcQeHs2Jd5Fg1Au0"
    line = f"\x1b[1;32mGITHUB_TOKEN=\x1b[0m{token}\x1b[0m\n"
    filler = "\x1b[2mstep ok\x1b[0m\n" * 2000
    for text in (line, filler + line + filler):
        assert [text[a:b] for a, b, _ in scan_text(text)] == [token]


def test_a_text_is_read_without_its_sequences_alike_with_framing_or_none() -> None:
    """A link's or a title's framing read as a space, any other sequence as nothing: in C where
    a text holds no framing, by the pieces' callback where it does."""
    rng = random.Random(37)
    for _ in range(3000):
        text = "".join(rng.choices([*PIECES, "\x07"], k=rng.randint(1, 30)))
        assert _without_sequences(text) == TERMINAL_SEQUENCE.sub(_terminal_piece, text), text
