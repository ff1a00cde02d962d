"""Where a JSON Pointer's value sits in the submitted text, found only for the paths asked.

Recording the offset of every value while parsing would cost memory on every document;
findings are few, so the locator reads the text once per lint, descending only into the
members and elements that lead to a requested path and skipping everything else. One pass
for every path, with an explicit stack: no recursion, whatever the depth, and no pointer built
for a place: each step of the requested paths knows the pointer that ends there.

Regular expressions do the reading, in C, as far as they can: one match reads a run of up to
8 members whose values are scalars (or 16 such elements) and the bracket that may close the
container after them, and Python only looks their names up; one match steps over a container
nobody asked into (up to 4 deep and 64 wide: past that, the C decoder, as fast), and over the
rest of an array once no element left is asked for. A document of thousands of findings
(bench/worst.py many-codes) costs Python a few steps for each container a path enters, not
one for each token.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from json.decoder import JSONDecoder

from app.parse import scanstring

_WS = r"[ \t\n\r]*+"
# Whitespace in what is stepped over: a newline and an indent (as pretty-printed JSON has
# them) in the regular expression engine's fastest loops, one character each; then any other.
# A run of blank lines costs a fifth of what the class of four characters costs.
_GAP = r"\n*+ *+[ \t\n\r]*+"
# Between the strings and brackets of a container stepped over.
_BETWEEN = r'[^"{}\[\]\n]*+(?:\n++ *+[^"{}\[\]\n]*+)*+'
# A string. The scan for the next quote is the engine's fastest loop; that quote ends the
# string unless a backslash is before it, and only then is the string read escape by escape
# (the class of two characters that does it costs five times as much a character).
_STRING = r'"(?:[^"]*+(?<!\\)"|[^"\\]*+(?:\\.[^"\\]*+)*+")'
# A scalar as the member and element readers take one: a string, or a run of what numbers,
# true, false and null are made of.
_SCALAR = rf"(?:{_STRING}|[-+.0-9A-Za-z]++)"
_MEMBERS_AT_ONCE = 8
_MEMBER_GROUPS = 2 * _MEMBERS_AT_ONCE
_ELEMENTS_AT_ONCE = 16
_DEPTH, _WIDTH = 4, 64  # the largest container one match steps over


def _container(depth: int, width: int) -> str:
    """A container nested at most ``depth`` deep, of at most ``width`` strings and containers at
    each level, brackets balanced and strings whole. It does not check the brackets' kinds or
    what is between them: the text has parsed, and where it has not, the token skip (`_skip`)
    reads it the same way (the same end, or no match and the skip)."""
    inner = container = _STRING
    for _ in range(depth):
        container = rf"[\[{{]{_BETWEEN}(?:{inner}{_BETWEEN}){{0,{width}}}+[\]}}]"
        inner = f"(?:{_STRING}|{container})"
    return container


def _members(count: int) -> str:
    """Up to ``count`` members: each a name without an escape (group 2i+1) and, when its value is
    a scalar, an empty group where the value starts (2i+2); the comma after it. The run stops
    before a member whose value is not a scalar (the match ends at that value, unless a brace
    is there) or that is not a plain member (a name with an escape); then a closing brace is
    group 2n+1. Every part is optional: it always matches."""
    pattern = ""
    for _ in range(count):
        more = f"{pattern}?+" if pattern else ""
        pattern = rf'(?:{_WS}"([^"\\]*+)"{_WS}:{_WS}(?:(){_SCALAR}{_WS},?{more})?+)'
    return rf"{pattern}?+{_WS}(?:(\}}){_WS},?{_WS})?+"


def _elements(count: int) -> str:
    """Up to ``count`` scalar elements, an empty group where each starts (group i) and the comma
    after it, and the bracket that may close the array after them (group n+1)."""
    pattern = ""
    for _ in range(count):
        more = f"{pattern}?+" if pattern else ""
        pattern = rf"(?:{_WS}(){_SCALAR}{_WS},?{more})"
    return rf"{pattern}?+{_WS}(?:([\]}}]){_WS},?{_WS})?+"


# Match functions of patterns that always match (every part optional).
_Reader = Callable[[str, int], re.Match[str]]


class _Readers:
    """The patterns, compiled on the first reading (some milliseconds): a process that never
    places a finding never pays for them."""

    def __init__(self) -> None:
        container = _container(_DEPTH, _WIDTH)
        self.members: _Reader = re.compile(_members(_MEMBERS_AT_ONCE), re.DOTALL).match  # type: ignore[assignment]
        self.elements: _Reader = re.compile(_elements(_ELEMENTS_AT_ONCE), re.DOTALL).match  # type: ignore[assignment]
        # a container nobody asked into, with the comma after it
        self.skip = re.compile(rf"{container}{_GAP},?{_GAP}", re.DOTALL).match
        # the elements left in an array
        rest = rf"(?:{_GAP}(?:{_SCALAR}|{container}){_GAP},?)*+{_GAP}"
        self.rest: _Reader = re.compile(rest, re.DOTALL).match  # type: ignore[assignment]


_readers = cache(_Readers)
_AFTER: _Reader = re.compile(rf"{_WS},?{_WS}").match  # type: ignore[assignment]
_WHITESPACE: _Reader = re.compile(r"[ \t\n\r]*").match  # type: ignore[assignment]
# Inside a container being skipped token by token, only strings and brackets matter.
_SKIP_TOKEN = re.compile(rf"{_STRING}|[\[\]{{}}]", re.DOTALL)
_SCALAR_END: _Reader = re.compile(rf"{_STRING}|[^,\]}} \t\n\r]*", re.DOTALL).match  # type: ignore[assignment]
_INVALID_ESCAPE = re.compile(r"~(?![01])")

_DECODER = JSONDecoder()


class _Step:
    """A token of the requested paths that leads on: the pointer that ends here (if one was
    asked) and the tokens that follow, each a step or, where no path goes further (the
    rule), just the pointer that ends there."""

    __slots__ = ("next", "pointer")

    def __init__(self, pointer: str | None = None) -> None:
        self.pointer = pointer
        self.next: dict[str, _Step | str] = {}


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
    """Offset in ``text`` of the value at each pointer that resolves. The reading stops once
    every pointer is found: a report lists the first thousand findings of a code, which a
    document's first hundred kilobytes may hold all of."""
    root, wanted = _steps(dict.fromkeys(pointers))
    found: dict[str, int] = {}
    _read(text, _WHITESPACE(text, 0).end(), root, found, _readers(), wanted)
    return found


