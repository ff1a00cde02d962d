"""Redaction: how a value that looks like a credential is withheld, in one place (§10.5).

The secret scan (app/secrets.py) says where credentials are; a `Redaction`, built once per
document from its hits, withholds them from everything that is shown or emitted: the document a
page renders (the value at each flagged pointer, a flagged member name, and every other place the
same credential text appears: a password in a URI quoted again in prose), the submitted text a
page lists, and the findings every report carries (a message quoting a value, a pointer through
a member name). Findings say where a credential is, never what it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache, cached_property

from app import TYPE_CHECKING
from app.findings import Finding
from app.json_values import CONTAINERS
from app.parse import Document, JsonObject
from app.pointer import parse_pointer, to_pointer
from app.secrets import (
    URI_PASSWORD,
    USERINFO,
    SecretHit,
    redact,
    redact_spans,
    scan_text,
    scan_texts,
)

if TYPE_CHECKING:
    from typing import Final

REDACTED = "[redacted: looks like a credential]"
# Credential texts shorter than this are withheld only where they were found: a short one
# ("deploy", a user name) occurs everywhere by chance.
MIN_QUOTED = 8
# A document with more flagged texts than this is not an accident; the texts past it are still
# withheld where they were found, only not searched for elsewhere (each costs a pass).
MAX_QUOTED = 64
# Nor longer than this: Python compiles a literal in time quadratic in its length (a 400 KB
# PEM run took 30 s to compile), and a text this long is not quoted again by accident. Longer
# ones are withheld where they were found, and their first MAX_QUOTED_LENGTH characters are
# looked for elsewhere.
MAX_QUOTED_LENGTH = 256

# Flagged pointers as a trie of their tokens (see `_trie`).
_Trie = dict[str, "_Trie | None"]


def redact_text(text: str) -> str:
    """``text`` with each apparent credential the scanner finds replaced by REDACTED; on a
    scanner failure the whole text goes."""
    try:
        return redact(text, REDACTED)
    except Exception:
        return REDACTED


class Redaction:
    """What to withhold from one document (or a pair: `joined`): the flagged pointers, the
    credential texts to withhold wherever they appear (``quoted``), and every string at or
    under a flagged pointer, withheld where a whole string equals one (``values``).

    A plain class with `Final` members (mypy holds it immutable), not a dataclass: see
    `app.analysis.Analysis` (start-up)."""

    paths: Final[tuple[str, ...]]
    quoted: Final[frozenset[str]]
    # member names the scanner flagged: each withheld whole wherever it is a name or a pointer
    # token, never only the part that matched ("AKIA…:<secret>" holds more than the key id)
    names: Final[frozenset[str]]
    # the tokens of each of `paths`, when the scan gave them (else they are parsed from paths)
    places: Final[Mapping[str, Sequence[str] | None] | None]
    # False when the scan stopped early (app/secrets.py `scan_document`): credentials past it
    # are unknown, so the whole document is withheld, and every text and pointer shown is
    # read by the scanner
    complete: Final[bool]
    # the credential texts the scan flagged themselves (each hit's span, at least MIN_QUOTED
    # long, its first MAX_QUOTED_LENGTH characters), and the pointer of the first place each
    # was found: what a child quoting its parent is checked against (app/echoes.py). Not
    # `quoted`, which holds every string under a flagged place too ("production" under a
    # flagged member is withheld there, and is no credential of its own elsewhere).
    credentials: Final[Mapping[str, str]]

    def __init__(
        self,
        paths: tuple[str, ...] = (),
        quoted: frozenset[str] = frozenset(),
        values: frozenset[str] = frozenset(),
        names: frozenset[str] = frozenset(),
        places: Mapping[str, Sequence[str] | None] | None = None,
        complete: bool = True,
        credentials: Mapping[str, str] | None = None,
        whole: object = None,
    ) -> None:
        self.paths = paths
        self.quoted = quoted
        self._values = values
        self._whole = whole
        self.names = names
        self.places = places
        self.complete = complete
        self.credentials = credentials if credentials is not None else {}

    @classmethod
    def of(cls, document: object, hits: Sequence[SecretHit], *, complete: bool = True) -> Redaction:
        """Built from the scan's hits alone: what was flagged is known, nothing is scanned
        again (a document of 40,000 flagged names costs one scan, not four)."""
        if not hits and complete:
            return cls()
        # each flagged place once, with its tokens: the scan's own, or parsed from its path
        places = {hit.path: _tokens_of(hit) for hit in hits}
        names = frozenset(_flagged_names(hits))
        # a value's hit holds the string at its place: no walk from the root to find it
        known = {hit.path: hit.text for hit in hits if not hit.in_key and hit.text is not None}
        values = frozenset(_flagged_strings(document, places, names, known))
        quoted = {t for t in values if len(t) >= MIN_QUOTED}
        credentials: dict[str, str] = {}
        for text, path in _quoted_texts(document, hits):
            quoted.add(text)
            credentials.setdefault(text[:MAX_QUOTED_LENGTH], path)
        if not complete:
            # the root flagged: the document goes whole, and so does each of its strings
            # wherever else it appears (a diff beside its parent)
            places[""] = []
        whole = None if complete else document
        return cls(
            tuple(places), frozenset(quoted), values, names, places, complete, credentials, whole
        )

    @cached_property
    def values(self) -> frozenset[str]:
        """The strings withheld where a whole string equals one: those at or under a flagged
        place, and every string of a document whose scan stopped early (``whole``: read on
        first use, by what shows the document beside another; a lint never asks)."""
        if self._whole is None:
            return self._values
        return self._values | _every_string(self._whole)

    def merged(self, other: Redaction) -> Redaction:
        """What both withhold, of one document (its scan's finds and a later reading's: a child
        beside its parent, app/echoes.py)."""
        places: Mapping[str, Sequence[str] | None] | None = None  # (None: parsed from paths)
        if not self.paths or not other.paths:
            places = other.places if not self.paths else self.places
        elif self.places is not None and other.places is not None:
            places = {**self.places, **other.places}
        return Redaction(
            tuple(dict.fromkeys(self.paths + other.paths)),
            self.quoted | other.quoted,
            self.values | other.values,
            self.names | other.names,
            places,
            self.complete and other.complete,
            {**other.credentials, **self.credentials},
        )

    def joined(self, other: Redaction) -> Redaction:
        """Both documents' credentials, for what shows the two side by side (a diff)."""
        return Redaction(
            self.paths,
            self.quoted | other.quoted,
            self.values | other.values,
            self.names | other.names,
            self.places,
            self.complete and other.complete,
            {**other.credentials, **self.credentials},
        )

    @cached_property
    def _flagged(self) -> _Trie | None:
        """The flagged pointers as a trie (see `_trie`), built once."""
        if self.places is not None:
            return _trie(self.places.values())
        return _trie(_parsed(p) for p in self.paths)

    @property
    def active(self) -> bool:
        return bool(self.paths or self.quoted)

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        texts = self._looked_for
        # (longest first in the alternation: a text holding another is taken whole)
        return re.compile("|".join(map(re.escape, texts))) if texts else None

    @cached_property
    def _looked_for(self) -> list[str]:
        """The known credential texts looked for wherever they appear (`_pattern`'s)."""
        # The credential texts first, the longest of them, then the longest of the strings
        # around them: 64 long strings withheld whole (a child repeating its parent's password
        # in 64 sentences) must not push the password out of the texts looked for.
        by_length = lambda t: (-len(t), t)  # noqa: E731  # (one order, used twice)
        spans = sorted({t[:MAX_QUOTED_LENGTH] for t in self.credentials}, key=by_length)
        heads = {t[:MAX_QUOTED_LENGTH] for t in self.quoted}.difference(spans)
        texts = (spans + sorted(heads, key=by_length))[:MAX_QUOTED]
        texts.sort(key=by_length)
        return texts

    def text(self, text: str) -> str:
        """A text shown or emitted: the scanner's finds, and the known credential texts."""
        return self._known(redact_text(text))

    def pointer(self, pointer: str) -> str:
        return self._pointer(pointer, self.text)

    def _pointer(self, pointer: str, shown_as: Callable[[str], str]) -> str:
        """A pointer shown: each token as `token` shows it, each text as ``shown_as`` does."""
        try:
            tokens = parse_pointer(pointer)
        except ValueError:
            return shown_as(pointer)
        return to_pointer(self._token(token, shown_as) for token in tokens)

    def token(self, token: str) -> str:
        """One pointer token or member name: a flagged name withheld whole."""
        return self._token(token, self.text)

    def _token(self, token: str, shown_as: Callable[[str], str]) -> str:
        return REDACTED if token in self.names else shown_as(token)

    def findings(self, findings: Sequence[Finding]) -> list[Finding]:
        """Every finding's message, path and related texts with credentials withheld. Run once,
        by the analysis, after positions are found (they need the real path).

        The scan already read every value and member name: a path is withheld by the names it
        flagged, and only the messages of findings at, above or below a flagged place (they
        quote the values there) are scanned again; every message loses the known credential
        texts. A document with thousands of findings is not scanned thousands of times."""
        flagged = self._flagged
        # Most paths hold no flagged name nor a known credential text: one search over all of
        # them (unescaped, so a text with a '/' is found too) says whether any is rebuilt.
        paths_kept = (
            self.complete
            and not self.names
            and not self._quotes_any(
                "\x00".join([f.path for f in findings]).replace("~1", "/").replace("~0", "~")
            )
        )
        parsed = [_tokens(f.path) if not paths_kept or flagged else None for f in findings]
        shown_tokens: dict[str, str] = {}
        rewritten: frozenset[str] = frozenset()
        if not self.complete:
            # Names past the scan's stop are unknown, and a document of more than 1,000
            # flagged places is a dump of credentials: a path shows the names the schema
            # defines and the items' numbers, and withholds every other name (the scan is not
            # run again on them: a thousand AWS key ids as names cost it 4 ms, a tenth of the
            # lint)
            defined = _schema_names()
            distinct = dict.fromkeys(t for tokens in parsed if tokens for t in tokens)
            shown_tokens = {
                t: t if (t.isdigit() or t in defined) and t not in self.names else REDACTED
                for t in distinct
            }
            # the tokens shown otherwise than written: a path holding none is kept as it is
            # (most of a thousand findings' paths; rebuilding each cost a fifth of this step)
            rewritten = frozenset(t for t, shown_token in shown_tokens.items() if shown_token != t)
        # (finding, its path as shown, its texts, whether the scanner reads them)
        shown: list[tuple[Finding, str, list[str], bool]] = []
        to_scan: list[str] = []
        kept: list[str] = []  # the texts of findings not scanned again
        for finding, tokens in zip(findings, parsed, strict=True):
            if paths_kept:
                path = finding.path
            elif self.complete:
                path = self._known_pointer(finding.path, tokens)
            elif tokens is None:
                path = self.text(finding.path)
            elif rewritten.isdisjoint(tokens):
                path = finding.path
            else:
                path = to_pointer([shown_tokens[t] for t in tokens])
            if finding.code == "secret":
                # fixed words (app/secrets.py `_message`): nothing of the document to withhold
                shown.append((finding, path, [], False))
                continue
            # (a path that is no pointer, and so has no tokens, is read again whole)
            near = flagged is None or (
                _near(flagged, tokens) if tokens is not None else not finding.path.startswith("/")
            )
            texts = [self._names_in(finding.message, tokens or []), *finding.related]
            (to_scan if near else kept).extend(texts)
            shown.append((finding, path, texts, near))
        scanned_texts = iter(self.texts(to_scan))
        # the texts not scanned lose the known credential texts; one search says whether any
        # holds one
        known = self._known if self._quotes_any("\x00".join(kept)) else None
        out = []
        for finding, path, texts, near in shown:
            if texts:
                if near:
                    texts = [next(scanned_texts) for _ in texts]
                elif known is not None:
                    texts = list(map(known, texts))
                message, related = texts[0], tuple(texts[1:])
            else:
                message, related = finding.message, finding.related
            if message != finding.message or path != finding.path or related != finding.related:
                # (made as `replace` would make it, without its checks: a thousand of them)
                finding = Finding(
                    finding.code,
                    finding.severity,
                    path,
                    message,
                    finding.line,
                    finding.column,
                    related,
                )
            out.append(finding)
        return out

    def shown(self, texts: Sequence[str], pointers: Sequence[str]) -> tuple[list[str], list[str]]:
        """`text` of each of ``texts`` and `pointer` of each of ``pointers``, the scanner
        reading all their texts at once (a pair's thousand losses: 1,500 scans, one each)."""
        shown_as = self._shown_as(
            lambda listing: [*map(listing, texts), *(self._pointer(p, listing) for p in pointers)]
        )
        return list(map(shown_as, texts)), [self._pointer(p, shown_as) for p in pointers]

    def _shown_as(self, reading: Callable[[Callable[[str], str]], object]) -> Callable[[str], str]:
        """What each text ``reading`` shows is shown as (`text`'s), the scanner reading all of
        them at once: ``reading`` is given a function each of its texts goes through, and
        lists them."""
        listed: dict[str, None] = {}

        def listing(text: str) -> str:
            listed[text] = None
            return text

        reading(listing)
        texts = list(listed)
        return dict(zip(texts, self.texts(texts), strict=True)).__getitem__

    def texts(self, texts: Sequence[str]) -> list[str]:
        """`text` of each of ``texts``, the scanner reading all of them at once, and each
        distinct one once (a rule's fixed message, repeated at every place it reports)."""
        distinct = list(dict.fromkeys(texts))
        try:
            found = scan_texts(distinct)
        except Exception:  # as `redact_text`: on a scanner failure the whole text goes
            return [REDACTED] * len(texts)
        shown = {
            text: self._known(redact_spans(text, spans, REDACTED))
            for text, spans in zip(distinct, found, strict=True)
        }
        return [shown[text] for text in texts]

    def known_kept_lines(self, text: str) -> str:
        """`_known`, each withheld text leaving its line breaks (a source listing's lines)."""
        pattern = self._pattern
        if pattern is None:
            return text
        return pattern.sub(lambda m: REDACTED + "\n" * m.group().count("\n"), text)

    def _known(self, text: str) -> str:
        """A text with the known credential texts withheld (no scan)."""
        pattern = self._pattern
        return pattern.sub(REDACTED, text) if pattern is not None else text

    def _quotes_any(self, text: str) -> bool:
        """Whether ``text`` holds a known credential text."""
        pattern = self._pattern
        return pattern is not None and pattern.search(text) is not None

    def _known_pointer(self, pointer: str, tokens: list[str] | None) -> str:
        """A finding's path: each flagged name withheld whole, the known credential texts
        withheld; the same string when neither occurs (the common case, no rebuilding)."""
        if tokens is None:
            return self.text(pointer)
        pattern = self._pattern
        # one search over the tokens joined (NUL between them: a match across two tokens only
        # sends the pointer to the rebuilding below, which finds nothing to withhold)
        if self.names.isdisjoint(tokens) and (
            pattern is None or pattern.search("\x00".join(tokens)) is None
        ):
            return pointer
        return to_pointer(REDACTED if t in self.names else self._known(t) for t in tokens)

    def _names_in(self, message: str, tokens: list[str]) -> str:
        """A message with the flagged member names of its own path withheld: a message that
        quotes a member name quotes one on its path."""
        if not self.names:
            return message
        for token in tokens:
            if token in self.names and token in message:
                message = message.replace(token, REDACTED)
        return message

    def document(self, document: object) -> Document | None:
        """The document with every value at or under a flagged pointer replaced by REDACTED, a
        flagged member name that itself looks like a credential renamed to REDACTED, and each
        known credential text replaced wherever else it appears. Only the containers that
        change are copied; the rest is shared. None when there is no document object."""
        if not isinstance(document, dict):
            return None
        if not self.active:
            return document
        trie = self._flagged
        if trie is None:
            return {}
        redacted = _redact_node(document, trie, self.names) if trie else document
        pattern = self._pattern
        if pattern is not None and _may_quote(redacted, pattern, self._looked_for):
            redacted = _redact_quoted(redacted, pattern)
        return redacted if isinstance(redacted, dict) else {}

    def data(self, value: object) -> object:
        """Plain data built from the document (a diff): every string and member name withheld
        where it equals a flagged string or holds a credential text; a member that holds a
        pointer is withheld token by token. The same object when nothing is withheld.

        Read twice: once to list the texts it shows, which the scanner reads all at once (a
        diff of a thousand changed statements scanned each of its 12,000 texts alone, most of
        a page's time), then to build it from what each is shown as."""
        if not self.active:
            return value
        shown_as = self._shown_as(lambda listing: self._data(value, None, listing))
        return self._data(value, None, shown_as)

    def _data(self, value: object, key: object, shown_as: Callable[[str], str]) -> object:
        """`data` of ``value`` (a member's, named ``key``), each text shown as ``shown_as``
        says (`text`'s, of all the data's texts at once)."""
        if isinstance(value, str):
            if value in self.values:
                return REDACTED
            shown = self._pointer(value, shown_as) if key in _POINTER_KEYS else shown_as(value)
            return value if shown == value else shown
        if isinstance(value, dict):
            out: dict[object, object] = {}
            n = 2
            for name, item in value.items():
                new_name = self._name(name, shown_as) if isinstance(name, str) else name
                base = new_name
                while new_name in out:  # two withheld names: keep both members
                    new_name = f"{base} ({n})"
                    n += 1
                out[new_name] = self._data(item, name, shown_as)
            return out
        if isinstance(value, list):
            return [self._data(item, None, shown_as) for item in value]
        return value

    def _name(self, name: str, shown_as: Callable[[str], str]) -> object:
        if name in self.names:
            return REDACTED
        return self._data(name, None, shown_as)

    def source(self, text: str, flagged: Mapping[str, int]) -> str:
        """The submitted text as a page lists it: the raw JSON of each flagged value (see
        `redacted_source`), then every known credential text, keeping the line count."""
        text = redacted_source(text, flagged, self.names)
        pattern = self._pattern
        if pattern is None:
            return text
        return pattern.sub(lambda m: REDACTED + "\n" * m.group().count("\n"), text)


