"""How the secret scan matches its patterns: RE2 on a large input, Python's `re` on a small one.

The scan (app/secrets) has a few hundred patterns: each credential format's shape
(app/secrets/rules.py) and the anchors that send a text to a hand-written detector. Each pattern
names the keywords one of which every match contains (literals, as gitleaks does; one with a
capital is matched as written, the others in any case): a pattern is matched only on a text
that holds one, so most are never run.

Two engines, chosen by the input's size, give the same matches, because both read the same
text with the same patterns, each pattern on its own:

- a large input (or any input once RE2 is loaded: it is then the cheaper one; it is loaded once
  the small inputs a process has read add up to a large one) is searched by
  RE2 (google-re2), whose automata never backtrack: one pass of an RE2 set finds which
  keywords occur, and one RE2 pass per pattern whose keyword occurred finds its matches (or
  one per part of it, where its literals share no first character: `_split_lead`; a pattern
  led by literals in any case skips through the text in lower case first: `_folded`). Linear
  in the input whatever it holds.
- a small input is searched by `re`, keyword by keyword (`in`) and pattern by pattern: importing
  RE2 and compiling its sets costs some milliseconds once per process, which a small document's
  lint (`ocp lint` on one file, start-up, issue 28) must not pay; `re`'s keyword tests cost
  about 0.25 µs a character, which a service linting small documents must not pay for ever.
  The keywords of token-shaped patterns are looked for only in the runs of token characters
  the text holds, and a service's name only on the lines that hold one (`scope`): a fraction
  of prose. The patterns are written so that `re` runs them in bounded work per position (no
  nested or overlapping repetitions; a repetition either ends the pattern or is bounded), and
  the input is small.

Both read the input as ASCII: every other character replaced by "?" (`Hay`), so offsets stay
those of the text, RE2 reads bytes, and `re` sees the very same characters. The patterns use a
subset both engines read alike: character classes written out in ASCII (no \\w, \\s, \\d, \\b,
which differ between them), counted, greedy and lazy repetitions, alternation, ``(?i:…)``; no
anchors, look-arounds, back-references or possessive repetitions. tests/test_secrets_engine.py
holds the two engines to the same matches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

# RE2 is loaded once `re`'s keyword tests have read this many characters in the process (one
# input or several): importing the binding and compiling the keyword set cost 6 to 9 ms once,
# and `re`'s gates (each of some 560 keywords looked for with `in`) about 0.25 µs a character,
# every time: a server's second 50 KB document pays for RE2's load, and a lint of one small
# file (start-up, issue 28) never loads it.
RE2_FROM = 24_000

# Token characters, and the shortest run of them every token and every key stands in.
RUN_CHARS = r"A-Za-z0-9_.\-~+/=%$:|&"
RUN_MIN = 15
_TOKEN_CHARACTERS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~+/=%$:|&"
)  # (RUN_CHARS written out)
# Where `re` looks for a pattern's keyword (RE2 looks for every keyword everywhere): anywhere;
# in the runs (every match holds its keyword inside a run of RUN_CHARS at least RUN_MIN long:
# a token's prefix); in the lines that hold a run (every match holds such a run, and its
# keyword on the same line: a service's name beside its key).
ANYWHERE, IN_RUNS, BESIDE_RUNS = 0, 1, 2


# (typing is imported for the type checker only: importing it costs `ocp lint` 2 ms, issue 28)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    # RE2's Match as the scan calls it: (anchor, text, pos, end) -> (span of the match, …)
    _Matcher = Callable[[Any, bytes, int, int], Sequence[tuple[int, int]]]

    class Pattern(Protocol):
        """What the engine reads of a pattern (a rule's, or an anchor's)."""

        @property
        def regex(self) -> str: ...  # the subset of syntax both engines read alike (see above)

        # literals one of which every match holds (as written when one has a capital letter, else
        # in any case); none: the pattern has no literal to look for and is run on every text
        @property
        def keywords(self) -> Sequence[str]: ...

        # where its keyword stands: ANYWHERE, IN_RUNS or BESIDE_RUNS
        @property
        def scope(self) -> int: ...

        # a test one of a small text's runs passes whenever the pattern matches (None: none): `re`
        # matches the pattern only then (a pattern with no keyword, say; RE2 needs no such help)
        @property
        def run_test(self) -> Callable[[str], bool] | None: ...

        # for an IN_RUNS pattern, the shortest run a match fits in (0: RUN_MIN): `re` matches it
        # only when a run at least this long holds one of its keywords
        @property
        def min_run(self) -> int: ...


# Separators past ASCII that a person or a model writes between a name and its value (an arrow,
# a dash, a fullwidth colon or equals sign, a space that does not break, an opening quote):
# the engines read each as a space, every other character past ASCII as "?". An arrow or a
# dash with a space on either side is read as ASCII's (" > ", " - "): a note's "Password →
# …", "DB password — …" says what a space alone would not (app/secrets `_TOLD_IS`). Not one
# written against a word: an agent's tool prints a file's lines numbered "    41→…".
NO_BREAK_SPACES = "\u00a0\u2002\u2003\u2007\u2009\u202f\u3000"
CURLY_DOUBLE_QUOTES = "\u201c\u201d\u201e"
DASHES = "\u2013\u2014\u2015"
ARROWS = "\u2192\u21d2\u27f6\u2794\u279c"
TYPOGRAPHIC_SEPARATORS = (
    NO_BREAK_SPACES
    + DASHES
    + ARROWS
    + "\uff1a\uff1d"  # a fullwidth colon and equals sign
    + CURLY_DOUBLE_QUOTES
    + "\u00ab\u00bb\u300c"  # other opening quotes
)
_SPACED_AS = {**dict.fromkeys(DASHES, "-"), **dict.fromkeys(ARROWS, ">")}


def _ascii_of(text: str) -> str:
    """``text`` as the engines read it: the separators above as spaces (a spaced arrow or dash
    as ASCII's), every other character past ASCII as "?" (a character for a character: the
    offsets are the text's). Each separator present is replaced in one C pass; most texts
    hold none or one."""
    for separator in TYPOGRAPHIC_SEPARATORS:
        if separator in text:
            ascii_form = _SPACED_AS.get(separator)
            if ascii_form is not None:
                text = text.replace(f" {separator} ", f" {ascii_form} ")
            text = text.replace(separator, " ")
    return text.encode("ascii", "replace").decode()


class Hay:
    """A text as the engines read it: ASCII, with the same offsets (see the module's docstring).

    `ascii` is what `re` reads, `raw` what RE2 reads (the same characters as bytes), `low` the
    same in lower case, for `re`'s keywords. Each is built on first use."""

    __slots__ = ("_ascii", "_lines", "_low", "_raw", "_raw_low", "_runs", "found", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # the keywords RE2's set found in it (`Engine.present`; None: not looked for)
        self.found: set[int] | None = None
        self._ascii: str | None = None
        self._low: str | None = None
        self._raw: bytes | None = None
        self._raw_low: bytes | None = None
        self._runs: list[str] | None = None
        self._lines: str | None = None

    @property
    def ascii(self) -> str:
        if self._ascii is None:
            text = self.text
            self._ascii = text if text.isascii() else _ascii_of(text)
        return self._ascii

    @property
    def low(self) -> str:
        if self._low is None:
            self._low = self.ascii.lower()
        return self._low

    @property
    def raw(self) -> bytes:
        if self._raw is None:
            self._raw = self.ascii.encode()
        return self._raw

    @property
    def raw_low(self) -> bytes:
        """`raw` in lower case: what a folded pattern reads (`_folded`)."""
        if self._raw_low is None:
            self._raw_low = self.raw.lower()
        return self._raw_low

    @property
    def runs(self) -> list[str]:
        """The runs of token characters at least RUN_MIN long: where an IN_RUNS pattern's
        keyword must be."""
        if self._runs is None:
            # By str.translate and split, C loops both: the runs' regex would cost a compile
            # and twice the search.
            words = self.ascii.translate(_run_table()).split()
            self._runs = [w for w in words if len(w) >= RUN_MIN]
        return self._runs

    @property
    def lines(self) -> str:
        """The lines that hold a run (in lower case, a newline apart): where a BESIDE_RUNS
        pattern's keyword must be."""
        if self._lines is None:
            # A line holding a run is found from each distinct run's places.
            text = self.ascii
            spans: set[tuple[int, int]] = set()
            for run in set(self.runs):
                at = text.find(run)
                while at != -1:
                    start = text.rfind("\n", 0, at) + 1
                    end = text.find("\n", at + len(run))
                    spans.add((start, len(text) if end == -1 else end))
                    at = text.find(run, end) if end != -1 else -1
            self._lines = "\n".join([text[a:b] for a, b in sorted(spans)]).lower()
        return self._lines

    def __len__(self) -> int:
        return len(self.text)


_RUN_TABLE: list[dict[int, int]] = []


def _run_table() -> dict[int, int]:
    """str.translate's table: a token character stays, any other becomes a space."""
    if not _RUN_TABLE:
        keep = _TOKEN_CHARACTERS
        _RUN_TABLE.append({c: c if chr(c) in keep else 32 for c in range(128)})
    return _RUN_TABLE[0]


class Engine:
    """The matcher of one list of patterns, on either engine."""

    def __init__(self, patterns: Sequence[Pattern]) -> None:
        self.patterns = list(patterns)
        # (keyword, scope) -> its index; each pattern's gate: its keywords' indices
        entries: dict[tuple[str, int], int] = {}
        gates: list[tuple[int, ...]] = []
        for pattern in self.patterns:
            scope = pattern.scope
            gates.append(
                tuple([entries.setdefault((w, scope), len(entries)) for w in pattern.keywords])
            )
        # (keyword, as written?, scope): one with a capital is looked for as written
        self._entries = [(w, w != w.lower(), scope) for w, scope in entries]
        # the same, by where `re` looks for them, and within each the keywords that end alike
        # behind one `in` test of their last three characters ("api key", "deploy key",
        # "secret key"): a small text holding none of those is tested once for them, not once
        # for each (an `in` test reads the whole of a text that lacks its word, 1.6 µs for
        # 4 KB). (as written?, scope) -> ending -> [(keyword, index)]
        endings: dict[tuple[bool, int], dict[str, list[tuple[str, int]]]] = {}
        for i, (word, exact, scope) in enumerate(self._entries):
            endings.setdefault((exact, scope), {}).setdefault(word[-3:], []).append((word, i))
        # (a keyword alone behind its ending is its own gate)
        self._gated_by_text = {
            group: [
                (ending if len(alike) > 1 else alike[0][0], alike) for ending, alike in by.items()
            ]
            for group, by in endings.items()
        }
        self._gates = gates
        self._ungated = [i for i, gate in enumerate(gates) if not gate]
        # keyword index -> the patterns it lets through (a text holds few keywords: its
        # patterns are found from them, not by testing every pattern's gate)
        self._opens: list[list[int]] = [[] for _ in entries]
        for i, gate in enumerate(gates):
            for keyword in gate:
                self._opens[keyword].append(i)
        self._python: dict[int, re.Pattern[str]] = {}
        self._re2: dict[int, Any] = {}
        self._re2_parts: dict[int, list[tuple[Any, frozenset[int], Any]]] = {}
        self._set: Any = None
        # the characters of the inputs `uses_re2` was asked about before RE2 was loaded
        self._read_by_re = 0

    # --- which engine --------------------------------------------------------------------------

    def uses_re2(self, hay: Hay) -> bool:
        """RE2 for a large input, for every input once the inputs `re` read before it add up to
        RE2_FROM characters, and for every input once its keyword set is compiled: from then on
        it is the cheaper engine (and both give the same matches)."""
        if self._set is not None:
            return True
        self._read_by_re += len(hay)  # (a race of two threads loses a count: harmless)
        return self._read_by_re >= RE2_FROM and _re2_module() is not None

    # --- which patterns a text needs -----------------------------------------------------------

    def present(self, hay: Hay, re2: bool, fits: bool = False) -> list[int]:
        """The indices of the patterns one of whose keywords ``hay`` holds, and of the patterns
        that have none, in order. (RE2 looks for every keyword in the whole text: a pattern
        it lets through and the scope would not finds no match there.) ``fits``: `re`'s last
        gate too, though RE2 found the keywords (a short text that `re` then searches)."""
        if re2:
            found = set(self._keyword_set().Match(hay.raw) or ())
            if found:
                found.discard(len(self._entries))  # (the text's start: see `_keyword_set`)
            else:  # the set's automaton ran out of memory: every keyword may stand in the text
                found = set(range(len(self._entries)))
            hay.found = found
        else:
            found = set()
            for (exact, scope), gated in self._gated_by_text.items():
                if scope == IN_RUNS:
                    joined = " ".join(hay.runs)
                    text = joined if exact else joined.lower()
                elif scope == BESIDE_RUNS:
                    text = hay.lines  # (lower case: a service's name is matched in any case)
                else:
                    text = hay.ascii if exact else hay.low
                for gate, alike in gated:
                    if gate in text:  # (a keyword alone is its own gate)
                        found.update([i for word, i in alike if word in text])
        opened = set(self._ungated)
        for keyword in found:
            opened.update(self._opens[keyword])
        present = sorted(opened)
        if not re2:
            present = [i for i in present if self._fits(i, hay)]
        elif fits:  # (the run tests only: they gate the patterns with no keyword)
            patterns = self.patterns
            present = [i for i in present if patterns[i].run_test is None or self._fits(i, hay)]
        return present

    def _fits(self, index: int, hay: Hay) -> bool:
        """`re`'s last gate: a pattern's run test, and the length of the run its keyword is in."""
        pattern = self.patterns[index]
        test = pattern.run_test
        if test is not None and not any(map(test, hay.runs)):
            return False
        shortest = pattern.min_run
        if shortest <= RUN_MIN or pattern.scope != IN_RUNS:
            return True
        words = pattern.keywords
        return any(
            len(run) >= shortest
            and any((w in run) if w != w.lower() else (w in run.lower()) for w in words)
            for run in hay.runs
        )

    def positions(self, index: int, hay: Hay) -> list[int]:
        """Where the keywords of pattern ``index`` stand in ``hay`` (in any case), sorted: the
        places a word-gated anchor sends to its detector when `re` scans (see app/secrets
        `_Anchor`), found by `str.find` with no pattern to compile."""
        low = hay.low
        places: list[int] = []
        for word in self.patterns[index].keywords:
            at = low.find(word)
            while at != -1:
                places.append(at)
                at = low.find(word, at + 1)
        places.sort()
        return places

    def _keyword_set(self) -> Any:
        """Every keyword in one RE2 set, a folded one as a case-insensitive pattern: one pass
        over the text finds them all."""
        if self._set is None:
            re2 = _re2_module()
            assert re2 is not None
            keyword_set = re2.Set.SearchSet(_options(re2))
            for word, exact, _ in self._entries:
                escaped = re2.escape(word)
                keyword_set.Add((escaped if exact else f"(?i:{escaped})").encode())
            # The text's start, last, matches in every text: RE2's set reports no match at all
            # only when its automaton ran out of memory (a text of no keyword reports this one).
            # (Not the empty regex, which matches at every place: it doubled the set's pass.)
            keyword_set.Add(rb"\A")
            keyword_set.Compile()
            self._set = keyword_set
        return self._set

    # --- where a pattern matches ---------------------------------------------------------------

    def search(
        self, index: int, hay: Hay, re2: bool, pos: int = 0, end: int | None = None
    ) -> tuple[int, int] | None:
        """The span of pattern ``index``'s first match in ``hay`` at or after ``pos``."""
        limit = len(hay) if end is None else end
        if re2:
            # RE2's own matcher, called straight: the binding's re-like wrapper costs several
            # microseconds a call in Python, which a document of 2,000 digests pays 2,000 times
            return _first_of(self._re2_matchers(index, hay), _UNANCHORED[0], hay.raw, limit)(pos)
        m = self._python_pattern(index).search(hay.ascii, pos, limit)
        return None if m is None else (m.start(), m.end())

    def searcher(
        self, index: int, hay: Hay, re2: bool, narrow: str | None = None
    ) -> Callable[[int], tuple[int, int] | None]:
        """`search` of one pattern in one text, its lookups done once: pos -> the first match
        at or after it (what the scan calls once a match). ``narrow``: with RE2, a regex (any
        syntax RE2 reads) searched instead of the pattern's, that finds every match of the
        pattern its caller keeps, and others the caller refuses, each ending where a match of
        the pattern would (the caller goes on from there, with either regex): see app/secrets
        `_MIXED_RUN_RE2`."""
        end = len(hay)
        if re2:
            anchor, raw = _UNANCHORED[0], hay.raw
            if narrow is not None:
                return _one_of(_re2_by_regex(narrow).Match, anchor, raw, end)
            matchers = self._re2_matchers(index, hay)
            whole = self._re2_pattern(index).Match
            if matchers == [whole]:
                return _one_of(whole, anchor, raw, end)
            led = (
                _first_of(matchers, anchor, raw, end)
                if len(matchers) > 1
                else _one_of(matchers[0], anchor, raw, end)
            )
            return _thinned(led, _one_of(whole, anchor, raw, end))
        find, text = self._python_pattern(index).search, hay.ascii

        def by_re(pos: int) -> tuple[int, int] | None:
            m = find(text, pos, end)
            return None if m is None else m.span()

        return by_re

    def _re2_matchers(self, index: int, hay: Hay) -> list[_Matcher]:
        """The RE2 matchers pattern ``index`` is searched with in ``hay``: its own, or the parts
        it is split into (`_split_lead`) whose keywords ``hay`` holds; one led by literals in
        any case searches the text in lower case first (`_folded`)."""
        parts = self._re2_parts.get(index)
        if parts is None:
            parts = self._re2_parts[index] = self._parts(index)
        found = hay.found
        chosen = [
            part for part in parts if found is None or not part[1] or not part[1].isdisjoint(found)
        ] or parts[:1]  # (none found: the first finds nothing either)
        return [
            compiled.Match if folded is None else _folded_matcher(folded, compiled, hay)
            for compiled, _, folded in chosen
        ]

    def _parts(self, index: int) -> list[tuple[Any, frozenset[int], Any]]:
        """(automaton, keywords' indices, automaton of the folded form or None) of each part
        pattern ``index`` is searched as (itself alone, ungated, when not split)."""
        pattern = self.patterns[index]
        split = _split_lead(pattern.regex, pattern.keywords)
        entries = {w: i for i, (w, _, scope) in enumerate(self._entries) if scope == pattern.scope}
        parts = []
        for regex, words in split or [(pattern.regex, frozenset[str]())]:
            gate = frozenset([entries[w] for w in pattern.keywords if w.lower() in words])
            folded = _folded(regex)
            parts.append(
                (
                    _re2_compile(regex) if split else self._re2_pattern(index),
                    gate,
                    None if folded is None else _re2_compile(folded),
                )
            )
        return parts

    def _python_pattern(self, index: int) -> re.Pattern[str]:
        compiled = self._python.get(index)
        if compiled is None:
            compiled = self._python[index] = re.compile(self.patterns[index].regex, re.ASCII)
        return compiled

    def _re2_pattern(self, index: int) -> Any:
        compiled = self._re2.get(index)
        if compiled is None:
            compiled = self._re2[index] = _re2_compile(self.patterns[index].regex)
        return compiled


def _folded_matcher(folded: Any, compiled: Any, hay: Hay) -> _Matcher:
    """A matcher of a pattern led by literals in any case that skips through ``hay`` in lower
    case with its folded form (`_folded`) to the first place the pattern may match, and
    searches the pattern itself from there: the folded form matches wherever the pattern does,
    so nothing before that place is a match. (The pattern's search goes on from there as far
    as it must, never over text it read before: the next search starts past its match.)"""
    low, skip, search = hay.raw_low, folded.Match, compiled.Match

    def match(anchor: Any, raw: bytes, pos: int, end: int) -> Sequence[tuple[int, int]]:
        place = skip(anchor, low, pos, end)[0]
        if place[0] < 0:
            return (place,)
        return search(anchor, raw, place[0], end)  # type: ignore[no-any-return]

    return match


def _one_of(
    match: _Matcher, anchor: Any, raw: bytes, end: int
) -> Callable[[int], tuple[int, int] | None]:
    """A searcher of one matcher: pos -> its first match at or after pos, or None."""

    def by_re2(pos: int) -> tuple[int, int] | None:
        span = match(anchor, raw, pos, end)[0]
        return None if span[0] < 0 else span

    return by_re2


# A pattern searched as parts, or folded, costs one or two more calls of RE2 for each match
# than the pattern whole (some 1.5-3 µs), for a pass that reads the text two to four times as
# fast (the whole's costs 0.6-0.8 ms more for 400 KB when RE2 has no literal to skip to, a
# tenth of a millisecond when it skips at half speed): past this many matches, coming more
# than one in this many characters, the pattern is searched whole from there.
_THICK_AFTER = 16
_THICK_SPACING = 4096


def _thinned(
    led: Callable[[int], tuple[int, int] | None], whole: Callable[[int], tuple[int, int] | None]
) -> Callable[[int], tuple[int, int] | None]:
    """``led`` (the parts', or the folded form's searcher) while its matches come thin, then
    ``whole`` (the pattern's own): both find the same matches."""
    calls, first = 0, -1
    search = led

    def thinned(pos: int) -> tuple[int, int] | None:
        nonlocal calls, first, search
        if search is led:
            calls += 1
            if calls == 1:
                first = pos
            elif calls == _THICK_AFTER:
                # (looked at again each 16 calls: thin matches may turn thick further on)
                if pos - first < _THICK_AFTER * _THICK_SPACING:
                    search = whole  # (thick here: the pattern whole is the cheaper)
                calls = 0
        return search(pos)

    return thinned


def _first_of(
    matchers: list[_Matcher], anchor: Any, raw: bytes, end: int
) -> Callable[[int], tuple[int, int] | None]:
    """A searcher of the parts of a split pattern (`_split_lead`): the first match of any at or
    after pos, which is the pattern's own (no two parts' matches start at one place). Each
    part's last match is kept with the place it was searched from, and searched for again only
    once pos has passed its start: a part whose keyword comes rarely is read once."""
    count = len(matchers)
    froms = [end + 1] * count  # (past the end: not searched yet)
    spans = [(-1, -1)] * count

    def by_parts(pos: int) -> tuple[int, int] | None:
        first: tuple[int, int] | None = None
        for j in range(count):
            span = spans[j]
            if froms[j] > pos or 0 <= span[0] < pos:
                span = spans[j] = matchers[j](anchor, raw, pos, end)[0]
                froms[j] = pos
            if span[0] >= 0 and (first is None or span[0] < first[0]):
                first = span
        return first

    return by_parts


# A pattern that starts with an alternation of literals having no first character in common
# ((?:live_|test_)…, (?i:bootstrap|token)…) is one RE2 cannot skip through to a literal: its
# automaton reads every byte (0.6-0.8 ms for 400 KB, where a pattern led by one literal takes
# 0.06-0.2). It is searched as parts, one per group of its literals that share a prefix of
# three characters (or two, not both letters: "1/"), each led by its own (a text holding every
# keyword: 0.85 -> 0.28 ms for (?:live_|test_)). At most this many parts: more passes cost more
# than the one they replace.
_MOST_PARTS = 4


def _split_lead(regex: str, keywords: Sequence[str]) -> list[tuple[str, frozenset[str]]] | None:
    """``regex`` as parts (each a regex, and the keywords its literals hold, in lower case)
    when it starts with an alternation of literals that each hold a keyword, have no first
    character in common and group by shared prefixes (see above); None when it is searched
    whole (RE2 skips to a first character all share as fast as to each group's prefix). No
    two parts' matches start at one place (their literals differ within both), so the first
    match of any part is the pattern's first match, and each part's alternation keeps the
    order the pattern has."""
    lead = _literal_lead(regex)
    if lead is None:
        return None
    opening, branches, literals, rest = lead
    fold = opening == "(?i:"
    keys = [lit.lower() if fold else lit for lit in literals]
    words = [w.lower() for w in keywords]
    if not all(any(w in lit.lower() for w in words) for lit in literals):
        return None  # (a part is searched where one of its literals' keywords stands)
    groups = None if _common_prefix(keys) else _prefix_groups(keys)
    if groups is None:
        return None
    return [
        (
            opening + "|".join([branches[k] for k in group]) + ")" + rest,
            frozenset([w for w in words if any(w in literals[k].lower() for k in group)]),
        )
        for group in groups
    ]


def _literal_lead(regex: str) -> tuple[str, list[str], list[str], str] | None:
    """The alternation of literals ``regex`` starts with, in a group of its own: the group's
    opening ("(?:" or "(?i:"), its branches as written and as the literals they are, and the
    regex after the group; None when it starts otherwise, or the rest would not bind to each
    branch alike (a quantifier on the group, an alternation outside it)."""
    opening = next((o for o in ("(?:", "(?i:") if regex.startswith(o)), None)
    if opening is None:
        return None
    branches, literals, i = [], [], len(opening)
    start = i
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            if i + 1 >= len(regex) or regex[i + 1].isalnum():
                return None  # a class (\d, \t…), not a literal character
            i += 2
        elif c in "|)":
            branches.append(regex[start:i])
            literals.append(re.sub(r"\\(.)", r"\1", regex[start:i]))  # (\\ is a backslash)
            i += 1
            start = i
            if c == ")":
                break
        elif c in "([{.*+?^$":
            return None
        else:
            i += 1
    else:
        return None
    rest = regex[i:]
    if rest[:1] in ("?", "*", "+", "{") or _top_level_bar(rest):
        return None
    return opening, branches, literals, rest


def _folded(regex: str) -> str | None:
    """For a regex led by literals in any case ((?i:cloudflare|cf_api)…), the regex that
    finds the places it may match in the text in lower case: its literals in lower case, as
    written (RE2 skips to one at memchr's speed, where a literal in any case takes it twice as
    long), and the rest in any case, which matches wherever the rest does. None otherwise."""
    lead = _literal_lead(regex)
    if lead is None or lead[0] != "(?i:":
        return None
    _, branches, _, rest = lead
    negated = re.findall(_NEGATED_CLASS, rest)
    if any(re.search("[A-Za-z-]", re.sub(r"\\[rnt]", "", c)) for c in negated):
        # in any case, [^A-Z] leaves out a-z too (and [^!-~] or [^\[-z] letters of one case):
        # the rest would not match where it does
        return None
    return "(?:" + "|".join([b.lower() for b in branches]) + ")" + (f"(?i:{rest})" if rest else "")


# (a regex compiled on first use, by `re`'s cache: the folded forms are made only once RE2 is)
_NEGATED_CLASS = r"\[\^((?:\\.|[^\]\\])*)\]"


def _prefix_groups(keys: list[str]) -> list[list[int]] | None:
    """The indices of ``keys`` grouped by shared prefixes, each of 3 characters or more (2 if
    not both letters), each group in order; None when that makes one group, or more than
    _MOST_PARTS, or a key is the shared prefix of others (it would start where they do)."""
    pending, done = [list(range(len(keys)))], []
    while pending:
        group = pending.pop()
        common = _common_prefix([keys[k] for k in group])
        if len(common) >= 3 or (len(common) == 2 and not common.isalpha()):
            done.append(group)
            continue
        if any(len(keys[k]) == len(common) for k in group):
            return None
        by_next: dict[str, list[int]] = {}
        for k in group:
            by_next.setdefault(keys[k][len(common)], []).append(k)
        pending.extend(by_next.values())
        if len(done) + len(pending) > _MOST_PARTS:
            return None
    if len(done) < 2:
        return None
    return sorted(done)


def _common_prefix(words: list[str]) -> str:
    first, last = min(words), max(words)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def _syntax(regex: str) -> Iterator[tuple[int, str, str]]:
    """Each character of ``regex`` (the subset this module reads) with its place and what it
    is: "escaped" (after a backslash), "open" (a "[" that opens a character class), "class"
    (inside one, its "]" too; a "]" first in it, or after its "^", is one of its characters)
    or "plain"; a backslash is given as what it escapes."""
    escaped, in_class, first = False, False, -1
    for at, char in enumerate(regex):
        if escaped:
            escaped = False
            yield at, "escaped", char
        elif char == "\\":
            escaped = True
        elif in_class:
            if at == first and char == "^":
                first += 1
            in_class = char != "]" or at == first
            yield at, "class", char
        elif char == "[":
            in_class, first = True, at + 1
            yield at, "open", char
        else:
            yield at, "plain", char


def _top_level_bar(regex: str) -> bool:
    """Whether ``regex`` has an alternation outside every group (" / |cred…": a match starts
    with either side; a split would bind it to the last part only)."""
    depth = 0
    for _, kind, char in _syntax(regex):
        if kind == "plain":
            depth += (char == "(") - (char == ")")
            if char == "|" and depth == 0:
                return True
    return False


# regex -> its RE2 automaton: a narrow form an anchor searches (`searcher`), and what a detector
# reads with `re2_spans` (the base64 detector the same regex its anchor narrows to: one compile)
_BY_REGEX: dict[str, Any] = {}


def _re2_by_regex(regex: str) -> Any:
    compiled = _BY_REGEX.get(regex)
    if compiled is None:
        compiled = _BY_REGEX[regex] = _re2_compile(regex)
    return compiled


def re2_spans(regex: str, raw: bytes) -> Iterator[tuple[int, int]] | None:
    """The spans of ``regex``'s matches in ``raw``, one after another, by RE2 (compiled once per
    process); None when RE2 is not installed. For a detector that reads a long text for runs
    RE2 finds in one pass, where `re` would try its pattern at every character."""
    if _re2_module() is None:
        return None
    return _spans(_re2_by_regex(regex).Match, _UNANCHORED[0], raw)


def re2_searcher(regex: str, raw: bytes) -> Callable[[int], int] | None:
    """pos -> where ``regex``'s first match in ``raw`` at or after pos starts (-1: none), by
    RE2; None when RE2 is not installed. For a caller that skips ahead between searches."""
    if _re2_module() is None:
        return None
    match, anchor, end = _re2_by_regex(regex).Match, _UNANCHORED[0], len(raw)

    def search(pos: int) -> int:
        if pos > end:
            return -1  # (past the end, as `str.find` answers: RE2 refuses the place)
        start: int = match(anchor, raw, pos, end)[0][0]
        return start

    return search


def _spans(match: Any, anchor: Any, raw: bytes) -> Iterator[tuple[int, int]]:
    pos, end = 0, len(raw)
    while pos <= end:
        span: tuple[int, int] = match(anchor, raw, pos, end)[0]
        if span[0] < 0:
            return
        yield span
        pos = span[1] if span[1] > span[0] else span[1] + 1


def _re2_compile(regex: str) -> Any:
    re2 = _re2_module()
    assert re2 is not None
    compiled = re2._re2.RE2(regex.encode(), _options(re2))
    if not compiled.ok():
        raise ValueError(f"RE2 cannot read {regex!r}: {compiled.error()}")
    return compiled


_RE2: list[Any] = []  # the binding once imported ([None] when it cannot be)


_UNANCHORED: list[Any] = []  # RE2's anchor of an unanchored search


def _re2_module() -> Any:
    """The RE2 binding, imported on first need (never by a small input's scan)."""
    if not _RE2:
        try:
            import re2  # type: ignore[import-untyped]  # the binding ships no type hints

            _UNANCHORED.append(re2._Anchor.UNANCHORED)
        except (ImportError, AttributeError):  # a broken install: `re` gives the same matches
            re2 = None
        _RE2.append(re2)
    return _RE2[0]


def _options(re2: Any) -> Any:
    options = re2.Options()
    # The default 8 MiB per automaton: a pattern that needs more falls back to a slower
    # automaton, still linear; a keyword set of literals never comes near it.
    options.max_mem = 64 << 20
    # Every text RE2 reads is ASCII (`Hay`; a detector's, encoded with "replace"), which Latin-1
    # reads as UTF-8 does, byte for byte. In UTF-8, (?i:s) and (?i:k) also match "ſ" and the
    # Kelvin sign: a keyword holding either is then no literal RE2 can skip to, and it reads
    # every byte (a pattern led by (?i:sendbird) took 0.59 ms for 400 KB, 0.14 ms in Latin-1).
    options.encoding = re2.Options.Encoding.LATIN1
    return options
