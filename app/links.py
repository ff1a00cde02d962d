"""Whether a URI from a document may become a clickable link, and why not.

A checkpoint is written by someone who may want its reader to open another host than the one
its text names: ``https:accounts.example.com@evil.example/`` reads as accounts.example.com and
opens evil.example; a tab, a no-break space or U+2028 before ``@``, a right-to-left override, a
Cyrillic letter in a Latin name do the same. So a URI becomes a link only when the two parsers
that matter agree on where it goes and nothing in its text can mislead: the WHATWG URL parser
(what browsers run, through ada-url) and RFC 3986 (rfc3986, with IDNA 2008 through idna).

Everything else is shown as text, with the reason in words a reader can follow."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import ada_url
import idna

from app.redaction import REDACTED


@dataclass(frozen=True, slots=True)
class LinkDecision:
    """What the page does with one URI."""

    clickable: bool
    # the href of the link; None when the URI is shown as text only
    href: str | None
    # the host as a reader reads it (Unicode), where the WHATWG parser found one
    host: str | None
    # the host's ASCII (punycode) form, only when it differs from ``host``
    host_ascii: str | None
    # why the URI is not a link, in a short plain sentence; None when it is one
    reason: str | None
    # what the link shows where it is not the URI as written: the URI with its host's ASCII
    # form, when the host's Unicode form could pass for another name (`_may_pass_for_another`)
    shown: str | None = None

    @property
    def host_label(self) -> str | None:
        """The host as shown: ``例え.jp (xn--r8jz45g.jp)`` when its two forms differ."""
        if self.host is None:
            return None
        return self.host if self.host_ascii is None else f"{self.host} ({self.host_ascii})"


# --- characters that make a URI's text lie ---------------------------------------------------

# Bidi embeddings, overrides, isolates and marks reorder what is shown (U+202E turns
# "moc.evil" into "live.com").
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Letters and fillers that render as nothing, beside the format characters (category Cf).
_BLANK = frozenset("\u034f\u115f\u1160\u180e\u2800\u3164\uffa0")
# ASCII whitespace (as str.isspace has it) and the other ASCII controls, each found by a
# regular expression rather than by looking at every character in Python
_ASCII_WHITESPACE = re.compile(r"[\t\n\x0b\x0c\r\x1c-\x1f ]")
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")


def _unsafe_characters(uri: str) -> str | None:
    """The reason the text of ``uri`` cannot be trusted to read as it opens, if any."""
    found = set()
    if _ASCII_WHITESPACE.search(uri):
        found.add("whitespace")
    if _ASCII_CONTROL.search(uri):
        found.add("control")
    if not uri.isascii():
        for char in set(uri):  # each distinct character once: linear in the length
            if char.isascii():
                continue
            category = unicodedata.category(char)
            if char in _BIDI:
                found.add("bidi")
            elif char.isspace():
                found.add("whitespace")
            elif category == "Cc":
                found.add("control")
            elif category in ("Cf", "Cs", "Co", "Cn") or char in _BLANK:
                found.add("invisible")
    if not found:
        return None
    return "it holds " + _and([words for kind, words in _CHARACTER_KINDS if kind in found])


_CHARACTER_KINDS = (
    ("whitespace", "whitespace"),
    ("control", "control characters"),
    ("bidi", "bidi controls, which reorder how it reads"),
    ("invisible", "invisible characters"),
)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --- userinfo ----------------------------------------------------------------------------------

# RFC 3986 §3.2: "scheme://" then an authority that holds an "@" before any "/", "?" or "#".
_RFC3986_USERINFO = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@")
# WHATWG special schemes (those with a host) read any run of "/" and "\" after "scheme:", or
# none at all, as the start of the authority: "https:user@host" carries the user name "user".
_SPECIAL_USERINFO = re.compile(r"^(?:https?|wss?|ftp):[/\\]*[^/\\?#]*@", re.IGNORECASE)
# The WHATWG parser trims C0 controls and spaces around the input and drops tabs and newlines.
_WHATWG_TRIM = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")


def has_userinfo(uri: str) -> bool:
    """True when ``uri`` carries a user name or password before its host, as RFC 3986 reads it
    (``scheme://user@host``) or as a browser does (``https:user@host``, ``https:\\\\user@host``,
    a tab before the ``@``)."""
    # RFC 3986's reading first: it needs no parse, and a URI it finds userinfo in has some
    return _RFC3986_USERINFO.match(uri) is not None or _userinfo(uri, _whatwg(uri))


def _userinfo(uri: str, parsed: ada_url.ada_adapter.ParseAttributes | None) -> bool:
    """`has_userinfo`, given the WHATWG parse of ``uri``."""
    if _RFC3986_USERINFO.match(uri):
        return True
    if parsed is not None:
        return bool(parsed["username"] or parsed["password"])
    # A URL browsers refuse (a space in its host, say) is still read this way by many tools.
    whatwg_input = _TAB_OR_NEWLINE.sub("", uri.strip(_WHATWG_TRIM))
    return _SPECIAL_USERINFO.match(whatwg_input) is not None


# --- the two parsers ------------------------------------------------------------------------

_WHATWG_PARTS = ("href", "hostname", "username", "password")


def _whatwg(uri: str) -> ada_url.ada_adapter.ParseAttributes | None:
    """The URL as a browser parses it, or None when a browser would refuse it."""
    try:
        return ada_url.parse_url(uri, attributes=_WHATWG_PARTS)
    except (ValueError, UnicodeError):
        return None


@functools.cache
def _rfc3986() -> tuple[Any, Any, type[Exception]]:
    """rfc3986's IRI parser, its host validator and its error class, imported on first use:
    compiling its expressions takes 30 ms, which `ocp lint` (never deciding a link) need not
    pay."""
    import rfc3986  # type: ignore[import-untyped]
    from rfc3986 import exceptions, validators

    return rfc3986.iri_reference, validators.host_is_valid, exceptions.RFC3986Exception


def _rfc3986_host(uri: str) -> str | None:
    """The host RFC 3986 reads in ``uri``, its Unicode labels as IDNA 2008 A-labels (RFC 3987
    §3.1, as rfc3986's IRI encoding does it), lower-cased; None when it finds none or the host
    is not valid.

    Only the scheme and the authority are handed to rfc3986, split off with the regular
    expression of RFC 3986 Appendix B: the host is all this compares, and the library's
    whole-IRI expression costs a millisecond per 4 KB of path. Its authority parts are read
    once; its own encode and validator read them again several times over."""
    plain = _PLAIN_AUTHORITY.match(uri)
    if plain is not None:
        # letters, digits, "." and "-" are unreserved characters: RFC 3986 reads such a
        # reg-name as it stands, and rfc3986 would say the same, twenty times slower
        return plain.group(1).lower()
    split = _RFC3986_SPLIT.match(uri)
    if split is None or split.group(2) is None or len(split.group(2)) > _LONGEST_AUTHORITY:
        return None
    iri_reference, host_is_valid, invalid = _rfc3986()
    try:
        host = iri_reference(f"{split.group(1)}://{split.group(2)}").authority_info()["host"]
        if not host:
            return None
        if not host.isascii():
            host = ".".join(
                label if label.isascii() else _a_label(label) for label in host.split(".")
            )
    except (invalid, idna.IDNAError, ValueError):
        return None
    return host.lower() if host_is_valid(host, require=True) else None


def _a_label(label: str) -> str:
    """A Unicode label as IDNA 2008 writes it in ASCII (``例え`` → ``xn--r8jz45g``)."""
    return idna.encode(label.lower(), strict=True, std3_rules=True).decode("ascii")


# "scheme://" and an authority of ASCII letters, digits, dots and hyphens, with a port
_PLAIN_AUTHORITY = re.compile(
    r"^[A-Za-z][A-Za-z0-9+.\-]*://([A-Za-z0-9.\-]+)(?::[0-9]*)?(?:[/?#]|$)"
)
# RFC 3986 Appendix B, up to the authority: scheme ":" "//" authority
_RFC3986_SPLIT = re.compile(r"^([^:/?#]+):(?://([^/?#]*))?")
# A domain name has at most 253 characters (RFC 1035); with a port and room for an IRI's
# Unicode labels, an authority past this is not one a reader can check.
_LONGEST_AUTHORITY = 512


# --- scripts --------------------------------------------------------------------------------

# Scripts that one name may mix because a language writes with them together (the "highly
# restrictive" profile of Unicode TS #39 that browsers apply before showing a name in Unicode).
_SCRIPT_SETS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
)
_SCRIPT_ALIASES = {"CJK": "HAN", "KATAKANA-HIRAGANA": "KATAKANA", "HALFWIDTH": "KATAKANA"}


def _script(char: str) -> str:
    """The script of a letter, from the first word of its Unicode name (LATIN, CYRILLIC, …)."""
    first = unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]
    return _SCRIPT_ALIASES.get(first, first)


def _mixed_scripts(label: str) -> list[str] | None:
    """The scripts of a name that mixes scripts no language writes together, or None."""
    scripts = sorted({_script(c) for c in label if c.isalpha()})
    if len(scripts) < 2 or any(set(scripts) <= allowed for allowed in _SCRIPT_SETS):
        return None
    return [s.title() for s in scripts]


# Scripts none of whose letters a reader takes for a Latin one: a name written in them reads
# as itself. A name with any other letter beyond ASCII (Cyrillic "аррӏе", Latin "ɡoogle" with
# a script g, Greek, small capitals) may read as a Latin name it is not, a "whole-script
# confusable" (Unicode TS #39), which no mixing of scripts gives away: its link shows the
# host's ASCII form, as browsers then show it in their address bar.
_UNMISTAKABLE = frozenset({"HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "ARABIC", "HEBREW"})


def _may_pass_for_another(host: str) -> bool:
    """Whether a Unicode host has a character beyond ASCII outside `_UNMISTAKABLE` letters."""
    return any(
        not c.isascii() and not (c.isalpha() and _script(c) in _UNMISTAKABLE)
        for label in host.split(".")
        if not label.isascii()
        for c in label
    )


def _unicode_host(ascii_host: str) -> str | None:
    """The Unicode form of a host whose labels may be punycode, or None when one is not."""
    if "xn--" not in ascii_host:
        return ascii_host
    labels = []
    for label in ascii_host.split("."):
        if label.startswith("xn--"):
            try:
                label = idna.decode(label)
            except (idna.IDNAError, UnicodeError):
                return None
        labels.append(label)
    return ".".join(labels)


# --- the decision ---------------------------------------------------------------------------

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
# Past this length a reader cannot check a link by eye, and deciding costs time per character.
LONGEST_LINK = 8192
_WEB_SCHEMES = ("http", "https")


def decide(uri: object) -> LinkDecision:
    """Whether ``uri`` may be a clickable link on a page, with its host in both forms, or the
    reason it is shown as text only.

    >>> decide("https://例え.jp/").host_label
    '例え.jp (xn--r8jz45g.jp)'
    >>> decide("https:accounts.example.com@evil.example/").reason
    "it carries a user name before '@': browsers would open evil.example"
    """
    if not isinstance(uri, str):
        return _text_only("it is not text")
    if len(uri) > LONGEST_LINK:
        return _text_only(f"it is longer than {LONGEST_LINK:,} characters, too long to check")
    if REDACTED in uri:
        return _text_only("part of it is withheld: it looks like it holds a credential")
    scheme = _SCHEME.match(uri)
    if scheme is None or scheme.group(1).lower() not in _WEB_SCHEMES:
        return _text_only("it is not an http or https address")
    parsed = _whatwg(uri)
    if parsed is None or not parsed["hostname"]:
        return _text_only(
            _unsafe_characters(uri) or "browsers cannot open it: it is not a valid URL"
        )
    ascii_host = parsed["hostname"]
    # a longer host is refused below, before anything reads it label by label
    unicode_host = _unicode_host(ascii_host) if len(ascii_host) <= _LONGEST_HOST else None
    host = unicode_host or ascii_host
    other_form = ascii_host if host != ascii_host else None
    reason = _why_not(uri, scheme, parsed, unicode_host)
    if reason is None:
        shown = parsed["href"] if other_form is not None and _may_pass_for_another(host) else None
        return LinkDecision(True, uri, host, other_form, None, shown)
    label = host if other_form is None else f"{host} ({other_form})"
    return LinkDecision(False, None, host, other_form, f"{reason}: browsers would open {label}")


def _why_not(
    uri: str,
    scheme: re.Match[str],
    parsed: ada_url.ada_adapter.ParseAttributes,
    unicode_host: str | None,
) -> str | None:
    """Why an http(s) URI that browsers open (``parsed``) is not a link, or None."""
    ascii_host = parsed["hostname"]
    characters = _unsafe_characters(uri)
    if characters is not None:
        return characters
    after_scheme = uri[scheme.end() :]
    first = _BACKSLASH_QUERY_OR_FRAGMENT.search(after_scheme)
    if first is not None and first.group() == "\\":
        return "it holds a backslash, which browsers read as '/'"
    if _userinfo(uri, parsed):
        return "it carries a user name before '@'"
    if not after_scheme.startswith("//"):
        return f"it has no '//' after '{scheme.group(1)}:'"
    if len(ascii_host) > _LONGEST_HOST:
        return f"its host is longer than a domain name can be ({_LONGEST_HOST} characters)"
    if _rfc3986_host(uri) != ascii_host:
        return "its host is unclear"
    if unicode_host is None:
        return "its host holds a name that is not valid punycode ('xn--')"
    for label in unicode_host.split("."):
        scripts = None if label.isascii() else _mixed_scripts(label)
        if scripts is not None:
            return f"its host mixes {_and(scripts)} letters in one name, a common disguise"
    return None


# A backslash before the query ("?") or the fragment ("#") is a "/" to browsers.
_BACKSLASH_QUERY_OR_FRAGMENT = re.compile(r"[\\?#]")
# RFC 1035: a domain name has at most 253 characters (IPv6 literals are far shorter)
_LONGEST_HOST = 253


def _text_only(reason: str) -> LinkDecision:
    return LinkDecision(False, None, None, None, reason)