# Members of a diff's data that hold JSON Pointers.
_POINTER_KEYS = frozenset({"pointer", "path", "parent_pointer", "child_pointer"})


def _tokens_of(hit: SecretHit) -> Sequence[str] | None:
    """The tokens of a hit's pointer (None for a pointer that does not parse)."""
    if hit.tokens is not None:
        return hit.tokens
    try:
        return parse_pointer(hit.path)
    except ValueError:
        return None


def _flagged_names(hits: Iterable[SecretHit]) -> Iterator[str]:
    """The member names the scanner flagged (a hit in a key is at that member's pointer)."""
    for hit in hits:
        if hit.in_key:
            tokens = _tokens_of(hit)
            if tokens:
                yield tokens[-1]


def _flagged_strings(
    document: object,
    places: Mapping[str, Sequence[str] | None],
    names: frozenset[str],
    known: Mapping[str, str],
) -> Iterable[str]:
    """Every string at or under each flagged pointer (member names included), and the flagged
    member's own name when the scanner flagged it. ``known``: the string value at a place, when
    a hit already holds it."""
    for path, tokens in places.items():
        if tokens is None:
            continue
        if tokens and tokens[-1] in names:
            yield tokens[-1]
        value = known.get(path)
        if value is not None:
            yield value
        else:
            yield from _strings(_at(document, tokens))


