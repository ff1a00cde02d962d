"""The secret scan's detectors of structures a pattern alone cannot judge (app/secrets).

PEM and PuTTY private keys (armour, body, end), a URI's userinfo, .netrc entries, passwords on
command lines and in sentences, and what percent escapes and base64 wrap. Each runs only on a
string its anchor found (app/secrets `_ANCHORS`), and this module is imported only when a
text first calls for one of them: most documents call for none (start-up, issue 28).
"""

from __future__ import annotations

import heapq
import json  # (loaded already: intake decodes with it)
import operator
import re
import string
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Generator, Iterable, Iterator
from functools import lru_cache
from itertools import accumulate, chain, compress, count, islice, repeat

from app.secrets import (
    _B64,
    _C_API_KEY,
    _C_BARE_PASSWORD,
    _C_PASSWORD,
    _C_PRIVATE_KEY,
    _C_SECRET,
    _C_TOKEN,
    _JWK_PRIVATE,
    _KEY_PURPOSES,
    _LABEL_ENDS,
    _MANY_REFUSED,
    _MIXED_RUN,
    _MIXED_RUN_RE2,
    _NAME_HEAD_ANCHOR,
    _NAME_MEMBERS,
    _PAIRED_VALUES,
    _PASSWORD_IN_PROSE,
    _PASSWORD_NAMES_PAST_ENGLISH,
    _QP_BIT,
    _QUOTED_NAME_ENDS,
    _REFUSED_PER_TEXT,
    _WORDS_PAST_ENGLISH,
    _WRAPPED_VALUES,
    COMMENT_MARK,
    COOKIE,
    DECODED_BY,
    DER_KEY_WORDS,
    DONE_TO_IT,
    GREP_PREFIX,
    LOG_PREFIX,
    ORACLE_TOOLS,
    PARTICIPLES,
    PASSWORD,
    PEM_KEY,
    PRIVATE_KEY,
    PUTTY_KEY,
    RE2_RUNS_FROM,
    SECRET,
    SET_TO_WHOSE,
    TOLD_BEFORE_DETERMINERS,
    TOLD_BEFORE_NAMES,
    TOLD_BEFORE_QUALIFIERS,
    TOLD_BEFORE_VERBS,
    URI_PASSWORD,
    USERINFO,
    Span,
    _as_folded,
    _as_the_engines_read,
    _bounded,
    _classify_name,
    _credential_value,
    _entry_kind,
    _folded,
    _holds_name_word,
    _item_after_kind,
    _jwk_private_member,
    _last_part,
    _may_name_credential,
    _member_credential,
    _name_alone,
    _named_class,
    _pair_kind,
    _passphrase,
    _scan_strings,
    _told_on_next_line,
    _wrapped_values,
    merged_windows,
)
from app.secrets.engine import ARROWS, DASHES
from app.secrets.shapes import (
    _DIGIT_IN_WORD,
    KEY_IS_WORDS,
    KEY_NAMES_TOLD_PAST_ENGLISH,
    PASSWORD_FOR_WORDS,
    PASSWORD_IS_WORDS,
    _both_cases,
    _both_cases_and_digits,
    _code_call,
    _is_placeholder,
    _lazy,
    _low_diversity,
    _not_a_credential_shape,
    _plausible_token,
    _prose_password,
)

# The armour as written, and as it is mistyped or pasted: any case, and up to three spaces,
# tabs or no-break spaces where one belongs (a PEM parser refuses those; the key is as secret).
_PEM_SPACE = r"(?:[ \t\u00a0]|\\{1,2}t)"  # (a tab may be JSON-escaped too, once or twice)
_PEM_BEGIN = _lazy(
    rf"(?i)-----?{_PEM_SPACE}{{0,3}}BEGIN{_PEM_SPACE}{{1,3}}"
    # (a label's word and the spaces after it each read whole, possessively: a word ends only
    # at a space, and a space is followed by a word; backing off a letter at a time cost a
    # line of 30,000 armour lines 0.7 µs each)
    rf"(?P<label>(?:[A-Z0-9]{{1,12}}+{_PEM_SPACE}{{1,3}}+){{0,4}}PRIVATE{_PEM_SPACE}{{1,3}}KEY"
    rf"(?:{_PEM_SPACE}{{1,3}}BLOCK)?){_PEM_SPACE}{{0,3}}-----?"
)
# After the armour line: optional headers (Proc-Type, DEK-Info, Version, Comment), then base64.
# Newlines may be real or JSON-escaped, once or twice (the viewer scans raw source too, and a
# log line may quote a JSON body: "{\\"key\\": \\"-----BEGIN …-----\\\\nMIIE…"); and what
# a key's lines are joined by where it was pasted: a comment's mark opening each line (a key
# commented out in a configuration file or a script, "# MIIE…", " * MIIE…", "// MIIE…"), HTML's
# line break (a ticket exported as HTML, "<br>MIIE…"), or the quotes and comma between the items
# of a list of its lines (["-----BEGIN …-----", "MIIE…", …]).
_PEM_JOIN = (
    r"\r?\n[ \t]*(?:#|//|\*|;|--)[ \t]?"
    r"|<[Bb][Rr][ \t]*/?>"
    r"|\\?[\"'][ \t]*,[ \t\r\n]*\\?[\"']"
)
_NL = rf"(?:{_PEM_JOIN}|[ \t\r\n]|\\{{1,2}}[rnt])"
# (a header's line indented as the armour's may be: a key in a YAML block, "    DEK-Info: …"; or
# the key's lines flattened onto one, as a chat or a form pastes it, each line break a space:
# "-----BEGIN RSA PRIVATE KEY----- Proc-Type: 4,ENCRYPTED DEK-Info: AES-128-CBC,… MIIE…", a
# header of those PEM and OpenPGP write, its value up to the next such header or the base64)
_PEM_HEADER_NAMES = r"(?:Proc-Type|DEK-Info|Version|Comment|Charset|Hash):"
_PEM_BODY = _lazy(
    rf"{_NL}*+(?:[ \t]*+[A-Za-z][A-Za-z0-9\-]*:[^\r\n\\]*+(?:\r?\n|\\{{1,2}}[rn])+"
    rf"|[ \t]*+{_PEM_HEADER_NAMES}[^\r\n\\]{{0,256}}?"
    rf"(?=[ \t]+(?:{_PEM_HEADER_NAMES}|[A-Za-z0-9+/=]{{16}})))*+"
    rf"{_NL}*+[A-Za-z0-9+/=]{{16}}"
)
# (a run of the class in one step of `re`'s loop, where an alternation of one character each
# took 6 µs for the four lines of a 2048-bit key's excerpt: a sixth of that)
# (a line break its own step, after the joins that open with one: "\n# MIIE…" is a join)
_PEM_RUN = _lazy(rf"(?:[A-Za-z0-9+/= \t]++|{_PEM_JOIN}|\r?\n|\r|\\{{1,2}}[rnt])*+")


# The largest private keys in PEM (16384-bit RSA, a PGP block with several subkeys) fit in this
# many characters after their BEGIN line: the END line is looked for no further, and never past
# the next BEGIN line, so a run of BEGIN lines with no END costs one pass, not one per line.
_PEM_WINDOW = 65536
_PEM_HEADERS_WINDOW = 4096


def pem(text: str) -> Iterator[Span]:
    pos = 0
    while (m := _PEM_BEGIN.search(text, pos)) is not None:
        pos = m.end()
        body = _PEM_BODY.match(text, m.end(), min(len(text), m.end() + _PEM_HEADERS_WINDOW))
        if body is None:
            continue  # the armour line alone, e.g. prose about key files, holds no key
        limit = min(len(text), body.end() + _PEM_WINDOW)
        end_marker = None
        # (an END line and a BEGIN line both start with four dashes: an excerpt cut short, with
        # none after its base64, is not searched for either)
        if text.find("----", body.end(), limit) != -1:
            following = _PEM_BEGIN.search(text, body.end(), limit)
            if following is not None:
                limit = following.start()
            label = " ".join(_ESCAPED_TAB.sub(" ", m.group("label")).upper().split())
            end_marker = _pem_end(label).search(text, body.end(), limit)
        run = _PEM_RUN.match(text, body.end(), limit)  # a truncated excerpt: the base64 run
        end = end_marker.end() if end_marker else run.end() if run else body.end()
        yield m.start(), end, PEM_KEY
        pos = end


_ESCAPED_TAB = _lazy(r"\\{1,2}t")


@lru_cache(maxsize=64)
def _pem_end(label: str) -> re.Pattern[str]:
    """The END line of ``label`` (its words upper case, one space apart), spaced as above."""
    words = f"{_PEM_SPACE}{{1,3}}".join(map(re.escape, label.split(" ")))
    return re.compile(
        rf"(?i)-----?{_PEM_SPACE}{{0,3}}END{_PEM_SPACE}{{1,3}}{words}{_PEM_SPACE}{{0,3}}-----?"
    )


# A private key's body without its armour: the base64 of its DER (PKCS #8, RFC 5208; an RSA
# key's PKCS #1, RFC 8017; an EC key's SEC 1, RFC 5915) or of an OpenSSH key ("openssh-key-v1"),
# as an environment variable or a secret store holds one on a line. Each starts with bytes
# that only a private key's structure starts with, which base64 writes alike whatever the key
# (but its length's digits): an RSA key's version and algorithm ("MII…IBADANBgkqhkiG9w0BAQEFAASC",
# PKCS #1's "MII…IBAAKC"), an EC key's (PKCS #8's "MIGHAgEAMBMGByqGSM49AgEG", SEC 1's "MHcCAQEEI",
# "MIGkAgEBBD", "MIHcAgEBBE"), Ed25519's and X25519's ("MC4CAQAwBQYDK2Vw", "…K2Vu"), Ed448's
# and X448's ("MEcCAQAwBQYDK2Vx", "MEYCAQAwBQYDK2Vv"). A public key's and a certificate's start
# otherwise. The key runs on over the lines of base64 after it (64 a line, as PEM wraps it).
_DER_KEY_STARTS = (
    r"MII[A-Za-z0-9+/]{3}IB(?:ADANBgkqhkiG9w0BAQEFAASC|AAK[BC])"
    r"|MI[GH][A-Za-z0-9+/]AgEAMB[AM]GByqGSM49AgEG"
    r"|MHcCAQEEI|MIGkAgEBBD[A-D]|MIHcAgEBBE[I-L]"
    r"|MC4CAQAwBQYDK2V[uw]BCIEI|MEcCAQAwBQYDK2VxBDsEO|MEYCAQAwBQYDK2VvBDoEO"
    r"|b3BlbnNzaC1rZXktdjE"
)
_DER_KEY = _lazy(
    rf"(?:{_DER_KEY_STARTS})"
    # (a line after it of 16 characters at least, or a last one padded: a word on the next
    # line of a message, "Thanks", is no part of it)
    r"[A-Za-z0-9+/]*+(?:(?:\r?\n|\\r?\\n)(?:[A-Za-z0-9+/]{16,}+|[A-Za-z0-9+/]{1,15}+=))*+={0,2}"
)
# The shortest body of each start's keys (characters of base64; a key's start alone, cut
# short, is no key): an RSA key's (1024 bits, the least any tool still makes) some 820, an EC
# key's (P-256) 164 in SEC 1 and 184 in PKCS #8, Ed25519's 64, an OpenSSH key's (Ed25519) 324.
_DER_SHORTEST = {"MII": 800, "MIG": 160, "MIH": 160, "MHc": 160, "MC4": 64, "MEc": 96, "MEY": 96}
_OPENSSH_SHORTEST = 300


def unarmoured_key(text: str) -> Iterator[Span]:
    """Each private key's body written without its armour (`_DER_KEY_STARTS`; `_bounded`: a text
    of thousands of a key's first characters alone is read for a hundred)."""
    return _bounded(_unarmoured_keys(text))


def _unarmoured_keys(text: str) -> Iterator[Span | None]:
    # The starts are found from their words (app/secrets `DER_KEY_WORDS`) by `str.find`, in C,
    # where the regex, its starts' first letters "M" and "b", tried every "M" of a text (23 ms
    # for 400 KB of them). Each word's next place (-1: none left) is looked for again only once
    # the reading is past it: each word's searches read the text once in all.
    words = [word for word, _ in DER_KEY_WORDS]
    backs = [back for _, back in DER_KEY_WORDS]
    places = [text.find(word) for word in words]
    pos = 0
    while True:
        at = min((place for place in places if place != -1), default=-1)
        if at == -1:
            return
        word = places.index(at)
        start = max(at - backs[word], 0)
        m = _DER_KEY.match(text, start) if start >= pos else None
        if m is not None and start and text[start - 1] in _BASE64_CHARACTERS:
            m = None  # (inside a run of base64: no key's start)
        if m is None:
            yield None
            past = at + 1
        else:
            pos = past = m.end()
            body = m.group()
            # (its base64 alone: its line breaks, as written or as JSON escapes them, left out)
            run = "".join(body.replace("\\r", "").replace("\\n", "").split())
            shortest = _DER_SHORTEST.get(body[:3], _OPENSSH_SHORTEST)
            # (the rest of a key's start typed, "AAAA…" or "xxxx…", is no key's)
            typed = len(run) < shortest or _low_diversity(run[32:])
            yield None if typed else (m.start(), m.end(), PRIVATE_KEY)
        for k, place in enumerate(places):
            if place != -1 and place < past:
                places[k] = text.find(words[k], past)


_BASE64_CHARACTERS = frozenset(string.ascii_letters + string.digits + "+/")


# A JSON Web Key's private parts (RFC 7517; RFC 7518 §6: app/secrets `_JWK_PRIVATE`), base64url,
# in the object that names the key's type. The members come in any order (a library that sorts
# them writes "d" before "kty"), and the object is what lies between the braces around "kty" (a
# JWK holds no object but a multi-prime RSA key's "oth", after its "d"), within `_JWK_REACH`
# characters either side (a 4096-bit RSA key's members before its "kty", sorted, fit in 4,000).
_JWK_TYPE = _lazy(r'"kty"[ \t\r\n]*+:[ \t\r\n]*+"(' + "|".join(_JWK_PRIVATE) + ')"')
_JWK_MEMBERS = sorted({m for members in _JWK_PRIVATE.values() for m in members})
_JWK_MEMBER = _lazy(
    '"(' + "|".join(_JWK_MEMBERS) + r')"[ \t\r\n]*+:[ \t\r\n]*+"([A-Za-z0-9_-]{1,4096}+)"'
)
_JWK_REACH = 8192


def private_jwk(text: str) -> Iterator[Span]:
    """The private member of each JSON Web Key written in ``text`` (`_bounded`)."""
    return _bounded(_jwk_privates(text))


def _jwk_privates(text: str) -> Iterator[Span | None]:
    pos = 0
    while (m := _JWK_TYPE.search(text, pos)) is not None:
        pos = m.end()
        start = text.rfind("{", max(0, m.start() - _JWK_REACH), m.start())
        end = text.find("}", m.end(), m.end() + _JWK_REACH)
        found = False
        if start != -1 and end != -1:
            for member in _JWK_MEMBER.finditer(text, start, end):
                if _jwk_private_member(m.group(1), member.group(1), member.group(2)):
                    found = True
                    yield member.start(2), member.end(2), PRIVATE_KEY
        if found:
            pos = max(pos, end)
        else:
            yield None


_PUTTY = _lazy(r"PuTTY-User-Key-File-\d+:")
_PUTTY_END = _lazy(r"Private-MAC:[ \t]*[0-9a-fA-F]+")


# A PuTTY key file (a 16384-bit RSA key included) fits in this many characters after its header;
# its parts are looked for no further, and never past the next header.
_PUTTY_WINDOW = 16384


def putty(text: str) -> Iterator[Span]:
    """Each PuTTY key file: a header, then a Private-Lines within the window and before the next
    header, to its Private-MAC line (or the window's end).

    Read from each Private-Lines back to the last header before it, not from each header on: a
    text of headers with no key after them (a key file's first line, quoted thousands of times)
    costs one search for the word. Each character is read back over once: the search for a
    header stops at the previous Private-Lines, whose last header is the same one (its key is
    given already, or out of reach) or none."""
    lines = text.find(_PUTTY_LINES)
    since = 0  # the previous Private-Lines: the headers before it were looked for
    header_end = -1  # the end of the last key's header: its other Private-Lines add nothing
    while lines != -1:
        header = _header_before(text, since, lines)
        since = lines
        if (
            header is not None
            and header.end() != header_end
            and lines + len(_PUTTY_LINES) <= header.end() + _PUTTY_WINDOW
        ):
            header_end = header.end()
            limit = min(len(text), header_end + _PUTTY_WINDOW)
            following = _PUTTY.search(text, header_end, limit)
            if following is not None:
                limit = following.start()
            mac = _PUTTY_END.search(text, lines, limit)
            yield header.start(), mac.end() if mac else limit, PUTTY_KEY
        lines = text.find(_PUTTY_LINES, lines + 1)


_PUTTY_LINES = "Private-Lines:"


def _header_before(text: str, since: int, lines: int) -> re.Match[str] | None:
    """The last header between ``since`` and the Private-Lines at ``lines``, or None. (No header
    holds a "P" past its first character: none runs across either.)"""
    at = lines
    while (at := text.rfind("PuTTY-User-Key-File-", since, at)) != -1:
        header = _PUTTY.match(text, at, lines)
        if header is not None:
            return header
    return None


# scheme://userinfo@host - the authority ends at the first / ? # (RFC 3986 §3.2); JSON source
# may escape the slashes.
# (only an authority holding a user, an "@" and a host's first character, no colon: "@:" is
# no host; the look-ahead finds it at C speed, where a step of Python for each of a URL list's
# authorities, or each "://a@" of 80,000, cost 60 ms for 400 KB)
_AUTHORITY = _lazy(
    r"(?:://|:\\/\\/)(?=[^\s/?#\"'<>\\]{1,1023}?@[^\s/?#\"'<>\\@:])"
    r"(?P<auth>[^\s/?#\"'<>\\]{1,1024}+)"
)
_SCHEME_TAIL = _lazy(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}\Z")


def userinfo(text: str) -> Iterator[Span]:
    """A URI's userinfo that holds a credential (`_bounded`: past `_MANY_REFUSED` judged and
    refused in one text, a log of URIs each with `${PASS}` for a password, the rest is not
    read; each is a step of Python)."""
    return _bounded(_userinfo_candidates(text), _MANY_REFUSED)


def _userinfo_candidates(text: str) -> Iterator[Span | None]:
    for m in _AUTHORITY.finditer(text):
        auth = m.group("auth")
        at = auth.rfind("@")
        if at <= 0 or at == len(auth) - 1:
            continue
        if not _after_a_scheme(text, m.start()):
            continue
        yield _judged_userinfo(m, at)
    if "#" in text or "?" in text:
        for m in _UNESCAPED_AUTHORITY.finditer(text):
            auth = m.group("auth")
            if ("#" in auth or "?" in auth) and _after_a_scheme(text, m.start()):
                yield _judged_userinfo(m, len(auth) - 1)


def _after_a_scheme(text: str, at: int) -> bool:
    """Whether a scheme's name ends at ``at``, where an authority's "://" starts."""
    return _SCHEME_TAIL.search(text[max(0, at - 32) : at]) is not None


# A password written into a URI without percent-encoding its "#" or "?"
# (postgres://app:Zq8#vR2!mK9p@db.example.com/): by RFC 3986 the authority ends there, but
# connection strings are written so, and the password is the text up to the "@" before a host.
# (one run of one class to the "@", bounded: `re` backtracks through it testing one character)
_UNESCAPED_AUTHORITY = _lazy(
    r"(?:://|:\\/\\/)(?P<auth>[^\s/?#\"'<>\\@:]{1,128}:[^\s/\"'<>\\@]{1,512}@)"
    r"(?=[A-Za-z0-9\[])"
)


def _judged_userinfo(m: re.Match[str], at: int) -> Span | None:
    """The span of the userinfo of ``m``'s authority (its "@" at ``at``), when it holds a
    credential; None when it holds none (a candidate refused)."""
    kind = _userinfo_kind(m.group("auth")[:at])
    if kind is None:
        return None
    start = m.start("auth")
    return start, start + at, kind


def _userinfo_kind(userinfo: str) -> str | None:
    """What a URI's userinfo holds, when it is a credential: a password, or a token standing
    as the user name (`https://<token>@git.example/…`). A user name alone (`ssh://git@host/…`,
    `https://fpa-analyst@sharepoint…`) names an account and grants nothing: OCP-S008 reports
    it on a resource URI, and elsewhere it is no secret."""
    if _is_placeholder(userinfo):
        return None  # (redis://${REDIS_PASSWORD:-}@host: a variable, its default after ":")
    user, colon, password = userinfo.partition(":")
    if colon and password:
        # ${DB_PASSWORD}, $DB_PASSWORD, %(password)s: where the password comes from, not it
        return None if _is_placeholder(password) else URI_PASSWORD
    return USERINFO if _plausible_token(user, _TOKEN_USER) else None


# shorter random-looking user names are account names (user5, svc-01, deploy2026)
_TOKEN_USER = 20


# .netrc: "machine HOST login USER password PASSWORD" (also "default ..."), on one line or
# several. A file's tokens, newlines real or JSON-escaped; the entry is read no further than
# this many characters, and a password is a value with letters and digits, because the same
# words make sentences ("the machine learning login page password reset").
_NETRC_WINDOW = 1024
_NETRC_ENTRY = _lazy(
    r"(?:(?<![A-Za-z0-9_\-])|(?<=\\[rnt]))(?:machine|default)(?=[ \t\r\n]|\\[rnt])"
)
_NETRC_TOKEN = _lazy(r"(?:[^\s\\\"']++|\\[^rnt\s])++")
_NETRC_KEYWORDS = frozenset({"login", "password", "account", "port"})


def netrc(text: str) -> Iterator[Span]:
    pos = 0
    entries = 0  # (read; past `_MANY_REFUSED` with no password found, the rest is not)
    found = 0
    while (m := _NETRC_ENTRY.search(text, pos)) is not None:
        pos = m.end()
        entries += 1
        if entries - found > _MANY_REFUSED:
            return
        tokens = _NETRC_TOKEN.finditer(text, m.end(), min(len(text), m.end() + _NETRC_WINDOW))
        if m.group() == "machine" and next(tokens, None) is None:
            continue  # machine needs its host name
        seen_login = False
        for keyword in tokens:
            word = keyword.group()
            value = next(tokens, None)
            if word not in _NETRC_KEYWORDS or value is None:
                break
            pos = value.end()  # an entry's tokens are read once
            if word == "login":
                seen_login = True
            elif word == "password" and seen_login:
                if _credential_value(_C_PASSWORD, value.group(), prose=True):
                    found += 1
                    yield value.start(), value.end(), PASSWORD
                break


# https:user:pass@host - a special scheme (RFC 3986 says nothing of it; the WHATWG URL parser,
# what browsers run, reads any run of slashes or backslashes after it, none included, as the
# start of an authority). "://" itself is _userinfo's.
# (its scheme found in the text in lower case, the character before it tested apart: `re`
# skips to an "h", a "w" or an "f" at C speed, where (?i) and a look-behind first were tried
# at every character, 35 ms for 680 KB of text holding "@" throughout; 3 now)
_SPECIAL_SCHEME = r"(?:https?|wss?|ftp):"
# ... and not "//" after it, nor "\/\/" (JSON's escape of it), each alone: an authority's own,
# _userinfo's (a page of URLs cost a step of Python for each). RE2 has no look-ahead: its form
# spells out the runs of slashes and backslashes that are not those, none to five and more.
_NOT_AN_AUTHORITY = r"(?!(?://|\\/\\/)(?![/\\]))"
_SPECIAL_SCHEMES = _lazy(_SPECIAL_SCHEME + _NOT_AN_AUTHORITY)
_SLASHED = r"[/\\]"
_UNSLASHED = r"(?:$|[^/\\])"
_SPECIAL_SCHEME_RE2 = _SPECIAL_SCHEME + (
    rf"(?:{_UNSLASHED}|{_SLASHED}{_UNSLASHED}|(?:/\\|\\{_SLASHED}){_UNSLASHED}"
    rf"|{_SLASHED}{{3}}{_UNSLASHED}"
    rf"|(?:/{_SLASHED}{{3}}|\\\\{_SLASHED}{{2}}|\\//{_SLASHED}|\\/\\\\){_UNSLASHED}"
    rf"|{_SLASHED}{{5}})"
)
# (matched where a scheme was found: its case-insensitive scheme is tried there alone)
_SPECIAL_AUTHORITY = _lazy(
    rf"(?i:{_SPECIAL_SCHEME})(?P<slashes>[/\\]{{0,16}}+)(?P<auth>[^\s/\\?#\"'<>]{{1,1024}}+)"
)
_BEFORE_A_SCHEME = frozenset(string.ascii_letters + string.digits + "+.-")


