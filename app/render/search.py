"""A page's search (``?q=``, issue 27): the render model with only the cards whose text holds
the words asked for, and how many did.

The page searches what it shows of the document: each card's text as the model holds it, so
the redacted copy (a search never finds a credential the page does not show) and the
viewer's words on the card. The match is a plain substring of the Unicode casefolded text:
no pattern is compiled from the query, each text is folded once, and the cost grows with the
document and the query, never with their product per card. The header, the summary and the
findings are never filtered: what the viewer says of the document stays on the page.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from app.render.model import CARD_LISTS, CheckpointView, Model

# The members of a card that say where it is, not what it says: never shown as its text.
_PLACES = frozenset(
    {"anchor", "pointer", "source_anchor", "group", "group_anchor", "key", "more_anchor"}
)


def needle(text: str) -> str:
    """What a query is compared as: its words, casefolded (``Straße`` finds ``STRASSE``)."""
    return text.strip().casefold()


def texts(value: object) -> Iterator[str]:
    """Every string a card holds, its places (`_PLACES`) left out."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if key not in _PLACES:
                yield from texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from texts(item)


def holds(card: object, folded: str) -> bool:
    """Whether any text of ``card`` holds ``folded`` (a `needle`)."""
    return any(folded in text.casefold() for text in texts(card))


@dataclass(slots=True)
class _Tally:
    """How many cards a search read and kept, section by section."""

    folded: str
    searched: int = 0
    matched: int = 0
    # the largest number of cards one list keeps (the page shows at most so many of a list)
    longest: int = 0

    def keep(self, cards: object) -> list[Any]:
        if not isinstance(cards, list):
            return []
        kept = [card for card in cards if holds(card, self.folded)]
        self.searched += len(cards)
        self.matched += len(kept)
        self.longest = max(self.longest, len(kept))
        return kept


def search_view(view: CheckpointView, text: str) -> CheckpointView:
    """``view`` with only the cards that hold ``text`` (casefolded), and ``search``: the query,
    how many cards were searched and matched, and how many in each section. An empty query
    changes nothing."""
    folded = needle(text)
    if not folded:
        return view
    out: dict[str, Any] = dict(view)
    per_section = []
    for key in ("statements", "operations", *CARD_LISTS):
        section = out.get(key)
        if not isinstance(section, dict):
            continue
        tally = _Tally(folded)
        out[key] = _searched(key, section, tally)
        per_section.append((key, section, tally))
    out["search"] = _search_model(text.strip(), per_section)
    return cast(CheckpointView, out)


def _searched(key: str, section: Model, tally: _Tally) -> Model:
    if key == "statements":
        return _statements(section, tally)
    if key == "operations":
        return _operations(section, tally)
    return {**section, **{name: tally.keep(section.get(name)) for name in CARD_LISTS[key]}}


def _statements(section: Model, tally: _Tally) -> Model:
    """The statements' groups, each kind and origin type with its matching cards only; a
    kind or an origin type with none is left out, and the matrix no longer links to it."""
    groups = []
    for group in section.get("groups", []):
        by_origin = []
        for cell in group.get("by_origin", []):
            kept = tally.keep(cell.get("items"))
            if kept:
                by_origin.append({**cell, "items": kept, "count": len(kept), "pager": None})
        if by_origin:
            count = sum(len(cell["items"]) for cell in by_origin)
            groups.append({**group, "by_origin": by_origin, "count": count})
    listed = {cell["anchor"] for group in groups for cell in group["by_origin"]}
    return {**section, "groups": groups, "matrix": _matrix(section.get("matrix"), listed)}


def _matrix(matrix: object, listed: set[str]) -> object:
    if not isinstance(matrix, dict):
        return matrix
    rows = [
        {
            **row,
            "cells": [
                {**cell, "listed": cell.get("anchor") in listed} for cell in row.get("cells", [])
            ],
        }
        for row in matrix.get("rows", [])
    ]
    return {**matrix, "rows": rows}


def _operations(section: Model, tally: _Tally) -> Model:
    """The operations' groups with their matching cards; a group with none is left out. What
    a stop condition forbids is still listed: it says what not to do, whatever is asked."""
    groups = []
    for group in section.get("groups", []):
        kept = tally.keep(group.get("items"))
        if kept:
            groups.append({**group, "items": kept, "pager": None})
    return {**section, "groups": groups}


def _search_model(text: str, per_section: list[tuple[str, Model, _Tally]]) -> Model:
    return {
        "query": text,
        "searched": sum(t.searched for _, _, t in per_section),
        "matched": sum(t.matched for _, _, t in per_section),
        "longest": max((t.longest for _, _, t in per_section), default=0),
        "sections": [
            {
                "key": key,
                "anchor": section.get("anchor"),
                "title": section.get("title"),
                "matched": tally.matched,
            }
            for key, section, tally in per_section
            if tally.matched
        ],
    }