def _every_string(value: object) -> frozenset[str]:
    """The strings `_strings` yields, as a set: read a container at a time (a chain of
    generators, one a level, cost a document of 40,000 strings 5 ms)."""
    found: set[str] = set()
    strings: list[str] = [value] if isinstance(value, str) else []
    containers: list[object] = [value] if isinstance(value, CONTAINERS) else []
    append, enter = strings.append, containers.append
    for node in containers:  # (the list grows as the reading goes)
        items: Iterable[object]
        if isinstance(node, dict):
            found.update(node)
            items = node.values()
        else:
            items = node  # type: ignore[assignment]  # a list: see the isinstance above
        for item in items:
            kind = item.__class__
            if kind is str:
                append(item)  # type: ignore[arg-type]  # (mypy cannot narrow on a class)
            elif kind is dict or kind is list or isinstance(item, CONTAINERS):
                enter(item)
            elif isinstance(item, str):
                append(item)
    found.update(strings)
    return frozenset(filter(None, found))  # (no empty string, nor a name that is none)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        if value:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key:
                yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _quoted_texts(document: object, hits: Sequence[SecretHit]) -> Iterable[tuple[str, str]]:
    """The text of each hit's span (and a URI's password alone: it is quoted elsewhere on its
    own), long enough to be looked for elsewhere, and the hit's path."""
    for hit in hits:
        if hit.end <= hit.start:
            continue
        text: object = hit.text
        if text is None:
            tokens = _tokens_of(hit)
            if tokens is None:
                continue
            text = (tokens[-1] if tokens else None) if hit.in_key else _at(document, tokens)
        if not isinstance(text, str):
            continue
        span = text[hit.start : hit.end]
        candidates = [span]
        if hit.kind in (URI_PASSWORD, USERINFO) and ":" in span:
            candidates.append(span.split(":", 1)[1].removesuffix("@"))
        for candidate in candidates:
            if len(candidate) >= MIN_QUOTED:
                yield candidate, hit.path