def special_userinfo(text: str) -> Iterator[Span]:
    if ":" not in text:
        return iter(())  # (an e-mail address, a diff's hunk header: an "@" and no scheme's colon)
    return _bounded(_special_userinfo_candidates(text), _MANY_REFUSED)  # (as `userinfo`)


def _special_userinfo_candidates(text: str) -> Iterator[Span | None]:
    find, pos = _scheme_finder(_folded(text)), 0
    while (start := find(pos)) >= 0:
        pos = start + 1
        if start and text[start - 1] in _BEFORE_A_SCHEME:
            continue  # (inside a word: the authority is read only after a scheme of its own)
        m = _SPECIAL_AUTHORITY.match(text, start)
        if m is None:
            continue
        pos = m.end()
        if m.group("slashes") in ("//", "\\/\\/"):
            continue
        auth = m.group("auth")
        at = auth.rfind("@")
        if at <= 0 or at == len(auth) - 1:
            continue
        yield _judged_userinfo(m, at)


def _scheme_finder(low: str) -> Callable[[int], int]:
    """pos -> where the first special scheme in ``low`` (a text in lower case) starts at or
    after pos (-1: none). In a long text `re` reads the next `_SCHEME_NEAR` characters, and
    RE2 the rest if none starts there: `re` reads each character for a scheme's three first
    letters (1.1 ms for 400 KB holding none), and a call of RE2 costs what `re` takes to read
    some sixty (400 KB of URLs, a scheme every 50 characters: 5 ms more by RE2 alone)."""
    search = _SPECIAL_SCHEMES.search
    far = None
    if len(low) >= RE2_RUNS_FROM:
        from app.secrets.engine import re2_searcher

        far = re2_searcher(_SPECIAL_SCHEME_RE2, low.encode("ascii", "replace"))

    def find(pos: int) -> int:
        if far is None:
            scheme = search(low, pos)
            return -1 if scheme is None else scheme.start()
        # (a scheme that starts within the next characters ends within six more, and its
        # look-ahead reads five after it: one further on, its look-ahead maybe cut short, is
        # RE2's to find)
        scheme = search(low, pos, pos + _SCHEME_NEAR + 11)
        if scheme is not None and scheme.start() <= pos + _SCHEME_NEAR:
            return scheme.start()
        return far(pos + _SCHEME_NEAR + 1)

    return find


_SCHEME_NEAR = 64  # characters


# --- a password on a command line: curl -u ops:..., mysql -p..., docker login -p ... ------------

# A command line's value: quoted (256 characters), or a word that ends at a space or a shell
# operator.
_SHELL_VALUE = r"""
    (?:"(?P<dq>[^"\n]{1,256})"|'(?P<sq>[^'\n]{1,256})'|(?P<bare>[^\s"'`|;&<>]{1,256}))
"""


def _quoting(m: re.Match[str]) -> str:
    """Which of a match's groups "dq" (double-quoted), "sq" (single-quoted) and "bare" (when
    the pattern has one) holds its value."""
    return "dq" if m.group("dq") is not None else "sq" if m.group("sq") is not None else "bare"


def _shell_literal(m: re.Match[str]) -> str | None:
    """The group of a `_SHELL_VALUE` match that holds a literal: None for the next flag, a
    variable or a placeholder."""
    group = _quoting(m)
    value = m.group(group)
    return None if value.startswith(("-", "$", "%")) or _is_placeholder(value) else group


# Each form reads at most 256 characters of its command line between the command and the flag.
_COMMAND_LINE_PASSWORD = _lazy(
    r"""
    (?<![\w-])
    (?:
        (?:--(?:password|passwd|passphrase|pass)             # any command's --password,
          |-(?i:password|passwd)(?=[ \t:]))                 # a PowerShell cmdlet's -Password
        (?P<op>=|:|[ \t]+)
      | (?i:psexec(?:64)?(?:\.exe)?)[ \t][^\n|;&]{0,256}?(?<=[ \t])-p[ \t]+  # PsExec -u … -p …
      | (?i:plink|pscp|psftp)(?:\.exe)?[ \t][^\n|;&]{0,256}?(?<=[ \t])-pw[ \t]+  # PuTTY's
      | (?:curl|wget)[ \t][^\n|;&]{0,256}?(?<=[ \t])(?:-u|--user)(?:=|[ \t]*)
        ["']?[^\s:"'`]{0,128}:                              # curl -u user:... (or :... alone)
      | (?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb)[ \t][^\n|;&]{0,256}?(?<=[ \t])-p
        (?=[^\s\-])                                        # -p... with no space: -p alone asks
      | sshpass[ \t]+-p[ \t]*
      | (?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login[ \t]
        [^\n|;&]{0,256}?(?<=[ \t])-p(?:=|[ \t]+)
      | redis-cli[ \t][^\n|;&]{0,256}?(?<=[ \t])-a[ \t]+
      | ldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn)[ \t][^\n|;&]{0,256}?
        (?<=[ \t])-w[ \t]*                                  # the bind password
      | smbclient[ \t][^\n|;&]{0,256}?(?<=[ \t])(?:-U|--user=?)[ \t]*
        ["']?[^\s%"'`]{1,128}%                              # -U user%password
      | az[ \t]+login[ \t][^\n|;&]{0,256}?(?<=[ \t])-p(?:=|[ \t]+)
      | ssh-keygen[ \t][^\n|;&]{0,256}?(?<=[ \t])-N[ \t]*       # the new key's passphrase
      | openssl[ \t][^\n|;&]{0,256}?(?<=[ \t])-k[ \t]+          # enc's password
      | zip[ \t][^\n|;&]{0,256}?(?<=[ \t])-P[ \t]+              # the archive's password
      | (?:sqlcmd|osql|bcp)(?:\.exe)?[ \t][^\n|;&]{0,256}?(?<=[ \t])-P[ \t]*  # SQL Server's
      | 7za?[ \t][^\n|;&]{0,256}?(?<=[ \t])-p(?=[^\s\-])        # 7-Zip's, with no space
      | -(?:pass(?:out|in|word|phrase)?)[ \t]+pass:        # openssl -passout pass:...
      | -(?:src|dest)?(?:store|key)pass[ \t]+               # keytool -storepass ...
      | --(?:password-stdin|with-token)[ \t]*<<<[ \t]*     # a here-string to standard input
      | rabbitmqctl[ \t](?:[^\n|;&]{0,256}?[ \t])?(?:add_user|change_password)[ \t]+
        [^\s|;&<>]{1,128}[ \t]+                              # the user, then the password
      | (?i:net)[ \t]+(?i:use)[ \t][^\n|;&]{0,256}?(?<=[ \t])/(?i:user):
        [^\s"'`]{1,128}[ \t]+                                 # Windows' net use … /user:u …
      | (?i:net)[ \t]+(?i:user)[ \t]+(?:"[^"\n]{1,128}"|[^\s"'`/|;&<>]{1,128})[ \t]+
        (?=[^\s/*])                            # net user NAME PASSWORD (not /add, not * asks)
      | lftp[ \t][^\n|;&]{0,256}?(?<=[ \t])-u[ \t]+["']?[^\s,"'`]{1,128},  # lftp -u user,…
      | security[ \t]+add-(?:generic|internet)-password[ \t][^\n|;&]{0,256}?(?<=[ \t])-w[ \t]+
                                                         # macOS's keychain item's password
      | snmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|inform|status|df|netstat)
        [ \t][^\n|;&]{0,256}?(?<=[ \t])-[AX][ \t]*         # SNMPv3's auth and privacy passphrases
      | (?:(?:x|wl|sdl-)?freerdp3?|rdesktop)(?:\.exe)?[ \t][^\n|;&]{0,256}?(?<=[ \t])
        (?:/p:|-p[ \t]+)                                     # an RDP client's password
      | nmcli[ \t][^\n|;&]{0,256}?(?<=[ \t])
        (?:password|(?:wifi-sec|802-11-wireless-security)\.psk)[ \t]+  # NetworkManager's
    )
    """
    + _SHELL_VALUE,
    re.X,
)
# A long flag naming a key, a token or a secret, its value the next argument, after a space:
# `mycli deploy --api-key …`, `--client-secret …`, `--auth-token …` (a password's flag is
# `_COMMAND_LINE_PASSWORD`'s; with "=", a name and its value, `_NAME_OP`'s). The value is
# judged as prose judges one after such a name: generated-looking, 12 characters at least, so
# `--token-file ./t`, `--key-vault-name prod`, `--token $TOKEN` and `--secret-name db` tell
# none (their names are no credential's, or their values no key's).
_CREDENTIAL_FLAG = _lazy(
    r"(?<![\w-])--(?P<name>[A-Za-z][A-Za-z0-9_.\-]{0,63}+)[ \t]+" + _SHELL_VALUE, re.X
)


def credential_flag(text: str) -> Iterator[Span]:
    """The value after each long flag named for a key, a token or a secret (`_bounded`: a
    command's help of a thousand such flags is read no further)."""
    return _bounded(map(_flag_value, _CREDENTIAL_FLAG.finditer(text)), _MANY_REFUSED)


def _flag_value(m: re.Match[str]) -> Span | None:
    group = _shell_literal(m)
    if group is None:
        return None  # (the next flag, a variable, a placeholder)
    cls = _classify_name(m.group("name"))
    if cls is None or cls in (_C_PASSWORD, _C_BARE_PASSWORD):
        return None
    kind = _credential_value(cls, m.group(group), prose=True)
    return None if kind is None else (m.start(group), m.end(group), kind)


# htpasswd -b takes the password as its last argument: after the file and the user, or after
# the user alone with -n (which prints the entry instead of writing a file)
_HTPASSWD = _lazy(
    r"""
    htpasswd(?<![\w-]htpasswd)(?P<flags>(?:[ \t]+-[A-Za-z]{1,8}(?:[ \t]+[0-9]{1,3})?){1,8})[ \t]+
    (?:[^\s|;&<>]{1,256}[ \t]+)?[^\s|;&<>]{1,128}[ \t]+
    """
    + _SHELL_VALUE
    + r"""
    (?=[ \t]*(?:$|[\n|;&<>)]))
    """,
    re.X,
)


def _pass_alone(flag: str) -> bool:
    return flag.startswith("--pass") and not flag.startswith(
        ("--password", "--passwd", "--passphrase")
    )


def command_line_password(text: str) -> Iterator[Span]:
    """A password given on a command line. "--password flag" in a sentence is prose: a value
    after a space counts when it has letters and digits, as a password told in prose.
    (`_bounded`: a command's help of a thousand flags taking no password is read no further.)"""
    raw = _read_low(_folded(text)) if len(text) >= RE2_RUNS_FROM else None
    commands = _matched_at_leads(_COMMAND_LINE_PASSWORD, _COMMAND_LEADS, text, raw, after="")
    yield from _bounded(map(_command_line_value, _with_snmp_second(commands)), _MANY_REFUSED)
    if "htpasswd" in text:
        # (each "htpasswd" tried, a refusal when it makes none: 400 KB of "htpasswd -b f u "
        # cost 20 ms of tries that each read on to the next)
        yield from _bounded(map(_htpasswd_value, _htpasswd_tries(text)), _MANY_REFUSED)


# Where a match of `_COMMAND_LINE_PASSWORD` may start (`_matched_at_leads`): a flag of its, or a
# command's name (keytool's whole: "-key" alone led every "--api-key"). (`re` tries the regex,
# a look-behind first, at each character: 15 ms for 400 KB of a command's flags that hold
# none, " -p x" repeated; RE2 finds these in one pass.)
_COMMAND_LEADS = (
    r"-(?:-?pass|(?:src|dest)?(?:store|key)pass|-with-token)|psexec|plink|pscp|psftp|curl|wget"
    r"|mysql|mariadb"
    r"|sshpass|docker|podman|nerdctl|buildah|skopeo|oras|helm|redis-cli|ldap|smbclient|az"
    r"|ssh-keygen|openssl|zip|sqlcmd|osql|bcp|7z|rabbitmqctl|net|lftp|security|snmp"
    r"|(?:x|wl|sdl-)?freerdp|rdesktop|nmcli"
)


# SNMPv3's two passphrases on one command line (snmpwalk … -A … -x AES -X …, in either order):
# the form above reads the first, this the second. (Its "op" never set: judged as the first
# is, as data.)
_SNMP_SECOND = _lazy(r"[^\n|;&]{0,256}?(?<=[ \t])-[AX](?P<op>(?!))?[ \t]*" + _SHELL_VALUE, re.X)


def _with_snmp_second(
    commands: Iterable[re.Match[str]],
) -> Iterator[re.Match[str]]:
    """``commands``, each SNMP command's second passphrase after it (`_SNMP_SECOND`)."""
    for m in commands:
        yield m
        if m.group().startswith("snmp"):
            second = _SNMP_SECOND.match(m.string, m.end())
            if second is not None:
                yield second


def _htpasswd_tries(text: str) -> Iterator[re.Match[str] | None]:
    """`_HTPASSWD` tried at each "htpasswd" in ``text`` past the last match (None: none there)."""
    at = text.find("htpasswd")
    while at >= 0:
        m = _HTPASSWD.match(text, at)
        yield m
        at = text.find("htpasswd", at + 1 if m is None else m.end())


def _htpasswd_value(m: re.Match[str] | None) -> Span | None:
    """The password ``m`` gives with -b, if it gives one."""
    if m is None:
        return None
    group = _shell_literal(m)
    if group is None or "b" not in m.group("flags"):
        return None
    if _credential_value(_C_PASSWORD, m.group(group)) is None:
        return None
    return m.start(group), m.end(group), PASSWORD


def _command_line_value(m: re.Match[str]) -> Span | None:
    """The password a match of `_COMMAND_LINE_PASSWORD` gives, if it gives one."""
    group = _shell_literal(m)
    if group is None:
        return None
    value = m.group(group)
    if group == "bare" and _metavariable(m.string, value, m.start(group), m.end(group)):
        # a command's help names what a flag takes in capitals, in its language's word
        # (wget's "--password=CONTRASEÑA   … a CONTRASEÑA", "--password=LÖSEN   ställ in…")
        return None
    # (a value after a space, and after --pass alone, which also names a compiler's pass,
    # clippy's --pass=early: judged as prose judges a password, letters and digits)
    spaced = m.group("op") is not None and (m.group("op") != "=" or _pass_alone(m.group()))
    if _credential_value(_C_PASSWORD, value, prose=spaced) is None and not (
        group != "bare" and _passphrase(value)
    ):
        return None
    return m.start(group), m.end(group), PASSWORD


def _metavariable(text: str, value: str, start: int, end: int) -> bool:
    """Whether ``value`` (from ``start`` to ``end``) is what a command's help writes for the
    value a flag takes: a word in capitals (a hyphen or an underscore may join two), of any
    script, that the help's columns follow (two spaces or a tab after it) or its text names
    again within `_HELP_REACH` (on the flag's line, or the next). (A password of capitals on a
    command line has one space after it, if any.)"""
    if not (value.isupper() and value.replace("-", "").replace("_", "").isalpha()):
        return False
    if text.startswith("  ", end) or text.startswith("\t", end):
        return True
    return (
        text.find(value, end, end + _HELP_REACH) >= 0
        or text.find(value, max(0, start - _HELP_REACH), start) >= 0
    )


# How far from a flag's value a command's help names it again. (Counted in the whole text, a
# text of 16,000 lines "--password=PASSAAA as PASSAAA", each value distinct, cost 4.4 s for
# 544 KB: the text read once for each.)
_HELP_REACH = 256


# A package manager's or a tool's command given its registry's or service's credential, each
# as its own documentation writes it: a token (Composer's and Poetry's stored tokens, ngrok's
# authtoken, cargo login, nuget setapikey and push -k, vsce and ovsx publish -p) ...
_TOOL_TOKEN = r"""
    composer[ \t]+config(?:[ \t]+-{1,2}[a-z]{1,8})*[ \t]+
      (?:github-oauth|gitlab-oauth|gitlab-token|bearer)\.[^\s]{1,253}[ \t]+
  | poetry[ \t]+config(?:[ \t]+--local)?[ \t]+pypi-token\.[^\s]{1,128}[ \t]+
  | ngrok[ \t]+(?:config[ \t]+add-)?authtoken[ \t]+
  | cargo[ \t]+login[ \t]+
  | nuget(?:\.exe)?[ \t]+setapikey[ \t]+
  | (?:dotnet[ \t]+)?nuget(?:\.exe)?[ \t]+push[ \t][^\n|;&]{0,256}?(?<=[ \t])
      (?:-k|--api-key|-ApiKey)[ \t]+
  | (?:vsce|ovsx)[ \t]+publish[ \t][^\n|;&]{0,256}?(?<=[ \t])(?:-p|--pat)[ \t]+
  | (?P<wallet>bitcoin-cli(?:[ \t]+-[^\s]{1,128})*[ \t]+importprivkey[ \t]+)
"""
# ... or a password after its user (Composer's and Poetry's http-basic, twine upload -p, dotnet
# nuget add source -p, wpa_passphrase SSID …)
_TOOL_PASSWORD = r"""
    (?:composer|poetry)[ \t]+config(?:[ \t]+-{1,2}[a-z]{1,8})*[ \t]+
      http-basic\.[^\s]{1,253}[ \t]+[^\s-][^\s]{0,127}[ \t]+
  | twine[ \t]+upload[ \t][^\n|;&]{0,256}?(?<=[ \t])-p[ \t]+
  | dotnet[ \t]+nuget[ \t]+(?:add|update)[ \t]+source[ \t][^\n|;&]{0,256}?(?<=[ \t])
      (?:-p|--password)[ \t]+
  | wpa_passphrase[ \t]+(?:"[^"\n]{1,32}"|[^\s"]{1,32})[ \t]+
"""


# A command that sets a named variable, secret or setting to a value, as the next word: Windows'
# setx NAME VALUE, fish's set -x NAME VALUE, aws configure set NAME VALUE, git config [--global]
# NAME VALUE, gh secret set NAME --body VALUE, dotnet user-secrets set "Section:Name" VALUE, a
# Dockerfile's ENV NAME VALUE (its older form, a line's first word), Apache's SetEnv NAME VALUE,
# nginx's fastcgi_param NAME VALUE; (and its uwsgi_ and scgi_param); and Redis's requirepass and
# masterauth directives. The value is judged as a member's value under that name would be.
_COMMAND_VARIABLE = _lazy(
    r"""
    (?<![\w-])
    (?:
        (?:setx|set[ \t]+-[A-Za-z]{1,4}|aws[ \t]+configure[ \t]+set
          |git[ \t]+config(?:[ \t]+--(?:global|system|local|worktree))?
          |gh[ \t]+secret[ \t]+set|dotnet[ \t]+user-secrets[ \t]+set
          |ENV|SetEnv|(?:fastcgi|uwsgi|scgi)_param)
        # (.NET's configuration names a setting by its path, "Stripe:SecretKey", quoted)
        [ \t]+(?P<nq>"?)(?P<name>[A-Za-z_][A-Za-z0-9_.:\-]{0,127})(?P=nq)[ \t]+
        (?:(?:--body|-b)[ \t]+)?
      | (?P<directive>requirepass|masterauth)[ \t]+
      | (?P<tool>"""
    + _TOOL_TOKEN
    + r"""|(?P<password>"""
    + _TOOL_PASSWORD
    + r"""))
    )
    """
    + _SHELL_VALUE,
    re.X,
)


# A network device's configuration (Cisco IOS and its kin): a user's or the enable password in
# clear (type 0, or no type) or in the reversible type 7, an SNMP community, a TACACS+ or
# RADIUS server's key, an IKE pre-shared key, a key chain's key-string. (Hashes, types 5, 8
# and 9, are left alone, as a shadow file's are.)
_DEVICE_PASSWORD = _lazy(
    r"""
    (?<![\w-])(?:
        user(?:name)?[ \t]+(?P<user>\S{1,64})(?:[ \t]+privilege[ \t]+\d{1,2})?[ \t]+
          (?:password|secret)
      | (?P<alone>password|passwd)  # (a line's first word: msmtp's, a line's in IOS)
      | enable[ \t]+(?:password|secret)(?:[ \t]+level[ \t]+\d{1,2})?
      | snmp-server[ \t]+community
      | (?:tacacs-server|radius-server)(?:[ \t]+host[ \t]+\S{1,64})?[ \t]+key
      | crypto[ \t]+isakmp[ \t]+key
      | key-string
    )(?:[ \t]+(?P<type>\d))?[ \t]+(?P<value>[^\s]{1,128})
    """,
    re.X,
)
# (the default community every tutorial names; a hash's types)
_NOT_DEVICE_SECRETS = frozenset({"public"})
_HASH_TYPES = frozenset("4589")


def device_password(text: str) -> Iterator[Span]:
    return _bounded(map(_device_secret, _DEVICE_PASSWORD.finditer(text)))


def _device_secret(m: re.Match[str]) -> Span | None:
    kind_of_value = m.group("type")
    value = m.group("value")
    if m.group().startswith("user") and m.group("user") in _CONJUNCTIONS:
        return None  # prose: "the username or password", "username and password ."
    closing = _CLOSING_TAG.search(value)
    if closing is not None:
        value = value[: closing.start()]  # (a page's line: "enable secret 0 …</p>")
    if kind_of_value in _HASH_TYPES or value.lower() in _NOT_DEVICE_SECRETS:
        return None
    if kind_of_value == "7":
        # the password reversibly encoded, in hexadecimal
        return (m.start("value"), m.end("value"), PASSWORD) if _TYPE_7.fullmatch(value) else None
    if kind_of_value not in (None, "0"):
        return None
    # a configuration's line as written, or quoted in a sentence, judged as prose judges a
    # password; a user's or the enable password with no type only as a line of its own that
    # it ends ("username and password without a browser", "the username with password …" are
    # prose)
    text, start, end = m.string, m.start(), m.end()
    line_end = text.find("\n", end)
    at_line = not text[text.rfind("\n", 0, start) + 1 : start].strip()
    ends = not text[end : len(text) if line_end == -1 else line_end].strip()
    alone = at_line and ends
    if m.group("alone") is not None and not (alone and kind_of_value is None):
        return None  # ("password X" with more after it is a sentence's)
    # (with no type, only fetchmail's "poll … user bob password …" may have words before it
    # on its line, which it ends; IOS's username and enable lines stand alone)
    if (
        kind_of_value is None
        and m.group().startswith(("user", "enable"))
        and not alone
        and (not ends or m.group().startswith(("username", "enable")))
    ):
        return None
    # (with no type, judged as prose judges one: "username jdoe password reset", a ticket's
    # title, is none)
    if _credential_value(_C_PASSWORD, value, prose=not at_line or kind_of_value is None) is None:
        return None
    return m.start("value"), m.start("value") + len(value), PASSWORD


_TYPE_7 = _lazy(r"[0-9A-Fa-f]{4,128}")
_CONJUNCTIONS = frozenset({"or", "and", "and/or", "/", "&"})
_CLOSING_TAG = _lazy(r"</[A-Za-z][A-Za-z0-9]{0,16}>")


# A command that stores a secret: what it is given is one, whatever its name (Azure Key Vault's
# secret set, AWS Secrets Manager's create-secret, put-secret-value and update-secret; Parameter
# Store's put-parameter when the parameter is a SecureString or named for a credential).
_SECRET_STORE_COMMAND = _lazy(
    r"""
    (?<![\w-])(?P<command>
        (?i:az)[ \t]+(?i:keyvault)[ \t]+secret[ \t]+set
      | aws[ \t]+secretsmanager[ \t]+(?:create-secret|put-secret-value|update-secret)
      | aws[ \t]+ssm[ \t]+put-parameter)
    (?P<arguments>[ \t][^\n|;&]{0,512})
    """,
    re.X,
)
_STORED_VALUE = _lazy(r"(?<=[ \t])--(?:value|secret-string)(?:=|[ \t]+)" + _SHELL_VALUE, re.X)
_PARAMETER_NAME = _lazy(r"(?<=[ \t])--name(?:=|[ \t]+)" + _SHELL_VALUE, re.X)


def secret_store_command(text: str) -> Iterator[Span]:
    return _bounded(map(_stored_secret, _SECRET_STORE_COMMAND.finditer(text)))


def _stored_secret(m: re.Match[str]) -> Span | None:
    start, end = m.span("arguments")
    value = _STORED_VALUE.search(m.string, start, end)
    if value is None:
        return None
    group = _shell_literal(value)
    if group is None or value.group(group).startswith("{"):
        return None  # (a variable, a file; JSON, whose members the other detectors read)
    if m.group("command").endswith("put-parameter") and "SecureString" not in m["arguments"]:
        named = _PARAMETER_NAME.search(m.string, start, end)
        name = named.group(_quoting(named)) if named is not None else ""
        if _classify_name(_last_part(name)) is None:
            return None  # a plain parameter (a region, a URL)
    if _credential_value(_C_SECRET, value.group(group)) is None:
        return None
    return value.start(group), value.end(group), SECRET


