"""How the secret scan matches its patterns: RE2 on a large input, Python's `re` on a small one.

The scan (app/secrets.py) has a few hundred patterns: each credential format's shape
(app/secret_rules.py) and the anchors that send a text to a hand-written detector. Each pattern
names the keywords one of which every match contains (lower-case literals, as gitleaks does):
a pattern is matched only on a text that holds one, so most are never run.

Two engines, chosen by the input's size, give the same matches, because both read the same
text with the same patterns:

- a large input (or any input once RE2 is loaded: it is then the cheaper one) is searched by
  RE2 (google-re2), whose automata never backtrack: one pass of an RE2 set finds which keywords
  occur, and one RE2 pass per pattern whose keyword occurred finds its matches. Linear in the
  input whatever it holds, with a constant that does not depend on the patterns' shapes.
- a small input is searched by `re`, keyword by keyword (`in`) and pattern by pattern. Importing
  RE2 and compiling its set costs some milliseconds once per process, which a small document's
  lint (`ocp lint` on one file, start-up, issue 28) must not pay. The patterns are written so
  that `re` runs them in bounded work per position (no nested or overlapping repetitions; a
  repetition either ends the pattern or is bounded), and the input is small.

Both read the input as ASCII: every other character replaced by "?" (`Hay`), so offsets stay
those of the text, RE2 reads bytes, and `re` sees the very same characters. The patterns use a
subset both engines read alike: character classes written out in ASCII (no \\w, \\s, \\d, \\b,
which differ between them), counted, greedy and lazy repetitions, alternation, ``(?i:…)``; no
anchors, look-arounds, back-references or possessive repetitions. tests/test_secret_engine.py
holds the two engines to the same matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

# An input at least this long (characters) is searched with RE2 even before RE2 is loaded:
# below it, importing the binding and compiling the keyword set (about 5 ms) costs more than
# the `in` tests and the few `re` patterns a small input needs.
RE2_FROM = 24_000


class Pattern(NamedTuple):
    regex: str  # the subset of syntax both engines read alike (see the module's docstring)
    # lower-case literals, one of which every match holds (case-insensitively); empty: the
    # pattern has no literal to look for first and is run on every text
    keywords: tuple[str, ...]


class Hay:
    """A text as the engines read it: ASCII, with the same offsets (see the module's docstring).

    `ascii` is what `re` reads, `raw` what RE2 reads (the same characters as bytes), `low` and
    `low_raw` the same in lower case, for the keywords. Each is built on first use."""

    __slots__ = ("_ascii", "_low", "_low_raw", "_raw", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._ascii: str | None = None
        self._low: str | None = None
        self._raw: bytes | None = None
        self._low_raw: bytes | None = None

    @property
    def ascii(self) -> str:
        if self._ascii is None:
            text = self.text
            self._ascii = text if text.isascii() else text.encode("ascii", "replace").decode()
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
    def low_raw(self) -> bytes:
        if self._low_raw is None:
            self._low_raw = self.low.encode()
        return self._low_raw

    def __len__(self) -> int:
        return len(self.text)


class Engine:
    """The matcher of one list of patterns (`Pattern`), on either engine."""

    def __init__(self, patterns: Sequence[Pattern]) -> None:
        self.patterns = list(patterns)
        keywords = sorted({k for p in self.patterns for k in p.keywords})
        self._keywords = keywords
        self._keyword_index = {k: i for i, k in enumerate(keywords)}
        # pattern index -> its keywords' indices; the patterns without one, always run
        self._gates = [frozenset(self._keyword_index[k] for k in p.keywords) for p in self.patterns]
        self._ungated = [i for i, p in enumerate(self.patterns) if not p.keywords]
        self._python: dict[int, re.Pattern[str]] = {}
        self._re2: dict[int, Any] = {}
        self._set: Any = None

    # --- which engine --------------------------------------------------------------------------

    def uses_re2(self, hay: Hay) -> bool:
        """RE2 for a large input, and for every input once its keyword set is compiled: from
        then on it is the cheaper engine (and both give the same matches)."""
        if self._set is not None:
            return True
        return len(hay) >= RE2_FROM and _re2_module() is not None

    # --- which patterns a text needs -----------------------------------------------------------

    def present(self, hay: Hay, re2: bool | None = None) -> list[int]:
        """The indices of the patterns one of whose keywords ``hay`` holds, and of the patterns
        that have none, in order."""
        if re2 is None:
            re2 = self.uses_re2(hay)
        if re2:
            found = set(self._keyword_set().Match(hay.low_raw) or ())  # None: no keyword
        else:
            low = hay.low
            found = {i for i, k in enumerate(self._keywords) if k in low}
        if not found:
            return list(self._ungated)
        return [i for i, gate in enumerate(self._gates) if not gate or gate & found]

    def _keyword_set(self) -> Any:
        if self._set is None:
            re2 = _re2_module()
            assert re2 is not None
            keyword_set = re2.Set.SearchSet(_options(re2))
            for keyword in self._keywords:
                keyword_set.Add(re2.escape(keyword).encode())
            keyword_set.Compile()
            self._set = keyword_set
        return self._set

    # --- where a pattern matches ---------------------------------------------------------------

    def finditer(self, index: int, hay: Hay, re2: bool) -> Iterator[tuple[int, int]]:
        """The spans of pattern ``index``'s matches in ``hay``, left to right, not
        overlapping (each search goes on from the end of the match before)."""
        if re2:
            compiled = self._re2_pattern(index)
            for m in compiled.finditer(hay.raw):
                yield m.start(), m.end()
        else:
            for m in self._python_pattern(index).finditer(hay.ascii):
                yield m.span()

    def search(
        self, index: int, hay: Hay, re2: bool, pos: int = 0, end: int | None = None
    ) -> tuple[int, int] | None:
        """The span of pattern ``index``'s first match in ``hay`` at or after ``pos``."""
        limit = len(hay) if end is None else end
        if re2:
            m = self._re2_pattern(index).search(hay.raw, pos, limit)
        else:
            m = self._python_pattern(index).search(hay.ascii, pos, limit)
        return None if m is None else (m.start(), m.end())

    def _python_pattern(self, index: int) -> re.Pattern[str]:
        compiled = self._python.get(index)
        if compiled is None:
            compiled = self._python[index] = re.compile(self.patterns[index].regex, re.ASCII)
        return compiled

    def _re2_pattern(self, index: int) -> Any:
        compiled = self._re2.get(index)
        if compiled is None:
            re2 = _re2_module()
            assert re2 is not None
            compiled = re2.compile(self.patterns[index].regex.encode(), _options(re2))
            self._re2[index] = compiled
        return compiled


_RE2: list[Any] = []  # the binding once imported ([None] when it cannot be)


def _re2_module() -> Any:
    """The RE2 binding, imported on first need (never by a small input's scan)."""
    if not _RE2:
        try:
            import re2  # type: ignore[import-untyped]  # the binding ships no type hints
        except ImportError:  # a broken install: `re` alone still gives the same matches
            re2 = None
        _RE2.append(re2)
    return _RE2[0]


def _options(re2: Any) -> Any:
    options = re2.Options()
    # The default 8 MiB per automaton: a pattern that needs more falls back to a slower
    # automaton, still linear; a keyword set of literals never comes near it.
    options.max_mem = 64 << 20
    return options
