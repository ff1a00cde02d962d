"""Which statements a page lists: by kind, origin type and status, and from which one on (a
list's "next 150"), read from a page's query parameters (issue 12).

A page's address says what it lists, so a filtered or paged view is a link that works without
JavaScript, and its JSON twin (the same address, ``.json``) lists the same statements from the
same one on; as every twin, it lists every item after that where the page shows
PAGE_LIST_LIMIT, so it has no pager. The service refuses a value this viewer does not know
before it gets here (app/web/parameters.py: a 400 naming the parameter), so `PageQuery.of`
reads only values it lists; a link that lists nothing says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from app import layout
from app.advice import GROUPS
from app.render.model import KINDS, ORIGIN_TYPES, OTHER

KIND_KEYS = (*KINDS, OTHER)
ORIGIN_KEYS = (*ORIGIN_TYPES, OTHER)
STATUS_KEYS = (*layout.STATEMENT_STATUSES, OTHER)
# The parameters, as a page's address names them.
PARAMETERS = ("kind", "origin", "status", "list", "from", "q")
# Past this, a start is no list's: a number this long is not one a page wrote.
_LONGEST_START = 9


# The lists other than the statements that a page pages ("next 150"), by the name an address
# gives them: each operations group, the resources, the completed and the next steps.
PAGED_LISTS = frozenset(
    {"resources", "progress-completed", "progress-next"} | {f"ops-{key}" for key, _, _ in GROUPS}
)


@dataclass(frozen=True, slots=True)
class ListWindow:
    """Which list of the page starts later than its first item, and where: ``?list=resources
    &from=150``. One list at a time: a "next" link leads into one list."""

    name: str = ""
    start: int = 0

    @classmethod
    def of(cls, values: Callable[[str], Iterable[str]]) -> ListWindow:
        name = next(iter(values("list")), "")
        return cls(name, _start(values)) if name in PAGED_LISTS else cls()

    @property
    def any(self) -> bool:
        return bool(self.name) and self.start > 0

    def start_of(self, name: str) -> int:
        return self.start if name == self.name else 0

    @staticmethod
    def search(name: str, start: int) -> str:
        pairs = [("list", name)] + ([("from", str(start))] if start else [])
        return "?" + urlencode(pairs)


FIRST = ListWindow()


@dataclass(frozen=True, slots=True)
class PageQuery:
    """The statements a page lists: those of one of ``kinds`` (all when empty), one of
    ``origins``, one of ``statuses``; each list (a kind and an origin type) from its
    ``start``-th statement on."""

    kinds: frozenset[str] = frozenset()
    origins: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    start: int = 0
    # where another list starts (a list's "next 150": ?list=resources&from=150)
    window: ListWindow = field(default_factory=lambda: FIRST)
    # the words a page's search asks for (?q=): only the cards holding them (app/render/search.py)
    text: str = ""

    @classmethod
    def of(cls, values: Callable[[str], Iterable[str]]) -> PageQuery:
        """From ``values(name)``, every value given for a parameter (Starlette's
        ``request.query_params.getlist``). ``from`` is the statements' unless ``list`` names
        another list (`ListWindow`)."""
        return cls(
            kinds=frozenset(v for v in values("kind") if v in KIND_KEYS),
            origins=frozenset(v for v in values("origin") if v in ORIGIN_KEYS),
            statuses=frozenset(v for v in values("status") if v in STATUS_KEYS),
            start=0 if next(iter(values("list")), "") else _start(values),
            window=ListWindow.of(values),
            text=next(iter(values("q")), "").strip(),
        )

    @property
    def filtered(self) -> bool:
        return bool(self.kinds or self.origins or self.statuses)

    @property
    def any(self) -> bool:
        """Whether the query asks for anything but every list from its first item."""
        return self.filtered or self.start > 0 or self.window.any or bool(self.text)

    def admits(self, kind: str, origin: str, status: str) -> bool:
        """Whether a statement of this kind, origin type and status (each a key: "other" for
        one the specification does not define) is listed."""
        return (
            (not self.kinds or kind in self.kinds)
            and (not self.origins or origin in self.origins)
            and (not self.statuses or status in self.statuses)
        )

    def of_cell(self, kind: str, origin: str, start: int) -> PageQuery:
        """The query of one list (a kind and an origin type) from ``start`` on, keeping the
        status filter: what its "next 150" opens."""
        return replace(
            self, kinds=frozenset({kind}), origins=frozenset({origin}), start=start, window=FIRST
        )

    def parameters(self) -> list[tuple[str, str]]:
        """The query as (name, value) pairs in a fixed order: one address per query."""
        pairs = [("kind", k) for k in sorted(self.kinds)]
        pairs += [("origin", o) for o in sorted(self.origins)]
        pairs += [("status", s) for s in sorted(self.statuses)]
        if self.start:
            pairs.append(("from", str(self.start)))
        if self.text:
            pairs.append(("q", self.text))
        return pairs

    def search(self) -> str:
        """The query part of the address (``?kind=question&from=150``), "" for none."""
        pairs = self.parameters()
        return "?" + urlencode(pairs) if pairs else ""

    def describe(self) -> str:
        """The query in words, for the page: "kind question, origin agent; from the 151st"."""
        parts = [
            f"{name} {' or '.join(sorted(values))}"
            for name, values in (
                ("kind", self.kinds),
                ("origin", self.origins),
                ("status", self.statuses),
            )
            if values
        ]
        if self.start:
            parts.append(f"from statement {self.start + 1:,} of each list")
        return "; ".join(parts)


EVERY = PageQuery()


def _start(values: Callable[[str], Iterable[str]]) -> int:
    text = next(iter(values("from")), "")
    if text.isascii() and text.isdigit() and len(text) <= _LONGEST_START:
        return int(text)
    return 0