def command_variable(text: str) -> Iterator[Span]:
    """The value a command sets a credential's variable (or Redis's password) to (`_bounded`:
    a text of thousands of setx API_KEY %API_KEY% is read for a hundred)."""
    return _bounded(map(_command_value, _COMMAND_VARIABLE.finditer(text)))


def set_name_to(text: str) -> Iterator[Span]:
    """The value a sentence says a credential's variable was set to (`_bounded`)."""
    return _bounded(_set_to_values(text))


# ... and as a sentence tells it: "Set DB_PASSWORD to …", "I changed `API_KEY` to `…`" (a note
# or a model's summary of what it did), the name as code writes it, in a code span or not.
# The value is judged as prose judges one. Searched in the text in lower case (the offsets are
# the text's), each verb's start tested apart: `re` skips to a verb's first letter at C speed,
# where a look-behind or a case-insensitive alternation first is tried at every character
# (12 ms for 400 KB of prose).
_SET_NAME_TO = _lazy(
    r"(?:set|changed|updated|rotated|reset)[ \t]+(?:the[ \t]+)?"
    r"`?(?P<name>[a-z_][a-z0-9_.\-]{0,127}+)`?" + SET_TO_WHOSE + r"[ \t]+to[ \t]+"
    r"(?:`(?P<bq>[^`\n]{1,256}+)`|\"(?P<dq>[^\"\n]{1,256}+)\"|'(?P<sq>[^'\n]{1,256}+)'"
    r"|(?P<bare>[^\s\"'`|;&<>]{1,256}+))"
)


def _set_to_values(text: str) -> Iterator[Span | None]:
    low = _folded(text)
    for m in _SET_NAME_TO.finditer(low):
        if m.start() and low[m.start() - 1] in _NOT_BEFORE_A_VERB:
            continue
        group = m.lastgroup or "bare"
        start = m.start(group)
        value = text[start : m.end(group)]
        if group == "bare":
            value = value.rstrip(".,;:)!?")
        cls = _classify_name(text[m.start("name") : m.end("name")])
        if cls is None or not value or value.startswith(("$", "%")):
            yield None
            continue
        kind = _credential_value(cls, value, prose=True)
        yield None if kind is None else (start, start + len(value), kind)


def _command_value(m: re.Match[str]) -> Span | None:
    group = _shell_literal(m)
    if group is None:
        return None
    if m.string.startswith("ENV", m.start()) and m.string[
        m.string.rfind("\n", 0, m.start()) + 1 : m.start()
    ].strip(" \t"):
        return None  # (a Dockerfile's ENV is its line's first word; tested here, where the
        # regex leads with literals that `re` skips to: a line's start first is tried at every
        # character, 11 ms for 400 KB)
    value = m.group(group)
    if m.group("tool") is not None:
        # (a token judged as prose judges a key, a password as prose judges one, a wallet's
        # key, Bitcoin Core's importprivkey WIF, as a private key)
        cls = (
            _C_PASSWORD
            if m.group("password") is not None
            else _C_PRIVATE_KEY
            if m.group("wallet") is not None
            else _C_TOKEN
        )
        told = _credential_value(cls, value, prose=True)
        return None if told is None else (m.start(group), m.end(group), told)
    if m.group("directive") is not None:
        # judged as prose judges a password: redis.conf's own example, commented out in every
        # copy of it, is "requirepass foobared"
        told = _credential_value(_C_PASSWORD, value, prose=True)
        kind = PASSWORD if told is not None else None
    else:
        kind = _entry_kind(m.group("name"), value)
    return None if kind is None else (m.start(group), m.end(group), kind)


# An Expect script's answer to a password's prompt: expect "…password…", then send "…\r" on the
# same line (expect "Password:" { send "…\r" }) or on one of the next three. A variable ($pw)
# or a command's result ([exec …]) is none.
_EXPECT_SEND = _lazy(
    r"""
    (?<![\w-])expect(?:[ \t]+-[a-z]{1,8})*[ \t]+
    (?:"[^"\n]{0,128}?|\{[^}\n]{0,128}?|[^\s"{]{0,128}?)(?i:passw|passph|assword)[^\n]{0,256}?
    (?:\n(?:[ \t]*(?:\#[^\n]{0,256})?\n){0,2}[ \t]*|[ \t{]+)
    send(?:[ \t]+-[a-z]{1,8})*(?:[ \t]+--)?[ \t]+
    "(?P<value>(?:[^"\\\r\n$\[]|\\[^rn\r\n]){1,128}+)(?:\\r|\\n|\r)?"
    """,
    re.X,
)


def expect_send(text: str) -> Iterator[Span]:
    """The password an Expect script sends after a prompt for one (`_bounded`)."""
    return _bounded(map(_expect_value, _EXPECT_SEND.finditer(text)))


def _expect_value(m: re.Match[str]) -> Span | None:
    value = m.group("value")
    if _is_placeholder(value) or _credential_value(_C_PASSWORD, value) is None:
        return None
    return m.start("value"), m.end("value"), PASSWORD


# A password piped to what reads it from standard input: echo PW | docker login -u bot
# --password-stdin, echo TOKEN | gh auth login --with-token, echo PW | sudo -S … (what a CI log
# shows when a step echoes the literal, not a variable).
_STDIN_PASSWORD = _lazy(
    r"""
    (?<![\w-])(?:echo|printf)[ \t]+(?:-[ne]{1,2}[ \t]+|(?:"%s"|'%s')[ \t]+)?
    """
    + _SHELL_VALUE
    + r"""
    [ \t]*\|[^\n|;&]{0,256}?
    (?:--password-stdin|--with-token|(?i:sudo)[^\n|;&]{0,64}?[ \t]-[A-Za-z]{0,8}S(?![A-Za-z]))
    """,
    re.X,
)


def stdin_password(text: str) -> Iterator[Span]:
    """The literal an echo pipes to what reads a password from its standard input (a
    variable, a placeholder or a value no password could be is none). (`_bounded`: 400 KB of
    "echo x | docker login --password-stdin " piped 10,000 values, each judged in Python.)"""
    return _bounded(map(_stdin_value, _STDIN_PASSWORD.finditer(text)), _MANY_REFUSED)


def _stdin_value(m: re.Match[str]) -> Span | None:
    group = _shell_literal(m)
    if group is None or _credential_value(_C_PASSWORD, m.group(group)) is None:
        return None
    return m.start(group), m.end(group), PASSWORD


# --- a setter's literal argument: ds.setPassword("…"), builder.withApiKey("…"), .password("…") ---

# (a quote may be escaped: the call quoted in a JSON string)
_SETTER = _lazy(
    r"""
    (?:(?<![A-Za-z0-9_])(?:[Ss]et|[Ww]ith)_?|\.)(?P<name>[A-Za-z][A-Za-z0-9_]{0,63})
    \([ \t]*(?:\\?"(?P<dq>[^"\\\n]{1,256})\\?"|\\?'(?P<sq>[^'\\\n]{1,256})\\?')[ \t]*\)
    """,
    re.X,
)
# What a builder's method of one word names (.password("…")); any other name after a "." is a
# call that reads or tests one (keyring.get_password("ledger"), verify_password("…")).
_BUILDER_NAMES = frozenset(
    [
        *("password", "passwd", "apikey", "api_key", "clientsecret", "client_secret"),
        *("secret", "token", "accesstoken", "access_token", "secretkey", "secret_key"),
    ]
)


def setter_argument(text: str) -> Iterator[Span]:
    """The string literal a setter or a builder is given, when the member it sets is a
    credential's: ds.setPassword("…"), config.withApiKey("…"), set_token('…'),
    DataSource.builder().password("…"), Go's SetPassword("…"). (`_bounded`: 400 KB of
    setPassword("x") was 23,000 calls judged in Python.)"""
    return _bounded(_setter_candidates(text), _MANY_REFUSED)


def _setter_candidates(text: str) -> Iterator[Span | None]:
    """`setter_argument`'s hits, and None for each call it refuses."""
    for m in _SETTER.finditer(text):
        name = m.group("name")
        if m.group()[0] == "." and name.lower() not in _BUILDER_NAMES:
            low = name.lower()
            if not low.startswith(("set", "with")):
                continue  # obj.get_password("ledger"): a reading, not a setting
            name = name[4:] if low.startswith("with") else name[3:]
        cls = _classify_name(name.lstrip("_"))
        if cls is None:
            continue
        group = _quoting(m)
        literal = m.group(group)
        if literal != literal.strip():
            continue  # a prompt's label: readUserInfo.password('       Again:     ')
        kind = _credential_value(cls, literal)
        yield None if kind is None else (m.start(group), m.end(group), kind)


# --- a user and a password a call takes: HTTPBasicAuth("admin", "…"), smtp.login("me", "…") -----

# The constructors and calls of common libraries that take a user and a password as their
# first two arguments (or, for JDBC's getConnection, after the URL): Python's requests
# (HTTPBasicAuth, HTTPDigestAuth), aiohttp (BasicAuth), smtplib, ftplib and imaplib (.login),
# .NET (NetworkCredential), Apache's HTTP client (UsernamePasswordCredentials), Java's
# PasswordAuthentication, OkHttp (Credentials.basic), the AWS SDK for Java (BasicAWSCredentials:
# a key id and its secret). The two arguments string literals, each bounded.
_CREDENTIAL_CALL = _lazy(
    r"""
    (?<![A-Za-z0-9_])
    (?P<call>HTTP(?:Basic|Digest)Auth|BasicAuth|NetworkCredential|UsernamePasswordCredentials
      |PasswordAuthentication|Credentials\.basic|BasicAWSCredentials|login|getConnection
      |DirectoryEntry)
    [ \t]*\([ \t\r\n]*
    (?:(?<=getConnection\()[^,()"'\n]{1,256}+,[ \t]*)?      # JDBC's URL, a variable's name
    (?:(?<=DirectoryEntry\()[ \t\r\n]*(?P<q0>\\?["'])[^"'\\\n]{1,256}+(?P=q0)
      [ \t\r\n]*,[ \t\r\n]*)?                                # .NET's LDAP path
    (?P<q1>\\?["'])(?:[^"'\\\n]|\\{1,2}[A-Za-z0-9_.$\-]){1,256}+(?P=q1)    # (DOMAIN\\user)
    [ \t\r\n]*,[ \t\r\n]*
    (?P<q2>\\?["'])(?P<password>[^"'\\\n]{1,256}+)(?P=q2)
    """,
    re.X,
)


# ... and calls whose first argument is where to connect, a literal or a variable, the user and
# the password after it: PHP's mysqli and PDO (a host, a DSN), Python's MySQLdb, JDBC's URL as
# a literal
_CONNECTION_CALL = _lazy(
    r"""
    (?<![A-Za-z0-9_])
    (?P<call>mysqli_connect|mysql_p?connect|new[ \t]+(?:mysqli|PDO)|MySQLdb\.connect|getConnection)
    [ \t]*\([ \t\r\n]*
    (?:[^,()"'\n]{1,256}+|(?P<q0>\\?["'])[^"'\\\n]{0,256}+(?P=q0))[ \t\r\n]*,[ \t\r\n]*
    (?P<q1>\\?["'])[^"'\\\n]{1,256}+(?P=q1)
    [ \t\r\n]*,[ \t\r\n]*
    (?P<q2>\\?["'])(?P<password>[^"'\\\n]{1,256}+)(?P=q2)
    """,
    re.X,
)


_ANONYMOUS = _lazy(r"(?i:anonymous|ftp)\\?[\"']")


def credential_call(text: str) -> Iterator[Span]:
    """The password (or secret) a call takes after its user (or key id)."""
    calls = _CREDENTIAL_CALL.finditer(text)
    if "onnect" in text or "new" in text:  # (connect, getConnection; new mysqli, new PDO)
        calls = chain(calls, _CONNECTION_CALL.finditer(text))
    for m in calls:
        literal = m.group("password")
        if literal != literal.strip():
            continue  # a prompt's label, as a setter's
        if _ANONYMOUS.match(m.string, m.end("q1")):
            continue  # an FTP server's anonymous login, an e-mail address its "password"
        if _credential_value(_C_PASSWORD, literal) is not None:
            yield m.start("password"), m.end("password"), PASSWORD


# --- values a structure names: SQL's INSERT, Terraform's variable, HTML's input, CSV's column ---

# INSERT INTO users (name, password) VALUES ('app', '…'), ('ops', '…'): each row's literal in
# a column named for a credential
_SQL_INSERT = _lazy(
    r"(?<![\w-])insert[ \t]+into[ \t]+[^\s(]{1,128}[ \t]*\((?P<columns>[^()\n]{1,1024})\)"
    r"[ \t\r\n]*values[ \t\r\n]*",
    re.IGNORECASE,
)
_SQL_ROW = _lazy(r"\((?P<row>(?:'(?:[^'\n]|'')*+'|[^()'\n])*+)\)[ \t\r\n]*,?[ \t\r\n]*")
_SQL_ITEM = _lazy(r"[ \t\r\n]*(?:'(?P<quoted>(?:[^'\n]|'')*+)'|[^,]*+)[ \t\r\n]*(?:,|$)")
_SQL_ROWS = 1000  # rows read after one INSERT (each of bounded length: the reading stays linear)


def sql_insert(text: str) -> Iterator[Span]:
    """The literals an INSERT gives a column named for a credential (a password's with letters
    and digits, a key's generated-looking, as in prose: a table of fixtures' 'x' is none).
    (`_bounded`: 400 KB of one-row INSERTs was 7,000 statements read in Python.)"""
    return _bounded(_insert_candidates(text), _MANY_REFUSED)


def _insert_candidates(text: str) -> Iterator[Span | None]:
    """`sql_insert`'s hits, and None for each literal it refuses."""
    for m in _SQL_INSERT.finditer(text):
        columns = [_classify_name(c.strip().strip('`"[]')) for c in m.group("columns").split(",")]
        if not any(columns):
            continue
        pos = m.end()
        for _ in range(_SQL_ROWS):
            row = _SQL_ROW.match(text, pos)
            if row is None:
                break
            pos = row.end()
            at = row.start("row")
            for cls in columns:
                item = _SQL_ITEM.match(text, at, row.end("row"))
                if item is None or item.end() == at:
                    break
                at = item.end()
                quoted = item.group("quoted")
                if cls is not None and quoted is not None:
                    value = quoted.replace("''", "'")
                    kind = _credential_value(cls, value, prose=True)
                    yield None if kind is None else (item.start("quoted"), item.end("quoted"), kind)


# A YAML mapping named for a credential whose value sits one level down, as CloudFormation
# declares a template's parameter (DBPassword:, then Type: String, NoEcho: true, Default: …)
# and a parameters file or a chart wraps one (adminPassword:, then value: …): each such key
# line's mapping is found by walking back up to 16 lines to the first less indented, which
# must be a name alone on its line (a list's "- name: DB_PASSWORD" entry is `_name_then_value`'s).
_YAML_WRAPPED = _lazy(
    rf"\n(?P<indent>[ \t]+)(?:{'|'.join(_WRAPPED_VALUES)}):[ \t]*"
    # (a plain value may hold "#": only after a space does one start a comment)
    r"""(?:"(?P<dq>[^"\n]{1,256})"|'(?P<sq>[^'\n]{1,256})'|(?P<bare>[^\s"'#]\S{0,255}))"""
    r"[ \t]*(?=\r?\n|$|[ \t]#)"
)
_YAML_MAPPING = _lazy(r"[ \t]*(?:-[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127}):[ \t]*\r?")
_YAML_LINES_BACK = 16


def yaml_wrapped_value(text: str) -> Iterator[Span]:
    """`_yaml_candidates`' spans, a hundred values of credentials' mappings refused at most."""
    return _bounded(_yaml_candidates(text))


def _yaml_candidates(text: str) -> Iterator[Span | None]:
    # (keys under no mapping, a list's entries, come by the thousand in a manifest: past a
    # hundred the rest of the text is not read; keys under mappings of no credential, a
    # template's parameters, past a thousand)
    entries = others = 0
    for m in _YAML_WRAPPED.finditer(text):
        cls = _yaml_mapping_class(m)
        if cls is None:
            entries += 1
            if entries > _REFUSED_PER_TEXT:
                return
            continue
        if not cls:
            others += 1
            if others > _MANY_REFUSED:
                return
            continue
        group = _quoting(m)
        kind = _member_credential(cls, m.group(group))
        yield None if kind is None else (m.start(group), m.end(group), kind)


def _yaml_mapping_class(m: re.Match[str]) -> str | None:
    """The credential class of the name of the mapping this key line is in, when that name
    stands alone on its line ("" when it names no credential); None when no such name is."""
    text = m.string
    indent = len(m.group("indent").expandtabs())
    end = m.start()  # (the newline before the key's line)
    for _ in range(_YAML_LINES_BACK):
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        end = start - 1
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#") or len(line) - len(stripped) >= indent:
            if start == 0:
                return None
            continue  # (a blank line, a comment, a sibling or what is under one)
        parent = _YAML_MAPPING.fullmatch(line)
        return None if parent is None else _classify_name(parent.group("name")) or ""
    return None


# variable "db_password" { … default = "…" }: a Terraform variable's default (its body read to
# 1,024 characters, no block inside it). The pattern starts with its literal, the boundary
# before it checked behind it: `re` finds a literal prefix at C speed, where a look-behind
# first costs a test at every character (14 ms on 800 KB holding one).
_TERRAFORM_VARIABLE = _lazy(
    r"""variable(?<![\w-]variable)[ \t]+"(?P<name>[^"\n]{1,128})"[ \t]*\{[^{}]{0,1024}?"""
    r"""(?<![\w-])default[ \t]*=[ \t]*"(?P<value>[^"\n]{1,256})\""""
)


def terraform_variable(text: str) -> Iterator[Span]:
    """The default of a Terraform variable named for a credential."""
    for m in _TERRAFORM_VARIABLE.finditer(text):
        cls = _classify_name(m.group("name"))
        if cls is not None:
            kind = _credential_value(cls, m.group("value"))
            if kind is not None:
                yield m.start("value"), m.end("value"), kind


# A JSON text a string holds (a tool's output captured whole, a log line's body, a fenced block):
# what the patterns over its text cannot pair is read from the JSON it decodes to, as a
# document's values are: a name/value pair's value ("Name": "/prod/db/password", "Type": …,
# "Value": "…"), a value wrapped in an object of its own ("adminPassword": {"value": "…"}),
# an array's item after its flag (app/secrets `_pair_kind`, `_wrapped_values`,
# `_item_after_kind`). A JSON text starts at one of the first `_JSON_STARTS` brackets of the
# string (each one that starts none is passed), in a string holding a credential's word; its
# first `_JSON_CONTAINERS` containers are read (some 12 ms), until a hundred candidates are
# refused (`_bounded`: a tool's output of 11,000 parameters named for passwords, each a
# variable, cost 85 ms read whole). Each value found is withheld where the text writes it, as
# a JSON string.
_JSON_STARTS = 8
_JSON_CONTAINERS = 4_000
_JSON_DECODE = json.JSONDecoder().raw_decode


def json_structures(text: str) -> Iterator[Span]:
    if not _holds_a_credential_word(text):
        return  # (a JSON text of metrics, {"name": "cpu", "value": …}, holds nothing to read)
    decode = _JSON_DECODE
    pos = 0
    for _ in range(_JSON_STARTS):
        starts = [at for at in (text.find("{", pos), text.find("[", pos)) if at != -1]
        if not starts:
            return
        start = min(starts)
        try:
            value, end = decode(text, start)
        except (ValueError, RecursionError):
            pos = start + 1
            continue
        found = dict(_bounded(_structured_values(value)))
        for literal, kind in found.items():
            yield from _json_string_spans(text, start, end, literal, kind)
        pos = end


def _holds_a_credential_word(text: str) -> bool:
    """Whether ``text`` holds a word of a credential's name: a long one read by RE2 in one pass
    (an `in` test for each word read 400 KB of JSON for 5 ms, where "cpu" starts like "pw")."""
    if len(text) >= RE2_RUNS_FROM:
        from app.secrets.engine import re2_spans

        spans = re2_spans(_CREDENTIAL_WORD_RE2, text.encode("ascii", "replace"))
        if spans is not None:
            return next(spans, None) is not None
    return _holds_name_word(text)


_NAMING_MEMBERS = frozenset(_NAME_MEMBERS)
_CREDENTIAL_WORD_RE2 = f"(?i:{_NAME_HEAD_ANCHOR.pattern})"


def _structured_values(root: object) -> Iterator[tuple[str, str] | None]:
    """(value, kind) of each credential `json_structures` reads in a decoded JSON text, in the
    text's order (a bound on what is refused then passes over the end of a text, never its
    start), None for each candidate refused."""
    # (each iterator yields containers only: None is where one ends)
    containers: list[Iterator[object]] = [iter((root,))]
    read = 0
    while containers and read < _JSON_CONTAINERS:
        node = next(containers[-1], None)
        if node is None:
            containers.pop()
            continue
        read += 1
        inner: list[object] = []
        if isinstance(node, dict):
            # (only a pair whose name has a credential's word counts as refused: a metric's
            # thousands of {"name": "cpu", "value": …} are none, and hide nothing after them)
            if not _PAIRED_VALUES.isdisjoint(node) and any(
                isinstance(name, str) and _may_name_credential(name)
                for name in map(node.__getitem__, _NAMING_MEMBERS & node.keys())
            ):
                for member in _PAIRED_VALUES & node.keys():
                    kind = _pair_kind(node, member)
                    yield None if kind is None else (str(node[member]), kind)
            for name, value in node.items():
                if isinstance(value, dict):
                    if isinstance(name, str) and _may_name_credential(name):
                        cls = _classify_name(name)
                        if cls is not None:
                            wrapped = list(_wrapped_values(cls, value))
                            yield from ((found, kind) for _, found, kind in wrapped)
                            if not wrapped:
                                yield None
                    inner.append(value)
                elif isinstance(value, list):
                    inner.append(value)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, (dict, list)):
                    inner.append(item)
                elif isinstance(item, str) and _name_alone(item) and _may_name_credential(item):
                    kind = _item_after_kind(node, i, item)
                    yield None if kind is None else (str(node[i + 1]), kind)
        if inner:
            containers.append(iter(inner))


def _json_string_spans(text: str, start: int, end: int, value: str, kind: str) -> Iterator[Span]:
    """Where the JSON text in ``text[start:end]`` writes ``value`` as a string (inside its
    quotes), however it escapes it; the whole JSON text when it is not found."""
    found = False
    for literal in dict.fromkeys((json.dumps(value, ensure_ascii=False), json.dumps(value))):
        at = text.find(literal, start, end)
        while at != -1:
            found = True
            yield at + 1, at + len(literal) - 1, kind
            at = text.find(literal, at + len(literal), end)
    if not found:
        yield start, end, kind


# <input type="password" value="…">, <input name="api_key" value="…">: a form's field
_HTML_INPUT = _lazy(r"<input\b(?P<attributes>[^<>]{1,1024}+)>", re.IGNORECASE)
_HTML_ATTRIBUTE = _lazy(
    r"""(?P<name>[A-Za-z_:][\w:.\-]*)[ \t\r\n]*=[ \t\r\n]*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')"""
)


def html_input(text: str) -> Iterator[Span]:
    """The value of a form's password field, or of a field named for a credential.
    (`_bounded`: 400 KB of <input type="password" value="x"> was 11,000 fields judged.)"""
    return _bounded(_input_candidates(text), _MANY_REFUSED)


def _input_candidates(text: str) -> Iterator[Span | None]:
    """`html_input`'s hits, and None for each field it refuses."""
    for m in _HTML_INPUT.finditer(text):
        attributes: dict[str, tuple[int, str]] = {}  # name -> where its value starts, the value
        for a in _HTML_ATTRIBUTE.finditer(text, m.start("attributes"), m.end("attributes")):
            group = _quoting(a)
            attributes.setdefault(a.group("name").lower(), (a.start(group), a.group(group)))
        if "value" not in attributes:
            continue
        start, value = attributes["value"]
        cls = _C_PASSWORD if attributes.get("type", (0, ""))[1].lower() == "password" else None
        for field in ("name", "id"):
            if cls is None and field in attributes:
                cls = _classify_name(attributes[field][1])
        if cls is not None:
            kind = _credential_value(cls, value)
            yield None if kind is None else (start, start + len(value), kind)


