"""Statements by kind and origin (§6.2), and their verification."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from app.json_values import text_of
from app.render.context import (
    Context,
    as_object,
    links_to,
    optional_link,
    paged,
    statement_status,
    with_hidden,
)
from app.render.model import (
    KINDS,
    NOTE_EXTERNAL,
    NOTE_TEXT_IS_DATA,
    ORIGIN_TYPES,
    OTHER,
    STRUCK_STATUSES,
    Model,
)
from app.render.query import KIND_KEYS, ORIGIN_KEYS, STATUS_KEYS, PageQuery


def _kind_key(statement: object) -> str:
    kind = statement.get("kind") if isinstance(statement, dict) else None
    return kind if isinstance(kind, str) and kind in KINDS else OTHER


def _origin_key(statement: object) -> str:
    origin = as_object(statement.get("origin")) if isinstance(statement, dict) else {}
    kind = origin.get("type")
    return kind if isinstance(kind, str) and kind in ORIGIN_TYPES else OTHER


def cell_anchor(kind: str, origin_type: str) -> str:
    return f"kind-{kind}-origin-{origin_type}"


def _status_key(statement: object) -> str:
    status = statement_status(statement.get("status")) if isinstance(statement, dict) else OTHER
    return status if status in STATUS_KEYS else OTHER


def build_statements(ctx: Context) -> Model:
    """An overview matrix (kinds × origin types, every statement counted once, unknown ones
    in "other"), then the statements per kind, grouped by origin type: those the page's
    query admits (`app.render.query`), each list from the query's start on. The matrix
    always counts every statement."""
    raw = ctx.doc.get("statements")
    entries = list(enumerate(raw)) if isinstance(raw, list) else []
    query = ctx.query
    # each statement's cell, read once
    keys = [(_kind_key(s), _origin_key(s)) for _, s in entries]
    kinds = _axis(KINDS, (kind for kind, _ in keys))
    origins = _axis(ORIGIN_TYPES, (origin for _, origin in keys))
    counts: dict[tuple[str, str], int] = dict.fromkeys(((k, o) for k in kinds for o in origins), 0)
    cells: dict[tuple[str, str], list[tuple[int, object]]] = {key: [] for key in counts}
    statuses = [_status_key(s) for _, s in entries] if query.statuses else None
    for n, (entry, key) in enumerate(zip(entries, keys, strict=True)):
        counts[key] += 1
        if query.filtered and not query.admits(*key, statuses[n] if statuses else ""):
            continue
        cells[key].append(entry)
    listed_kinds = [k for k in kinds if not query.kinds or k in query.kinds]
    return {
        "anchor": "statements",
        "title": "Statements",
        "present": "statements" in ctx.doc,
        "count": len(entries),
        "kinds": list(kinds),
        "origin_types": list(origins),
        "matrix": _matrix(kinds, origins, counts, cells),
        "query": _query_model(query, sum(len(c) for c in cells.values())),
        "groups": [_kind_group(ctx, kind, origins, cells) for kind in listed_kinds],
        "unreadable": [] if isinstance(raw, list) or raw is None else [text_of(raw)],
        "note": NOTE_TEXT_IS_DATA,
    }


def _query_model(query: PageQuery, listed: int) -> Model:
    """What the page lists and how to change it: the filter form's choices, and the query in
    words with how many statements it admits."""
    return {
        "filtered": query.filtered,
        "start": query.start,
        "description": query.describe(),
        "listed": listed,
        "kinds": sorted(query.kinds),
        "origins": sorted(query.origins),
        "statuses": sorted(query.statuses),
        "choices": {
            "kind": list(KIND_KEYS),
            "origin": list(ORIGIN_KEYS),
            "status": list(STATUS_KEYS),
        },
    }


def _axis(known: tuple[str, ...], seen: Iterable[str]) -> tuple[str, ...]:
    return (*known, OTHER) if OTHER in set(seen) else known


def _matrix(
    kinds: tuple[str, ...],
    origins: tuple[str, ...],
    counts: dict[tuple[str, str], int],
    cells: dict[tuple[str, str], list[Any]],
) -> Model:
    rows = [
        {
            "kind": kind,
            "anchor": f"kind-{kind}",
            "cells": [
                {
                    "origin_type": origin,
                    "count": counts[(kind, origin)],
                    "anchor": cell_anchor(kind, origin),
                    # whether the page lists these statements (the query may leave them out)
                    "listed": bool(cells[(kind, origin)]),
                }
                for origin in origins
            ],
            "total": sum(counts[(kind, origin)] for origin in origins),
        }
        for kind in kinds
    ]
    columns = [
        {"origin_type": origin, "total": sum(counts[(kind, origin)] for kind in kinds)}
        for origin in origins
    ]
    return {"rows": rows, "columns": columns, "total": sum(r["total"] for r in rows)}


def _kind_group(
    ctx: Context,
    kind: str,
    origins: tuple[str, ...],
    cells: dict[tuple[str, str], list[tuple[int, object]]],
) -> Model:
    query = ctx.query
    by_origin = []
    for origin in origins:
        entries = cells[(kind, origin)]
        if not entries:
            continue
        shown, hidden, position = paged(
            ctx, entries, query.start, partial(_cell_address, query, kind, origin)
        )
        group = {
            "origin_type": origin,
            "anchor": cell_anchor(kind, origin),
            "count": len(entries),
            "items": [_statement(ctx, i, statement) for i, statement in shown],
            "pager": position,
        }
        by_origin.append(with_hidden(group, "items", hidden))
    return {
        "kind": kind,
        "anchor": f"kind-{kind}",
        "count": sum(len(cells[(kind, origin)]) for origin in origins),
        "note": NOTE_EXTERNAL if kind == "external" else None,
        "by_origin": by_origin,
    }


def _cell_address(query: PageQuery, kind: str, origin: str, start: int) -> str:
    """The address of one kind and origin type's statements from ``start`` on."""
    return query.of_cell(kind, origin, start).search()


