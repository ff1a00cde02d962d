"""Strict intake: submitted bytes to a checkpoint document, or `json` findings that say why not.

A checkpoint must be an I-JSON message (RFC 7493) holding one object, encoded as UTF-8
(spec §3, field-model.md "Document format"). The standard library's parser is lenient where
I-JSON is strict (duplicate members, lone surrogates, NaN, huge numbers), so intake runs in
two gears:

* a fast path: ``json.loads`` with hooks that refuse anything suspicious (from 64 KB on,
  with none but NaN's, its dropped duplicates found by a count of colons), used when the text
  passes cheap pre-checks; it accepts nothing the strict parser would refuse, and
* the strict parser below, a small iterative recursive-descent parser that tracks the JSON
  Pointer and offset of every value, so each error names its line, column and path. It runs
  whenever the fast path declines, and is the single authority on what an error says.
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, repeat

from app import TYPE_CHECKING
from app.collector import CollectionPaused
from app.findings import Finding
from app.pointer import Path, to_pointer
from app.record import Record

if TYPE_CHECKING:
    from typing import Any, Final

    from app.findings import Severity

    # A parsed JSON object: member names to values of any JSON type. A checkpoint document
    # is one (spec §3), and so is each object inside it.
    JsonObject = dict[str, Any]
else:
    JsonObject = dict  # what importers name at run time; the type checker reads the line above
Document = JsonObject

# The standard library's string scanner, the one json.loads runs (C where available): it
# exists at run time in json.decoder, but typeshed does not declare it there.
ScanString = Callable[[str, int, bool], tuple[str, int]]  # (text, end, strict) -> (value, end)
scanstring: ScanString = json.decoder.scanstring  # type: ignore[attr-defined]

MIB = 1024 * 1024
MAX_SAFE_INTEGER = 2**53 - 1
# Past this many json findings the rest are dropped: one bad document must not yield a
# report larger than itself.
MAX_FINDINGS = 100


class Limits(Record):
    """How much intake reads: bytes, and nesting depth."""

    __slots__ = ("max_bytes", "max_depth")

    max_bytes: Final[int]
    max_depth: Final[int]

    def __init__(self, max_bytes: int = 5 * MIB, max_depth: int = 64) -> None:
        if max_bytes < 1:
            raise ValueError("max_bytes must be positive")
        # The position locator recurses along a pointer; keep far below Python's stack limit.
        if not 1 <= max_depth <= 512:
            raise ValueError("max_depth must be between 1 and 512")
        self.max_bytes = max_bytes
        self.max_depth = max_depth


DEFAULT_LIMITS = Limits()


class Intake(Record):
    """What intake made of the bytes. ``document`` is None when any `json` error was found."""

    __slots__ = ("document", "findings", "text", "verbatim")

    text: Final[str | None]  # the decoded text (None when it is not UTF-8)
    document: Final[Document | None]
    findings: Final[Sequence[Finding]]
    # The fast path's decoder (the standard library's, with hooks or without) read the whole
    # text into ``document``, which therefore holds every string of the text, in the text's
    # order, each once (no member was dropped as a duplicate): a later stage may read the
    # strings from the text instead of walking the document (the secret scan,
    # `app.secrets.scan_document`'s ``source``).
    verbatim: Final[bool]

    def __init__(
        self,
        text: str | None,
        document: Document | None,
        findings: Sequence[Finding] = (),
        verbatim: bool = False,
    ) -> None:
        self.text = text
        self.document = document
        self.findings = findings
        self.verbatim = verbatim

    @property
    def ok(self) -> bool:
        return self.document is not None


def parse(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Intake:
    if len(data) > limits.max_bytes:
        return _refuse(
            f"the document is larger than the limit of {limits.max_bytes:,} bytes; keep large "
            "content in resources the checkpoint references (spec §3, §6.4)"
        )
    if data.startswith(b"\xef\xbb\xbf"):
        return _refuse(
            "the document starts with a UTF-8 byte-order mark; save it as UTF-8 without a BOM"
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _refuse(
            "the document is UTF-16 (it starts with a byte-order mark); save it as UTF-8"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # Invalid bytes become lone surrogates U+DC80..U+DCFF, which the strict parser
        # reports at their place, with the path of the string or key they break.
        return _StrictParser(data.decode("utf-8", "surrogateescape"), limits, utf8=False).run()
    if _needs_strict_parser(data, text, limits):
        return _StrictParser(text, limits).run()
    try:
        with CollectionPaused():
            document = _decoded(data, text)
    except (ValueError, TypeError, RecursionError, _Decline):
        return _StrictParser(text, limits).run()
    if not isinstance(document, dict):
        return _StrictParser(text, limits).run()
    return Intake(text, document, verbatim=True)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in code points) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


# --- the fast path -------------------------------------------------------------------------


class _Decline(Exception):
    """The fast path saw something only the strict parser may judge."""


# From this size on a document is decoded by the standard library's decoder with no hooks (C,
# with no call into Python for each object and number), its duplicate members found by
# counting: a document of many small objects or many numbers paid a hook for each, 400 KB of
# arguments nested to the depth limit 21 ms against orjson's 12. Below it the same decoder
# with hooks: the count writes the document back with orjson, and importing orjson costs `ocp
# lint` some 9 ms once (it imports dataclasses), which a small document's hooks never cost.
# (orjson decodes 2 MB in 5.7 ms where the standard library takes 9.1, but its parser's
# buffers, freed before it returns, peak at 29 MB, 15 times the text, where the standard
# library's peak is what it returns, 5 MB: issue 2's bound on memory is 15 times the document.)
_UNHOOKED_FROM = 64 * 1024


def _decoded(data: bytes, text: str) -> object:
    """The value of well-formed JSON text, or an exception when only the strict parser may
    judge it (a ValueError for malformed text, `_Decline` for what it must report)."""
    if len(data) >= _UNHOOKED_FROM and not _escaped_colon(data):
        import orjson

        # (NaN and the infinities' words are declined by the constant hook, lone surrogates
        # were sent to the strict parser by the pre-checks)
        document = _unhooked(text)
        try:
            # (an integer past 2^53 - 1 is refused: the hooks send it to the strict parser,
            # which places its warning)
            written = orjson.dumps(document, option=orjson.OPT_STRICT_INTEGER)
        except orjson.JSONEncodeError:
            written = b""
        if written:
            # A member repeated in an object is one member of the decoded dict, which drops
            # the other's colon (and any its value holds): written back, the document holds
            # fewer colons than the text. Written back, its colons are its members' and its
            # strings' own; the text's are the same where it writes no colon as an escape.
            if written.count(b":") != data.count(b":"):
                raise _Decline
            # A float past the largest double is an infinity to the decoder, which orjson
            # writes as null: written back, the document holds more nulls than the text (or
            # as many more as its strings spell with an escape, "\u006eull": the hooks read
            # those).
            if b"null" not in written or written.count(b"null") == data.count(b"null"):
                return document
    return json.loads(
        text,
        object_pairs_hook=_unique_pairs,
        parse_constant=_decline,
        parse_float=_finite_float,
        parse_int=_safe_int,
    )


def _unhooked(text: str) -> object:
    """The standard library's decoder with no hook but that of NaN and the infinities' words (C,
    with no call into Python for each object or number)."""
    return json.loads(text, parse_constant=_decline)


def _escaped_colon(data: bytes) -> bool:
    """Whether the text may write a colon as an escape (``\\u003a``), which a document
    written back holds as a colon: one for each member a duplicate dropped, the counts would
    agree."""
    return b"\\" in data and (b"u003a" in data or b"u003A" in data)


def _unique_pairs(pairs: list[tuple[str, object]]) -> JsonObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Decline
    return obj


def _decline(_: str) -> object:
    raise _Decline


def _finite_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise _Decline
    return value


def _safe_int(literal: str) -> int:
    # 16 digits can pass 2**53 - 1: those need a warning with a path, which the strict
    # parser gives. Also keeps int() away from Python's 4300-digit conversion limit.
    if len(literal) > 15:
        raise _Decline
    return int(literal)


_NONCHARACTERS = "".join(
    [chr(c) for c in range(0xFDD0, 0xFDF0)]
    + [chr(plane * 0x10000 + low) for plane in range(17) for low in (0xFFFE, 0xFFFF)]
)
# The regular expressions of intake are compiled where first used (by re's cache): a document
# the fast path reads, the usual one, needs at most the two of its pre-checks.
_NONCHARACTER = f"[{re.escape(_NONCHARACTERS)}]"
# What the UTF-8 of every noncharacter holds, looked for in the bytes first (at memchr's speed:
# the regular expression tries each character, 14 ms for 400 KB of text past ASCII, curly
# quotes in a model's prose): U+FDD0-U+FDEF start EF B7, and U+nFFFE and U+nFFFF end BF BE and
# BF BF (no other character ends so but a few rare ones, which the expression then reads).
_NONCHARACTER_BYTES = (b"\xef\xb7", b"\xbf\xbe", b"\xbf\xbf")
# A \uD800-\uDFFF escape may be unpaired; a \uFxxx escape may be a noncharacter.
_SUSPICIOUS_ESCAPE = r"\\u[dDfF]"
_NOT_STRUCTURAL = bytes(sorted(set(range(256)) - set(b'"[]{}')))
_OPEN_CLOSE = bytes.maketrans(b"[{]}", b"(())")


def _needs_strict_parser(data: bytes, text: str, limits: Limits) -> bool:
    # (a backslash is looked for first: one byte is found at memchr's speed, two are not)
    if b"\\" in data and b"\\u" in data and re.search(_SUSPICIOUS_ESCAPE, text):
        return True
    if (
        not text.isascii()
        and any(map(data.__contains__, _NONCHARACTER_BYTES))
        and re.search(_NONCHARACTER, text)
    ):
        return True
    return _deeper_than(data, limits.max_depth)


# How many times at most the innermost brackets are taken away before the depth is counted.
_PEELS = 8


def _deeper_than(data: bytes, limit: int) -> bool:
    """Whether well-formed JSON nests deeper than ``limit``, at C speed. The brackets outside
    strings are kept (`_brackets`); a document of the usual depth is then peeled, each
    innermost pair taken away in one pass of `bytes.replace`, a level or two a pass (the
    pairs of brackets first, then those of braces, the new ones among them too), until
    nothing is left; a deeper one has its depth counted, run by run. (Malformed input
    may be judged deeper than it is: the strict parser decides it, as the fast one would
    refuse it anyway.)"""
    brackets = _brackets(data)
    if len(brackets) <= limit:
        return False  # fewer brackets than levels
    rest = brackets
    # empty after k passes: at most 2k levels; at most k levels: empty after k passes
    for _ in range(min(_PEELS, limit // 2)):
        # (the innermost pairs counted before they are taken away: a count copies nothing)
        if 8 * (rest.count(b"[]") + rest.count(b"{}")) < len(rest):
            # Under a quarter to take away: deep chains of few innermost pairs, which a pass
            # a level would copy for every level (a document of many calls whose arguments
            # nest 60 deep: 60 passes over all of its brackets). Counted at once instead.
            break
        rest = rest.replace(b"[]", b"").replace(b"{}", b"")
        if not rest:
            return False
    # Counted by runs: the depth is deepest at the end of a run of opening brackets, and the
    # runs of well-formed JSON alternate, opening ones first: split where a closing run ends
    # and an opening one starts, each piece is an opening run and a closing one. A chain
    # nested 60 deep is one piece, where a count bracket by bracket took a step for each
    # (400 KB of calls nested to the limit: 3.0 ms, 0.8 by pieces); brackets that alternate
    # one by one ("[]", "{}"), a piece each, are what the peeling above takes away.
    if brackets[:1] not in (b"[", b"{"):
        return True  # (no JSON text: the strict parser says what it is)
    pieces = brackets.translate(_OPEN_CLOSE).replace(b")(", b") (").split()
    opened = list(map(bytes.count, pieces, repeat(b"(")))
    closed = map(operator.sub, map(len, pieces), opened)
    depths: Iterator[int] = map(operator.sub, accumulate(opened), accumulate(closed, initial=0))
    return max(depths) > limit


def _brackets(data: bytes) -> bytes:
    """The brackets of well-formed JSON that stand outside its strings, in order: escaped
    backslashes and quotes dropped, then everything but quotes and brackets, then what is
    between quotes (the quotes of an empty string first, in one pass: most strings hold no
    bracket, and splitting at every quote made an object of each string)."""
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = data.translate(None, _NOT_STRUCTURAL).replace(b'""', b"")
    if b'"' not in kept:
        return kept
    # Between quotes, alternately: outside a string, inside one.
    return b"".join(kept.split(b'"')[::2])


# --- the strict parser ---------------------------------------------------------------------

_WHITESPACE = r"[ \t\n\r]*"
_NUMBER = r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?"
_SURROGATE = "[\ud800-\udfff]"
_NOT_JSON_WORDS = (
    ("NaN", "NaN is not JSON; write null, or the value as a string"),
    ("-Infinity", "-Infinity is not JSON; write null, or the value as a string"),
    ("Infinity", "Infinity is not JSON; write null, or the value as a string"),
)


class _Frame:
    __slots__ = ("closer", "container", "key", "kind", "path", "seen")

    def __init__(self, container: list[object] | JsonObject, path: Path) -> None:
        self.container = container
        self.path = path
        self.key: str = ""
        self.seen: dict[str, int] = {}
        is_list = isinstance(container, list)
        self.closer = "]" if is_list else "}"
        self.kind = "array" if is_list else "object"

    def add(self, value: object) -> None:
        if isinstance(self.container, list):
            self.container.append(value)
        else:
            self.container[self.key] = value


class _SyntaxStop(Exception):
    """A syntax error: parsing cannot go on past it."""


class _StrictParser:
    def __init__(self, text: str, limits: Limits, *, utf8: bool = True) -> None:
        self.text = text
        self.limits = limits
        self.utf8 = utf8
        self.findings: list[Finding] = []
        self.errors = 0
        # compiled once a process (re's cache), looked up once a parse
        self.whitespace = re.compile(_WHITESPACE)
        self.number = re.compile(_NUMBER)
        self.surrogate = re.compile(_SURROGATE)
        self.noncharacter = re.compile(_NONCHARACTER)

    def run(self) -> Intake:
        text = self.text
        try:
            start = self.whitespace.match(text, 0).end()  # type: ignore[union-attr]
            if start == len(text):
                self._stop(start, (), "the document is empty; a checkpoint is one JSON object")
            document, end = self._value(start)
            end = self.whitespace.match(text, end).end()  # type: ignore[union-attr]
            if end != len(text):
                self._stop(end, (), "unexpected text after the end of the JSON document")
            if not isinstance(document, dict):
                kind = _json_type(document)
                self._error(
                    start,
                    (),
                    f"the top level is {kind}, not an object; a checkpoint is one JSON object",
                )
        except _SyntaxStop:
            pass
        # Text that was not UTF-8 is shown with U+FFFD where the bad bytes were.
        decoded = (
            text
            if self.utf8
            else text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        )
        # A top level that is not an object is an error: without errors, the document is one.
        if self.errors or not isinstance(document, dict):
            return Intake(decoded, None, self.findings)
        return Intake(decoded, document, self.findings)

    # findings

    def _add(self, severity: Severity, offset: int, path: Path, message: str) -> None:
        if severity == "error":
            self.errors += 1
        if len(self.findings) < MAX_FINDINGS:
            line, column = line_col(self.text, offset)
            # A path or message can quote a member name holding a lone surrogate (an escape,
            # or bytes that were not UTF-8): shown as U+FFFD, so every report encodes.
            pointer = self.surrogate.sub("\ufffd", to_pointer(path))
            message = self.surrogate.sub("\ufffd", message)
            self.findings.append(Finding("json", severity, pointer, message, line, column))

    def _error(self, offset: int, path: Path, message: str) -> None:
        self._add("error", offset, path, message)

    def _stop(self, offset: int, path: Path, message: str) -> None:
        self._error(offset, path, message)
        raise _SyntaxStop

    # values: an explicit stack instead of recursion, so no input can exhaust Python's stack

    def _value(self, pos: int) -> tuple[object, int]:
        text = self.text
        stack: list[_Frame] = []
        path: Path = ()
        while True:
            value, pos, opened = self._scalar_or_open(pos, path, len(stack))
            if opened is not None:
                stack.append(_Frame(opened, path))
                pos, path = self._slot(stack[-1], pos)
                continue
            # A complete value: attach it, then close containers or move to the next slot.
            while stack:
                frame = stack[-1]
                frame.add(value)
                pos = self.whitespace.match(text, pos).end()  # type: ignore[union-attr]
                char = text[pos : pos + 1]
                if char == ",":
                    pos, path = self._slot(frame, pos + 1)
                    break
                if char == frame.closer:
                    stack.pop()
                    value, pos = frame.container, pos + 1
                    continue
                self._stop(
                    pos,
                    frame.path,
                    f"expected ',' or '{frame.closer}' in this {frame.kind}, "
                    f"found {_describe(char)}{_what_to_do(text, pos)}",
                )
            else:
                return value, pos

    def _slot(self, frame: _Frame, pos: int) -> tuple[int, Path]:
        """Position and path of the next element, or of the next member's value."""
        text = self.text
        pos = self.whitespace.match(text, pos).end()  # type: ignore[union-attr]
        if isinstance(frame.container, list):
            return pos, (*frame.path, len(frame.container))
        if text[pos : pos + 1] != '"':
            trailing = bool(frame.container) and text[pos : pos + 1] == "}"
            self._stop(
                pos,
                frame.path,
                f"expected a member name in double quotes, found {_describe(text[pos : pos + 1])}"
                + _what_to_do(text, pos, trailing_comma=trailing),
            )
        key_start = pos
        key, pos = self._string(pos, frame.path, is_key=True)
        member_path = (*frame.path, key)
        first = frame.seen.setdefault(key, key_start)
        if first != key_start:
            first_line, first_col = line_col(text, first)
            self._error(
                key_start,
                member_path,
                f"duplicate member name {_quote(key)} (first at line {first_line}, column "
                f"{first_col}); I-JSON forbids repeated names: keep one",
            )
        frame.key = key
        pos = self.whitespace.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos : pos + 1] != ":":
            self._stop(
                pos,
                member_path,
                f"expected ':' after the member name, found {_describe(text[pos : pos + 1])}"
                + _what_to_do(text, pos),
            )
        pos = self.whitespace.match(text, pos + 1).end()  # type: ignore[union-attr]
        return pos, member_path

    def _scalar_or_open(
        self, pos: int, path: Path, depth: int
    ) -> tuple[object, int, list[object] | JsonObject | None]:
        """A scalar or an empty container as (value, end, None); a non-empty container as
        (None, position after its opening bracket, the new container)."""
        text = self.text
        char = text[pos : pos + 1]
        if char in ("{", "["):
            if depth + 1 > self.limits.max_depth:
                self._stop(
                    pos,
                    path,
                    f"nesting deeper than {self.limits.max_depth} levels; flatten the data "
                    "or move it into a referenced resource",
                )
            closer = "}" if char == "{" else "]"
            after = self.whitespace.match(text, pos + 1).end()  # type: ignore[union-attr]
            container: list[object] | JsonObject = {} if char == "{" else []
            if text[after : after + 1] == closer:
                return container, after + 1, None
            return None, pos + 1, container
        if char == '"':
            value, end = self._string(pos, path, is_key=False)
            return value, end, None
        if char == "t" and text.startswith("true", pos):
            return True, pos + 4, None
        if char == "f" and text.startswith("false", pos):
            return False, pos + 5, None
        if char == "n" and text.startswith("null", pos):
            return None, pos + 4, None
        for word, message in _NOT_JSON_WORDS:
            if text.startswith(word, pos):
                self._stop(pos, path, message)
        match = self.number.match(text, pos)
        if match:
            return self._number(match, path), match.end(), None
        if not char:
            self._stop(pos, path, "the document ends before this value is complete")
        trailing = char == "]" and text[:pos].rstrip(" \t\r\n").endswith(",")
        self._stop(
            pos,
            path,
            f"expected a JSON value, found {_describe(char)}"
            + _what_to_do(text, pos, trailing_comma=trailing),
        )
        raise AssertionError  # unreachable: _stop raises

    def _number(self, match: re.Match[str], path: Path) -> int | float:
        literal = match.group()
        pos = match.start()
        if match.group(1) is None and match.group(2) is None:
            if len(literal) <= 15:
                return int(literal)
            # float() never overflows into an exception, and avoids int()'s digit limit.
            if math.isinf(float(literal)):
                self._error(pos, path, _overflow(literal))
                return 0
            value = int(literal)
            if abs(value) > MAX_SAFE_INTEGER:
                self._add(
                    "warning",
                    pos,
                    path,
                    f"the integer {_clip(literal)} is beyond ±(2^53−1) and loses precision in "
                    "many JSON parsers; write it as a string if every digit matters",
                )
            return value
        value_f = float(literal)
        if math.isinf(value_f):
            self._error(pos, path, _overflow(literal))
            return 0.0
        return value_f

    def _string(self, pos: int, path: Path, *, is_key: bool) -> tuple[str, int]:
        text = self.text
        what = "member name" if is_key else "string"
        try:
            value, end = scanstring(text, pos + 1, True)
        except json.JSONDecodeError as exc:
            self._stop(exc.pos, path, _string_error(exc.msg, text, exc.pos))
        raw = text[pos:end]
        error_path = path
        stray = self.surrogate.search(raw)
        if stray:
            # Only invalid UTF-8 can put a raw surrogate in the decoded text.
            offset = pos + stray.start()
            self._error(
                offset,
                error_path,
                f"this {what} contains bytes that are not valid UTF-8 "
                f"(byte 0x{ord(stray.group()) - 0xDC00:02X}); save the document as UTF-8",
            )
        elif self.surrogate.search(value):
            self._error(
                pos,
                error_path,
                f"this {what} has an unpaired surrogate escape (\\uD800–\\uDFFF without its "
                "pair); I-JSON forbids it: escape the whole character, or remove it",
            )
        nonchar = self.noncharacter.search(value)
        if nonchar:
            self._error(
                pos,
                error_path,
                f"this {what} contains the Unicode noncharacter U+{ord(nonchar.group()):04X}; "
                "I-JSON forbids noncharacters: remove it",
            )
        return value, end


