"""Which statements a page lists: by kind, origin type and status, and from which one on (a
list's "next 150"), read from a page's query parameters (issue 12).

A page's address says what it lists, so a filtered or paged view is a link that works without
JavaScript, and its JSON twin (the same address, ``.json``) lists the same statements. Values
this viewer does not know are ignored rather than refused: a link that lists nothing says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from app import layout
from app.render.model import KINDS, ORIGIN_TYPES, OTHER

KIND_KEYS = (*KINDS, OTHER)
ORIGIN_KEYS = (*ORIGIN_TYPES, OTHER)
STATUS_KEYS = (*layout.STATEMENT_STATUSES, OTHER)
# The parameters, as a page's address names them.
PARAMETERS = ("kind", "origin", "status", "from")
# Past this, a start is no list's: a number this long is not one a page wrote.
_LONGEST_START = 9


@dataclass(frozen=True, slots=True)
class StatementQuery:
    """The statements a page lists: those of one of ``kinds`` (all when empty), one of
    ``origins``, one of ``statuses``; each list (a kind and an origin type) from its
    ``start``-th statement on."""

    kinds: frozenset[str] = frozenset()
    origins: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    start: int = 0

    @classmethod
    def of(cls, values: Callable[[str], Iterable[str]]) -> StatementQuery:
        """From ``values(name)``, every value given for a parameter (Starlette's
        ``request.query_params.getlist``)."""
        start_text = next(iter(values("from")), "")
        return cls(
            kinds=frozenset(v for v in values("kind") if v in KIND_KEYS),
            origins=frozenset(v for v in values("origin") if v in ORIGIN_KEYS),
            statuses=frozenset(v for v in values("status") if v in STATUS_KEYS),
            start=int(start_text)
            if start_text.isascii() and start_text.isdigit() and len(start_text) <= _LONGEST_START
            else 0,
        )

    @property
    def filtered(self) -> bool:
        return bool(self.kinds or self.origins or self.statuses)

    @property
    def any(self) -> bool:
        """Whether the query asks for anything but every statement from the first."""
        return self.filtered or self.start > 0

    def admits(self, kind: str, origin: str, status: str) -> bool:
        """Whether a statement of this kind, origin type and status (each a key: "other" for
        one the specification does not define) is listed."""
        return (
            (not self.kinds or kind in self.kinds)
            and (not self.origins or origin in self.origins)
            and (not self.statuses or status in self.statuses)
        )

    def of_cell(self, kind: str, origin: str, start: int) -> StatementQuery:
        """The query of one list (a kind and an origin type) from ``start`` on, keeping the
        status filter: what its "next 150" opens."""
        return replace(self, kinds=frozenset({kind}), origins=frozenset({origin}), start=start)

    def parameters(self) -> list[tuple[str, str]]:
        """The query as (name, value) pairs in a fixed order: one address per query."""
        pairs = [("kind", k) for k in sorted(self.kinds)]
        pairs += [("origin", o) for o in sorted(self.origins)]
        pairs += [("status", s) for s in sorted(self.statuses)]
        if self.start:
            pairs.append(("from", str(self.start)))
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


EVERY = StatementQuery()