# name,password then app,Qw7…: a CSV header naming a credential's column, and the rows after it.
# A header is a line (after the newline before it, a literal found at C speed) of two to 64
# names without a space, indented or not (a block a YAML file, a Markdown list or a ticket sets
# in by spaces: its rows then as far in); each name in double quotes or none, as an export
# writes them, between commas, semicolons (a spreadsheet's export where the comma marks
# decimals) or tabs (a table pasted from one), one of them throughout.
_CSV_NAME = r'"?[A-Za-z_][\w.\-]{0,127}+"?'
_CSV_HEADER = _lazy(
    r"\n(?P<indent>[ \t]*+)"
    rf"(?P<header>{_CSV_NAME}(?P<sep>[,;\t])[ \t]*{_CSV_NAME}"
    rf"(?:(?P=sep)[ \t]*{_CSV_NAME}){{0,62}}+)"
    r"[ \t]*(?=\r?\n|\Z)"
)
_CSV_ROWS = 1000  # rows read under one header


def csv_column(text: str) -> Iterator[Span]:
    """The cells under a CSV header's column named for a credential, in the rows with as
    many cells after it, as far in (judged as prose is: name,password then admin,hunter is
    none). (`_bounded`: past `_MANY_REFUSED` rows under such a column with none in them, or
    such headers with no row, the rest of the text is not read: each is a step of Python.)"""
    return _bounded(_csv_cells(text), _MANY_REFUSED)


def _csv_cells(text: str) -> Iterator[Span | None]:
    lines = "\n" + text  # (a header may start the text: offsets in it are one past the text's)
    named = _named_lines(lines)
    pos = 0
    while True:
        if named is None:
            m = _CSV_HEADER.search(lines, pos)
        else:
            m = next((h for at in named if at >= pos and (h := _CSV_HEADER.match(lines, at))), None)
        if m is None:
            return
        pos = m.end()
        if lines.find("\n", pos) + 1 in (0, len(lines)):
            continue  # (no row after it: a line of its own, a string's one line, is no header)
        header, sep = m.group("header", "sep")
        if not _holds_name_word(header):
            continue  # (a data row, most often: no name of it is classified)
        columns = [_classify_name(n.strip().strip('"')) for n in header.split(sep)]
        if not any(columns):
            continue
        indent = m.group("indent")
        rows = 0
        # the rows: each line with as many cells (the search for a header goes on after them)
        for _ in range(_CSV_ROWS):
            if not lines.startswith("\n", pos) and not lines.startswith("\r\n", pos):
                break
            first = lines.index("\n", pos) + 1
            if not lines.startswith(indent, first):
                break
            first += len(indent)
            end = lines.find("\n", first)
            row = lines[first : end if end >= 0 else len(lines)].rstrip("\r")
            cells = row.split(sep)
            if len(cells) != len(columns):
                break
            rows += 1
            found = False
            at = first - 1  # (in the text)
            for cls, cell in zip(columns, cells, strict=True):
                value = cell.strip().strip('"')
                if cls is not None and 4 <= len(value) <= 256:
                    kind = _credential_value(cls, value, prose=True)
                    if kind is not None:
                        found = True
                        start = at + cell.index(value)
                        yield start, start + len(value), kind
                at += len(cell) + 1
            if not found:
                yield None
            pos = first + len(row)
        if not rows:
            yield None


# A long text's lines that may be a header naming a credential, found by RE2 in one pass: each
# line holding one of a credential's name's words, or a character past ASCII (which RE2 reads
# as "?": a name in another script), from its start. A CSV's data rows, line after line of
# them, hold none: `re` tried the header at each (a CSV of 20,000 rows cost 180 ms for 560 KB,
# each row's names classified), and RE2 skips them.
_NAMED_LINE_RE2 = rf"\n[^\n]*?(?:(?i:{_NAME_HEAD_ANCHOR.pattern})|\?)"


def _named_lines(lines: str) -> Iterator[int] | None:
    """Where each line `_NAMED_LINE_RE2` finds in ``lines`` starts (its line break), in order,
    when the text is long and RE2 is installed; None when each line is to be tried."""
    if len(lines) < RE2_RUNS_FROM:
        return None
    from app.secrets.engine import re2_spans

    spans = re2_spans(_NAMED_LINE_RE2, lines.encode("ascii", "replace"))
    return None if spans is None else (start for start, _ in spans)


# --- a listing of names and values: DB_PASSWORD, a tab or spaces, its value -------------------

# (a listing's value: a word, up to an HTML tag's end, where a page sets each row in a block,
# <div>DB_PASSWORD\t…</div>)
_LISTED_VALUE = r"(?:[^\s<]|<(?!/)){4,256}+"
# A line of a name, a tab or two spaces or more, and one word, as Vault's `vault kv get`
# prints its table (Key and Value in aligned columns), a tab-separated export of a secret
# store's names and values, or a listing aligned by hand: after the newline before it (a
# literal found at C speed), nothing after the value but spaces.
_LISTED_ROW = _lazy(
    r"\n[ \t]*+(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127}+)(?:\t|  )[ \t]*+"
    rf"(?P<value>{_LISTED_VALUE})[ \t]*+(?=\r?\n|\Z)"
)
# ... or one space after a name with a dot or an underscore in it, as Java's properties set a
# value (db.password Qw7…): "Password reset" and "Token expired" are a line of prose
_PROPERTY_ROW = _lazy(
    r"\n[ \t]*+(?P<name>[A-Za-z0-9\-]{1,63}+[._][A-Za-z0-9_.\-]{0,127}+) "
    rf"(?P<value>{_LISTED_VALUE})[ \t]*+(?=\r?\n|\Z)"
)
# ... or a row of tab-separated columns, the name in any of them and its value the next one,
# more columns after it (an export of a secret store: environment, name, value, updated)
_TAB_CELLS = _lazy(
    r"[\n\t](?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127}+) *+"
    # (looked ahead at from the tab: the value's cell may be the name of the next pair)
    rf"(?=\t[ \t]*+(?P<value>{_LISTED_VALUE}) *+(?:\t|\r?\n|\Z))"
)


_POINTER_SIGILS = ("*", "&")


def listed_value(text: str) -> Iterator[Span]:
    """The value on a listing's line whose name is a credential's, judged as prose judges one
    (`password  string` in a table of parameters is none; `_bounded`: a text of a thousand
    lines of `api_key  ****` is read for a hundred)."""
    return _bounded(_listed_values(text))


def _listed_values(text: str) -> Iterator[Span | None]:
    lines = "\n" + text  # (a line may start the text: offsets in it are one past the text's)
    rows = chain(_LISTED_ROW.finditer(lines), _PROPERTY_ROW.finditer(lines))
    # (a tab-separated row's cells when the text holds a tab; a name and value two spaces and
    # a tab apart are both's: read once)
    seen: set[int] = set()
    for m in chain(rows, _TAB_CELLS.finditer(lines)) if "\t" in text else rows:
        if m.start("value") in seen:
            continue
        seen.add(m.start("value"))
        name = m.group("name")
        cls = _named_class(name)
        if cls is None:
            continue
        value = m.group("value")
        # (a row a JSON array holds as a string ends with its quote and a comma: a tab-separated
        # listing printed as JSON, "apt\tpasswd\t1:4.13+dfsg1-1",)
        inner = value.removesuffix(",").strip("\"'")
        # (a pointer's or a reference's type, Go's "Token  *oauth2.Token", is code)
        typed = inner[:1] in _POINTER_SIGILS and _not_a_credential_shape(inner.lstrip("*&"))
        kind = None if typed or len(inner) < 4 else _credential_value(cls, inner, prose=True)
        if kind is None:
            yield None
            continue
        start = m.start("value") - 1 + value.index(inner)
        yield start, start + len(inner), kind


# --- a Markdown table: | DB_PASSWORD | … |, or a column named for a credential ------------------

# A table's row: a line that starts with "|" and holds another (its cells between), after the
# newline before it (a literal the engine searches for at C speed: a line start, "^", costs
# it a test at every character, some 5 ms on 400 KB of text holding one name before a "|").
# A line that is no row of two cells is passed over there too, each a step of Python else: one
# "|" alone (a cell an HTML table sets on a line of its own: 16,000 cost 9 ms) or one cell,
# "|5|" (a cell set to a row: its second "|" followed by no third and by nothing but spaces,
# 5,000 cost 5 ms); but an Org separator, |---+---|, one cell and a row.
_TABLE_ROW = _lazy(
    r"\n[ \t]*\|(?=[^\n|]{0,4095}+\|(?:[^\n|]{0,4095}+\||[^\n|]{0,4095}?[^\s|])"
    r"|-{3,}+\+[^\n|]{0,4095}+\|)([^\n]{0,4096}+)"
)
_TABLE_SEPARATOR = _lazy(r"[ \t]*:?-{3,}+:?[ \t]*")
# ... and Org mode's, its columns' dashes joined by "+" (|------+------|): after the first "|"
_ORG_SEPARATOR = _lazy(r"-{3,}+(?:\+-{3,}+)++\|?[ \t\r]*+")


def table_cells(text: str) -> Iterator[Span]:
    """A cell beside one holding a credential's name (| DB_PASSWORD | Qw7… |), or under a
    column header that is one (| user | password |, then | app | Qw7… |). As in prose, a
    password has letters and digits, a key or a token looks generated: a table of parameters
    (| password | string | required |) holds none. (`_bounded`: past `_MANY_REFUSED` rows
    naming or under a credential with none found in them, the rest of the text is not read:
    each such row costs Python a step for each cell, 13 µs, and a table of 7,500 rows of
    `| db_password_N | ******** |` cost twelve times a benign document's lint.)"""
    rows = _table_rows(text)
    if "-|" in text or "- |" in text:
        rows = chain(rows, _pipeless_rows("\n" + text))
    return _bounded(rows, _MANY_REFUSED)


def _table_rows(text: str) -> Iterator[Span | None]:
    """`table_cells`' hits, and None for each row that names a credential, or stands under a
    column that does, and holds none."""
    header: list[str | None] = []  # the credential class of each column of this table
    above: list[str | None] = []  # the same of the row above (a header, if a separator follows)
    last_end = -1
    lines = "\n" + text  # (a row may start the text: offsets in it are one past the text's)
    if "|" in text and _FLAT_SEPARATOR.search(lines) is not None:
        lines = _unflattened(lines)
    for m in _TABLE_ROW.finditer(lines):
        row = m.group(1)
        if row.startswith("|"):
            # Jira's and Confluence's header row, ||user||password||: its cells name the
            # columns below, no separator row after it
            if m.start() != last_end:
                above = []
            header = [cls or None for cls in map(_cell_class, row.strip().strip("|").split("||"))]
            last_end = m.end()
            continue
        pieces = row.split("|")
        if not pieces[-1].strip():
            pieces.pop()  # (the closing "|", which GitHub's tables may leave out)
        org_separator = "+" in row and _ORG_SEPARATOR.fullmatch(row) is not None
        if len(pieces) < 2 and not org_separator:
            last_end = -1
            continue
        if m.start() != last_end:
            header, above = [], []  # a new table: this row's newline does not end the last
        last_end = m.end()
        cells = _row_cells(pieces, m.start(1) - 1)
        if org_separator or all(_TABLE_SEPARATOR.fullmatch(cell) for _, cell in cells):
            header = above
            continue
        names = yield from _judged_row(cells, header)
        above = names


def _row_cells(pieces: list[str], at: int) -> list[tuple[int, str]]:
    """A row's cells (its text split at its "|"), each with where it starts in the text, the
    first at ``at``."""
    cells: list[tuple[int, str]] = []
    for cell in pieces:
        cells.append((at, cell))
        at += len(cell) + 1
    return cells


def _judged_row(
    cells: list[tuple[int, str]], header: list[str | None]
) -> Generator[Span | None, None, list[str | None]]:
    """A table row's hits (and None when it names a credential, or stands under a column that
    does, and holds none); returns the credential class each of its cells names."""
    classes = [_cell_class(cell) for _, cell in cells]
    names = [cls or None for cls in classes]
    # (a cell whose words may name a credential is classified, a step of Python, whether
    # or not it names one: `| db_password_7 |` names a row. Such a row counts as refused.)
    named = classes.count(None) < len(classes)
    found = False
    for i, (start, cell) in enumerate(cells):
        cls = names[i - 1] if i else None
        if cls is None and i < len(header):
            cls = header[i]
        if cls is not None:
            named = True
            span = _cell_credential(cls, start, cell)
            if span is not None:
                found = True
                yield span
    if named and not found:
        yield None
    return names


# A table GitHub's Markdown writes without its outer pipes (Name | Value, --- | ---, then
# DB_PASSWORD | …): its separator line, cells of dashes between pipes, none before the first;
# the line before it its header, the lines after it holding a pipe its rows (the first 1,000
# after a separator, of the first 100 separators of a text).
_PIPELESS_SEPARATOR = _lazy(
    r"\n[ \t]*+:?-{3,}+:?[ \t]*+(?:\|[ \t]*+:?-{3,}+:?[ \t]*+)++\|?[ \t]*+(?=\r?\n|\Z)"
)
_PIPELESS_TABLES = 100
_PIPELESS_ROWS = 1000


def _pipeless_rows(lines: str) -> Iterator[Span | None]:
    """`_table_rows`' of each table without outer pipes in ``lines`` (a text after a line
    break: offsets in it are one past the text's)."""
    for separator in islice(_PIPELESS_SEPARATOR.finditer(lines), _PIPELESS_TABLES):
        head = lines[lines.rfind("\n", 0, separator.start()) + 1 : separator.start()]
        if "|" not in head:
            continue
        header = [cls or None for cls in map(_cell_class, head.split("|"))]
        pos = separator.end()
        for _ in range(_PIPELESS_ROWS):
            first = lines.find("\n", pos) + 1
            if not first or first - pos > 2:  # (a line break right after the row: \n or \r\n)
                break
            end = lines.find("\n", first)
            row = lines[first : len(lines) if end < 0 else end].rstrip("\r")
            if "|" not in row:
                break
            yield from _judged_row(_row_cells(row.split("|"), first - 1), header)
            pos = first + len(row)


# A table set on one line, its line breaks turned to spaces by a page or a log that collapsed a
# text's whitespace (| name | value | |---|---| | DB_PASSWORD | … |): a separator row after the
# header's last "|" and a space, as many cells of dashes as the header has.
_FLAT_SEPARATOR = _lazy(r"\|[ \t]++(\|(?:[ \t]*+:?-{3,}+:?[ \t]*+\|){1,64}+)")
# Rows read so in one text, each a step of Python (a text of 40,000 one-cell rows on one line
# cost 45 ms for 380 KB, as lines 19); those past it are read as written.
_FLAT_ROWS = 1000


def _unflattened(lines: str) -> str:
    """``lines`` with each table set on one line (`_FLAT_SEPARATOR`) broken into its rows: the
    space before its header's first "|", and the first space between one row's last "|" and
    the next's first, each made a line break (the text's length and every offset kept). A row
    is as many cells as the separator has; the rows go on while a "|" follows a space."""
    breaks: list[int] = []
    pos = 0
    while len(breaks) < _FLAT_ROWS and (m := _FLAT_SEPARATOR.search(lines, pos)) is not None:
        columns = m.group(1).count("|") - 1
        line_start = lines.rfind("\n", pos, m.start()) + 1 or pos
        first = m.start()  # the header's first "|", this many back on its line
        for _ in range(columns):
            first = lines.rfind("|", line_start, first)
            if first < 0:
                break
        pos = m.end()
        if first < 0:
            continue
        if first > line_start and lines[first - 1] in " \t":
            breaks.append(first - 1)
        breaks.append(m.start() + 1)  # (between the header and the separator)
        line_end = lines.find("\n", m.end())
        line_end = len(lines) if line_end < 0 else line_end
        end = m.end()  # past the last "|" of the separator, then of each row
        while len(breaks) < _FLAT_ROWS:
            gap = end
            while gap < line_end and lines[gap] in " \t":
                gap += 1
            if gap == end or not lines.startswith("|", gap):
                break
            last = gap
            for _ in range(columns):
                last = lines.find("|", last + 1, line_end)
                if last < 0:
                    break
            if last < 0:
                break
            breaks.append(end)
            end = last + 1
        pos = max(pos, end)
    if not breaks:
        return lines
    pieces = []
    at = 0
    for place in breaks:
        pieces.append(lines[at:place])
        pieces.append("\n")
        at = place + 1
    pieces.append(lines[at:])
    return "".join(pieces)


def _cell_class(cell: str) -> str | None:
    """The credential class a cell's text names; "" when its words may name one and it names
    none (it was classified); None when it is no name."""
    name = cell.strip().strip("`*")
    if not name or len(name) > 128 or not _may_name_credential(name):
        return None
    return _classify_name(name) or ""


def _cell_credential(cls: str, start: int, cell: str) -> Span | None:
    # (a value quoted in the cell as code quotes it, a comma or a semicolon after it: the value,
    # "_RSAPrivateKey", is judged, as an assignment's is)
    value = cell.strip().strip("`").rstrip(",;").strip("\"'")
    if len(value) < 4 or len(value) > 256:
        return None
    kind = _credential_value(cls, value, prose=True)
    if kind is None:
        return None
    begin = start + cell.index(value)
    return begin, begin + len(value), kind


# --- a password a statement sets: SQL's users and roles, PowerShell's secure strings ------------

# CREATE USER app IDENTIFIED BY 'pw' (MySQL, MariaDB; Oracle's unquoted), CREATE ROLE app WITH
# LOGIN PASSWORD 'pw' (PostgreSQL), CREATE LOGIN app WITH PASSWORD = 'pw' (SQL Server), and
# ConvertTo-SecureString 'pw' -AsPlainText (PowerShell, given the literal in plain text).
_STATEMENT_PASSWORD = _lazy(
    r"""
    (?:
        identified[ \t]+(?:with[ \t]+[\w$]{1,64}[ \t]+)?by[ \t]+(?:password[ \t]+)?
      | (?:with|login|encrypted|user|role)[ \t]+(?:[\w"$.@%-]{1,128}[ \t]+)?password[ \t]*=?[ \t]*
        (?=['"])                                            # PostgreSQL's and T-SQL's: quoted
      | convertto-securestring(?:[ \t]+-(?:string|asplaintext|force)){0,3}[ \t]+(?=['"])
    )
    (?:"(?P<dq>[^"\n]{1,256})"|'(?P<sq>[^'\n]{1,256})'|(?P<bare>[a-z0-9_#$!@%^*+\-]{4,128}))
    """,
    # (read in the text folded to lower case, its values then taken from the text, and its
    # start's boundary tested apart: `re` reads a case-insensitive alternation, or one behind a
    # look-behind, at each character, 32 ms for 400 KB of db_password = "${P}")
    re.X,
)


_SQL_SUBJECTS = ("user", "role", "login", "grant")


def password_statement(text: str) -> Iterator[Span]:
    """The password a SQL statement gives a user or a role, or a PowerShell script makes a
    secure string of (only with -AsPlainText: a literal without it is an encrypted string, not
    the password). (`_bounded`: 400 KB of "CREATE USER a IDENTIFIED BY " cost 90 ms, 14,000
    statements each refused in Python.)"""
    return _bounded(_statement_candidates(text), _MANY_REFUSED)


def _statement_candidates(text: str) -> Iterator[Span | None]:
    """`password_statement`'s hits, and None for each statement it refuses."""
    folded = _folded(text)
    search = _STATEMENT_PASSWORD.search
    pos = 0
    while (m := search(folded, pos)) is not None:
        pos = m.end()
        before = folded[m.start() - 1] if m.start() else " "
        if before.isalnum() or before in "_-":  # (as the regex's \w: letters of any script)
            pos = m.start() + 1  # (inside a word: a match may start later within this one)
            yield None  # (refused too: 400 KB of "unidentified by " would cost a step each)
            continue
        group = _quoting(m)
        value = text[m.start(group) : m.end(group)]
        head = m.group()
        if head.startswith("convertto"):
            # before the literal or after it on its line (within 256 characters: each match
            # reads a bounded stretch)
            after = text[m.end() : m.end() + 256].split("\n", 1)[0]
            if "-asplaintext" not in head and "-asplaintext" not in after.lower():
                yield None
                continue
        if value.startswith(("$", "%", ":", "@")) or _is_placeholder(value):
            yield None  # a variable, a bind parameter or a placeholder
            continue
        if head.startswith("identified"):
            # in a statement about a user (this line, since the last ";", within 128
            # characters: each match reads a bounded stretch): "a library identified by
            # 'name'" and "identified by INC0012345" in a sentence are prose
            low = max(0, m.start() - 128)
            statement = max(text.rfind("\n", low, m.start()), text.rfind(";", low, m.start()))
            before = text[max(statement + 1, low) : m.start()].lower()
            # (or the clause alone, as SQL writes it: capitals, a quoted password in a
            # person's shape, "IDENTIFIED BY 'Hx7#pQ2!'" quoted from a script)
            sql_alone = (
                head.startswith("identified")
                and text.startswith("IDENTIFIED BY", m.start())
                and group != "bare"
                and _prose_password(value)
            )
            if not sql_alone and not any(word in before for word in _SQL_SUBJECTS):
                yield None
                continue
        if group == "bare" and not _prose_password(value):
            yield None  # Oracle's unquoted password: letters and digits, as in prose
            continue
        found = _credential_value(_C_PASSWORD, value) is not None
        yield (m.start(group), m.end(group), PASSWORD) if found else None


# A line of PostgreSQL's password file (~/.pgpass, PGPASSFILE): host:port:database:user:password,
# on the ports PostgreSQL and PgBouncer listen on, or any port ("*").
_PGPASS = _lazy(
    r"""
    (?<![\w.:\-])[A-Za-z0-9_.\-*\[\]]{1,253}:(?:5432|5433|6432|\*):[^:\s"'`]{1,63}:[^:\s"'`]{1,63}:
    (?P<value>[^\s"'`]{1,256})
    """,
    re.X,
)


def pgpass_line(text: str) -> Iterator[Span]:
    """The password of a .pgpass line."""
    for m in _PGPASS.finditer(text):
        value = m.group("value")
        if value != "*" and _credential_value(_C_PASSWORD, value) is not None:
            yield m.start("value"), m.end("value"), PASSWORD


# The data source name Go's MySQL driver (go-sql-driver/mysql) opens, which names no scheme:
# user:password@tcp(host:3306)/db, user:password@unix(/var/run/mysqld.sock)/db. Read back from
# its "@": the password after the last colon within 128 characters, a user of up to 64 before
# it (read reversed, one match: a regex tried at each character before would read each run of
# a name's characters again and again).
_DSN_AT = _lazy(r"@(?:tcp6?|unix|udp)\(")
_DSN_USER_REVERSED = _lazy(r"[A-Za-z0-9_.\-]{1,64}+(?![\w.:/@\-])")
_NOT_IN_DSN_PASSWORD = _lazy(r"[\s@/\"'`]")


def driver_dsn(text: str) -> Iterator[Span]:
    """The password of a driver's data source name (`_bounded`)."""
    return _bounded(map(_dsn_password, _DSN_AT.finditer(text)))


# user:password@host:port with no scheme before it, as a note gives a database's or a broker's
# address (admin:…@db.internal:5432): the port says a host follows the "@" (an e-mail address
# has none), and the password is judged as prose judges one (letters and digits)
_HOST_PORT_AT = _lazy(r"@[A-Za-z0-9][A-Za-z0-9.\-]{0,252}+:[0-9]{2,5}+(?![0-9A-Za-z])")


def schemeless_userinfo(text: str) -> Iterator[Span]:
    """The password of user:password@host:port with no scheme (`_bounded`)."""
    return _bounded(map(_prose_dsn_password, _HOST_PORT_AT.finditer(text)))


def _prose_dsn_password(at: re.Match[str]) -> Span | None:
    return _dsn_password(at, prose=True)


def _dsn_password(at: re.Match[str], prose: bool = False) -> Span | None:
    text, end = at.string, at.start()
    colon = text.rfind(":", max(0, end - 129), end)
    value = text[colon + 1 : end]
    if colon <= 0 or not value or _NOT_IN_DSN_PASSWORD.search(value):
        return None
    if _DSN_USER_REVERSED.match(text[max(0, colon - 65) : colon][::-1]) is None:
        return None
    if _credential_value(_C_PASSWORD, value, prose=prose) is None:
        return None
    return colon + 1, end, PASSWORD


# Oracle's connect string, user/password@database: after JDBC's thin or OCI driver
# (jdbc:oracle:thin:ops/…@db:1521/ORCL), on the command line of SQL*Plus and Oracle's tools
# (sqlplus -s ops/…@ORCL, expdp system/…@ORCL), after SQL*Plus's CONNECT (CONNECT ops/…@ORCL);
# "/ as sysdba" names no user, "scott/tiger" is the manual's example (no digit)
_ORACLE_CONNECT = _lazy(
    rf"""
    (?:(?P<url>jdbc:oracle:(?:thin|oci8?):)
      |(?<![\w-])(?:{"|".join(ORACLE_TOOLS)})(?:\.exe)?
        (?:[ \t]++(?:-[A-Za-z]{{1,16}}+|target|catalog|auxiliary))*+[ \t]++  # (rman's connections)
      |(?<![\w-])(?i:conn(?:ect)?)[ \t]++)
    (?:[A-Za-z][A-Za-z0-9_$\#]{{0,127}}+|"[^"\n]{{1,128}}+")
    /
    (?:"(?P<quoted>[^"\n]{{1,128}}+)"|(?P<bare>[^\s/@"';]{{1,128}}+))
    (?=@|[ \t\r\n;]|\Z)
    """,
    re.X,
)


