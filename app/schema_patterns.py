"""The schema's patterns that every document meets, read by string tests rather than regexes.

Compiling a regex is Python code (`re._parser`, `re._compiler`): a few tenths of a millisecond
for each of the schema's timestamp, digest and local id patterns, which `ocp lint` of one small
file paid on every run, with a timestamp pattern of its own in app/checkpoint.py (issue 28:
start-up within 3× a bare interpreter). Each test here gives the answer its pattern gives, for
every string: tests/test_schema_patterns.py holds each to the regex it stands for.
app/schema_codegen.py writes a call to the test in place of a search wherever the schema has
the pattern (`KNOWN`); any other pattern stays a regex.
"""

from __future__ import annotations

_DIGITS = "0123456789"
_HEX = "0123456789abcdef"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_ID_CHARS = _ALNUM + "._:-"

# What each test answers, in the Python dialect app/schema_codegen.py turns the schema's into.
TIMESTAMP = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})\Z"
)
DIGEST = r"^(sha-256:[0-9a-f]{64}|sha-384:[0-9a-f]{96}|sha-512:[0-9a-f]{128})\Z"
LOCAL_ID = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z"

# The hexadecimal digits of each digest algorithm's value.
_DIGEST_HEX = {"sha-256:": 64, "sha-384:": 96, "sha-512:": 128}

TimestampParts = tuple[str, str, str, str, str, str, "str | None", "str | None", str, str]


def _digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits ([0-9]+; str.isdigit takes other scripts')."""
    return bool(text) and not text.lstrip(_DIGITS)


def timestamp_parts(value: str) -> TimestampParts | None:
    """The parts of an RFC 3339 timestamp as `TIMESTAMP` reads it: year, month, day, hour,
    minute, second, the fraction's digits (None without one), the offset's sign (None for Z),
    and the offset's hours and minutes ("" for Z); None when ``value`` is not in that shape.
    Only the shape: whether the date exists is app/checkpoint.py's question."""
    if len(value) < 20 or value[10] not in "Tt":
        return None
    if value[4] != "-" or value[7] != "-" or value[13] != ":" or value[16] != ":":
        return None
    year, month, day = value[0:4], value[5:7], value[8:10]
    hour, minute, second = value[11:13], value[14:16], value[17:19]
    if not _digits(year + month + day + hour + minute + second):
        return None
    rest = value[19:]
    fraction = None
    if rest.startswith("."):
        after = rest[1:].lstrip(_DIGITS)
        fraction = rest[1 : len(rest) - len(after)]
        if not fraction:
            return None
        rest = after
    if rest in ("Z", "z"):
        return year, month, day, hour, minute, second, fraction, None, "", ""
    if len(rest) == 6 and rest[0] in "+-" and rest[3] == ":" and _digits(rest[1:3] + rest[4:6]):
        return year, month, day, hour, minute, second, fraction, rest[0], rest[1:3], rest[4:6]
    return None


def is_timestamp(value: str) -> bool:
    """`TIMESTAMP`'s answer."""
    return timestamp_parts(value) is not None


def is_digest(value: str) -> bool:
    """`DIGEST`'s answer: an algorithm's name and its length of lowercase hexadecimal."""
    length = _DIGEST_HEX.get(value[:8])
    return length is not None and len(value) == 8 + length and not value[8:].lstrip(_HEX)


def is_local_id(value: str) -> bool:
    """`LOCAL_ID`'s answer: a letter or digit, then up to 127 of letters, digits and ._:-"""
    return 0 < len(value) <= 128 and value[0] in _ALNUM and not value.lstrip(_ID_CHARS)


# pattern (Python's dialect) -> the name of its test in this module
KNOWN = {TIMESTAMP: "is_timestamp", DIGEST: "is_digest", LOCAL_ID: "is_local_id"}