def _at(document: object, tokens: Sequence[str]) -> object:
    node = document
    for token in tokens:
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


# What JSON escapes in a string (with ensure_ascii off): a text holding none of it is written
# as it is inside any string that holds it.
_ESCAPED_IN_JSON = re.compile(r'["\\\x00-\x1f]')


def _may_quote(node: object, pattern: re.Pattern[str], texts: list[str]) -> bool:
    """Whether a string or member name of ``node`` may hold a match of ``pattern`` (one of
    ``texts``, known credential texts): one search of the document written as JSON by the C
    encoder, where the walk searched each of its strings (15,000 of a page of 6,000 findings:
    10 ms). A text JSON escapes is not looked for so: the walk answers then."""
    if any(map(_ESCAPED_IN_JSON.search, texts)):
        return True
    try:
        written = json.dumps(node, ensure_ascii=False, check_circular=False)
    except (TypeError, ValueError):  # (a value JSON has no form for: the walk reads it)
        return True
    return pattern.search(written) is not None


def _redact_quoted(node: object, pattern: re.Pattern[str]) -> object:
    """``node`` with every match of ``pattern`` in its strings and member names replaced; the
    same object when nothing matched."""
    if isinstance(node, str):
        return pattern.sub(REDACTED, node) if pattern.search(node) else node
    if isinstance(node, dict):
        changed = False
        out: JsonObject = {}
        n = 2  # numbering of renamed members that clash; it never restarts (linear)
        for key, value in node.items():
            new_key = key
            if pattern.search(key):
                base = new_key = pattern.sub(REDACTED, key)
                while new_key in out or new_key in node:
                    new_key = f"{base} ({n})"
                    n += 1
            new_value = _redact_quoted(value, pattern)
            changed = changed or new_key != key or new_value is not value
            out[new_key] = new_value
        return out if changed else node
    if isinstance(node, list):
        items = [_redact_quoted(item, pattern) for item in node]
        return items if any(a is not b for a, b in zip(items, node, strict=True)) else node
    return node