def _steps(pointers: Iterable[str]) -> tuple[_Step, int]:
    """The requested paths as a tree of tokens, and how many pointers it holds (each distinct
    one once). The step a pointer's parent ends at is found by the parent's text, and made from
    the grandparent's when new: a pointer costs a split and a lookup or two (the rule: the
    evidence of one statement, the uri of one resource)."""
    held = 0
    root = _Step()
    heads: dict[str, _Step] = {"": root}
    invalid = _INVALID_ESCAPE.search
    for pointer in pointers:
        if pointer[:1] != "/" or ("~" in pointer and invalid(pointer)):
            if not pointer:
                root.pointer = pointer
                held += 1
            continue  # not a pointer, or an escape RFC 6901 does not define ("~2")
        head, _, token = pointer.rpartition("/")
        parent = heads.get(head)
        if parent is None:
            up, _, name = head.rpartition("/")
            above = heads.get(up)
            parent = heads[head] = _inner(above or _head(up, heads), name)
        if "~" in token:
            token = token.replace("~1", "/").replace("~0", "~")
        following = parent.next.get(token)
        if isinstance(following, _Step):
            following.pointer = pointer
        else:
            parent.next[token] = pointer
        held += 1  # (distinct pointers name distinct places: "/" and "~" have one escape each)
    return root, held


def _inner(step: _Step, raw: str) -> _Step:
    """The step that the token written ``raw`` leads to from ``step``, made (or made from a leaf)
    if need be."""
    token = raw.replace("~1", "/").replace("~0", "~") if "~" in raw else raw
    following = step.next.get(token)
    if isinstance(following, _Step):
        return following
    made = step.next[token] = _Step(following)
    return made


def _head(pointer: str, heads: dict[str, _Step]) -> _Step:
    """The step ``pointer`` (valid, not in ``heads``) ends at, made with those on the way."""
    path = [pointer]
    head = pointer.rpartition("/")[0]
    while head not in heads:
        path.append(head)
        head = head.rpartition("/")[0]
    step = heads[head]
    for pointer in reversed(path):
        step = heads[pointer] = _inner(step, pointer[len(head) + 1 :])
        head = pointer
    return step


