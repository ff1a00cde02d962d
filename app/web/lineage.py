"""Lineage of stored checkpoints: the tree page, the parent digest check, and sibling forks."""

from __future__ import annotations

import hashlib

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from app.analysis import analyze
from app.forks import fork_conflicts
from app.lineage import LineageNode, build_tree, layout
from app.store import Found, Meta, Store
from app.web.errors import wants_json
from app.web.stored import fetch, settings_of, store_call
from app.web.templating import render

# How many stored siblings are opened to compare their operations (§9.3): a bound on the
# work one page view can cause.
MAX_FORKS_COMPARED = 32
_ALGORITHMS = {"sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512"}


def lineage_model(store: Store, record: Found, limits) -> dict:  # type: ignore[no-untyped-def]
    """Everything the lineage page shows, from metadata only (never document text), plus the
    parent digest check and the fork comparison, which read stored bytes."""
    meta = record.meta
    related: dict[str, Meta] = {m.storage_id: m for m in _related(store, meta)}
    related[meta.storage_id] = meta
    nodes = [_node(m, meta) for m in related.values()]
    drawing = layout(build_tree(nodes))
    parent_meta = _newest(store.by_checkpoint_id(meta.parent_id)) if meta.parent_id else None
    return {
        "focus": meta.to_dict(),
        "drawing": drawing,
        "entries": sorted(
            (dict(m.to_dict(), relation=_relation(m, meta)) for m in related.values()),
            key=lambda e: (e["created_at"] or "", e["storage_id"]),
        ),
        "parent": _parent_check(store, record, parent_meta),
        "forks": _forks(store, meta, parent_meta, limits),
    }


def _related(store: Store, meta: Meta) -> list[Meta]:
    found = list(store.list_lineage(meta.checkpoint_id)) if meta.checkpoint_id else []
    if meta.parent_id:
        found += store.children(meta.parent_id)  # siblings, forks among them
    return found


def _newest(entries: list[Meta]) -> Meta | None:
    return max(entries, key=lambda m: m.stored_at) if entries else None


def _relation(other: Meta, focus: Meta) -> str:
    if other.storage_id == focus.storage_id:
        return "this checkpoint"
    if focus.parent_id and other.checkpoint_id == focus.parent_id:
        return "parent"
    if other.parent_id and other.parent_id == focus.checkpoint_id:
        return "child"
    if focus.parent_id and other.parent_id == focus.parent_id:
        return "fork" if other.derivation_method == "forked" else "sibling"
    if other.checkpoint_id == focus.checkpoint_id:
        return "another copy"
    return "lineage"


def _node(meta: Meta, focus: Meta) -> LineageNode:
    return LineageNode(
        key=meta.storage_id,
        checkpoint_id=meta.checkpoint_id,
        parent_id=meta.parent_id,
        created_at=meta.created_at,
        label=meta.checkpoint_id or meta.storage_id,
        status=meta.task_status,
        valid=meta.valid,
        method=meta.derivation_method,
        href=f"/c/{meta.storage_id}",
        focus=meta.storage_id == focus.storage_id,
        relation=_relation(meta, focus),
    )


def _parent_check(store: Store, record: Found, parent_meta: Meta | None) -> dict:
    """parent.digest against the stored parent's exact bytes: match, mismatch, or the parent
    is not available here (§10.6)."""
    meta = record.meta
    if not meta.parent_id:
        return {"state": "no parent", "message": "This checkpoint names no parent."}
    result = analyze(record.data)
    recorded = (result.document or {}).get("parent", {})
    digest = recorded.get("digest") if isinstance(recorded, dict) else None
    if parent_meta is None:
        return {
            "state": "parent unavailable",
            "message": "The parent is not stored here (or has expired), so its digest cannot "
            "be checked.",
            "recorded": digest,
        }
    link = {"storage_id": parent_meta.storage_id, "href": f"/c/{parent_meta.storage_id}"}
    if not isinstance(digest, str):
        return {"state": "no digest", "message": "parent.digest is not recorded.", **link}
    parent = store.get(parent_meta.storage_id)
    if not isinstance(parent, Found):
        return {"state": "parent unavailable", "message": "The parent is no longer stored."}
    algorithm, _, _ = digest.partition(":")
    name = _ALGORITHMS.get(algorithm)
    actual = f"{algorithm}:{hashlib.new(name, parent.data).hexdigest()}" if name else None
    if actual == digest:
        return {
            "state": "match",
            "message": "parent.digest matches the stored parent's exact bytes.",
            "recorded": digest,
            **link,
        }
    return {
        "state": "mismatch",
        "message": "parent.digest does not match the stored parent's bytes: the parent was "
        "changed after this checkpoint was derived, or the digest covers other bytes.",
        "recorded": digest,
        "actual": actual,
        **link,
    }


def _forks(store: Store, meta: Meta, parent_meta: Meta | None, limits) -> dict:  # type: ignore[no-untyped-def]
    """Sibling forks of one parent, compared for actions actionable in more than one (§9.3)."""
    if not meta.parent_id:
        return {"compared": [], "conflicts": [], "truncated": False}
    siblings = [m for m in store.children(meta.parent_id) if m.derivation_method == "forked"]
    if len(siblings) < 2:
        return {"compared": [m.storage_id for m in siblings], "conflicts": [], "truncated": False}
    documents = []
    for sibling in siblings[:MAX_FORKS_COMPARED]:
        record = store.get(sibling.storage_id)
        if isinstance(record, Found):
            document = analyze(record.data, limits).redacted
            if document is not None:
                documents.append((sibling.storage_id, document))
    parent_document = None
    if parent_meta is not None:
        parent_record = store.get(parent_meta.storage_id)
        if isinstance(parent_record, Found):
            parent_document = analyze(parent_record.data, limits).redacted
    return {
        "compared": [label for label, _ in documents],
        "conflicts": fork_conflicts(parent_document, documents),
        "truncated": len(siblings) > MAX_FORKS_COMPARED,
    }


async def lineage_page(request: Request) -> Response:
    """GET /c/{id}/lineage: ancestors, siblings (forks) and descendants as a server-side SVG
    tree, each node with status and verdict."""
    record = await fetch(request, request.path_params["storage_id"])
    model = await store_call(request, lineage_model, record, settings_of(request).limits)
    if wants_json(request):
        return JSONResponse(model)
    return HTMLResponse(render("lineage.html", model=model))
