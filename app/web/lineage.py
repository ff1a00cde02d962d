"""The lineage page of a stored checkpoint: the stored checkpoints connected to it by proven
links (each uploader gave the storage id of the parent it held), as a server-side SVG tree,
each with its verdict against its parent; what only claims a relation is counted, never linked
(a storage id is the read capability); and the sibling forks compared (§9.3).

Bounded work per view. At most LINEAGE_ANALYSES views per instance are in progress at once
(MAX_WAITING more may wait; past that a view is 503), so many concurrent views cannot starve
the other routes of threads, slots or memory. A view in progress, on one of the store's slots:
walks at most MAX_NODES stored entries (metadata only), chooses at most MAX_CHECKED members,
MAX_CHECKED_BYTES in all, to judge, and reads the bytes of only those whose results are not
kept; the slot is released as soon as the reads are done. Then, off the store's slots, in the
CPU lane of its documents' size (app/web/work.py): the analyses (kept by digest,
app/web/analyses.py), each member's verdict against its parent and the fork comparison (kept
by the digests they were computed from, app/web/lineage_results.py), so a second view of the
same lineage analyses nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio
from starlette.datastructures import State
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from app.analysis import Analysis, LintResult, pair
from app.forks import fork_conflicts
from app.lineage import LineageNode, build_tree, layout
from app.parse import Document
from app.store import Found, Meta, Store
from app.stored_lineage import ParentResolution, parent_sentence, proven_component, resolve_parent
from app.web.analyses import AnalysisCache
from app.web.errors import wants_json
from app.web.lineage_results import LineageResults, Verdict
from app.web.stored import fetch, store_call
from app.web.templating import render
from app.web.visible_json import VisibleJSONResponse
from app.web.work import run_cpu

MAX_NODES = 64  # stored entries walked per view
MAX_CHECKED = 16  # documents read and analysed per view
MAX_CHECKED_BYTES = 32 * 1024 * 1024
MAX_FORKS_COMPARED = 16
LINEAGE_ANALYSES = 2  # lineage views reading and analysing at once, per instance
MAX_WAITING = 32  # lineage views waiting for one of those lanes, per instance

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
    checked: dict[str, Meta] = field(default_factory=dict)  # the members judged in this view
    records: dict[str, Found] = field(default_factory=dict)  # the bytes a missing result needs


def walk_component(store: Store, focus: Found, results: LineageResults) -> Component:
    """Run on a store thread: the proven component of the focus (app/stored_lineage.py), its
    parent by evidence, the claims counted, the members to judge chosen from their metadata
    (the focus, its parent, its children and its siblings first, within the view's bounds),
    then the bytes of only those documents whose results are not kept."""
    proven = proven_component(store, focus.meta, MAX_NODES)
    component = Component(focus.meta, proven.members, proven.truncated)
    if focus.meta.parent_storage_id in component.members:
        # Linked, and live: the metadata says so; the parent's bytes are read below if needed.
        component.resolution = ParentResolution(
            "linked", parent_id=focus.meta.parent_id, recorded_digest=focus.meta.parent_digest
        )
    else:
        component.resolution = resolve_parent(store, focus.meta)
    linked = set(component.members)
    if focus.meta.parent_id is not None:
        claimants = store.by_checkpoint_id(focus.meta.parent_id)
        component.claimed_parents = len({m.digest for m in claimants if m.storage_id not in linked})
    if focus.meta.checkpoint_id is not None:
        children = store.children(focus.meta.checkpoint_id)
        component.claimed_children = len({m.digest for m in children if m.storage_id not in linked})
    budget = MAX_CHECKED_BYTES
    for meta in _check_order(component):
        if len(component.checked) >= MAX_CHECKED or meta.size > budget:
            break
        component.checked[meta.storage_id] = meta
        budget -= meta.size
    for storage_id in _needed(component, results):
        record = focus if storage_id == focus.meta.storage_id else store.get(storage_id)
        if isinstance(record, Found):
            component.records[storage_id] = record
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


def _judged_parent(component: Component, storage_id: str) -> Meta | None:
    """The member's proven parent, when it is judged in this view too."""
    return component.checked.get(component.members[storage_id].parent_storage_id or "")


def _verdict_key(component: Component, storage_id: str) -> tuple[str, str | None]:
    parent = _judged_parent(component, storage_id)
    return component.members[storage_id].digest, parent.digest if parent else None


@dataclass(frozen=True, slots=True)
class ForkPlan:
    """The sibling forks to compare (two stored copies of the same bytes are one fork, in one
    order whichever member is viewed, so every view of the lineage keeps one result), their
    parent when judged, and the key their comparison is kept under."""

    forks: list[Meta]
    parent: Meta | None
    more: bool  # more forks than compared

    @property
    def key(self) -> tuple[str | None, tuple[tuple[str, str], ...]]:
        digest = self.parent.digest if self.parent else None
        return digest, tuple((m.storage_id, m.digest) for m in self.forks)


def _fork_plan(component: Component) -> ForkPlan | None:
    focus = component.focus
    if focus.parent_storage_id is None:
        return None
    siblings: dict[str, Meta] = {}
    for meta in component.members.values():
        if meta.parent_storage_id == focus.parent_storage_id and meta.derivation_method == "forked":
            siblings.setdefault(meta.digest, meta)
    first = sorted(siblings.values(), key=lambda m: m.storage_id)[:MAX_FORKS_COMPARED]
    forks = [m for m in first if m.storage_id in component.checked]
    parent = component.checked.get(focus.parent_storage_id)
    return ForkPlan(forks, parent, len(siblings) > len(forks))


def _needed(component: Component, results: LineageResults) -> list[str]:
    """The documents whose bytes a result not kept needs: a member and its judged parent for a
    verdict, the forks and their parent for the comparison."""
    needed: list[str] = []
    for storage_id in component.checked:
        if not results.verdicts.holds(_verdict_key(component, storage_id)):
            parent = _judged_parent(component, storage_id)
            needed += [storage_id, *([parent.storage_id] if parent else [])]
    plan = _fork_plan(component)
    if plan is not None and len(plan.forks) > 1 and not results.forks.holds(plan.key):
        needed += [m.storage_id for m in plan.forks]
        needed += [plan.parent.storage_id] if plan.parent else []
    return list(dict.fromkeys(needed))


class Analysed:
    """The analyses of the documents read in one view, made only when a result must be
    computed (a kept verdict or fork comparison needs none)."""

    def __init__(self, cache: AnalysisCache, records: dict[str, Found]) -> None:
        self.cache = cache
        self.records = records
        self._done: dict[str, Analysis] = {}

    def __call__(self, storage_id: str) -> Analysis:
        if storage_id not in self._done:
            record = self.records[storage_id]
            self._done[storage_id] = self.cache.get(record.meta.digest, record.data)
        return self._done[storage_id]


def lineage_model(analyses: AnalysisCache, results: LineageResults, component: Component) -> Model:
    """Everything the page shows: metadata of the proven lineage, each member's verdict
    against its proven parent where both were judged, the focus's parent by evidence, and the
    sibling forks compared."""
    focus = component.focus
    analysed = Analysed(analyses, component.records)
    judged = {sid: _verdict(sid, component, analysed, results) for sid in component.checked}
    verdicts = {sid: v for sid, v in judged.items() if v is not None}
    nodes = [_node(m, focus, verdicts.get(m.storage_id)) for m in component.members.values()]
    drawing = layout(build_tree(nodes))
    resolution = component.resolution or ParentResolution("none")
    focus_verdict = verdicts.get(focus.storage_id)
    digest = focus_verdict.digest if focus_verdict is not None else None
    return {
        "focus": focus.to_dict(),
        "drawing": drawing,
        "entries": sorted(
            (
                {
                    **m.to_dict(),
                    "relation": _relation(m, focus),
                    "href": f"/c/{m.storage_id}",
                    # its diff page, where its parent is a proven link of this lineage
                    "diff": (
                        f"/c/{m.storage_id}/diff"
                        if m.parent_storage_id in component.members
                        else None
                    ),
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
        # members not judged in this view: their verdict is the one stored with them
        "unjudged": len(component.members) - len(verdicts),
        "max_judged": MAX_CHECKED,
        "parent": {
            "state": resolution.state,
            "sentence": parent_sentence(resolution, digest),
            "digest": digest,
            "link": (
                f"/c/{focus.parent_storage_id}"
                if resolution.linked and focus.parent_storage_id is not None
                else None
            ),
        },
        "claimed": {
            "parents": component.claimed_parents,
            "children": component.claimed_children,
        },
        "forks": _forks(component, analysed, results),
    }


def _verdict(
    sid: str, component: Component, analysed: Analysed, results: LineageResults
) -> Verdict | None:
    """A member's verdict, with the lineage checks against its proven parent when both are
    judged in this view; kept by the two digests. None when it was not kept and its bytes
    were not read (it was dropped from the kept results after the walk looked)."""
    parent = _judged_parent(component, sid)
    needs = [sid, *([parent.storage_id] if parent else [])]
    key = _verdict_key(component, sid)
    if not all(n in analysed.records for n in needs):
        return results.verdicts.kept(key)

    def judge() -> Verdict:
        child = analysed(sid)
        if parent is None:
            return Verdict(LintResult(child).valid, False, None)
        checked = pair(child, analysed(parent.storage_id))
        return Verdict(LintResult(child, checked).valid, True, checked.digest.state)

    return results.verdicts.get(key, judge)


def _checked_with_parent(verdict: Verdict | None) -> bool | None:
    if verdict is None:
        return None  # not read in this view: the verdict is the one stored with it
    return verdict.with_parent


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


def _node(meta: Meta, focus: Meta, verdict: Verdict | None) -> LineageNode:
    return LineageNode(
        key=meta.storage_id,
        parent_key=meta.parent_storage_id,
        checkpoint_id=meta.checkpoint_id,
        parent_id=meta.parent_id,
        created_at=meta.created_at,
        label=meta.checkpoint_id or meta.storage_id,
        status=meta.task_status,
        valid=verdict.valid if verdict is not None else meta.valid,
        method=meta.derivation_method,
        href=f"/c/{meta.storage_id}",
        focus=meta.storage_id == focus.storage_id,
        relation=_relation(meta, focus),
    )


def _forks(component: Component, analysed: Analysed, results: LineageResults) -> Model:
    """Sibling forks of the focus's proven parent, compared for actions actionable in more
    than one (§9.3); kept by the parent's digest and the forks' storage ids and digests (the
    conflicts name forks by storage id)."""
    plan = _fork_plan(component)
    nothing: Model = {"compared": [], "conflicts": []}
    if plan is None:
        return {**nothing, "truncated": False}
    needs = [m.storage_id for m in plan.forks] + ([plan.parent.storage_id] if plan.parent else [])

    def compare() -> Model:
        documents: list[tuple[str, Document]] = []
        for meta in plan.forks:
            shown = analysed(meta.storage_id).redacted
            if isinstance(shown, dict):
                documents.append((meta.storage_id, shown))
        parent = analysed(plan.parent.storage_id).redacted if plan.parent else None
        conflicts = fork_conflicts(parent, documents) if len(documents) > 1 else []
        return {"compared": [label for label, _ in documents], "conflicts": conflicts}

    if len(plan.forks) < 2:
        compared = nothing
    elif all(n in analysed.records for n in needs):
        compared = results.forks.get(plan.key, compare)
    else:
        compared = results.forks.kept(plan.key) or nothing
    return {**compared, "truncated": plan.more}


@dataclass(frozen=True, slots=True)
class Lanes:
    """This instance's lineage views in progress (reading and analysing), at most
    LINEAGE_ANALYSES at once, and their kept results."""

    views: anyio.CapacityLimiter
    results: LineageResults


def _lanes(state: State) -> Lanes:
    # Made on the first view: the event loop runs one request's code at a time, so once.
    if getattr(state, "lineage_lanes", None) is None:
        state.lineage_lanes = Lanes(anyio.CapacityLimiter(LINEAGE_ANALYSES), LineageResults.new())
    lanes: Lanes = state.lineage_lanes
    return lanes


async def lineage_page(request: Request) -> Response:
    """GET /c/{id}/lineage (and .json). A view waits for one of the lanes before it reads
    anything but its own document, so views waiting hold no more than that; past
    MAX_WAITING views waiting, a view is 503 with Retry-After (the other routes are
    untouched)."""
    record = await fetch(request, request.path_params["storage_id"])
    lanes = _lanes(request.app.state)
    if lanes.views.statistics().tasks_waiting >= MAX_WAITING:
        raise HTTPException(
            503,
            "too many lineage pages are being prepared right now; try again in a few seconds "
            "(the checkpoint's own page works meanwhile)",
            headers={"retry-after": "5"},
        )
    async with lanes.views:
        component: Component = await store_call(request, walk_component, record, lanes.results)
        analyses: AnalysisCache = request.app.state.analyses
        size = sum(record.meta.size for record in component.records.values())
        model = await run_cpu(request, size, lineage_model, analyses, lanes.results, component)
    if wants_json(request):
        return VisibleJSONResponse(model)
    return HTMLResponse(render("lineage.html", model=model))