def oracle_connect(text: str) -> Iterator[Span]:
    """The password of Oracle's user/password@database (`_bounded`)."""
    return _bounded(map(_oracle_password, _ORACLE_CONNECT.finditer(text)))


def _oracle_password(m: re.Match[str]) -> Span | None:
    group = "quoted" if m.group("quoted") is not None else "bare"
    # (JDBC's URL is data; a command line's word after a space judged as prose judges one)
    prose = m.group("url") is None
    if _credential_value(_C_PASSWORD, m.group(group), prose=prose) is None:
        return None
    return m.start(group), m.end(group), PASSWORD


# --- a password told in a sentence: "my password is Wint3r-2026!" -------------------------------

# (whose it is or what it is for, up to four words: "for the admin account", "to log in"; and a
# clause of a person's, up to three words: "you need", "we use", "I set", "they gave us")
_WHOSE = r"(?:for|of|to)(?:[ \t]+[\w.@\-\"'`]{1,64}+){1,4}?"
_RELATIVE = r"(?:you|we|i|they|he|she)(?:[ \t]+[\w']{1,16}+){1,3}?"
# ... or how it came to be, a participle after the name and who by ("the access token returned
# was …", "the key generated by the console is …")
_PARTICIPLE = rf"(?:{'|'.join(PARTICIPLES)})(?:[ \t]+by(?:[ \t]+[\w.\-]{{1,32}}+){{1,3}}?)?"
# How a sentence tells a credential after its name: "the password for the admin account is
# ...", at most four words naming whose it is; "is", "was", and "was reset to", "has been
# changed to", "set to" (what a ticket says of it); the value quoted or not ("the password is
# 'Secret123'"). `_PASSWORD_IS` and `_KEY_IS` read it after their names.
_TOLD_VERB = (
    r"[ \t]+(?:(?:(?:is|was|has[ \t]+been|had[ \t]+been)[ \t]+)?"
    rf"(?:{'|'.join(DONE_TO_IT)})[ \t]+(?:to|from)|is|was)"
)
_TOLD_IS = (
    # ... or what it is for, then a colon ("the password for the portal: …", "the token you
    # asked for: …"). (Each count of whose words is tried with the verb, then the colon: whose
    # first word is never a verb, so the first match is the one trying every count with the
    # verb first finds, and words that tell nothing after "password to …" are read once.)
    rf"(?:[ \t]+(?:{_WHOSE}|{_RELATIVE}|{_PARTICIPLE})(?:{_TOLD_VERB}|[ \t]*(?=:))|{_TOLD_VERB}"
    # ... or "to" alone after a verb before the name ("changed the wifi password to …")
    r"|[ \t]+to(?=[ \t])"
    # ... or a dash or an arrow between, as a note lists one ("Password - …", "password -> …",
    # "Password → …", "DB password — …")
    rf"|[ \t]+(?:-{{1,2}}>?|[{DASHES}{ARROWS}])(?=[ \t]))"
    r"[ \t]*:?[ \t]*[\"'`]?"
)
_PASSWORD_IS = _lazy(
    rf"(?<![A-Za-z0-9_])(?:{_PASSWORD_IN_PROSE})" + _TOLD_IS + r"(?P<value>[^\s\"'`<>]{1,128}+)",
    re.IGNORECASE,
)
# ... "to" alone, where the first form read the words after it up to an "is" later in the
# sentence ("changed the wifi password to Kx8… yesterday and that is all": "all" refused), tried
# at the name when that one's value is refused
_PASSWORD_TO = _lazy(
    rf"(?:{_PASSWORD_IN_PROSE})[ \t]+to[ \t]+[\"'`]?(?P<value>[^\s\"'`<>]{{1,128}}+)",
    re.IGNORECASE,
)
# ... and as other languages tell one (shapes `PASSWORD_FOR_WORDS`, `PASSWORD_IS_WORDS`): a
# password's name, theirs as the scan reads them (`PASSWORD_NAMES`, "passwd" for пароль, "mot de
# passe") or English's, then their word for "for" and a few words before a colon ("Passwort für
# die DB:", "hasło do bazy:", "Пароль от БД:", "password del database:"), or their word for
# "is" ("la contraseña es …"). Read in the text in lower case, the name's start tested apart:
# `re` skips to a name's first character at C speed, where a look-behind or a case-insensitive
# alternation first is tried at every character (30 ms for 400 KB of prose; English's 5).
_PASSWORD_IS_PAST_ENGLISH = _lazy(
    rf"(?P<name>{_PASSWORD_IN_PROSE}|"
    + "|".join(name.replace(" ", r"[ \t]+") for name in _PASSWORD_NAMES_PAST_ENGLISH)
    + r")(?:[ \t]+(?:"
    + "|".join(PASSWORD_FOR_WORDS)
    + r")(?:[ \t]+[\w.@\-\"'`]{1,64}+){1,4}?[ \t]*(?=:)|[ \t]+(?:"
    + "|".join(PASSWORD_IS_WORDS)
    + r")(?!\w))[ \t]*:?[ \t]*[\"'`]?(?P<value>[^\s\"'`<>]{1,128}+)"
)
# (English's names before such a word: a literal that `re` skips to, the text's gate to it)
_ENGLISH_NAME_PAST_ENGLISH = _lazy(
    r"pass(?:word|phrase|code)[ \t]+(?:"
    + "|".join((*PASSWORD_FOR_WORDS, *PASSWORD_IS_WORDS))
    + r")[ \t:]"
)


# ... or given with its user: "login: admin / C3J2…", "the admin account (admin / C3J2…)",
# "use admin / C3J2… to sign in", "username admin password C3J2…", "sign in with password
# C3J2…": a word of signing in within a few words before (or after) the pair, a user of the
# characters user names are made of, and a password as people make them, letters and digits
# with both cases or a symbol ("login: admin / settings page", "src / main2024 for the
# account", "and password policy2024" are none).
_SIGN_IN = r"(?:log[ \t-]?in|sign[ \t-]?in|signin|creds?|credentials|account|username)"
_USER_SLASH = r"(?<![A-Za-z0-9._@\-])(?P<user>[A-Za-z0-9._@\-]{1,64})"
_SLASH_VALUE = r"(?P<value>[^\s/\"'`<>()]{6,128}+)"
# (a word of signing in before the pair, or after it: two patterns, as an optional word would
# let a match without one take the words a later pair needs)
_SIGN_IN_THEN_PAIR = _lazy(
    r"(?<![A-Za-z0-9_])(?P<before>"
    + _SIGN_IN
    + r")(?![A-Za-z0-9])[^\n]{0,48}?"
    + _USER_SLASH
    + r"(?P<slash>[ \t]+/[ \t]+|/|:)"
    + _SLASH_VALUE,
    re.IGNORECASE,
)
_PAIR_THEN_SIGN_IN = _lazy(
    _USER_SLASH
    + r"(?P<slash>[ \t]+/[ \t]+)"
    + _SLASH_VALUE
    + r"[^\n]{0,48}?(?<![A-Za-z0-9])(?P<after>"
    + _SIGN_IN
    + r")",
    re.IGNORECASE,
)
_WITH_PASSWORD_FORM = (
    r"(?:with|and|using|use|user(?:name)?[ \t]+[A-Za-z0-9._@\-]{1,64})[ \t]+(?:the[ \t]+)?"
    r"pass(?:word|phrase)[ \t]*:?[ \t]*(?P<value>[^\s\"'`<>]{6,128}+)"
)
_WITH_PASSWORD = _lazy(r"(?<![A-Za-z0-9_])" + _WITH_PASSWORD_FORM, re.IGNORECASE)
# (the same form found in the text in lower case, its start's character before it tested apart:
# `re` tries a look-behind and a case-insensitive alternation at each character, 13 ms for
# 400 KB of "with password 'xyz' ", 5 ms so)
_WITH_PASSWORD_LOW = _lazy(_WITH_PASSWORD_FORM)


def user_and_password(text: str) -> Iterator[Span]:
    """A password given with its user beside a word of signing in ("login: admin / …"): a
    detector of its own, sent only the texts holding " / " or "cred", so that prose holding
    those is not read for a password's other forms, nor prose holding "password" for these.
    A long text is read only around where RE2 finds a pair and a word of signing in
    (`_PAIR_AND_SIGN_IN_RE2`): `re` tries both regexes at every character (a look-behind and
    a case-insensitive alternation first), 50 ms each for 680 KB holding " / " throughout."""
    windows: Iterable[tuple[int, int]] = ((0, len(text)),)
    if len(text) >= RE2_RUNS_FROM:
        from app.secrets.engine import re2_spans

        spans = re2_spans(_PAIR_AND_SIGN_IN_RE2, text.encode("ascii", "replace"))
        if spans is not None:
            windows = merged_windows(
                (start - _PAIR_REACH, end + _PAIR_REACH) for start, end in spans
            )
    for lo, hi in windows:
        lo, hi = max(0, lo), min(len(text), hi)
        # (the pairs after a word of signing in are judged as they are searched)
        later = filter(_signed_in_pair, _PAIR_THEN_SIGN_IN.finditer(text, lo, hi))
        yield from _made_passwords(chain(_signed_in_pairs(text, lo, hi), later))


# Where a pair and a word of signing in may stand, for RE2 (no look-arounds; each a superset of
# its `re` form's matches, which lie within `_PAIR_REACH` of it)
_PAIR_AND_SIGN_IN_RE2 = (
    rf"(?i:{_SIGN_IN})[^\n]{{0,48}}[A-Za-z0-9._@\-](?:[ \t]+/[ \t]+|/|:)[^\s/\"'`<>()]{{6}}"
    rf"|[A-Za-z0-9._@\-][ \t]+/[ \t]+[^\s/\"'`<>()]{{6}}[^\n]{{0,176}}(?i:{_SIGN_IN})"
)
_PAIR_REACH = 512


def _signed_in_pairs(text: str, pos: int, end: int) -> Iterator[re.Match[str]]:
    """`_SIGN_IN_THEN_PAIR`'s matches between ``pos`` and ``end``; past one that is no pair
    (login.example.com/?next=… took the words up to a pair of its own), the search goes on
    from its word of signing in, so that a later pair it took ("…?value=login: admin / …") is
    read (a hundred times a text: then from past each, so that a text of such words costs one
    read)."""
    search = _SIGN_IN_THEN_PAIR.search
    refused = 0
    while (m := search(text, pos, end)) is not None:
        if _signed_in_pair(m):
            yield m
            pos = m.end()
            continue
        refused += 1
        pos = m.end("before") if refused <= _REFUSED_PER_TEXT else m.end()


def _told(m: re.Match[str], text: str | None = None) -> tuple[int, str]:
    """Where the value of a credential told in a sentence starts, and the value without the
    punctuation that may end the sentence or a clause after it (as ``text`` writes it, when
    ``m`` read that text in lower case)."""
    start, end = m.span("value")
    value = m.string[start:end] if text is None else text[start:end]
    return start, value.rstrip(".,;:)]}")


def _made_passwords(matches: Iterable[re.Match[str]]) -> Iterator[Span]:
    """The values told by ``matches`` that are passwords as people make them. (`_bounded`:
    400 KB of "username admin password " told 8,000 values, each judged in Python.)"""
    return _bounded(map(_made_password_told, matches), _MANY_REFUSED)


def _made_password_told(m: re.Match[str]) -> Span | None:
    start, value = _told(m)
    if _made_password(value) and not _is_placeholder(value):
        return start, start + len(value), PASSWORD
    return None


_ARE = frozenset({"are", "is", "were", "was"})


def _signed_in_pair(m: re.Match[str]) -> bool:
    """Whether a user/password pair beside a word of signing in is one: a slash between spaces
    (ops/App-Config-v2 is a path) unless "creds" or "credentials" names it right before it
    ("creds: admin/…", "the credentials are admin/…", not "credentials (…) [org/repo#505]"),
    and no full stop in the password (SSO / SAML2.0 names a version)."""
    if m.group("slash") in ("/", ":"):
        before = m.group("before")
        between = m.string[m.end("before") : m.start("user")].strip(" \t:=")
        if not before.lower().startswith("cred") or (between and between.lower() not in _ARE):
            return False
    return "." not in _told(m)[1]


def _made_password(value: str) -> bool:
    """A password as people make one: letters and digits, with both cases or a symbol."""
    return _prose_password(value) and (_both_cases(value) or not value.isalnum())


# ... and a key, a token or a secret told so ("the staging API key is 9f3b…", "the deploy token
# was …"): its name a credential's (`_classify_name`: not "the cache key"), its value one that
# looks generated, 16 characters at least ("the token is valid", "the secret is in the vault"
# are prose about one).
_KEY_IS_NAME = r"(?:(?:api|access|secret|client|auth|bearer|deploy)[ _\-]?)?(?:key|token|secret)"
_KEY_IS = _lazy(
    rf"(?<![A-Za-z0-9_])(?P<name>{_KEY_IS_NAME})" + _TOLD_IS + r"(?P<value>[^\s\"'`<>]{16,256}+)",
    re.IGNORECASE,
)


def password_in_prose(text: str) -> Iterator[Span]:
    """Only a value with letters and digits counts: "the password is rotated monthly" and
    "the password was 12 characters" are prose about a password, not one. (A thousand
    refused in a text, and the rest of it is not read by this form: 400 KB of "password is
    a" cost 24 ms, each a step of Python.)"""
    refused = 0
    low = _folded(text)
    names = _prose_names(low)
    english = (
        _PASSWORD_IS.finditer(text)
        if names is None
        else _matched_from(_PASSWORD_IS, text, names.starts())
    )
    for m in chain(english, _told_past_english(low, names)):
        start, value = _told(m, text)
        if not _told_password(value):
            to = _PASSWORD_TO.match(text, m.start())
            if to is not None and to.end() < m.end():
                start, value = _told(to)
        if _told_password(value):
            yield start, start + len(value), PASSWORD
            continue
        refused += 1
        if refused > _MANY_REFUSED:
            return


def _told_password(value: str) -> bool:
    """Whether a value a sentence tells is a password: letters and digits, no placeholder, not
    what code calls or indexes ("the password is auth[2]", a line of code told in a note)."""
    return _prose_password(value) and not _is_placeholder(value) and not _code_call(value)


def _told_past_english(low: str, names: _ProseNames | None) -> Iterator[re.Match[str]]:
    """`_PASSWORD_IS_PAST_ENGLISH`'s matches in ``low`` (the text in lower case: their offsets
    are the text's), each a name's start (where ``names`` found one, when RE2 found them);
    none searched for where the text holds no name of another language, nor English's before
    one of their words."""
    if names is not None:
        # (a long text: one pass of RE2 over it, where an `in` test of each name read it whole,
        # 3 ms for 400 KB past ASCII)
        from app.secrets.engine import re2_searcher

        search = re2_searcher(_PAST_ENGLISH_GATE, names.raw)
        if search is not None and search(0) < 0:
            return
    elif not any(map(low.__contains__, _PASSWORD_NAMES_PAST_ENGLISH)) and (
        "pass" not in low or _ENGLISH_NAME_PAST_ENGLISH.search(low) is None
    ):
        return
    matches = (
        _PASSWORD_IS_PAST_ENGLISH.finditer(low)
        if names is None
        else _matched_from(_PASSWORD_IS_PAST_ENGLISH, low, names.starts())
    )
    for m in matches:
        if not m.start() or low[m.start() - 1] not in _IN_A_NAME:
            yield m


# Where a match of `_PASSWORD_IS` or of `_PASSWORD_IS_PAST_ENGLISH` may start in a long text:
# a password's name with no character of a name before it (both refuse one), then a space or a
# tab (the first character of each of their forms after the name), found by RE2 in the text in
# lower case. `re` tries either regex at every character that may start a name, a step of its
# matcher each (a "p" for English, ten letters for the other languages): 400 KB of a command's
# help, "--password=PASSA use PASSA to sign in" line after line, cost 14 and 15 ms; RE2 reads it
# in one pass, and `re` matches where it found one (not at each of 8,000 "svc_password").
_PROSE_NAME_RE2 = (
    "(?:^|[^a-z0-9_])(?:"
    + "|".join(
        (
            _PASSWORD_IN_PROSE,
            *(name.replace(" ", "[ \t]+") for name in _PASSWORD_NAMES_PAST_ENGLISH),
        )
    )
    + ")[ \t]"
)


# (what `_told_past_english` looks for first, in one regex for RE2: its words past ASCII as the
# engines read them, "f?r")
_PAST_ENGLISH_GATE = "|".join(
    (
        *map(re.escape, _PASSWORD_NAMES_PAST_ENGLISH),
        rf"pass(?:word|phrase|code)[ \t]+(?:{_WORDS_PAST_ENGLISH})[ \t:]",
    )
)


class _ProseNames:
    """Where `_PROSE_NAME_RE2` matches in a long text in lower case, by RE2: ``raw``, the text
    as the engines read it (ASCII, a character past it "?", offsets kept; every name is
    ASCII, as the scan reads labels past it: `_as_read`), read once for every pass over it."""

    __slots__ = ("_search", "raw")

    def __init__(self, raw: bytes, search: Callable[[int], int]) -> None:
        self.raw = raw
        self._search = search

    def starts(self) -> Iterator[int]:
        """Each call a new pass (`_starts`)."""
        return _starts(self._search, self.raw)


def _prose_names(low: str) -> _ProseNames | None:
    """`_ProseNames` of ``low``, when it is long and RE2 is installed."""
    if len(low) < RE2_RUNS_FROM:
        return None
    from app.secrets.engine import re2_searcher

    raw = _read_low(low)
    search = re2_searcher(_PROSE_NAME_RE2, raw)
    return None if search is None else _ProseNames(raw, search)


def _read_low(low: str) -> bytes:
    """``low`` (a text in lower case, `_folded`) as RE2 reads it for a case-insensitive
    pattern's places: ASCII, a letter `re` folds to ASCII's as that letter, any other character
    past it "?" (offsets kept)."""
    return _as_folded(low).encode("ascii", "replace")


def _starts(search: Callable[[int], int], raw: bytes) -> Iterator[int]:
    """Where each name starts that ``search`` finds, with the character before it, in ``raw``
    (each found as it is read: a detector that stops after its refusals, 8,000 "password →
    ********" in a text, reads the first thousand, not all)."""
    pos = 0
    while (at := search(pos)) >= 0:
        places = _name_places(at, raw)
        yield from places
        pos = places[-1] + 1  # (the next name's character before it is this one's at least)


def _name_places(at: int, raw: bytes) -> tuple[int, ...]:
    """Where a name may start whose match RE2 found at ``at``: past the character before it;
    at the text's start, there too (a name of a letter there has no character before it; one
    that starts with a dash, a flag, may, or may follow one)."""
    if at:
        return (at + 1,)
    first = raw[:1]
    return (0,) if first.isalnum() or first == b"_" else (0, 1)