def _read(
    text: str, pos: int, root: _Step, out: dict[str, int], readers: _Readers, wanted: int
) -> None:
    """Record the offset of each requested value, reading from ``pos`` to the end of the value
    there, or until ``wanted`` values are found. The container being read is ``parent``: an
    object, or an array whose ``index``-th
    element is next and at most ``left`` of whose tokens are still to be found (each token
    names one element at most, and the rule is that each names one: none left, the rest is
    stepped over); the containers around it wait on ``stack``. ``step`` is what the value at
    ``pos`` is, when a path names it."""
    members, elements = readers.members, readers.elements
    stack: list[tuple[_Step, bool, int, int]] = []
    parent, in_object, index, left = root, False, 0, 0
    step: _Step | str | None = root
    while len(out) < wanted:
        if step is not None:
            # a value at ``pos`` that a path names: record it, and go in or past it
            if isinstance(step, str):
                out[step] = pos
                pos = _past(text, pos, readers)
            else:
                if step.pointer is not None:
                    out[step.pointer] = pos
                char = text[pos : pos + 1]
                if char == "{":
                    stack.append((parent, in_object, index, left))
                    parent, in_object = step, True
                    pos += 1
                elif char == "[":
                    stack.append((parent, in_object, index, left))
                    parent, in_object, index, left = step, False, 0, len(step.next)
                    pos += 1
                elif not stack:
                    return
                else:
                    pos = _past(text, pos, readers)
            step = None
        following = parent.next
        if in_object:
            match = members(text, pos)
            groups = match.groups()
            # a name and (its value a scalar) a mark for each member read, then the closing
            # brace: the first None says where the run stopped
            stop = _MEMBER_GROUPS if groups[_MEMBER_GROUPS - 1] is not None else groups.index(None)
            for group in range(0, stop - 1, 2):
                # a scalar: nothing inside it; record it if asked
                found = following.get(groups[group])
                if found is not None:
                    if isinstance(found, str):
                        out[found] = match.start(group + 2)
                    elif found.pointer is not None:
                        out[found.pointer] = match.start(group + 2)
            if stop & 1:
                # a member whose value is not a scalar: go in if asked, or past it
                pos = match.end() if groups[-1] is None else match.start(_MEMBER_GROUPS + 1)
                step = following.get(groups[stop - 1])
                if step is None:
                    pos = _past(text, pos, readers)
                continue
            pos = match.end()
            if groups[-1] is None:
                if stop == _MEMBER_GROUPS:
                    continue  # as many members as one match reads: more may follow
                # a member name with an escape: the decoder reads it
                token, pos = scanstring(text, pos + 1, True)
                pos = _WHITESPACE(text, _WHITESPACE(text, pos).end() + 1).end()  # past ':'
                step = following.get(token)
                if step is None:
                    pos = _past(text, pos, readers)
                continue
        elif left:
            if text[pos : pos + 1] not in ("{", "["):
                match = elements(text, pos)
                groups = match.groups()
                count = groups.index(None) if groups[-2] is None else _ELEMENTS_AT_ONCE
                for number in range(count):
                    found = following.get(str(index + number))
                    if found is not None:
                        left -= 1
                        if isinstance(found, str):
                            out[found] = match.start(number + 1)
                        elif found.pointer is not None:
                            out[found.pointer] = match.start(number + 1)
                index += count
                pos = match.end()
                if groups[-1] is not None:
                    # the array is read: back to the container around it
                    parent, in_object, index, left = stack.pop()
                    if not stack:
                        return
                    continue
                if count == _ELEMENTS_AT_ONCE:
                    continue  # as many elements as one match reads: more may follow
                if not text[pos : pos + 1]:
                    return  # the text ends inside the array: nothing after it to find
            # an element that is not a scalar: go in if asked, or past it
            step = following.get(str(index))
            index += 1
            if step is None:
                pos = _past(text, pos, readers)
            else:
                left -= 1
            continue
        else:
            # no element asked for is left: step over the rest
            pos = _rest(text, pos, readers)
            if not text[pos : pos + 1]:
                return
            pos = _AFTER(text, pos + 1).end()
        # the container is read: back to the one around it
        parent, in_object, index, left = stack.pop()
        if not stack:
            return


def token_end(text: str, offset: int) -> int:
    """The end of the token a value starts with at ``offset``: a whole string, number or
    literal, or the opening bracket of a container (a report's region for a finding: the
    value itself when it is a scalar, its first character when it is an object or array,
    whose extent would cost a read of all of it for each finding inside)."""
    if text[offset : offset + 1] in ("{", "["):
        return offset + 1
    return max(_skip(text, offset), offset + 1)


def _rest(text: str, pos: int, readers: _Readers) -> int:
    """The closing bracket of an array whose elements from ``pos`` on nobody asked for (or the
    end of the text): one match, and the decoder for an element too large for it."""
    while True:
        pos = readers.rest(text, pos).end()
        if text[pos : pos + 1] in ("]", "}", ""):
            return pos
        pos = _AFTER(text, _skip(text, pos)).end()


def _past(text: str, pos: int, readers: _Readers) -> int:
    """Past the value that starts at ``pos``, and the comma after it."""
    if text[pos : pos + 1] in ("{", "["):
        match = readers.skip(text, pos)
        if match is not None:
            return match.end()
    return _AFTER(text, _skip(text, pos)).end()


def _skip(text: str, pos: int) -> int:
    """The end of the value starting at ``pos``."""
    if text[pos : pos + 1] not in ("{", "["):
        return _SCALAR_END(text, pos).end()
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
