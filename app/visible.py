"""Document text made safe for a terminal, a log and a CI annotation: every character that
could move the cursor, end a line, recolour the screen, open a link (OSC 8) or reorder what
is shown (bidi controls) is written as a visible escape, so one finding is always one line
and a member name cannot forge a workflow command or a "valid" line.

Escaped: C0 controls and DEL, C1 controls, U+2028 and U+2029, the bidi embeddings,
overrides, isolates and marks, and the zero-width characters that hide text. Everything
else, other scripts and emoji included, is kept as it is."""

from __future__ import annotations

import re

_UNSAFE = re.compile(
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


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every unsafe character written as an escape (``\\n``, ``\\e``,
    ``\\x9b``, ``\\u202e``); linear in its length."""
    return _UNSAFE.sub(_escape, text)


# In JSON text, every control character inside a string is escaped already and the only ones
# outside are the indentation's newlines: the rest of the unsafe set is what is left to escape.
_UNSAFE_IN_JSON = re.compile(
    "[\x7f-\x9f\u00ad\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u200b-\u200d\u2060\ufeff\u2028\u2029\ud800-\udfff]"
)


def visible_json(value: object, *, indent: int | None = None) -> str:
    """``value`` as JSON text with non-ASCII kept, and every unsafe character `visible`
    escapes written as a JSON escape (``\\u2028``): the same JSON value, which no viewer,
    terminal or model shows as a line break or reordered text."""
    import json

    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
