"""The page as plain data: every section built once from the analysis, in page order."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from app.analysis import LintResult
from app.redaction import REDACTED
from app.render.changes import changes_since_parent
from app.render.checklist import build_before_continuing
from app.render.context import Context, as_object, new_context, object_items, place_lines
from app.render.header import build_findings, build_header
from app.render.model import MODEL_VERSION, CheckpointView, Model, SectionRef
from app.render.operations import build_operations, operation_entries
from app.render.query import EVERY, PageQuery
from app.render.sections import (
    build_application_context,
    build_continuation,
    build_derivation,
    build_extensions,
    build_progress,
    build_resources,
    build_session_refs,
)
from app.render.source import build_source
from app.render.statements import build_statements
from app.render.summary import build_summary


def build_view(
    result: LintResult,
    *,
    now: datetime,
    list_limit: int | None = None,
    query: PageQuery = EVERY,
) -> CheckpointView:
    """The whole page as plain data, sections in page order.

    Works for any result: a valid document, a schema-invalid one of any shape, and one with
    no document at all (a `json` error), which has only the header, findings and source
    sections (the others are None). ``now`` dates the header's age and expiry checks. With a
    parent (``result.pair``), the header's lineage line and each operation's status in the
    parent come from it. Everything is read from the analyses: no stage runs again here.

    ``list_limit``: build at most this many operation, statement, progress and resource
    items per list, and record how many were left out as ``hidden`` (``<list>_hidden``
    for a list not called ``items``), as the HTML page shows them; None builds everything,
    as the JSON twin has it. Counts and the statement matrix always count every item.
    ``query``: what the lists list (statements by kind, origin, status; where each starts)."""
    ctx = new_context(result, now, list_limit)
    ctx.query = query
    if ctx.document is not None:
        ctx.since_parent = changes_since_parent(result)
    header = build_header(ctx)
    findings = build_findings(ctx)
    sections: dict[str, Model | None] = dict.fromkeys(_DOCUMENT_SECTIONS)
    if ctx.document is not None:
        operations = operation_entries(ctx)
        sections.update(
            before_continuing=build_before_continuing(ctx, operations),
            statements=build_statements(ctx),
            operations=build_operations(ctx, operations),
            progress=build_progress(ctx),
            resources=build_resources(ctx),
            application_context=build_application_context(ctx),
            continuation=build_continuation(ctx),
            derivation=build_derivation(ctx),
            extensions=build_extensions(ctx),
            session_refs=build_session_refs(ctx),
        )
    summary = (
        build_summary(ctx, operations, sections["before_continuing"])
        if ctx.document is not None
        else None
    )
    source = build_source(ctx)
    unlisted = (
        _unlisted(ctx, sections)
        if ctx.limit is not None and ctx.document is not None
        else frozenset()
    )
    every: dict[str, Mapping[str, Any] | None] = {
        "header": header,
        "findings": findings,
        **sections,
        "source": source,
    }
    place_lines(ctx, [*findings["items"], *findings["notes"]], unlisted)
    return CheckpointView(
        model="ocp-viewer/checkpoint-page",
        model_version=MODEL_VERSION,
        digest=result.digest,
        has_document=ctx.document is not None,
        # a document of a version this viewer does not implement is shown, not read (§5.1)
        version_refused=result.version_error is not None,
        redacted=REDACTED,
        header=header,
        summary=summary,
        findings=findings,
        before_continuing=sections["before_continuing"],
        statements=sections["statements"],
        operations=sections["operations"],
        progress=sections["progress"],
        resources=sections["resources"],
        application_context=sections["application_context"],
        continuation=sections["continuation"],
        derivation=sections["derivation"],
        extensions=sections["extensions"],
        session_refs=sections["session_refs"],
        source=source,
        sections=[
            SectionRef(
                key=key,
                anchor=str(part["anchor"]),
                title=str(part["title"]),
                open=_opens(key, part, ctx.document is not None),
            )
            for key in _PAGE_ORDER
            if (part := every[key]) is not None
        ],
        # When the page, rendered again, would read differently (caches keep it no longer).
        changes_at=_iso_seconds(min(ctx.changes)) if ctx.changes else None,
    )


# Shown folded: what the document keeps for its own bookkeeping, and its text again.
_FOLDED = frozenset({"derivation", "extensions", "session_refs", "source"})


def _opens(key: str, part: Mapping[str, Any], has_document: bool) -> bool:
    """Whether a section starts unfolded: every section a reviewer reads before anyone
    continues, unless it holds nothing (the findings of a document without any); the
    bookkeeping sections and the source listing start folded. Where no document could be
    read, the source listing is all there is to read: it starts unfolded."""
    if key == "source" and not has_document:
        return True
    if key in _FOLDED:
        return False
    if key == "findings":
        return bool(part.get("count"))
    return True


def _iso_seconds(epoch: int) -> str | None:
    try:
        return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")
    except (OverflowError, ValueError, OSError):
        return None  # past year 9999: never, as far as a cache is concerned


# Local objects whose cards the page lists only up to build_view's list_limit.
_LIMITED_CARD = re.compile(r"/(?:operations|statements|resources|progress/(?:completed|next))/\d+")


def _unlisted(ctx: Context, view: Mapping[str, Any]) -> frozenset[str]:
    """The anchors of the local objects whose cards the list limit left out (``view``: the
    document's sections): `place_lines` marks what links to them."""
    progress = view["progress"]
    cards = [
        *(c for g in view["operations"]["groups"] for c in g["items"]),
        *(s for g in view["statements"]["groups"] for o in g["by_origin"] for s in o["items"]),
        *view["resources"]["items"],
        *progress["completed"],
        *progress["next"],
    ]
    document = ctx.doc
    kept = as_object(document.get("progress"))
    every = sum(
        len(object_items(objects))
        for objects in (
            document.get("operations"),
            document.get("statements"),
            document.get("resources"),
            kept.get("completed"),
            kept.get("next"),
        )
    )
    if len(cards) == every:
        return frozenset()  # every card of those lists is on the page
    listed = {card["anchor"] for card in cards}
    return frozenset(
        anchor
        for pointer, (_, anchor) in ctx.owners.items()
        if _LIMITED_CARD.fullmatch(pointer) and anchor not in listed
    )


_DOCUMENT_SECTIONS = (
    "before_continuing",
    "statements",
    "operations",
    "progress",
    "resources",
    "application_context",
    "continuation",
    "derivation",
    "extensions",
    "session_refs",
)
_PAGE_ORDER = ("header", "findings", *_DOCUMENT_SECTIONS, "source")
