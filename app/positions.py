"""Where a JSON Pointer's value sits in the submitted text, found only for the paths asked.

Recording the offset of every value while parsing would cost memory on every document;
findings are few, so the locator reads the text once per lint, descending only into the
members and elements that lead to a requested path and skipping everything else (a
container in one step of the C decoder). One pass for every path, with an explicit stack: no
recursion, whatever the depth, and no pointer built for a place: each step of the requested
paths knows the pointer that ends there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from json.decoder import JSONDecoder

from app.parse import scanstring
from app.pointer import escape_token, parse_pointer

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# Inside a container being skipped, only strings and brackets matter.
_SKIP_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_SCALAR_END = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[^,\]} \t\n\r]*', re.DOTALL)
# A member whose name has no escape (the rule), up to its value; a scalar value with the
# whitespace and comma after it (group 2). One match a member, where reading it token by token
# took four; a name with an escape, or a closing bracket, does not match.
_SCALAR = r'(?:("[^"\\]*(?:\\.[^"\\]*)*"|[-+.0-9A-Za-z]+)[ \t\n\r]*,?)?'
_MEMBER = re.compile(r'[ \t\n\r]*"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*' + _SCALAR)
# An array element up to its value, a scalar one with what follows it (group 1); empty
# before a container or the closing bracket.
_ELEMENT = re.compile(r"[ \t\n\r]*" + _SCALAR)

_DECODER = JSONDecoder()


class _Step:
    """A token of the requested paths: the pointer that ends here (if one was asked) and the
    tokens that lead on."""

    __slots__ = ("next", "pointer")

    def __init__(self) -> None:
        self.pointer: str | None = None
        self.next: dict[str, _Step] = {}


def locate(text: str, pointers: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Line and column of the value at each pointer that exists in ``text``, a document that
    has already parsed. Pointers that do not resolve are left out."""
    found = offsets(text, pointers)
    places = line_cols(text, found.values())
    return {pointer: places[offset] for pointer, offset in found.items()}


def line_cols(text: str, offsets: Iterable[int]) -> dict[int, tuple[int, int]]:
    """1-based line and column (in code points) of each offset, from one pass over the text
    up to the last: the newlines between one offset and the next are counted in C, and no
    table of line starts is kept (a document of 3 million lines would make one that long)."""
    out: dict[int, tuple[int, int]] = {}
    line, pos, line_start = 1, 0, 0
    for offset in sorted(set(offsets)):
        newlines = text.count("\n", pos, offset)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", pos, offset) + 1
        pos = offset
        out[offset] = (line, offset - line_start + 1)
    return out


def offsets(text: str, pointers: Iterable[str]) -> dict[str, int]:
    """Offset in ``text`` of the value at each pointer that resolves."""
    root = _steps(pointers)
    found: dict[str, int] = {}
    start = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]
    _read(text, start, root, found)
    return found


def _steps(pointers: Iterable[str]) -> _Step:
    root = _Step()
    for pointer in pointers:
        try:
            tokens = parse_pointer(pointer)
        except ValueError:
            continue
        if "~" in pointer and "".join("/" + escape_token(t) for t in tokens) != pointer:
            continue  # an escape RFC 6901 does not define ("~2"): it names nothing
        step = root
        for token in tokens:
            following = step.next.get(token)
            if following is None:
                following = step.next[token] = _Step()
            step = following
        step.pointer = pointer
    return root


def _read(text: str, pos: int, root: _Step, out: dict[str, int]) -> None:
    """Record the offset of each requested value, reading from ``pos`` to the end of the value
    there: a stack of (step, closer, next index) for the containers open on the way."""
    ws = _WHITESPACE.match
    stack: list[tuple[_Step, str, int]] = []
    step = root
    while True:
        # a value at ``pos`` that ``step`` names
        if step.pointer is not None:
            out[step.pointer] = pos
        char = text[pos : pos + 1]
        if step.next and char in ("{", "["):
            stack.append((step, "}" if char == "{" else "]", 0))
            pos += 1
        else:
            if not stack:
                return
            pos = _after(text, _skip(text, pos))
        # the next member or element of the innermost open container that a path leads to
        while True:
            parent, closer, index = stack[-1]
            if closer == "}":
                match = _MEMBER.match(text, pos)
                if match is not None:
                    token = match.group(1)
                    scalar = match.group(2) is not None
                    start = match.start(2) if scalar else match.end()
                else:
                    pos = ws(text, pos).end()  # type: ignore[union-attr]
                    if text[pos : pos + 1] == "}":
                        pos = _close(text, pos, stack)
                        if not stack:
                            return
                        continue
                    # a member name with an escape: the decoder reads it
                    token, pos = scanstring(text, pos + 1, True)
                    pos = ws(text, pos).end() + 1  # type: ignore[union-attr]  # past ':'
                    start = ws(text, pos).end()  # type: ignore[union-attr]
                    scalar = False
            else:
                match = _ELEMENT.match(text, pos)
                assert match is not None  # it matches the empty string
                scalar = match.group(1) is not None
                start = match.start(1) if scalar else match.end()
                if not scalar and text[start : start + 1] == "]":
                    pos = _close(text, start, stack)
                    if not stack:
                        return
                    continue
                token = str(index)
                stack[-1] = (parent, closer, index + 1)
            following = parent.next.get(token)
            if scalar:
                # nothing inside a scalar: record it if asked and read on past its comma
                if following is not None and following.pointer is not None:
                    out[following.pointer] = start
                pos = match.end()  # type: ignore[union-attr]
            elif following is not None:
                step, pos = following, start
                break
            else:
                pos = _after(text, _skip(text, start))


def _after(text: str, pos: int) -> int:
    """Past the whitespace and the comma after a value that ends at ``pos``."""
    pos = _WHITESPACE.match(text, pos).end()  # type: ignore[union-attr]
    return pos + 1 if text[pos : pos + 1] == "," else pos


def _close(text: str, pos: int, stack: list[tuple[_Step, str, int]]) -> int:
    """Past the closing bracket at ``pos`` (and a comma after it): the container is read."""
    stack.pop()
    return _after(text, pos + 1)


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