def _matched_at_leads(
    pattern: re.Pattern[str],
    lead: str,
    text: str,
    raw: bytes | None,
    run: int = 0,
    after: str = r"[ \t]",
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``; in a long text (``raw``, its `_read_low`, when RE2 is
    installed), its matches at the places RE2 finds ``lead`` (what the pattern reads first, in
    lower case, after a look-behind for no character of a name) with no such character before
    it and ``after`` after it (a space or a tab); ``run``: and, on the line after it, a run of
    so many characters none a space or a quote, where every match's value stands
    (`_RunsAhead`)."""
    if raw is not None:
        from app.secrets.engine import re2_searcher

        search = re2_searcher(rf"(?:^|[^a-z0-9_])(?:{lead}){after}", raw)
        if search is not None:
            starts = _starts(search, raw) if not run else _RunsAhead(raw, run).starts(search)
            return _matched_from(pattern, text, starts)
    return pattern.finditer(text)


class _RunsAhead:
    """The runs in ``raw`` of at least ``length`` characters none of them a space or a quote
    (RE2's `\\s`, a narrower class than `re`'s: its runs hold each of `re`'s), read in order
    with the line breaks between them: a told key's value stands in one, on its name's line (no
    form of them reads past a space or a tab but the value's own characters), and a name with
    no such run ahead of it on its line is not matched (400 KB of "set token to expire." holds
    none, and its 5,700 names each cost `re` 2.8 µs to refuse)."""

    __slots__ = ("_break", "_end", "_raw", "_runs")

    def __init__(self, raw: bytes, length: int) -> None:
        from app.secrets.engine import re2_spans

        self._raw = raw
        runs = re2_spans(rf"[^\s\"'`<>]{{{length},}}", raw)
        self._runs = iter(()) if runs is None else runs
        self._end = 0  # where the run read last ends (none yet: 0)
        self._break = -1  # where the last line break before it stands

    def starts(self, search: Callable[[int], int]) -> Iterator[int]:
        """`_starts` of ``search``, but those with no run ahead: the names between a run and
        the line break before the next are passed over (searched for from that break on), and
        none after the last run is looked for (400 KB of "x-api-key short " cost 100,000
        searches for names, four forms' 25,000 each)."""
        raw, pos = self._raw, 0
        while (at := search(pos)) >= 0:
            pos = -1
            for name in _name_places(at, raw):
                if not self._advance(name):
                    return  # (no run ends past it: none past any name after it either)
                if self._break < name:
                    yield name
                    pos = name + 1
                else:
                    pos = max(pos, self._break)  # (no run on its line: on from the break)

    def _advance(self, place: int) -> bool:
        """Read the runs up to the first that ends past ``place``: False when none does."""
        while self._end <= place:
            start, end = next(self._runs, (-1, -1))
            if start < 0:
                return False
            # (no run holds a line break: the last one before this run is past the one before)
            line_break = self._raw.rfind(b"\n", self._end, start)
            if line_break >= 0:
                self._break = line_break
            self._end = end
        return True


def _matched_from(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """``pattern``'s matches in ``text`` that start at ``starts``, none inside the one before
    (as `finditer` finds them). Past `_MANY_REFUSED` places where none starts, the rest of the
    text is read by `finditer` itself, in C: each place is a step of Python (400 KB of
    "--api-key abcdefghijklmnop " held 14,800 places of a told key's name and no key, 150 ms),
    and no match starts elsewhere, so what it finds from the last match's end on is the same."""
    end = missed = 0
    for start in starts:
        if start < end:
            continue
        m = pattern.match(text, start)
        if m is None:
            missed += 1
            if missed > _MANY_REFUSED:
                yield from pattern.finditer(text, end)
                return
            continue
        end = m.end()
        yield m


# (Each form of a credential told in prose is a detector of its own, sent the texts its anchor
# finds: one text of "password is a" repeated is not also read for keys and for "with".)


def password_after_with(text: str) -> Iterator[Span]:
    """A password after "with" or a user name ("sign in with password …", "username admin
    password …"): a password as people make them."""
    yield from _made_passwords(_matched_in_lower_case(_WITH_PASSWORD_LOW, _WITH_PASSWORD, text))


def _matched_in_lower_case(
    low_form: re.Pattern[str], pattern: re.Pattern[str], text: str
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, where ``pattern`` is ``low_form`` in any case behind a look-
    behind for no character of a name: ``low_form`` searched in the text in lower case (letters
    `re` folds to ASCII's read as those, `_as_folded`), a match with such a character before it
    passed over for one starting past it, each kept one matched again by ``pattern`` (its
    groups the text's own)."""
    low, pos = _as_folded(_folded(text)), 0
    while (m := low_form.search(low, pos)) is not None:
        start = m.start()
        if start and low[start - 1] in _IN_A_NAME:
            pos = start + 1
            continue
        found = pattern.match(text, start)
        if found is not None:  # (it matches where its form does: as a guard)
            yield found
            pos = found.end() if found.end() > start else start + 1
        else:
            pos = start + 1


# ... or quoted after its name with no operator between, as Gradle's and Groovy's DSLs write
# it (credentials { username 'deployer'; password 'Xk9#…' }), and a log line or a ticket
# quotes one ("the token 'Qw7…'"): the name a credential's, the value one word in its quotes.
# The end of such a name, a space and the quoted value are found in the text in lower case
# (`re` reads a case-insensitive alternation at each character, ten times slower); the name is
# read back from where its word ends. Each quote's form is led by a space and the quote (a
# literal `re` skips to in C), the name's end looked behind them: led by the name's ends, the
# search tried them at each character (4.4 ms for 400 KB of "with password 'xyz' ", 3 of
# prose; 2.8 and 0.9 so).
_QUOTED_AFTER_NAME = tuple(
    _lazy(
        rf" (?P<quote>{quote})(?:{'|'.join(f'(?<={end} {quote})' for end in _QUOTED_NAME_ENDS)})"
        rf"(?P<value>[^\s\"'`\\<>]{{4,128}}+){quote}"
    )
    for quote in ("'", '"')
)
_NAME_BEFORE_QUOTE = 64  # characters at most


def _in_order(*found: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """The matches of several searches, none overlapping another's, by where each starts."""
    heads = [(m, rest) for rest in found if (m := next(rest, None)) is not None]
    while heads:
        i = min(range(len(heads)), key=lambda k: heads[k][0].start())
        m, rest = heads[i]
        yield m
        following = next(rest, None)
        if following is None:
            del heads[i]
        else:
            heads[i] = (following, rest)


_IN_A_NAME = frozenset(string.ascii_letters + string.digits + "_")
# (what stands before no verb `_set_to_values` reads, in the text in lower case)
_NOT_BEFORE_A_VERB = _IN_A_NAME | {"-"}  # (in the text in lower case)
_NOT_BEFORE_A_NAME = _IN_A_NAME | frozenset("-.$@>")


def quoted_after_name(text: str) -> Iterator[Span]:
    """A value quoted after a credential's name and a space: a password judged as prose judges
    one (`password 'Invalid'` is none), any other credential as one that looks generated
    (`_generated_key`); `_bounded`: a text of a thousand names quoting no credential is read
    for a hundred."""
    return _bounded(_quoted_values(text))


def _quoted_values(text: str) -> Iterator[Span | None]:
    # (C searches, a quote alone first, at memchr's speed: the regex would read each of the
    # many names of an environment file, and the pair's search costs 0.3 ms for 400 KB)
    if ("'" not in text or " '" not in text) and ('"' not in text or ' "' not in text):
        return
    low = _folded(text)
    for m in _in_order(*[form.finditer(low) for form in _QUOTED_AFTER_NAME]):
        end = start = m.start("quote") - 1  # (the space after the name)
        while start and text[start - 1] in _IN_A_NAME and end - start < _NAME_BEFORE_QUOTE:
            start -= 1
        name = text[start:end]
        if (start and text[start - 1] in _NOT_BEFORE_A_NAME) or name[:1].isdigit():
            yield None  # (inside a longer word or a path, or no name's start: 9token)
            continue
        cls = _named_class(name)
        # (a bare "pass" before a quote is the verb as often: "Pass 'accept_downloads=True'")
        if cls is None or cls == _C_BARE_PASSWORD:
            yield None
            continue
        value = text[m.start("value") : m.end("value")]
        if name[-3:].lower() == "psk":
            # a pre-shared key, chosen as a password is (strongSwan's : PSK "…"): judged as one
            told = _credential_value(_C_PASSWORD, value, prose=True) is not None
            yield (m.start("value"), m.end("value"), SECRET) if told else None
            continue
        if cls != _C_PASSWORD:
            # (a key's, a token's or a secret's name quotes an identifier as often: "unexpected
            # token 'identifier123'", secret "app-tls-cert-2b9xq": a value that looks generated)
            yield _generated_value(m.start("value"), value, cls)
            continue
        kind = _credential_value(cls, value, prose=True)
        yield None if kind is None else (m.start("value"), m.end("value"), kind)


# ... or after a header's name without its colon ("we call it with X-API-Key 9f3b… each
# time", "send the Api-Key header 9f3b…"): a name of X-… ending in Key, Token or Secret
_HEADER_NAME = r"x-[a-z0-9\-]{0,32}(?:key|token|secret)|api-key"
_HEADER_NAME_THEN_KEY = _lazy(
    rf"(?<![A-Za-z0-9_\-])(?P<name>{_HEADER_NAME})"
    r"[ \t]+(?:header[ \t]+)?(?P<value>[^\s\"'`<>]{16,256}+)",
    re.IGNORECASE,
)


# ... or a cookie named in a sentence, its pair after it ("copied the cookie sessionid=9f3b…
# from the browser", "the session cookie is PHPSESSID=…"): judged as a Cookie header's pairs
# are, each value 16 characters at least ("the cookie SameSite=None" sets an attribute)
_COOKIE_THEN_PAIR = _lazy(
    r"(?<![A-Za-z0-9_\-])(?P<name>cookie)s?(?:[ \t]+(?:is|was))?[ \t]*:?[ \t]+"
    r"(?P<value>[A-Za-z0-9_.\-]{1,64}+=[^\s\"'`<>;,]{16,512}+)",
    re.IGNORECASE,
)


# ... or with no verb between ("the API token 9f3B… was leaked"):
# the name one that says what the key is for (not "key" or "token" alone: "the public key
# MFkw…", "sort key created_at", "okta token …" is Okta's rule's, "object token …" none), and a
# value of 20 characters or more with letters of both cases and digits,
# as generated keys have them and words, hexadecimal digests and identifiers do not.
_PURPOSE_NAME = rf"(?:{'|'.join(_KEY_PURPOSES)}) (?:key|token|secret)"
_NAME_THEN_KEY = _lazy(
    rf"(?<![A-Za-z0-9_\-])(?P<name>{_PURPOSE_NAME})"
    # (the value in brackets too: "the deploy token (9f3B…) expires")
    r"[ \t]+\(?(?P<value>[A-Za-z0-9_\-.~+/=]{20,256}+)(?![^\s\"'`<>,;:.!?)\]])",
    re.IGNORECASE,
)


# ... or after what is done with it ("call the API with token 9f3B…", "authenticate using the
# key …"): "token", "key" or "secret" alone, after with, using, use or via (and "the"), and a
# value as above (20 characters or more, both cases and digits, no identifier's words).
_VERB_AND_NAME = r"(?:with|using|use|used|via)[ \t]+(?:the[ \t]+)?(?P<name>key|token|secret)"
_VERB_THEN_KEY = _lazy(
    rf"(?<![A-Za-z0-9_\-]){_VERB_AND_NAME}"
    r"[ \t]+(?P<value>[A-Za-z0-9_\-.~+/=]{20,256}+)(?![^\s\"'`<>,;:.!?)\]])",
    re.IGNORECASE,
)
# (the class a key alone names here and told with "is": told what is done with it, or named by
# nothing more, it is an API's key)
_VERB_THEN_KEY_CLASS = {"key": _C_API_KEY, "token": _C_TOKEN, "secret": _C_SECRET}


# The words of a camelCase identifier: a capital and small letters, capitals, digits
_CAMEL_WORD = _lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def _identifier_words(value: str) -> bool:
    """Whether most of a value's letters are in words of four or more run together, each
    starting with its capital (expiresInSeconds3600, SessionTokenProvider2Factory), as a
    generated key's are not (its letters change case every character or two)."""
    words = [w for w in _CAMEL_WORD.findall(value) if not w.isdigit()]
    letters = sum(map(len, words))
    capitals = sum(map(str.isupper, value))
    long_words = "".join([w for w in words if len(w) >= 4]).lower()
    # (a generated key's letters are capitals half the time; an identifier's, a word's first;
    # a word's letters are vowels a third of the time or more, a random run's a fifth: a key
    # of few capitals, Kx8z4hakb6oDwLjhdvDcir5i, has "words" hakb, Ljhdv, Dcir; and its digits
    # stand inside them, where an identifier's end its words: Seconds3600, Provider2Factory)
    return (
        letters > 0
        and capitals <= 0.2 * letters
        and len(long_words) >= 0.6 * letters
        and sum(map(long_words.count, "aeiouy")) >= 0.3 * len(long_words)
        and len(_DIGIT_IN_WORD.findall(value)) < 2
    )


# ... or as other languages tell one: "der Token ist …", "le jeton est …", "la clave de API es
# …" (shapes `KEY_NAMES_TOLD_PAST_ENGLISH`, `KEY_IS_WORDS`), the value one that looks generated
_KEY_NAME_PAST_ENGLISH = "|".join(
    re.escape(name).replace(r"\ ", "[ \t]+") for name in KEY_NAMES_TOLD_PAST_ENGLISH
)
_KEY_IS_PAST_ENGLISH = _lazy(
    rf"(?<![^\W_])(?P<name>{_KEY_NAME_PAST_ENGLISH})[ \t]+(?:{'|'.join(KEY_IS_WORDS)})[ \t]*:?"
    r"[ \t]*[\"'`]?(?P<value>[^\s\"'`<>]{16,256}+)",
    re.IGNORECASE,
)


# Where a match of each of those may start in a long text, found by RE2 in the text in lower
# case (`_read_low`): its name (or its verb) with no character of a name before it, then a space
# or a tab, as each reads after its name. `re` tries each regex at every character, its
# look-behind first: four passes over 400 KB of "set token to expire." cost 60 ms.
_TOLD_KEY_LEADS = {
    _KEY_IS: _KEY_IS_NAME,
    _HEADER_NAME_THEN_KEY: _HEADER_NAME,
    _NAME_THEN_KEY: _PURPOSE_NAME,
    _COOKIE_THEN_PAIR: r"cookies?[ \t]*:?",
    _VERB_THEN_KEY: _VERB_AND_NAME,
    _KEY_IS_PAST_ENGLISH: "|".join(map(_as_the_engines_read, KEY_NAMES_TOLD_PAST_ENGLISH)),
}


_TOLD_KEY_RUN = 16

_BARE_KEY_NAMES = frozenset({"key", "token", "secret"})
# The word before a key's name in prose, a space between ("my OpenAI key is …")
_WORD_BEFORE = _lazy(r"(?<![A-Za-z0-9_\-.])([A-Za-z][A-Za-z0-9]{1,31}+)[ \t]+$")


def _word_before(text: str, at: int) -> str | None:
    """The word before the name at ``at`` in prose (a space between), in lower case: what a
    bare "key", "token" or "secret" is told to be by ("my OpenAI key is …": "openai")."""
    m = _WORD_BEFORE.search(text, max(0, at - 40), at)
    return None if m is None else m.group(1).lower()


# The words before a bare "key", "token" or "secret" that say nothing more of what it is ("the
# new key is …", "my token was …"): a "sort key", a "primary key", a "public key", a "cache key"
# or an "idempotency key" told with a value is no credential, and neither is what the words
# of any other noun before it may name
_NOTHING_MORE = frozenset(
    (
        *("the", "a", "an", "my", "our", "your", "their", "his", "her", "this", "that"),
        *("new", "old", "current", "same", "rotated", "regenerated", "temporary", "temp"),
        *("staging", "prod", "production", "dev", "test", "live", "admin", "master", "root"),
        *("shared", "private", "real", "actual", "correct", "right", "valid", "full"),
    )
)
_BARE_KEY_RUN = 20


def key_in_prose(text: str) -> Iterator[Span]:
    """A key told in prose ("the staging API key is …", "with X-API-Key …", "the API token
    …"): a credential's name, and a value that looks generated (`_KEY_IS`,
    `_HEADER_NAME_THEN_KEY`, `_NAME_THEN_KEY`)."""
    raw = _read_low(_folded(text)) if len(text) >= RE2_RUNS_FROM else None

    def matches(pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        # (each value 16 characters at least, none a space or a quote)
        return _matched_at_leads(pattern, _TOLD_KEY_LEADS[pattern], text, raw, _TOLD_KEY_RUN)

    for m in matches(_COOKIE_THEN_PAIR):
        # (the pair's value judged as prose judges a token: Google Analytics' _ga=GA1.2.… is
        # none)
        if _credential_value(_C_TOKEN, m.group("value").partition("=")[2], prose=True):
            yield m.start("value"), m.end("value"), COOKIE
    for m in chain(matches(_KEY_IS), matches(_HEADER_NAME_THEN_KEY)):
        name = m.group("name")
        cls = _classify_name(name)
        bare = cls is None and name.lower() in _BARE_KEY_NAMES
        word = _word_before(text, m.start("name")) if bare else None
        if word is not None:
            # a bare name read with the word before it, as a variable joins them: a service's
            # ("my OpenAI key is …", "the Stripe token was …": openai_key), not a "sort key"
            cls = _classify_name(f"{word}_{name.lower()}")
        if cls is None:
            if bare and (word is None or word in _NOTHING_MORE):
                # "the new key is …": a key named by nothing more is one when its value looks
                # generated, 20 characters or more ("the key is SessionTokenProvider2" none)
                start, value = _told(m)
                cls = _VERB_THEN_KEY_CLASS[name.lower()]
                told = _generated_value(start, value, cls) if len(value) >= _BARE_KEY_RUN else None
                if told is not None:
                    yield told
            continue
        start, value = _told(m)
        kind = _credential_value(cls, value, prose=True)
        if kind is not None:
            yield start, start + len(value), kind
    # (`_bounded`: a text of thousands of such names with no key after them is read for a
    # hundred)
    yield from _bounded(map(_key_after_name, matches(_NAME_THEN_KEY)))
    yield from _bounded(map(_key_after_verb, matches(_VERB_THEN_KEY)))
    yield from _bounded(map(_key_told_past_english, matches(_KEY_IS_PAST_ENGLISH)))


def _key_told_past_english(m: re.Match[str]) -> Span | None:
    low = m.group("name").lower()
    return _generated_key(m, _C_TOKEN if "token" in low or "jeton" in low else _C_API_KEY)


# A credential told before its name: "use `Qw7…` as the password", "Qw7… is the new password",
# "enter 9f3B… as your API key": a word (quoted or not), then the phrase naming it, where the
# sentence ends or says what it is for; after "as", only with a verb before it that a person
# uses a credential with ("known as the password manager" tells none). The value is judged as
# prose judges one after its name, and after "is" or "was" holds both cases and a digit
# ("ingredient2 was the secret" is a sentence's word).
# (a name of two words, a space or a tab between them)
_TOLD_BEFORE_NAMES = TOLD_BEFORE_NAMES.replace(" ", r"[ \t]")
_NAMED_AFTER_VALUE = _lazy(
    rf"""(?<![A-Za-z0-9_])
    (?:(?P<use>(?i:{TOLD_BEFORE_VERBS}))[ \t]+[\"'`]?
    | [\"'`]?(?=[^ \t\n\"'`]{{0,127}}?[0-9])(?=[^ \t\n\"'`]{{0,127}}?[A-Z])
      (?=[^ \t\n\"'`]{{0,127}}?[a-z])
    )
    (?P<value>[^ \t\n\"'`]{{4,128}}+)[\"'`]?[ \t]+(?P<verb>(?i:as|is|was))[ \t]+
    (?:(?i:{TOLD_BEFORE_DETERMINERS})[ \t]+)?(?:(?i:{TOLD_BEFORE_QUALIFIERS})[ \t]+)?
    (?P<name>(?i:{_TOLD_BEFORE_NAMES}))
    # (the sentence ends there, with its stop or none before the next one's word, or says what
    # for: "the password hash", "the secret encoding" name something else)
    (?=[ \t]*(?:$|[\r\n.,;:!?)\]\"'`&/#\\<]|(?i:for|to|of|on|in|at|here|now|until|from|and|but
    |before|after|when|if|so|then|again|instead|please|later|too|also)(?![A-Za-z0-9_])
    |[A-Z][a-z]))""",
    re.VERBOSE,
)
# (both cases and a digit looked ahead for in C: a text of thousands of "value2 is the
# password" is refused with no step of Python each)


def value_before_name(text: str) -> Iterator[Span]:
    """The values told before their names (`_bounded`)."""
    return _bounded(map(_value_before, _NAMED_AFTER_VALUE.finditer(text)))


def _value_before(m: re.Match[str]) -> Span | None:
    value = m.group("value")
    if (m.group("verb").lower() == "as") != (m.group("use") is not None):
        return None  # ("Qw7… as the password": no verb; "use … is the password": no value)
    cls = _classify_name(m.group("name").replace("\t", " "))
    kind = None if cls is None else _credential_value(cls, value, prose=True)
    return None if kind is None else (m.start("value"), m.end("value"), kind)


def _key_after_verb(m: re.Match[str]) -> Span | None:
    return _generated_key(m, _VERB_THEN_KEY_CLASS[m.group("name").lower()])


def _key_after_name(m: re.Match[str]) -> Span | None:
    return _generated_key(m, _classify_name(m.group("name")))


def _generated_key(m: re.Match[str], cls: str | None) -> Span | None:
    """The value ``m`` tells, when it looks generated and ``cls`` takes it."""
    return _generated_value(*_told(m), cls)


def _generated_value(start: int, value: str, cls: str | None) -> Span | None:
    """``value`` (at ``start``), when it looks generated and ``cls`` takes it."""
    # (not an identifier's words run together: SessionTokenProvider2Factory)
    if cls is None or not _both_cases_and_digits(value) or _identifier_words(value):
        return None
    kind = _credential_value(cls, value, prose=True)
    return None if kind is None else (start, start + len(value), kind)


# --- credentials inside an encoding: percent-encoded, base64-wrapped -----------------------------

# A run of URL characters holding percent escapes, e.g. a query ?key=%41%4B%49%41... or
# ?token=ghp%5F...: decoded once (ASCII escapes only: credentials are ASCII), scanned by every
# other detector, and each hit mapped back to the characters it came from. The run takes the
# query's "?", "&" and "#" so that a parameter's name stays beside its decoded value.
_PERCENT_RUN = _lazy(r"(?:[A-Za-z0-9._~+\-/=:!$*,;@?&#]++|%[0-9A-Fa-f]{2})++")
_PERCENT_SPLIT = _lazy(r"%([0-7][0-9A-Fa-f])")
# Only the runs holding an escape are read: from each escape not in a run read already, back to
# its run's start (_PERCENT_RUN reversed, run on the reversed text before the escape, so no
# character is read back twice), then forward through the run. A long text with an escape or
# two is not read run by run (some 12 ms on 400 KB of words).
_PERCENT_ESCAPE = _lazy(r"%[0-7][0-9A-Fa-f]")
_PERCENT_BACK = _lazy(r"(?:[0-9A-Fa-f]{2}%|[A-Za-z0-9._~+\-/=:!$*,;@?&#])*+")


def _percent_runs(text: str) -> Iterator[re.Match[str]]:
    done = 0  # where the last run read ends
    pos = 0
    while (escape := _PERCENT_ESCAPE.search(text, pos)) is not None:
        at = escape.start()
        back = _PERCENT_BACK.match(text[done:at][::-1])
        run = _PERCENT_RUN.match(text, at - (back.end() if back else 0))
        if run is None:  # (never: the escape itself is a run)
            break
        yield run
        done = pos = run.end()


# A decoded text's runs, as `_placed` reads them: each one's start in the decoded text, its
# start in the text, where its escapes stand in it, and how much longer than decoded the
# escapes before each are
Runs = list[tuple[int, int, list[int], list[int]]]


# What a decoding detector makes of a text: the texts to scan (decoded once, or twice), and
# what places their hits (a list for each of those texts) back in the text. The document scan
# decodes each of its strings that needs it and scans what all of them decode to at once
# (app/secrets `_decoded_spans`): a list of 7,000 URLs with an escape each, scanned a URL at
# a time, cost 112 ms.
Decoding = tuple[list[str], Callable[[list[list[Span]]], Iterator[Span]]]


def _scanned(
    decoding: Decoding | None, escapes: bool = False, exclude: int | None = None
) -> Iterator[Span]:
    """The spans of one text's ``decoding``, its texts scanned (with ``escapes``, an escape's
    decoding: read for its lines too; ``exclude``, what it is not read by, where neither:
    app/secrets `decoded_exclusion`)."""
    if decoding is None:
        return
    texts, place = decoding
    hits = _scan_strings(texts, DECODED_BY[escapes] if exclude is None else exclude)
    if any(hits):
        yield from place(hits)


def percent_encoded(text: str) -> Iterator[Span]:
    return _scanned(percent_decoding(text))


def percent_decoding(text: str) -> Decoding:
    # Every run of a text is decoded into one text, a line each, and scanned once (a text of
    # many escapes: the whole of it, `_percent_level`). The hex digits of all escapes are
    # decoded at once (bytes.fromhex); a decoded offset maps back by counting the escapes
    # before it (each is two characters longer in `text`). A text that escapes a percent sign
    # (%25) may be encoded twice, as a URL nested in another's query is: the decoded text is
    # decoded once more and scanned too, each hit placed back through both (once only: a
    # Twitter bearer token holds its own %2B and %3D).
    once, outer = _percent_level(text)
    texts = [once]
    inner: Callable[[], Runs] | None = None
    if "%25" in text:
        twice, inner = _percent_level(once)
        texts.append(twice)

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        found = hits[0]
        if inner is not None and hits[1]:
            found = [*found, *_placed(hits[1], inner())]
        if found:
            yield from _placed(found, outer())

    return texts, place


def _percent_level(text: str) -> tuple[str, Callable[[], Runs]]:
    """``text``'s percent escapes decoded, and where its characters stand in ``text`` (runs
    made when asked: a text's hits are few). Few escapes: the runs holding them, a line each
    (`_percent_decoded`); more: the whole text in C passes, where a run's step of Python each
    cost 4 µs (400 KB of "%41 " took 490 ms; a list of 10,000 URLs with an escape each, 58)."""
    # (a short text, as a long one of many escapes, decoded whole: its runs cost 5 µs of Python,
    # 30,000 short strings with an escape each 150 ms of a lint)
    if len(text) > _POINTER_REACH and not _many_escapes(text):
        pieces, runs = _percent_decoded(text)
        return "".join(pieces), lambda: runs
    decoded, literals, chars = _percent_whole(text)

    def placed() -> Runs:
        places = list(map(operator.add, accumulate(map(len, literals[:-1])), count()))
        return [(0, 0, places, list(range(0, 2 * len(chars) + 1, 2)))]

    return decoded, placed


def _percent_whole(text: str) -> tuple[str, list[str], str]:
    """``text`` with every percent escape decoded, in C passes; the literal parts between its
    escapes and the characters they stand for."""
    parts = _PERCENT_SPLIT.split(text)
    literals = parts[0::2]
    chars = bytes.fromhex("".join(parts[1::2])).decode("ascii")
    decoded = "".join(chain.from_iterable(zip(literals, chars, strict=False))) + literals[-1]
    return decoded, literals, chars


def _many_escapes(text: str) -> bool:
    return _windowed_escapes(_PERCENT_ESCAPE, text) is None


def _percent_decoded(
    text: str,
) -> tuple[list[str], Runs]:
    """The runs of ``text`` holding percent escapes, decoded, a line each (`_placed`'s pieces
    and runs)."""
    pieces: list[str] = []
    runs: Runs = []
    length = 0
    for run in _percent_runs(text):
        parts = _PERCENT_SPLIT.split(run.group())
        if len(parts) == 1:
            continue
        literals = parts[0::2]
        chars = bytes.fromhex("".join(parts[1::2])).decode("ascii")
        places = list(map(operator.add, accumulate(map(len, literals[:-1])), count()))
        pieces.extend(chain.from_iterable(zip(literals, chars, strict=False)))
        pieces.append(literals[-1] + "\n")
        runs.append((length, run.start(), places, list(range(0, 2 * len(chars) + 1, 2))))
        length += len(run.group()) - 2 * len(chars) + 1
    return pieces, runs


def _unescaped_decoding(
    pieces: list[str], runs: list[tuple[int, int, list[int]]], escape_width: int
) -> Decoding | None:
    """The decoded text ``pieces`` make, scanned once, each hit placed back in the text it was
    decoded from. ``runs``: each run's start in the decoded text, its start in the text, and
    where its escapes stand in the decoded run; each escape is ``escape_width`` characters in
    the text (``%2F``: 3, ``~1``: 2) and one decoded."""
    if not runs:
        return None
    longer = escape_width - 1  # how much longer each escape before a character makes it
    shifted = [
        (start, text_start, places, [longer * k for k in range(len(places) + 1)])
        for start, text_start, places in runs
    ]
    return ["".join(pieces)], lambda hits: _placed(hits[0], shifted)


def _placed(hits: Iterable[Span], runs: Runs) -> Iterator[Span]:
    """The ``hits`` in the unescaped text of ``runs``, each placed back in the text."""
    starts = [r[0] for r in runs]

    def back(offset: int) -> tuple[int, int]:
        """Where decoded character `offset` starts in the text, and its width there."""
        decoded_start, text_start, places, shifts = runs[bisect_right(starts, offset) - 1]
        inside = offset - decoded_start
        before = bisect_left(places, inside)
        escaped = before < len(places) and places[before] == inside
        width = shifts[before + 1] - shifts[before] + 1 if escaped else 1
        return text_start + inside + shifts[before], width

    for start, end, kind in hits:
        if runs[bisect_right(starts, start) - 1][1] == _IN_LEAD:
            continue  # in a window's lead: the text's own scan reads it
        last, width = back(end - 1)
        yield back(start)[0], last + width, kind


# A JSON Pointer quoted in a text: a derived checkpoint names what it dropped or rewrote of its
# parent by the parent's pointers (derivation.omissions and transformations), and a pointer
# escapes "/" as "~1" and "~0" as "~" in each token. A parent's credential that was a member
# name (https://svc:pw@host/, an AWS secret with a "/", an Azure AD secret's "~") is then
# repeated in a form no other detector reads: the text around the escapes is unescaped and
# scanned. Around: the escape's line, at most _POINTER_REACH characters either side (a member
# name with its credential and the name beside it fits), so a long text with one "~1" in it is
# not scanned twice over, and one full of them at most once more.
_POINTER_ESCAPE = _lazy(r"~[01]")
_POINTER_REACH = 512


def _pointer_windows(text: str) -> Iterator[tuple[int, int, list[int]]]:
    """Each window of `text` around its escapes (start, end, where its escapes start)."""
    return _escape_windows(text, _POINTER_ESCAPE.finditer(text))


def _escape_windows(
    text: str, escapes_found: Iterable[re.Match[str]], lines: bool = True
) -> Iterator[tuple[int, int, list[int]]]:
    """Each window of `text` around the escapes found in it (start, end, where its escapes
    start): at most `_POINTER_REACH` characters either side of each, within its line (or not,
    ``lines`` False: YAML or JSON escaped for HTML names a value on the line before it)."""
    low = high = 0
    escapes: list[int] = []
    size = len(text)
    for m in escapes_found:
        at = m.start()
        reach = min(size, at + _POINTER_REACH)
        stop = text.find("\n", at, reach) if lines else -1
        if escapes and at < high + _POINTER_REACH:  # near the open window: it reaches further
            escapes.append(at)
            high = max(high, stop if stop >= 0 else reach)
            continue
        if escapes:
            yield low, high, escapes
        back = max(0, at - _POINTER_REACH)
        low = (text.rfind("\n", back, at) + 1 or back) if lines else back
        if low and text[low - 1] not in "\r\n":
            # cut mid-line: the characters before the cut too, which tell prose from data for
            # a name just after it (app/secrets `_structured` reads `_LEAD` of them); what is
            # found among them is left out (`_IN_LEAD`: as far from any escape as the text's
            # own scan reads it)
            lead = max(0, low - _LEAD)
            low = (text.rfind("\n", lead, low) + 1 or lead) if lines else lead
        high = stop if stop >= 0 else reach
        escapes = [at]
    if escapes:
        yield low, high, escapes


_LEAD = 256  # (app/secrets `_LEAD_WINDOW`)
# Where a run of a window's lead stands in the text, as `_placed` reads runs: a hit starting in
# it is left out (`_escape_windows`).
_IN_LEAD = -1


def _one_window(text: str) -> bool:
    """Whether ``text`` is one window of an escape's reach, a line: unescaped whole."""
    return len(text) <= _POINTER_REACH and "\n" not in text


def _pointer_unescaped(text: str) -> str:
    """``text`` with a pointer's escapes replaced (~1 first, as RFC 6901 reads them)."""
    return text.replace("~1", "/").replace("~0", "~")


def pointer_escaped(text: str) -> Iterator[Span]:
    return _scanned(pointer_decoding(text))


def pointer_decoding(text: str) -> Decoding | None:
    # As for percent escapes: each window unescaped into one text, a line each, scanned once.
    if _one_window(text):
        # one window, the whole text: unescaped in two C passes, its escapes placed only when
        # it has a hit (a window's pieces cost 3 µs)
        def place(hits: list[list[Span]]) -> Iterator[Span]:
            escapes = [m.start() for m in _POINTER_ESCAPE.finditer(text)]
            places = [at - k for k, at in enumerate(escapes)]
            return _placed(hits[0], [(0, 0, places, list(range(len(places) + 1)))])

        return [_pointer_unescaped(text) + "\n"], place
    pieces: list[str] = []
    runs: list[tuple[int, int, list[int]]] = []  # unescaped start, start in text, escapes' places
    length = 0
    for low, high, escapes in _pointer_windows(text):
        places: list[int] = []  # each escape's place in the unescaped window
        pos = low
        lead = _lead_of(low, escapes)
        for at in escapes:
            pieces.append(text[pos:at])
            places.append(at - low - lead - len(places))  # (each escape before is one shorter)
            pieces.append("/" if text[at + 1] == "1" else "~")
            pos = at + 2
        pieces.append(text[pos:high] + "\n")
        if lead:
            runs.append((length, _IN_LEAD, []))
        runs.append((length + lead, low + lead, places))
        length += high - low - len(places) + 1
    return _unescaped_decoding(pieces, runs, escape_width=2)


# JSON or code a text quotes as an HTML page (or a tool that escaped it for one) writes it:
# {&quot;api_key&quot;: &quot;…&quot;}, &lt;password&gt;…&lt;/password&gt;. The text around
# the escapes is unescaped and scanned, window by window as a pointer's (`_escape_windows`);
# a text of many escapes is unescaped whole. The characters a credential's syntax needs and
# HTML escapes: quotes, <, > and &, by name or by number (& last: "&amp;quot;" is "&quot;").
_HTML_ESCAPES = {
    **dict.fromkeys(("&quot;", "&#34;", "&#x22;"), '"'),
    **dict.fromkeys(("&apos;", "&#39;", "&#x27;"), "'"),
    **dict.fromkeys(("&lt;", "&#60;", "&#x3c;", "&#x3C;"), "<"),
    **dict.fromkeys(("&gt;", "&#62;", "&#x3e;", "&#x3E;"), ">"),
    **dict.fromkeys(("&amp;", "&#38;", "&#x26;"), "&"),
}
# (each escape captured whole: a text is split at its escapes in one C pass)
_HTML_SPLIT = _lazy("(" + "|".join(map(re.escape, _HTML_ESCAPES)) + ")")
# A text of more escapes than this is unescaped whole, by a `str.replace` of each spelling: a
# window per escape costs a step of Python each (400 KB of &quot; took 109 ms); where its hits
# stand in it is then found by splitting it (some 17 ms for 66,000 escapes), only when it has
# a hit. ... unless its escapes come thinner than one in `_WINDOWED_SPACING` characters: what
# it is unescaped to is scanned again, all of it when unescaped whole, which costs its own
# scan's time again (60 ns a character at least; a text of 2 MB holding 103 escapes: a third
# of a second, where its windows cost a millisecond), and its windows, a kilobyte each, that
# time for what they cover and a step of Python each (2-4 µs): the fewer characters for as
# many escapes past one in 2 KB.
_WINDOWED_UP_TO = 64
_WINDOWED_SPACING = 2048


def _windowed_escapes(split: re.Pattern[str], text: str) -> list[re.Match[str]] | None:
    """The escapes of ``text`` (as ``split`` finds them) when few enough for it to be
    unescaped window by window (see above); None when it holds more."""
    most = max(_WINDOWED_UP_TO, len(text) // _WINDOWED_SPACING)
    escapes = list(islice(split.finditer(text), most + 1))
    return escapes if len(escapes) <= most else None


def html_escaped(text: str) -> Iterator[Span]:
    return _scanned(html_decoding(text), escapes=True)


def html_decoding(text: str) -> Decoding:
    once, runs = _escape_level(text, _HTML_SPLIT, _HTML_ESCAPES, _html_replaced)
    return [once], lambda hits: _placed(hits[0], runs())


def _html_replaced(text: str) -> str:
    """``text`` with its HTML escapes replaced, in C passes (& last: `_HTML_ESCAPES`); those by
    number only in a text that holds one (a pass for each costs a short text 1 µs)."""
    for spelling, character in _HTML_ESCAPES.items() if "&#" in text else _HTML_NAMED:
        text = text.replace(spelling, character)
    return text


_HTML_NAMED = tuple((s, c) for s, c in _HTML_ESCAPES.items() if not s.startswith("&#"))


def _escape_level(
    text: str,
    split: re.Pattern[str],
    table: dict[str, str],
    replaced: Callable[[str], str | None],
    whole: bool = False,
) -> tuple[str, Callable[[], Runs]]:
    """``text`` unescaped by ``table`` (its escapes as ``split`` finds them), and where its
    characters stand in ``text`` (`_placed`'s runs, made when asked: a text's hits are few):
    the text around its escapes, a window a line, unless it holds more than `_windowed_escapes`
    takes (or ``whole``); then all of it, by ``replaced`` in C passes (None: it cannot, and the
    text is split instead), split to place its hits only when asked."""
    # (a text no longer than a window's reach is one window: unescaped whole, in C passes, where
    # a window cost 4 µs of Python; 20,000 strings with "&amp;" in each, 80 ms of a lint)
    whole = whole or len(text) <= _POINTER_REACH
    escapes = None if whole else _windowed_escapes(split, text)
    if escapes is not None:
        windows = _escape_windows(text, escapes, lines=False)
        pieces, runs = _unescaped(text, split, table, windows)
        return "".join(pieces), lambda: runs
    all_of_it: list[tuple[int, int, list[int]]] = [(0, len(text), [])]

    def placed() -> Runs:
        return _unescaped(text, split, table, all_of_it)[1]

    plain = replaced(text)
    if plain is None:
        pieces, runs = _unescaped(text, split, table, all_of_it)
        return "".join(pieces), lambda: runs
    return plain + "\n", placed  # (a line, as each window is)


def _unescaped(
    text: str,
    split: re.Pattern[str],
    table: dict[str, str],
    windows: Iterable[tuple[int, int, list[int]]],
) -> tuple[list[str], Runs]:
    """The ``windows`` of ``text`` with the escapes ``split`` finds unescaped by ``table``, a
    window a line (`_placed`'s pieces and runs). An escape is longer than the character it
    stands for by the width it has less one."""
    pieces: list[str] = []
    runs: Runs = []
    length = 0
    for low, high, escapes in windows:
        parts = split.split(text[low:high])
        literals, found = parts[0::2], parts[1::2]
        # each escape's place in the unescaped window, and how much longer the ones before it
        # are than the characters they stand for
        places = list(map(operator.add, accumulate(map(len, literals[:-1])), count()))
        shifts = [0, *accumulate(map(len, found), operator.add)]
        shifts = list(map(operator.sub, shifts, count()))
        characters = map(table.__getitem__, found)
        pieces.extend(chain.from_iterable(zip(literals, characters, strict=False)))
        pieces.append(literals[-1] + "\n")
        lead = _lead_of(low, escapes)
        if lead:
            runs.append((length, _IN_LEAD, [], [0]))
            places = [at - lead for at in places]
        runs.append((length + lead, low + lead, places, shifts))
        length += high - low - shifts[-1] + 1
    return pieces, runs


def _lead_of(low: int, escapes: list[int]) -> int:
    """How many characters of a window starting at ``low`` are its lead (`_escape_windows`):
    those more than `_POINTER_REACH` before its first escape."""
    return max(0, escapes[0] - _POINTER_REACH - low) if escapes else 0


# JSON a text quotes (a log line of a request's body, a tool's output printed as a string)
# escapes a quote as \", a backslash as \\, a tab and a line break as \t and \n, and some
# encoders more: a slash as \/ (PHP's json_encode, by default), <, >, &, ' and " as \u003c…
# (Go's encoding/json, PHP's JSON_HEX_*), + and ` as \u002B and \u0060 (.NET's
# System.Text.Json), / as \u002F (encoders that escape for a page), and every character past
# ASCII by its code (Python's json.dumps: "Passwort: \u00e4ndern" read as written was a
# password). Code or configuration in it, escaped once more, reads as
# {\"env\": {\"VALUE\": \"db_password = \\\"…\\\"\"}}. The scan reads quotes escaped once
# (`_VALUE`'s \\?"); escaped twice, a listing's tab, or a slash or a character escaped (a
# webhook's https:\/\/hooks…, a base64 key's \u002B), they are unescaped, as HTML's escapes
# are, once, and where the text unescaped still holds an escaped quote, once more.


class _Escapes(dict[str, str]):
    r"""The escapes JSON writes by name, each to its character, and any other by its code
    (\u00e4, \u8bf7: what Python's encoder writes of every character past ASCII), read when
    first asked for."""

    def __missing__(self, escape: str) -> str:
        character = self[escape] = chr(int(escape[2:], 16))
        return character


_JSON_ESCAPES = _Escapes(
    {
        '\\"': '"',
        "\\\\": "\\",
        "\\/": "/",
        "\\n": "\n",
        "\\t": "\t",
        "\\r": "\r",
    }
)
# (the escapes by name, then a character's by its code; the escaped backslash before a "u" it
# stands beside)
_JSON_SPLIT = _lazy(r'(\\["\\/ntr]|\\u[0-9A-Fa-f]{4})')
_JSON_CODE = _lazy(r"(\\u[0-9A-Fa-f]{4})")


def json_escaped(text: str) -> Iterator[Span]:
    return _scanned(json_decoding(text), escapes=True)


def json_decoding(text: str) -> Decoding | None:
    # Only a text that holds one of the escapes `JSON_DECODED` lists (a quote, a line break, a
    # tab, a slash, a backslash or a character by its code escaped): the text as written
    # reads a credential beside no escape, and leaves one that reads an escape to this
    # (app/secrets `_read_as_written`). Unescaped as HTML's escapes are, and where that still
    # escapes a backslash or a quote, once more; the second level's hits are placed in the
    # first level's text, then in this one.
    if not _json_decoded(text):
        return None
    once, outer = _json_level(text)
    twice, inner = _json_level(once, whole=True) if _still_escaped(once) else (None, None)

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        found = hits[0]
        if found and inner is not None:
            found = list(_placed(found, inner()))
        if found:
            yield from _placed(found, outer())

    return [once if twice is None else twice], place


# The escapes that send a text to the decoder (app/secrets' anchor looks for the same).
JSON_DECODED = ("\\\\", "\\t", "\\n", "\\r", "\\/", '\\"', "\\u")


def _json_decoded(text: str) -> bool:
    """Whether ``text`` holds one of the escapes `JSON_DECODED` lists."""
    return "\\" in text and any(map(text.__contains__, JSON_DECODED))


def _still_escaped(once: str) -> bool:
    """Whether a text unescaped once still escapes (a backslash left alone, c:\\dir, is no
    escape): JSON escaped twice, unescaped once more."""
    return "\\" in once and _JSON_SPLIT.search(once) is not None


def _json_level(text: str, whole: bool = False) -> tuple[str, Callable[[], Runs]]:
    """`_escape_level` of JSON's escapes."""
    return _escape_level(text, _JSON_SPLIT, _JSON_ESCAPES, _json_replaced, whole)


def _json_replaced(text: str) -> str | None:
    """``text`` with its JSON escapes replaced, in C passes; None when it holds
    `_PLACEHOLDER` (the replacing would take it for an escaped backslash)."""
    if _PLACEHOLDER in text:
        return None
    # (the escaped backslashes first: each other escape starts at a backslash, and once those
    # are out of the way, none overlaps another)
    plain = text.replace("\\\\", _PLACEHOLDER)
    for spelling, character in _JSON_NAMED:
        plain = plain.replace(spelling, character)
    if "\\u" in plain:
        # every character by its code at once: its four digits padded to UTF-32's eight, and
        # decoded in one call (a surrogate stays one: a pair's halves are two escapes)
        parts = _JSON_CODE.split(plain)
        codes = "".join(parts[1::2]).replace("\\u", "0000")
        parts[1::2] = bytes.fromhex(codes).decode("utf-32-be", "surrogatepass")
        plain = "".join(parts)
    return plain.replace(_PLACEHOLDER, "\\")


_PLACEHOLDER = "\x00"  # (what an escaped backslash stands for while the others are replaced)
_RECORDS = "\x1e"  # (what separates the short texts decoded together: `json_texts`)
# (the escapes by name but the backslash's, replaced first)
_JSON_NAMED = tuple((s, c) for s, c in _JSON_ESCAPES.items() if s != "\\\\")


# A unified diff an agent made or read (git diff, a patch it applied) marks each line of a
# hunk "+", "-" or " ": a credential added to a configuration reads "+  password: …", a YAML
# block or a key file has a mark on each line, and a base64 key's run takes a "+" for its
# own. The text from its first hunk header on is read without the marks and scanned; a hit is
# placed back a mark on in each line (`_runs_around`, made when asked: hits are few).
_HUNK = _lazy(r"@@ -[0-9]+(?:,[0-9]+)? \+[0-9]+(?:,[0-9]+)? @@")
_LINE_HUNK = _lazy(r"\n@@ -[0-9]+(?:,[0-9]+)? \+[0-9]+(?:,[0-9]+)? @@")
# (a mark after a line break: a literal `re` skips to, where "^" in multi-line mode is tried
# at every character)
_DIFF_MARK = _lazy(r"\n[+\- ]")


def diff_marked(text: str) -> Iterator[Span]:
    return _scanned(diff_decoding(text))


def diff_decoding(text: str) -> Decoding | None:
    first = first_hunk(text)
    return None if first is None else _unmarked_lines(text[first:], _DIFF_MARK, first)


def decoded_alone(texts: list[str]) -> list[str | None]:
    """The batch form (`BatchDecoding`) of a decoding whose texts are seldom short (a diff, a
    quoted reply, a log): None for each of ``texts``, each decoded alone."""
    return [None] * len(texts)


def first_hunk(text: str) -> int | None:
    """Where the first line that is a hunk's header (@@ -1,2 +1,3 @@) starts, or None. (One
    search for a line break and a header: a text of "@@ -" written 100,000 times costs no
    step of Python for each.)"""
    if _HUNK.match(text):
        return 0
    found = _LINE_HUNK.search(text)
    return None if found is None else found.start() + 1


# An e-mail's reply quotes the message it answers with a mark opening each line ("> ", nested
# "> > " or ">>"), as a support case's thread holds it, and so does Markdown's block quote: a
# key file, a YAML block or a table quoted has a mark on each line, and a key's base64 lines,
# a block's indentation or a table's rows are read only without them. The text is read with
# each line's marks taken out and scanned; a hit is placed back (`_runs_around`).
_QUOTE_MARK = _lazy(r"\n(?:(?:>|&gt;)[ \t]?){1,8}+")


def quote_marked(text: str) -> Iterator[Span]:
    return _scanned(quote_decoding(text))


def quote_decoding(text: str) -> Decoding | None:
    return _unmarked_lines(text, _QUOTE_MARK)


def _unmarked_lines(text: str, marks: re.Pattern[str], offset: int = 0) -> Decoding | None:
    """``text`` read with what ``marks`` finds opening its lines (a line break, then a diff's
    mark, a quote's marks or a log's prefix) taken out, and what places a hit back (``text``
    starting at ``offset`` in the text the hits are placed in); None when no line has one."""
    lined = "\n" + text  # (the text's first line may be marked too)
    unmarked = marks.sub("\n", lined)
    if len(unmarked) == len(lined):
        return None

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        # (a mark in the text is where it is in the lined text, less its line break)
        taken = ((m.start(), m.end() - 1, 0) for m in marks.finditer(lined))
        return _placed(hits[0], _runs_around(taken, offset))

    return [unmarked[1:]], place


# A log a collector wrote a line at a time prefixes each line (`kubectl logs --timestamps`,
# `docker logs -t`: an RFC 3339 time; a logger's time, level and fields in brackets; the
# journal's "Dec  6 10:00:00 host unit[42]: "; `docker compose logs`: "api-1  | "): a key a
# program printed, or a YAML block, has a prefix on each of its lines, and is read only
# without them. The text is read with each line's prefix taken out and scanned; a hit is
# placed back (`_runs_around`). (app/secrets' anchor sends only a text of two prefixed lines
# in a row: a time alone in a value is no log.)
_LOG_PREFIX = _lazy(rf"\n{LOG_PREFIX}")  # (app/secrets `LOG_PREFIX`)


def log_prefixed(text: str) -> Iterator[Span]:
    return _scanned(log_decoding(text))


def log_decoding(text: str) -> Decoding | None:
    return _unmarked_lines(text, _LOG_PREFIX)


# A block commented out, as a configuration or a script keeps the old one for reference (each
# line opened by "# ", " * ", "// ", "-- " or "; ", app/secrets `_COMMENT_MARKS`): a YAML block,
# a .netrc entry, a table or a call over several lines has a mark on each of its lines, and its
# indentation, its rows or its arguments are read only without them. The text is read with
# each line's mark (the spaces before it and one after it) taken out and scanned; a hit is
# placed back (`_runs_around`). (app/secrets' anchor sends only a text of two lines in a row
# opened by the same mark.)
_COMMENT_MARK = _lazy(rf"\n{COMMENT_MARK}")


def comment_marked(text: str) -> Iterator[Span]:
    return _scanned(comment_decoding(text))


def comment_decoding(text: str) -> Decoding | None:
    return _unmarked_lines(text, _COMMENT_MARK)


# A file an agent read with its lines numbered (`cat -n`'s number and tab, an editor's or a
# tool's number and an arrow, a code viewer's number and a bar), or grep printed (`grep -n`'s
# number and a colon, its path before it in several files, a hyphen for a line of context):
# a key's lines, a YAML block or a table is read only without them. The text is read with
# each line's prefix taken out and scanned; a hit is placed back (`_runs_around`).
# (app/secrets' anchor sends only a text of two numbered lines in a row, or of one line grep
# prefixed; the path is read up to 256 characters from each line's start; a comment's mark
# after a line's number is taken out with it, as `comment_marked` takes it.)
_NUMBERED_LINE = _lazy(
    r"\n(?:[ \t]*[0-9]{1,7}(?:\t|\u2192|[ \t]*\|[ \t]?|[:\-](?![0-9]))"
    rf"|{GREP_PREFIX})"
    # (and a comment's mark after it: a block commented out in the file, read in one reading)
    rf"(?:{COMMENT_MARK})?"
)


def numbered_lines(text: str) -> Iterator[Span]:
    return _scanned(numbered_decoding(text))


def numbered_decoding(text: str) -> Decoding | None:
    return _unmarked_lines(text, _NUMBERED_LINE)


# A block indented by tabs, as an e-mail, a ticket or a Makefile sets a pasted text in: a
# listing's rows, a CSV's, a YAML block (which no tab indents) are read only from their lines'
# starts. The text is read with the tabs opening each line taken out (spaces after them kept:
# a YAML block's own indentation) and scanned; a hit is placed back (`_runs_around`).
# (app/secrets' anchor sends only a text of two such lines in a row.)
_TAB_INDENT = _lazy(r"\n\t++")


def tab_indented(text: str) -> Iterator[Span]:
    return _scanned(tab_decoding(text))


def tab_decoding(text: str) -> Decoding | None:
    return _unmarked_lines(text, _TAB_INDENT)


# A text exported from a web page or a rich editor (a ticket's description, a chat's message, a
# wiki's page) breaks its lines with HTML's <br> (<br/>, <br />, a line break after it or not)
# or sets each in a block of its own (<div>, <p>, <li>):
# a YAML block, a .netrc entry or a table pasted there is read only as lines. The text is read
# with each <br> as a line break and scanned; a hit is placed back (`_runs_around`).
_HTML_BREAK = _lazy(
    r"(?P<end></(?i:div|p|li)>)(?:\r?\n)?"
    r"|(?:<[Bb][Rr][ \t]*/?>|<(?i:div|p|li)(?:[ \t][^<>\n]{0,256})?>)(?:\r?\n)?"
)
# How many of a text's breaks and blocks are read so: each is a step of Python (a text of
# 80,000 <br> cost 47 ms for 400 KB); those past it are read as written.
_HTML_BREAKS_PER_TEXT = 10_000


def html_lines(text: str) -> Iterator[Span]:
    return _scanned(html_lines_decoding(text))


def html_lines_decoding(text: str) -> Decoding | None:
    # (a block's start and a line break read as a line break, a block's end as nothing: the
    # lines of <div>a</div><div>b</div> are "a" and "b")
    lined, read = _HTML_BREAK.subn(_html_break, text, _HTML_BREAKS_PER_TEXT)
    if not read:
        return None

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        breaks = islice(_HTML_BREAK.finditer(text), _HTML_BREAKS_PER_TEXT)
        taken = ((m.start(), m.end(), 0 if m.group("end") else 1) for m in breaks)
        return _placed(hits[0], _runs_around(taken))

    return [lined], place


def _html_break(m: re.Match[str]) -> str:
    return "" if m.group("end") else "\n"


# A file a tool read into a list of its lines and printed (Python's readlines(), a JSON array
# of lines: ["machine api.example.com", "  login deploy", "  password …"]): a .netrc entry, a
# YAML block or a table is read only as lines. Each list of two strings or more (each quoted
# on one line, double or single quotes) is read as its strings' lines, between line breaks,
# their escapes of a quote, a backslash, a tab or a line break read as what they stand for,
# and the text scanned; a hit is placed back (`_runs_around`). (An item holds no bracket: a
# list that does not close is then read up to its first one, and no other starts inside it.)
_LIST_ITEM = r"""(?:"(?:[^"\\\n\[\]]++|\\[^\n\[\]])*+"|'(?:[^'\\\n\[\]]++|\\[^\n\[\]])*+')"""
_LISTED_LINES = _lazy(
    rf"\[[ \t\r\n]*+{_LIST_ITEM}(?:[ \t\r\n]*+,[ \t\r\n]*+{_LIST_ITEM})++[ \t\r\n]*+,?[ \t\r\n]*+\]"
)
_LISTED_ITEM = _lazy(_LIST_ITEM)
# How many lists a text is read as lines for: a file read as its lines is one, and a text of
# thousands of lists of strings is data (each read is some 6 µs of Python: 30,000 `["ab",
# "cd"]` in 400 KB cost 167 ms); those past it are read as written.
_LISTS_PER_TEXT = 100
_ITEM_ESCAPE = _lazy(r"\\[\"'\\/tnr]")
_ITEM_ESCAPED = {"t": "\t", "n": "\n", "r": "\r"}


def listed_lines(text: str) -> Iterator[Span]:
    return _scanned(listed_lines_decoding(text))


def listed_lines_decoding(text: str) -> Decoding | None:
    # (each piece of the text read as another: where it starts and ends, and what it reads as)
    read_as: list[tuple[int, int, str]] = []
    for listed in islice(_LISTED_LINES.finditer(text), _LISTS_PER_TEXT):
        at, between = listed.start(), "\n"
        for item in _LISTED_ITEM.finditer(text, at, listed.end()):
            read_as.append((at, item.start() + 1, between))
            for escape in _ITEM_ESCAPE.finditer(text, item.start() + 1, item.end() - 1):
                code = escape.group()[1]
                read_as.append((escape.start(), escape.end(), _ITEM_ESCAPED.get(code, code)))
            at = item.end() - 1
            # (a line read with its break, as readlines() keeps it, takes no other)
            between = "" if text.endswith("\\n", 0, at) else "\n"
        read_as.append((at, listed.end(), between))
    if not read_as:
        return None
    pieces: list[str] = []
    at = 0
    for start, end, character in read_as:
        pieces += (text[at:start], character)
        at = end
    pieces.append(text[at:])

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        taken = ((start, end, len(character)) for start, end, character in read_as)
        return _placed(hits[0], _runs_around(taken))

    return ["".join(pieces)], place


# A terminal's output a tool captured holds its colours and styles as escape sequences
# (ESC [ 1;32m; ESC ] 8;;url ESC \ around a link's text; ESC ] 0;title BEL): the sequence's
# last letter stands against a token (\x1b[32mghp_…), or splits a name (public\x1b[1mToken).
# The text is read without them: a colour or a style (CSI) taken out, a link's or a title's
# framing read as a space and what it frames (a URL, a command in a title) kept, an ESC
# alone taken out. A hit is placed back a run a piece (`_runs_around`).
_CSI = r"\[[0-?]{0,64}+[ -/]{0,16}+[@-~]"  # a colour, a style, a cursor's move
_OSC_START = r"\](?:8;[^;\x07\x1b\x1e]{0,256}+;|[0-9]{1,4}+;?)"  # a link's, a title's
TERMINAL_SEQUENCE = _lazy(
    rf"\x1b{_CSI}"
    rf"|(?P<framing>\x1b{_OSC_START}|\x07|\x1b\\)"  # (an OSC ends with a BEL or ESC \)
    r"|\x1b"  # an ESC alone
)
# ... the same where a text holds no BEL: each sequence then starts with an ESC, a literal `re`
# skips to in C, where the two first characters of the whole cost it 15 ns a character
# (5.5 ms for 350 KB of a terminal's output)
_ESC_SEQUENCE = _lazy(rf"\x1b(?:{_CSI}|(?P<framing>{_OSC_START}|\\)|)")


def terminal_sequences(text: str) -> re.Pattern[str]:
    """What finds ``text``'s terminal sequences (`TERMINAL_SEQUENCE`)."""
    return TERMINAL_SEQUENCE if "\x07" in text else _ESC_SEQUENCE


def terminal_escaped(text: str) -> Iterator[Span]:
    return _scanned(terminal_decoding(text), escapes=True)


def terminal_decoding(text: str) -> Decoding | None:
    if "\x1b" not in text:
        return None

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        sequences = (
            (m.start(), m.end(), m.group("framing") is not None)
            for m in terminal_sequences(text).finditer(text)
        )
        return _placed(hits[0], _runs_around(sequences))

    return [_without_sequences(text)], place


def terminal_texts(texts: list[str]) -> list[str | None]:
    """`terminal_decoding`'s text of each of ``texts`` that holds no record separator, decoded
    together joined by one (no sequence holds it); None for the others."""
    return _joined(
        texts,
        lambda text: "\x1b" in text and _RECORDS not in text,
        _without_sequences,
        "",
        _RECORDS,
    )


def _terminal_piece(sequence: re.Match[str]) -> str:
    return " " if sequence.group("framing") is not None else ""


def _without_sequences(text: str) -> str:
    """``text`` read without its terminal's sequences: a link's or a title's framing a space,
    any other sequence nothing. (A text with no framing, none of an OSC's start, a BEL or the
    string terminator, has each taken out in C: a callback of Python for each of 28,000 colours
    cost 16 ms.)"""
    pattern = terminal_sequences(text)
    if "\x1b]" in text or "\x07" in text or "\x1b\\" in text:
        return pattern.sub(_terminal_piece, text)
    return pattern.sub("", text)


# A CSV's quoted cell (an export of tickets, messages or a tool's log as CSV) doubles each quote
# inside it: PAGER_DUTY_KEY=""D1y…"", {""datadog_key"": ""…""}, a YAML block's value: ""…"".
# Each cell that holds a doubled quote (after a comma, a line break or the text's start, and
# closed by a quote before a comma, a line break or the text's end) is read with its quotes
# as one and the quotes around it as spaces, and the text scanned; a hit is placed back
# (`_runs_around`). A cell of code's empty string, f(a,"") or "" alone, holds no doubled quote
# inside it; a string in code, f(x,"a""b"), is closed by no comma. The first
# `_CSV_CELLS_PER_TEXT` such cells of a text are read so, each a step of Python.
_CSV_QUOTED_CELL = _lazy(
    # (the opening quote first, and where it stands looked behind it: `re` skips to a quote in
    # C, where a look-behind first was tried at every character, 9 ms for 400 KB)
    r'"(?:(?<=^")|(?<=[,\n]"))(?P<content>[^"]{0,65536}+""(?:[^"]|""){0,65536}+)"(?=[,\r\n]|\Z)'
)
_CSV_CELLS_PER_TEXT = 1000


def holds_a_quoted_cell(text: str) -> bool:
    """Whether ``text`` holds a CSV cell with a doubled quote (`_CSV_QUOTED_CELL`)."""
    return _CSV_QUOTED_CELL.search(text) is not None


def csv_quoted(text: str) -> Iterator[Span]:
    return _scanned(csv_quoted_decoding(text), escapes=True)


def csv_quoted_decoding(text: str) -> Decoding | None:
    cells = list(islice(_CSV_QUOTED_CELL.finditer(text), _CSV_CELLS_PER_TEXT))
    if not cells:
        return None
    pieces: list[str] = []
    at = 0
    for cell in cells:
        start, end = cell.span("content")
        pieces += (text[at : start - 1], " ", cell.group("content").replace('""', '"'), " ")
        at = end + 1
    pieces.append(text[at:])

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        taken = (
            (pair.start() + 1, pair.end(), 0)  # (the second quote of each pair read as none)
            for cell in cells
            for pair in _DOUBLED_QUOTE.finditer(text, *cell.span("content"))
        )
        return _placed(hits[0], _runs_around(taken))

    return ["".join(pieces)], place


_DOUBLED_QUOTE = _lazy('""')


# An e-mail's body as its source holds it in quoted-printable (Content-Transfer-Encoding:
# quoted-printable: a support case's raw message, a mail tool's output): "=" written "=3D", a
# character past ASCII as its UTF-8 bytes ("=E2=80=99"), a line longer than 76 characters
# broken by "=" at its end (a soft break). A credential's "=" or a break inside it hides it
# from every other detector. A text that is or may be so encoded (`quoted_printable_reading`)
# is read decoded: each run of escapes as the characters its bytes are, each soft break as
# nothing, and scanned; a hit is placed back (`_runs_around`). The first
# `_QP_ESCAPES_PER_TEXT` escapes and breaks of a text are read so, each a step of Python.
_QP_ESCAPE = _lazy(r"(?:=[0-9A-F]{2})++|=\r?\n")
# (as app/secrets' anchor finds one: 69 characters before it, no "=" among them; looked behind
# from each "=", a literal `re` skips to, as far back as the "=" or the line break before it)
_QP_SOFT_BREAK = _lazy(r"(?<=[^\n=]{69})=\r?\n")
_QP_ESCAPES_PER_TEXT = 10_000
_QP_UTF8 = _lazy(r"=[C-F][0-9A-F]=[89AB][0-9A-F]")
_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")


def quoted_printable(text: str) -> Iterator[Span]:
    return _scanned(qp_decoding(text), exclude=_QP_BIT)


# How surely a text is quoted-printable: not, maybe (read both as written and as it decodes),
# surely (read only as it decodes)
QP_NOT, QP_MAYBE, QP_SURELY = 0, 1, 2


def quoted_printable_reading(text: str) -> int:
    """How surely ``text`` is quoted-printable (app/secrets `QUOTED_PRINTABLE`): surely when it
    holds "=3D" twice, or once before what no value in hex holds next ("password=3DNone"), or a
    character past ASCII as its bytes, or a line an encoder broke; maybe when it holds "=3D"
    once before a hex digit ("AWS_ACCESS_KEY_ID=3DAKIA…" encoded, or "API_KEY=3D9F0C…", a
    value that starts so)."""
    first = text.find("=3D")
    if first >= 0 and (
        text.find("=3D", first + 3) >= 0 or text[first + 3 : first + 4] not in _HEX_DIGITS
    ):
        return QP_SURELY
    if _QP_UTF8.search(text) is not None or _QP_SOFT_BREAK.search(text) is not None:
        return QP_SURELY
    return QP_MAYBE if first >= 0 else QP_NOT


def quoted_printable_text(text: str) -> bool:
    """Whether ``text`` is surely quoted-printable (`quoted_printable_reading`)."""
    return quoted_printable_reading(text) == QP_SURELY


def maybe_quoted_printable(text: str) -> bool:
    """Whether ``text`` may be quoted-printable (`quoted_printable_reading`)."""
    return quoted_printable_reading(text) != QP_NOT


def reads_a_qp_escape(text: str, start: int, end: int) -> bool:
    """Whether a span read in a quoted-printable text as written holds one of its escapes, or
    starts on the digits of one ("password=3DNone" read as "3DNone"), or ends on a soft
    break's "=" ("/prod/ledger/=" then a break)."""
    return _QP_ESCAPE.search(text, max(0, start - 1), end + 2) is not None


def qp_decoding(text: str) -> Decoding | None:
    if not maybe_quoted_printable(text):
        return None
    decoded, read = _QP_ESCAPE.subn(_qp_piece, text, _QP_ESCAPES_PER_TEXT)
    if not read:
        return None

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        escapes = list(islice(_QP_ESCAPE.finditer(text), _QP_ESCAPES_PER_TEXT))
        taken = ((m.start(), m.end(), len(_qp_piece(m))) for m in escapes)
        placed = _placed(hits[0], _runs_around(taken))
        if read < _QP_ESCAPES_PER_TEXT:
            return placed
        # (past the escapes read, the text stands as written: what reads an escape there is
        # refused, as in the text read as written)
        past = escapes[-1].end()
        return (
            span
            for span in placed
            if span[0] < past or not reads_a_qp_escape(text, span[0], span[1])
        )

    return [decoded], place


def _qp_piece(escape: re.Match[str]) -> str:
    run = escape.group()
    if run[1] in "\r\n":
        return ""  # a soft break
    return bytes.fromhex(run.replace("=", "")).decode("utf-8", "replace")


def _runs_around(taken: Iterable[tuple[int, int, int]], offset: int = 0) -> Runs:
    """`_placed`'s runs of a text read with pieces taken out of it (``taken``: where each starts
    and ends, in order, and how many characters stand for it in the reading: a space for a
    link's framing, none for a diff's mark or a colour), a run for each piece kept and each
    stand-in; ``offset``: where the text starts in the one the hits are placed in."""
    runs: Runs = []
    decoded = at = 0
    for start, end, width in taken:
        if start > at:
            runs.append((decoded, offset + at, [], [0]))
            decoded += start - at
        if width:
            runs.append((decoded, offset + start, [], [0]))
            decoded += width
        at = end
    runs.append((decoded, offset + at, [], [0]))
    return runs


# A base64 blob (standard or URL-safe alphabet) may wrap a credential: a PEM key in a
# Kubernetes secret, a token in a config blob. Runs long enough to hold one are decoded once, in
# chunks of bounded size, and kept only when they decode to text; a hit anywhere in the text
# flags the whole run. Base64 of base64 is not unwrapped again. Base64 of text always mixes
# cases; hex, words, paths and a token's masked tail (ghp_0000…) do not: only the runs that
# hold a small letter and a capital are read, so each of those others costs Python no step
# (a text of 5,000 near misses of the rules held as many runs of one case). In a short text,
# `re` finds them (each branch reads a run once at most, possessively: linear); in a long one,
# RE2 does, with the anchor's own pattern (app/secrets `_MIXED_RUN_RE2`): `re` tries a pattern
# at every character, 6 ms for 400 KB of text.
_BASE64_RUN = _lazy(
    rf"(?<![{_B64}])(?=[{_B64}]{{{_MIXED_RUN}}})"
    r"(?:[A-Z0-9+/_\-]*+[a-z][a-z0-9+/_\-]*+[A-Z]|[a-z0-9+/_\-]*+[A-Z][A-Z0-9+/_\-]*+[a-z])"
    rf"[{_B64}]*+={{0,2}}"
)
_B64_CHARACTERS = string.ascii_letters + string.digits + "+/_-"  # (`_B64` written out)


def _whole_run(text: str) -> str | None:
    """``text`` without its padding when all of it is one run `_BASE64_RUN` matches (24 or
    more base64 characters, both cases, at most two "=" after them); None otherwise."""
    core = text.rstrip("=")
    if (
        len(core) >= _MIXED_RUN
        and len(text) - len(core) <= 2
        and not core.strip(_B64_CHARACTERS)
        and _both_cases(core)
    ):
        return core
    return None


def _base64_runs(text: str) -> Iterator[tuple[int, int]]:
    """Where `text`'s runs of base64 characters (and their padding) stand that are at least
    24 long and hold both cases: `_BASE64_RUN`'s matches."""
    if _whole_run(text) is not None:
        # the whole text one run (a value that is base64, the rule): no regex to run
        yield 0, len(text)
        return
    spans = None
    if len(text) >= RE2_RUNS_FROM:
        from app.secrets.engine import re2_spans

        # (ASCII as the engine reads a text: a character past it is "?", offsets kept)
        raw = text.encode("ascii", "replace")
        spans = re2_spans(_MIXED_RUN_RE2, raw)
    if spans is None:
        yield from (m.span() for m in _BASE64_RUN.finditer(text))
        return
    # RE2's matches are the whole runs holding both cases (the shorter ones too)
    for start, end in spans:
        if end - start >= _MIXED_RUN:
            pad = end
            while pad < len(text) and pad - end < 2 and text[pad] == "=":
                pad += 1
            yield start, pad


_BASE64_CHUNK = 65536  # characters, a multiple of 4
_URLSAFE = bytes.maketrans(b"-_", b"+/")
_TEXT_CONTROLS = _lazy(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


def base64_wrapped(text: str) -> Iterator[Span]:
    return _scanned(base64_decoding(text))


def base64_decoding(text: str) -> Decoding | None:
    # As for percent escapes: every run's text decoded into one text, a line each, scanned once.
    decoded: list[str] = []
    ends: list[int] = []  # where each run's decoded lines end in the decoded text
    runs: list[tuple[int, int]] = []
    length = 0
    refused = 0  # runs that decode to no text (camelCase identifiers of 24 letters, hashes)
    for span in _base64_runs(text):
        blob = text[span[0] : span[1]].rstrip("=")
        for offset in range(0, len(blob), _BASE64_CHUNK):
            plain = _decoded_text(blob[offset : offset + _BASE64_CHUNK])
            if plain is None:
                refused += 1
                break
            decoded.append(plain + "\n")
            length += len(plain) + 1
            ends.append(length)
            runs.append(span)
        if refused > _MANY_REFUSED:
            break  # (a text of 10,000 long identifiers: 57 ms of decoding, for none)
        if len(runs) > _MANY_REFUSED:
            # ... nor past a thousand runs decoded to text, each a step of Python to decode
            # and place (9,600 base64 blobs of JSON naming a password, each holding a
            # variable: 58 ms of a 400 KB text's lint, six times a benign document's); a
            # credential wrapped in the rest of the text is missed
            break
    if not decoded:
        return None

    def place(hits: list[list[Span]]) -> Iterator[Span]:
        flagged: set[int] = set()  # (a hit flags its whole run)
        for start, _end, kind in hits[0]:
            i = bisect_right(ends, start)
            if runs[i][0] not in flagged:
                flagged.add(runs[i][0])
                yield runs[i][0], runs[i][1], kind

    return ["".join(decoded)], place


def _decoded_text(blob: str) -> str | None:
    import binascii  # C, loaded only when a text holds a base64 run of text

    # The run is ASCII (its regex says so): bytes.translate maps through a 256-byte table, where
    # str.translate looks every character up in a dict.
    data = blob.encode("ascii").translate(_URLSAFE)
    data = data[: len(data) - len(data) % 4] if len(data) % 4 == 1 else data
    try:
        raw = binascii.a2b_base64(data + b"=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        return None
    plain = raw.decode("utf-8", "replace")
    return None if _TEXT_CONTROLS.search(plain) else plain


# --- short texts decoded together ---------------------------------------------------------------
#
# The document scan decodes every string only a decoding detector may flag (app/secrets
# `_decoded_spans`): a list of thousands of short ones, an escape in each, cost a call of each
# decoding for each (1-3 µs of Python: its checks, its closure, its lists). A short text's
# escapes are decoded whole by a few C passes (`_percent_level`, `pointer_decoding`,
# `_escape_level`), which over the texts joined by a newline cost what one text's do. These
# give what each decoding's own call gives to scan, for the texts they can read so (None for
# the others, decoded one at a time): the scan's hits are placed back by the decoding's own
# call, made again for the few texts that hold one.
BatchDecoding = Callable[[list[str]], list[str | None]]


def _joined(
    texts: list[str],
    fits: Callable[[str], bool],
    decode: Callable[[str], str],
    suffix: str,
    separator: str = "\n",
) -> list[str | None]:
    """``decode`` of each of ``texts`` that ``fits`` (none holds ``separator``, and its
    decoding makes none), in one call on them joined by ``separator``, and ``suffix`` after
    each."""
    decoded: list[str | None] = [None] * len(texts)
    picked = [i for i, text in enumerate(texts) if fits(text)]
    if picked:
        joined = decode(separator.join([texts[i] for i in picked])).split(separator)
        for i, text in zip(picked, joined, strict=True):
            decoded[i] = text + suffix
    return decoded


def pointer_texts(texts: list[str]) -> list[str | None]:
    """`pointer_decoding`'s text of each short one-line text (its one window)."""
    return _joined(texts, _one_window, _pointer_unescaped, "\n")


def html_texts(texts: list[str]) -> list[str | None]:
    """`html_decoding`'s text of each short one-line text (unescaped whole)."""
    return _joined(texts, _one_window, _html_replaced, "\n")


def percent_texts(texts: list[str]) -> list[str | None]:
    """`percent_decoding`'s text of each short one-line text decoded once (no "%25"), none of
    whose escapes is a control character's (a newline among them)."""
    return _joined(
        texts,
        lambda text: (
            "%" in text
            and _one_window(text)
            and "%25" not in text
            and "%0" not in text
            and "%1" not in text
        ),
        lambda joined: _percent_whole(joined)[0],
        "",
    )


def base64_texts(texts: list[str]) -> list[str | None]:
    """`base64_decoding`'s text of each text that is one run of base64 as a whole, up to a
    chunk (`_base64_runs`' first case), but one character past whole groups of four (its own
    call drops that): "" for one that decodes to no text (nothing to scan), None for the others
    (each decoded alone). Each step is a map of C over the texts (`_whole_run`'s tests as
    `_BASE64_RUN`'s, then `_decoded_text`'s): a text's own call cost 1.7 µs of Python."""
    import binascii  # (as `_decoded_text`)

    decoded: list[str | None] = [None] * len(texts)
    runs = list(compress(range(len(texts)), map(_BASE64_RUN.fullmatch, texts)))
    cores = list(map(str.rstrip, map(texts.__getitem__, runs), repeat("=")))
    sizes = list(map(len, cores))
    read = list(
        map(
            operator.and_,
            map(operator.ne, map(operator.mod, sizes, repeat(4)), repeat(1)),
            map(operator.le, sizes, repeat(_BASE64_CHUNK)),
        )
    )
    runs, cores = list(compress(runs, read)), list(compress(cores, read))
    data = map(bytes.translate, map(str.encode, cores, repeat("ascii")), repeat(_URLSAFE))
    # (padding past a whole group is passed over: "==" after each fits every length)
    raw = map(binascii.a2b_base64, map(operator.add, data, repeat(b"==")))
    plain = list(map(bytes.decode, raw, repeat("utf-8"), repeat("replace")))
    list(map(decoded.__setitem__, runs, map(operator.add, plain, repeat("\n"))))
    for i in compress(runs, map(_TEXT_CONTROLS.search, plain)):
        decoded[i] = ""
    return decoded


def json_texts(texts: list[str]) -> list[str | None]:
    """`json_decoding`'s text of each short one-line text that holds an escape it decodes,
    decoded once (joined by a record separator, which no escape decodes to: a line break may
    be escaped in each); None for one that still escapes after that (decoded twice, alone)
    and the others."""
    decoded = _joined(
        texts,
        lambda text: (
            _json_decoded(text)
            and _one_window(text)
            and _PLACEHOLDER not in text
            and _RECORDS not in text
        ),
        lambda joined: _json_replaced(joined) or "",
        "\n",
        _RECORDS,
    )
    for i, once in enumerate(decoded):
        if once is not None and _still_escaped(once):
            decoded[i] = None
    return decoded


# --- a label alone on its line, its value on the next -------------------------------------------

# A web page's fields copied as text, each label on its line and its value on the next, no colon
# between ("Datadog API Key" over the key; the AWS console's "Secret access key" over the
# secret): a label of four words at most, the last a key's, a token's, a secret's or a
# password's, then a value alone on its line (8 characters or more), judged as one after
# "Label:" is (`_told_on_next_line`).
_LABEL_LINE = _lazy(r"[A-Za-z][A-Za-z0-9]{0,31}+(?:[ \t][A-Za-z][A-Za-z0-9]{0,31}+){0,3}+")
_VALUE_LINE = _lazy(r"[ \t]*+(?P<value>[^\s\"'`<>]{8,256}+)[ \t]*+(?=\r?\n|\Z)")


def label_line_value(text: str) -> Iterator[Span]:
    """(`_bounded`: past a hundred labels with no value under them, the rest of the text is not
    read, as a form's labels do not come by the hundred in one text.)"""
    return _bounded(_label_line_candidates(text))


def _label_line_candidates(text: str) -> Iterator[Span | None]:
    low = _folded(text)
    # each label's last word where it ends its line, found in C and in order, as far as the
    # text is read (a text of 20,000 labels is read for its first hundred: `_bounded`)
    found = [
        _line_ends(low, word, brk)
        for word in _LABEL_ENDS
        for brk in ("\n", "\r\n")
        if word + brk in low
    ]
    for end, value_at in found[0] if len(found) == 1 else heapq.merge(*found):
        label = text[text.rfind("\n", 0, end) + 1 : end].strip(" \t")
        if not _LABEL_LINE.fullmatch(label):
            continue
        v = _VALUE_LINE.match(text, value_at)
        if v is None:
            yield None
            continue
        cls = _classify_name("_".join(label.split()))
        kind = None if cls is None else _told_on_next_line(cls, v.group("value"))
        yield None if kind is None else (v.start("value"), v.end("value"), kind)


def _line_ends(low: str, word: str, brk: str) -> Iterator[tuple[int, int]]:
    """(the end of ``word``, the start of the next line) where ``word`` ends a line of ``low``."""
    ending = word + brk
    at = low.find(ending)
    while at != -1:
        yield at + len(word), at + len(ending)
        at = low.find(ending, at + len(ending))
