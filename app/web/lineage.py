"""The lineage page of a stored checkpoint: the stored checkpoints connected to it by proven
links (each uploader gave the storage id of the parent it held), as a server-side SVG tree,
each with its verdict against its parent; what only claims a relation is counted, never linked
(a storage id is the read capability); and the sibling forks compared (§9.3).

Bounded work per view: at most MAX_NODES stored entries are walked (metadata only, on a store
thread), at most MAX_CHECKED documents are read and analysed (analyses are kept by digest; the
analysing runs on the worker threads, never holding one of the store's slots)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from app.analysis import Analysis, LintResult, pair
from app.forks import fork_conflicts
from app.lineage import LineageNode, build_tree, layout
from app.parse import Document
from app.store import Found, Meta, Store
from app.store.base import LINEAGE_DEPTH
from app.stored_lineage import ParentResolution, parent_sentence, resolve_parent
from app.web.errors import wants_json
from app.web.stored import analysis_of, fetch, store_call
from app.web.templating import render

MAX_NODES = 64  # stored entries walked per view
MAX_CHECKED = 16  # documents read and analysed per view
MAX_CHECKED_BYTES = 32 * 1024 * 1024
MAX_FORKS_COMPARED = 16

# The page's model, and each part of it, as plain data for the template and the JSON twin.
Model = dict[str, Any]


@dataclass(slots=True)
class Component:
    """The stored entries connected to the focus by proven links, found on a store thread."""

    focus: Meta
    members: dict[str, Meta] = field(default_factory=dict)  # storage id -> meta
    truncated: bool = False
    resolution: ParentResolution | None = None
    claimed_parents: int = 0  # stored entries claiming the focus's parent.id, not linked
    claimed_children: int = 0  # stored entries naming the focus's id as parent.id, not linked
    records: dict[str, Found] = field(default_factory=dict)  # the documents to analyse


def walk_component(store: Store, focus: Meta) -> Component:
    """Ancestors up the proven links, then every entry derived from the topmost one, down the
    proven links: breadth first, at most MAX_NODES entries; then the bytes of the documents
    to analyse (the focus, its parent, its children and its siblings first)."""
    component = Component(focus, {focus.storage_id: focus})
    top = focus
    for _ in range(LINEAGE_DEPTH):
        if top.parent_storage_id is None:
            break
        parent = store.meta(top.parent_storage_id)
        if parent is None or parent.storage_id in component.members:
            break
        component.members[parent.storage_id] = parent
        top = parent
    queue = deque([top.storage_id])
    while queue and len(component.members) < MAX_NODES:
        for child in store.derived_from(queue.popleft(), limit=MAX_NODES):
            if child.storage_id not in component.members:
                component.members[child.storage_id] = child
                queue.append(child.storage_id)
                if len(component.members) >= MAX_NODES:
                    component.truncated = True
                    break
    component.resolution = resolve_parent(store, focus)
    linked = set(component.members)
    if focus.parent_id is not None:
        component.claimed_parents = len(
            {
                m.digest
                for m in store.by_checkpoint_id(focus.parent_id)
                if m.storage_id not in linked
            }
        )
    if focus.checkpoint_id is not None:
        component.claimed_children = len(
            {m.digest for m in store.children(focus.checkpoint_id) if m.storage_id not in linked}
        )
    budget = MAX_CHECKED_BYTES
    for meta in _check_order(component):
        if len(component.records) >= MAX_CHECKED or meta.size > budget:
            break
        record = store.get(meta.storage_id)
        if isinstance(record, Found):
            component.records[meta.storage_id] = record
            budget -= meta.size
    return component


def _check_order(component: Component) -> list[Meta]:
    focus = component.focus
    near = [focus]
    if focus.parent_storage_id in component.members:
        near.append(component.members[focus.parent_storage_id])
    near += [m for m in component.members.values() if m.parent_storage_id == focus.storage_id]
    near += [
        m
        for m in component.members.values()
        if focus.parent_storage_id is not None and m.parent_storage_id == focus.parent_storage_id
    ]
    ordered = list(dict.fromkeys(m.storage_id for m in [*near, *component.members.values()]))
    return [component.members[s] for s in ordered]


def lineage_model(request: Request, component: Component) -> Model:
    """Everything the page shows: metadata of the proven lineage, each member's verdict
    against its proven parent where both were read, the focus's parent by evidence, and the
    sibling forks compared."""
    focus = component.focus
    analyses: dict[str, Analysis] = {
        sid: analysis_of(request, record) for sid, record in component.records.items()
    }
    verdicts = {sid: _verdict(sid, component, analyses) for sid in analyses}
    nodes = [_node(m, focus, verdicts.get(m.storage_id)) for m in component.members.values()]
    drawing = layout(build_tree(nodes))
    resolution = component.resolution or ParentResolution("none")
    focus_result = verdicts.get(focus.storage_id)
    digest = focus_result.pair.digest.state if focus_result and focus_result.pair else None
    return {
        "focus": focus.to_dict(),
        "drawing": drawing,
        "entries": sorted(
            (
                {
                    **m.to_dict(),
                    "relation": _relation(m, focus),
                    "href": f"/c/{m.storage_id}",
                    "checked_with_parent": _checked_with_parent(verdicts.get(m.storage_id)),
                    "valid": (
                        verdicts[m.storage_id].valid if m.storage_id in verdicts else m.valid
                    ),
                }
                for m in component.members.values()
            ),
            key=lambda e: (e["created_at"] or "", e["storage_id"]),
        ),
        "truncated": component.truncated,
        "parent": {
            "state": resolution.state,
            "sentence": parent_sentence(resolution, digest),
            "digest": digest,
            "link": (
                f"/c/{resolution.parent.meta.storage_id}"
                if resolution.linked and resolution.parent is not None
                else None
            ),
        },
        "claimed": {
            "parents": component.claimed_parents,
            "children": component.claimed_children,
        },
        "forks": _forks(component, analyses),
    }


def _verdict(sid: str, component: Component, analyses: dict[str, Analysis]) -> LintResult:
    """A member's report, with the lineage checks against its proven parent when both were
    read in this view."""
    child = analyses[sid]
    parent = analyses.get(component.members[sid].parent_storage_id or "")
    return LintResult(child, pair(child, parent) if parent is not None else None)


def _checked_with_parent(result: LintResult | None) -> bool | None:
    if result is None:
        return None  # not read in this view: the verdict is the one stored with it
    return result.pair is not None


def _relation(other: Meta, focus: Meta) -> str:
    if other.storage_id == focus.storage_id:
        return "this checkpoint"
    if other.storage_id == focus.parent_storage_id:
        return "parent"
    if other.parent_storage_id == focus.storage_id:
        return "child"
    if focus.parent_storage_id and other.parent_storage_id == focus.parent_storage_id:
        return "fork" if other.derivation_method == "forked" else "sibling"
    return "lineage"


def _node(meta: Meta, focus: Meta, result: LintResult | None) -> LineageNode:
    return LineageNode(
        key=meta.storage_id,
        parent_key=meta.parent_storage_id,
        checkpoint_id=meta.checkpoint_id,
        parent_id=meta.parent_id,
        created_at=meta.created_at,
        label=meta.checkpoint_id or meta.storage_id,
        status=meta.task_status,
        valid=result.valid if result is not None else meta.valid,
        method=meta.derivation_method,
        href=f"/c/{meta.storage_id}",
        focus=meta.storage_id == focus.storage_id,
        relation=_relation(meta, focus),
    )


def _forks(component: Component, analyses: dict[str, Analysis]) -> Model:
    """Sibling forks of the focus's proven parent, compared for actions actionable in more
    than one (§9.3); two stored copies of the same bytes are one fork."""
    focus = component.focus
    if focus.parent_storage_id is None:
        return {"compared": [], "conflicts": [], "truncated": False}
    siblings: dict[str, Meta] = {}
    for meta in component.members.values():
        if meta.parent_storage_id == focus.parent_storage_id and meta.derivation_method == "forked":
            siblings.setdefault(meta.digest, meta)
    documents: list[tuple[str, Document]] = []
    for meta in list(siblings.values())[:MAX_FORKS_COMPARED]:
        shown = analyses[meta.storage_id].redacted if meta.storage_id in analyses else None
        if isinstance(shown, dict):
            documents.append((meta.storage_id, shown))
    parent = analyses.get(focus.parent_storage_id)
    parent_document = parent.redacted if parent is not None else None
    return {
        "compared": [label for label, _ in documents],
        "conflicts": fork_conflicts(parent_document, documents) if len(documents) > 1 else [],
        "truncated": len(siblings) > len(documents),
    }


async def lineage_page(request: Request) -> Response:
    """GET /c/{id}/lineage (and .json)."""
    record = await fetch(request, request.path_params["storage_id"])
    component = await store_call(request, walk_component, record.meta)
    model = await run_in_threadpool(lineage_model, request, component)
    if wants_json(request):
        return JSONResponse(model)
    return HTMLResponse(render("lineage.html", model=model))