def _parsed(pointer: str) -> list[str] | None:
    try:
        return parse_pointer(pointer)
    except ValueError:
        return None


def _trie(places: Iterable[Sequence[str] | None]) -> _Trie | None:
    """A trie of the flagged pointers' tokens (None: a pointer that did not parse, skipped);
    a None child marks a flagged path (it covers all below). Returns None when the whole
    document is flagged."""
    root: _Trie = {}
    for tokens in places:
        if tokens is None:
            continue
        if not tokens:
            return None
        node: _Trie | None = root
        for token in tokens[:-1]:
            assert node is not None
            child = node.setdefault(token, {})
            if child is None:  # an ancestor is already flagged
                node = None
                break
            node = child
        if node is not None:
            node[tokens[-1]] = None
    return root


def _tokens(pointer: str) -> list[str] | None:
    """The tokens of ``pointer``, or None when it is no JSON Pointer."""
    try:
        return parse_pointer(pointer)
    except ValueError:
        return None


def _near(trie: _Trie, tokens: list[str]) -> bool:
    """Whether the pointer of ``tokens`` is a flagged path, or lies under one, or above one."""
    node: _Trie | None = trie
    for token in tokens:
        if node is None:
            return True  # under a flagged path
        if token not in node:
            return False
        node = node[token]
    return True  # the flagged path itself, or one below it


