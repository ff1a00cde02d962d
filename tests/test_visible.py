"""`visible`: what a document holds reaches a terminal or a CI log as plain characters."""

import json
import re

import pytest

from app.visible import holds_controls, may_decode_to_controls, visible
from tests.conftest import BLNS

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f]")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\nb", "a\\nb"),
        ("a\r\nb", "a\\r\\nb"),
        ("\x1b[2J", "\\e[2J"),
        (
            "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
            "\\e]8;;https://evil.example\\x07click\\e]8;;\\x07",
        ),
        ("\x9b31m", "\\x9b31m"),
        ("x\u2028y\u2029z", "x\\u2028y\\u2029z"),
        ("abc\u202edcba", "abc\\u202edcba"),
        ("\u2066isolate\u2069", "\\u2066isolate\\u2069"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("del\x7f", "del\\x7f"),
        ("tab\there", "tab\\there"),
    ],
)
def test_controls_become_visible_escapes(raw, shown):
    assert visible(raw) == shown
    assert not CONTROL.search(visible(raw))


def test_text_people_write_is_kept():
    text = "Prüfung: 請求書 #42 — «ok» 😀 ∑ ‘quoted’ \\ backslash"
    assert visible(text) == text


def test_lone_surrogates_are_escaped_not_crashing():
    assert visible("a\ud800b") == "a\\ud800b"


def test_every_escaped_character_is_one_python_calls_unprintable():
    # The text report skips `visible` for text that str.isprintable() accepts (app/report.py):
    # that holds only while nothing it escapes is printable.
    escaped = [chr(c) for c in range(0x110000) if visible(chr(c)) != chr(c)]
    assert len(escaped) > 2000  # the surrogates, the controls and the marks
    assert [hex(ord(c)) for c in escaped if c.isprintable()] == []


def test_the_text_reports_quick_check_agrees_with_visible():
    # app/report.py decides in C whether a whole report needs `visible`; it must say so
    # exactly when visible() would change something.
    import json

    from app.report import _nothing_to_escape
    from tests.test_secrets import BLNS

    samples = [s for s in json.loads(BLNS.read_text(encoding="utf-8")) if isinstance(s, str)]
    samples += [chr(c) for c in range(0x3000)] + ["plain §6.4 text", "é\u00ad", "日本\u202e", ""]
    wrong = [s for s in samples if _nothing_to_escape(s) != (visible(s) == s)]
    assert len(samples) > 12000
    assert wrong == []


_A_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def test_a_json_text_that_may_decode_to_a_control_is_never_missed() -> None:
    """False must be certain: a page of such a document is not searched for controls. Every
    naughty string, as JSON text with and without ASCII escapes, in a value and a name."""
    strings = [*json.loads(BLNS.read_text()), "\x1b[2J", "\x7f", "\x85", "\b\f", "tab\tok"]
    for s in strings:
        for ascii_only in (True, False):
            data = json.dumps({s: s}, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
            if _A_CONTROL.search(s):
                assert may_decode_to_controls(data), s
    assert not may_decode_to_controls(b'{"a": "plain text, caf\xc3\xa9 \xc2\xa7 \xe2\x80\x94\\n"}')
    assert holds_controls(b"raw \x1b in text that did not parse")


def test_printable_ascii_is_kept_and_every_other_ascii_character_decided_alike():
    """`visible` keeps printable ASCII without its regular expression (most of what a run
    prints): every ASCII character alone and amid text reads as the full check reads it."""
    for code in range(128):
        char = chr(code)
        shown = visible(f"a{char}b")
        if char.isprintable():
            assert shown == f"a{char}b"
        else:
            assert shown.startswith("a\\") and shown.endswith("b") and char not in shown[1:-1]
    assert visible("ok\tthen") == "ok\\tthen" and visible("C1 \x9b") == "C1 \\x9b"


def test_c1_controls_in_utf8_are_found_after_the_byte_check():
    assert holds_controls("x\u009by".encode()) and not holds_controls("é ü".encode())
