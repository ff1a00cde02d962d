"""Document text made safe for a terminal, a log and a CI annotation: every character that
could move the cursor, end a line, recolour the screen, open a link (OSC 8) or reorder what
is shown (bidi controls) is written as a visible escape, so one finding is always one line
and a member name cannot forge a workflow command or a "valid" line.

Escaped: C0 controls and DEL, C1 controls, U+2028 and U+2029, the bidi embeddings,
overrides, isolates and marks, and the zero-width characters that hide text. Everything
else, other scripts and emoji included, is kept as it is."""

from __future__ import annotations

import functools
import re

# Compiled on first use (`_pattern`): most text a run prints is printable ASCII, which holds
# none of these, so a linter's run of a valid file never compiles them.
_UNSAFE = (
    "["
    "\x00-\x1f\x7f-\x9f"  # C0, DEL, C1
    "\u00ad"  # soft hyphen (invisible)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u200b-\u200d\u2060\ufeff"  # zero-width space, joiners, word joiner, BOM
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates, as a document's member names can hold
    "]"
)
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1b": "\\e"}


def escaped(match: re.Match[str]) -> str:
    """The escape `visible` writes for the one character ``match`` holds: for a caller that
    finds the characters to escape with a pattern of its own (a page's controls)."""
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every unsafe character written as an escape (``\\n``, ``\\e``,
    ``\\x9b``, ``\\u202e``); linear in its length."""
    if text.isascii() and text.isprintable():  # the usual text: nothing to escape, found in C
        return text
    return _pattern(_UNSAFE).sub(escaped, text)


# In JSON text, every control character inside a string is escaped already and the only ones
# outside are the indentation's newlines: the rest of the unsafe set is what is left to escape.
_UNSAFE_IN_JSON = (
    "[\x7f-\x9f\u00ad\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u200b-\u200d\u2060\ufeff\u2028\u2029\ud800-\udfff]"
)


def visible_json(value: object, *, indent: int | None = None) -> str:
    """``value`` as JSON text with non-ASCII kept, and every unsafe character `visible`
    escapes written as a JSON escape (``\\u2028``): the same JSON value, which no viewer,
    terminal or model shows as a line break or reordered text."""
    import json

    text = json.dumps(value, ensure_ascii=False, indent=indent)
    if text.isascii():  # every character of the set is beyond ASCII
        return text
    return _pattern(_UNSAFE_IN_JSON).sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# The C0 controls but tab, line feed and carriage return, DEL, and the C1 controls: what a page
# writes as escapes (app/web/templating.py). In UTF-8 a C0 control or DEL is its own byte, which
# deleting every other byte leaves, and a C1 control is 0xC2 and a byte from 0x80 to 0x9F: both
# found in C, where a regular expression over a page's characters took 4.9 ms for 770 KB.
_NOT_RAW_CONTROL = bytes(
    b for b in range(256) if not ((b < 0x20 and b not in b"\t\n\r") or b == 0x7F)
)
_RAW_C1 = b"\xc2[\x80-\x9f]"  # compiled (by re's cache) for text holding a 0xC2 byte


def holds_controls(data: bytes) -> bool:
    """Whether the UTF-8 text ``data`` holds one of those controls."""
    if data.translate(None, _NOT_RAW_CONTROL):
        return True
    return b"\xc2" in data and re.search(_RAW_C1, data) is not None


@functools.cache
def _pattern(characters: str) -> re.Pattern[str]:
    return re.compile(characters)


def may_decode_to_controls(data: bytes) -> bool:
    """Whether the strings of the JSON text ``data`` may decode to one of those controls: it
    holds an escape that makes one (``\\u00XX``, ``\\b``, ``\\f``) or the control itself
    (DEL and the C1 controls may stand raw in a JSON string; a C0 control only in text that
    does not parse). False is certain; True only may be (``\\u00e9`` has the same shape)."""
    return b"\\u00" in data or b"\\b" in data or b"\\f" in data or holds_controls(data)