def _redact_node(node: object, trie: _Trie | None, names: frozenset[str]) -> object:
    if trie is None:
        return REDACTED
    if isinstance(node, dict):
        out = dict(node)
        renamed = set()
        for key, sub in trie.items():
            if key in out:
                out[key] = _redact_node(out[key], sub, names)
                if sub is None and key in names:
                    renamed.add(key)
        return _rename_keys(out, renamed) if renamed else out
    if isinstance(node, list):
        items = list(node)
        for token, sub in trie.items():
            if token.isdigit() and int(token) < len(items):
                items[int(token)] = _redact_node(items[int(token)], sub, names)
        return items
    return node


def _rename_keys(obj: JsonObject, renamed: set[str]) -> JsonObject:
    """Rename flagged member names to REDACTED, keeping member order; numbered on a clash
    ("… (2)", "… (3)"). Linear: the numbering never restarts."""
    out: JsonObject = {}
    n = 1
    for key, value in obj.items():
        if key in renamed:
            name = REDACTED if n == 1 else f"{REDACTED} ({n})"
            while name in out or name in obj:
                n += 1
                name = f"{REDACTED} ({n})"
            n += 1
            key = name
        out[key] = value
    return out


# --- the submitted text ---------------------------------------------------------------------
# A page lists the source; its line numbers must not move, so each withheld span keeps the line
# breaks it covered.

