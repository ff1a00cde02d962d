"""Where a JSON Pointer's value sits in the submitted text, found only for the paths asked.

Recording the offset of every value while parsing would cost memory on every document;
findings are few, so the locator walks the text once per lint, descending only into the
members and elements that lead to a requested path and skipping everything else with a
regular expression that steps from string to bracket.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from json.decoder import JSONDecoder

from app.parse import line_col, scanstring
from app.pointer import parse_pointer

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# Inside a container being skipped, only strings and brackets matter.
_SKIP_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_SCALAR_END = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[^,\]} \t\n\r]*', re.DOTALL)

_DECODER = JSONDecoder()

Trie = dict[str, "Trie"]


def locate(text: str, pointers: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Line and column of the value at each pointer that exists in ``text``, a document that
    has already parsed. Pointers that do not resolve are left out."""
    return {pointer: line_col(text, offset) for pointer, offset in offsets(text, pointers).items()}


def offsets(text: str, pointers: Iterable[str]) -> dict[str, int]:
    """Offset in ``text`` of the value at each pointer that resolves."""
    trie: Trie = {}
    wanted: set[str] = set()
    for pointer in pointers:
        try:
            tokens = parse_pointer(pointer)
        except ValueError:
            continue
        wanted.add(pointer)
        node = trie
        for token in tokens:
            node = node.setdefault(token, {})
    found: dict[str, int] = {}
    start = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
    _walk(text, start, "", trie, wanted, found)
    return found


def _walk(
    text: str, pos: int, pointer: str, trie: Trie, wanted: set[str], out: dict[str, int]
) -> int:
    """Record ``pos`` if wanted, descend where the trie leads; return the end of the value."""
    if pointer in wanted:
        out[pointer] = pos
    char = text[pos : pos + 1]
    if not trie or char not in ("{", "["):
        return _skip(text, pos)
    pos += 1
    index = 0
    closer = "}" if char == "{" else "]"
    while True:
        pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos : pos + 1] == closer:
            return pos + 1
        if closer == "}":
            key, pos = scanstring(text, pos + 1, True)
            pos = _WHITESPACE.match(text, pos).end() + 1  # type: ignore[union-attr]  # past ':'
            pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
            token = key
        else:
            token = str(index)
            index += 1
        child = trie.get(token)
        if child is not None:
            escaped = token.replace("~", "~0").replace("/", "~1")
            pos = _walk(text, pos, f"{pointer}/{escaped}", child, wanted, out)
        else:
            pos = _skip(text, pos)
        pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos : pos + 1] == ",":
            pos += 1


def _skip(text: str, pos: int) -> int:
    """The end of the value starting at ``pos``."""
    if text[pos : pos + 1] not in ("{", "["):
        return _SCALAR_END.match(text, pos).end()  # type: ignore[union-attr]
    try:
        # The C decoder steps over a container many times faster than a loop over its
        # tokens; building the value and dropping it is cheaper still than the loop.
        return _DECODER.raw_decode(text, pos)[1]
    except (ValueError, RecursionError):
        pass  # text the strict parser reported on: step through it token by token
    depth = 0
    for match in _SKIP_TOKEN.finditer(text, pos):
        token = match.group()
        if token in ("{", "["):
            depth += 1
        elif token in ("}", "]"):
            depth -= 1
            if depth == 0:
                return match.end()
    return len(text)