def _refuse(message: str) -> Intake:
    return Intake(None, None, [Finding("json", "error", "", message, 1, 1)])


def _string_error(msg: str, text: str, pos: int) -> str:
    if msg.startswith("Unterminated string"):
        return "this string is never closed; add the closing double quote"
    if msg.startswith("Invalid control character"):
        char = text[pos : pos + 1]
        escape = _SHORT_ESCAPES.get(char, f"\\u{ord(char):04x}")
        return (
            f"a raw control character (U+{ord(char):04X}) inside a string; write it as the "
            f"escape {escape}"
        )
    if msg.startswith("Invalid \\uXXXX"):
        return "an invalid \\u escape; it needs exactly four hexadecimal digits"
    if msg.startswith("Invalid \\escape"):
        return 'an invalid escape in a string; use one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX'
    return f"invalid string: {msg}"


_SHORT_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _what_to_do(text: str, pos: int, *, trailing_comma: bool = False) -> str:
    """What the mistake a syntax error stopped at most likely is, and its fix, as the end of
    the error's sentence ("" when nothing more is known): the habits of other formats that JSON
    does not allow (trailing commas, comments, single quotes, bare words, leading zeros) and a
    file saved as UTF-16."""
    char = text[pos : pos + 1]
    if trailing_comma:
        return "; JSON allows no comma after the last item: remove it"
    if char == "/" and text[pos + 1 : pos + 2] in ("/", "*"):
        return "; JSON has no comments: remove it"
    if char == "'":
        return "; JSON writes strings and member names in double quotes"
    if char == "\x00" and text.count("\x00", 0, 64) >= 4:
        return "; the document looks like UTF-16 (a NUL beside each character): save it as UTF-8"
    if char.isdigit() and text[pos - 1 : pos] == "0" and not text[pos - 2 : pos - 1].isdigit():
        return "; a JSON number does not start with 0 (write 1, not 01), or write it as a string"
    if char.isalpha() or char == "_":
        return (
            "; write a string or a member name in double quotes (true, false and null are "
            "lower case)"
        )
    if not char:
        return "; the document is cut short: complete it, or send the whole file"
    return "; fix the text at this line and column: nothing else is checked until it is JSON"


def _overflow(literal: str) -> str:
    return (
        f"the number {_clip(literal)} overflows a double (I-JSON numbers stay within IEEE 754 "
        "double precision); write it as a string"
    )


def _clip(literal: str, limit: int = 40) -> str:
    return literal if len(literal) <= limit else literal[: limit - 1] + "…"


def _quote(key: str) -> str:
    return json.dumps(_clip(key, 60), ensure_ascii=False)


def _describe(char: str) -> str:
    if not char:
        return "the end of the document"
    if "\udc80" <= char <= "\udcff":
        # a byte the UTF-8 decoding could not read, kept as a lone surrogate: that byte is in
        # the file, not the character
        byte = ord(char) - 0xDC00
        return f"byte 0x{byte:02X}, which is not valid UTF-8 (save the document as UTF-8)"
    if char == "'":
        return "a single quote"  # (not quoted in quotes: what says where the advice starts)
    if char.isprintable() and not char.isspace():
        return f"'{char}'"
    return f"U+{ord(char):04X}"


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool) or value is None:
        return "a literal"
    return "a number"