_DECODER = json.JSONDecoder()


def redacted_source(
    text: str, flagged: Mapping[str, int], names: frozenset[str] = frozenset()
) -> str:
    """``text`` with the raw JSON text of each flagged value replaced by the quoted REDACTED,
    and its member name too when the scanner flagged that name (``names``). ``flagged`` maps
    each flagged pointer to the offset of its value in ``text`` (the analysis's source map)."""
    spans = []
    for pointer, start in flagged.items():
        try:
            _, end = _DECODER.raw_decode(text, start)
        except ValueError:
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
        spans.append((start, end))
        if pointer and parse_pointer(pointer)[-1] in names:
            key_span = _member_name_span(text, start)
            if key_span is not None:
                spans.append(key_span)
    return _blank_spans(text, spans)


def unparsed_findings(findings: Sequence[Finding]) -> list[Finding]:
    """The findings of a text that did not parse, with every credential the scanner finds in
    a message or a pointer withheld: a duplicate member's name is quoted in both, and a name
    can be a token (I-JSON refuses the document before any scan of its values runs)."""
    out = []
    for finding in findings:
        message, path = redacted_unparsed(finding.message), redacted_unparsed(finding.path)
        if message != finding.message or path != finding.path:
            finding = finding.replace(message=message, path=path)
        out.append(finding)
    return out