def _statement(ctx: Context, index: int, statement: object) -> Model:
    """One statement card. A non-object entry (schema-invalid) is shown as JSON text."""
    if not isinstance(statement, dict):
        return ctx.card(
            ("statements", index),
            {
                "kind": OTHER,
                "text": text_of(statement),
                "unreadable": True,
                "origin": None,
                "status": None,
                "struck": False,
                "external": False,
                "external_note": None,
            },
        )
    origin = as_object(statement.get("origin"))
    status = statement_status(statement.get("status"))
    verification = statement.get("verification")
    external = statement.get("kind") == "external" or origin.get("type") == "external"
    return ctx.card(
        ("statements", index),
        {
            "kind": text_of(statement.get("kind")),
            "text": text_of(statement.get("text")),
            "unreadable": False,
            "origin": {
                "type": text_of(origin.get("type")),
                "name": text_of(origin.get("name")),
                "ref": optional_link(ctx, origin.get("ref")),
            },
            "status": status,
            "status_recorded": "status" in statement,
            "struck": status in STRUCK_STATUSES,
            "superseded_by": optional_link(ctx, statement.get("superseded_by")),
            "verification": None if verification is None else _verification(verification),
            "evidence": links_to(ctx, statement.get("evidence")),
            "rationale": text_of(statement.get("rationale")),
            "resolution": text_of(statement.get("resolution")),
            "recorded_at": text_of(statement.get("recorded_at")),
            "external": external,
            "external_note": NOTE_EXTERNAL if external else None,
            "extensions_count": len(as_object(statement.get("extensions"))),
        },
    )


def _verification(value: object) -> Model:
    verification = as_object(value)
    state = verification.get("state")
    return {
        "state": text_of(state),
        "checked_at": text_of(verification.get("checked_at")),
        "method": text_of(verification.get("method")),
        "revalidate": text_of(verification.get("revalidate")),
        "attention": state in ("stale", "disputed")
        or verification.get("revalidate") in ("before_use", "before_action"),
        "unreadable": None if isinstance(value, dict) else text_of(value),
    }