def redacted_unparsed(text: str) -> str:
    """Text that did not parse, with every span the secret scanner finds in it replaced by
    REDACTED plus the line breaks it covered (a credential may spread over several lines of
    text that is not JSON), and every string literal whose escapes hide one (``\\u0067hp_…``
    reads as a GitHub token once decoded) withheld whole; when the scanner fails, the whole
    text goes (never a leak)."""
    try:
        spans = [(start, end) for start, end, _ in scan_text(text)]
        spans.extend(_escaped_credentials(text))
    except Exception:
        return "\n".join(REDACTED for _ in text.split("\n"))
    if not spans:
        return text
    parts = []
    last = 0
    for start, end in _merged(spans):
        parts.append(text[last:start])
        parts.append(REDACTED + "\n" * text.count("\n", start, end))
        last = end
    parts.append(text[last:])
    return "".join(parts)


# A JSON string literal that holds an escape, up to the end of its line when unterminated:
# the text did not parse, so a literal may be broken anywhere.
# (compiled by re's cache when first used: only a text that did not parse needs them)
_ESCAPED_LITERAL = r'"(?=[^"\n]*\\)(?:[^"\\\n]|\\.)*"?'
_ESCAPE = r"\\(?:u[0-9A-Fa-f]{4}|.)"
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def _escaped_credentials(text: str) -> Iterator[tuple[int, int]]:
    """The span of each string literal with escapes whose decoded text the scanner flags.
    Each literal is decoded and scanned once: linear in the text."""
    for match in re.finditer(_ESCAPED_LITERAL, text):
        decoded = re.sub(_ESCAPE, _unescape, match.group())
        if scan_text(decoded):
            yield match.start(), match.end()


def _unescape(match: re.Match[str]) -> str:
    escape = match.group()
    if escape[1] == "u":
        # "\u" without four hexadecimal digits (the JSON error a document is refused for, and
        # its message's own "\uXXXX") decodes to nothing: it is kept as written
        return chr(int(escape[2:], 16)) if len(escape) == 6 else escape
    return _SIMPLE_ESCAPES.get(escape[1], escape[1])


def _member_name_span(text: str, value_start: int) -> tuple[int, int] | None:
    """The span of the member name before a value (``"name" : value``), if there is one."""
    pos = value_start - 1
    while pos >= 0 and text[pos] in " \t\r\n":
        pos -= 1
    if pos < 0 or text[pos] != ":":
        return None
    pos -= 1
    while pos >= 0 and text[pos] in " \t\r\n":
        pos -= 1
    if pos < 0 or text[pos] != '"':
        return None
    close = pos
    pos -= 1
    while pos >= 0:
        if text[pos] == '"':
            backslashes = 0
            while pos - 1 - backslashes >= 0 and text[pos - 1 - backslashes] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                return pos, close + 1
        pos -= 1
    return None


def _blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace each span by the quoted REDACTED on its first line, keeping every newline so
    line numbers do not move."""
    if not spans:
        return text
    out, pos = [], 0
    for start, end in _merged(spans):
        out.append(text[pos:start])
        newlines = text.count("\n", start, end)
        out.append(json.dumps(REDACTED) + "\n" * newlines)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


@cache
def _schema_names() -> frozenset[str]:
    """Every member name the schema defines (its properties' names), read once."""
    from app.resources import load_schema

    found: set[str] = set()
    pending: list[object] = [load_schema()]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                found.update(properties)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return frozenset(found)
