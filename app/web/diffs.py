"""Diffs between two checkpoints: a stored child against its stored parent, any two stored
checkpoints, or a pasted pair. HTML, JSON, and the RFC 6902 JSON Patch."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from app.analysis import Analysis, analyze, pair
from app.diff import Data, diff_checkpoints
from app.store import Found
from app.stored_lineage import resolve_parent
from app.web.errors import wants_json
from app.web.parameters import refuse_unknown, storage_id_parameter
from app.web.stored import analysis_of, fetch, store_call
from app.web.templating import render
from app.web.views import NO_PARENT, MissingCheckpoint, form_again, read_form, settings_of
from app.web.visible_json import VisibleJSONResponse
from app.web.work import run_cpu


def compare(parent: Analysis, child: Analysis, parent_as_sent: bytes | None = None) -> Data:
    return diff_checkpoints(pair(child, parent, parent_as_sent=parent_as_sent))


def respond(request: Request, model: Data, title: str, links: dict[str, str]) -> Response:
    path = request.url.path
    if path.endswith(".patch"):
        if model["patch"] is None:
            raise HTTPException(422, f"there is no JSON Patch: {model['patch_withheld']}")
        return VisibleJSONResponse(model["patch"], media_type="application/json-patch+json")
    if path.endswith(".json") or wants_json(request):
        return VisibleJSONResponse(model)
    # (a diff shows the document's values as the templates write them: its bidirectional
    # controls are written as escapes over the whole page, as a checkpoint's page writes each)
    page = render("diff.html", diff=model, title=title, links=links, escape_bidi=True)
    return HTMLResponse(page)


async def stored_diff(request: Request) -> Response:
    """GET /c/{id}/diff: the stored checkpoint against the parent it was stored with (its
    uploader gave the parent's storage id). A diff shows the parent's content, so a parent
    found only by its digest or its claimed id is not shown here."""
    child = await fetch(request, request.path_params["storage_id"])
    resolution = await store_call(request, resolve_parent, child.meta)
    if not resolution.linked or resolution.parent is None:
        raise HTTPException(
            404,
            "this checkpoint was not stored with its parent, so there is no diff to show here; "
            "compare a pasted pair on the home page instead",
        )
    return await _diff_records(request, resolution.parent, child)


async def any_two(request: Request) -> Response:
    """GET /diff?from=ID&to=ID: any two stored checkpoints."""
    refuse_unknown(request, ("from", "to"))
    from_id = storage_id_parameter(request.query_params.getlist, "from")
    to_id = storage_id_parameter(request.query_params.getlist, "to")
    if from_id is None or to_id is None:
        raise HTTPException(400, "give two storage ids: /diff?from=ID&to=ID")
    parent = await fetch(request, from_id)
    child = await fetch(request, to_id)
    return await _diff_records(request, parent, child)


async def _diff_records(request: Request, parent: Found, child: Found) -> Response:
    def work() -> Data:
        return compare(analysis_of(request, parent), analysis_of(request, child))

    model = await run_cpu(request, max(parent.meta.size, child.meta.size), work)
    links = {
        "from": f"/c/{parent.meta.storage_id}",
        "to": f"/c/{child.meta.storage_id}",
        "json": f"/diff.json?from={parent.meta.storage_id}&to={child.meta.storage_id}",
        "patch": f"/diff.patch?from={parent.meta.storage_id}&to={child.meta.storage_id}",
    }
    return respond(request, model, "Changes since the parent", links)


async def pasted(request: Request) -> Response:
    """POST /diff: a pasted or uploaded pair from the home page's form. Without one of the
    two, the form again (for a person), with what was given put back and what is missing
    listed."""
    try:
        submission = await read_form(request)
    except MissingCheckpoint as exc:
        if wants_json(request):
            raise
        problems = [exc.detail] + ([NO_PARENT] if exc.parent is None else [])
        return await form_again(request, problems, None, exc.parent, status_code=400)
    if submission.parent is None:
        if wants_json(request):
            raise HTTPException(400, "paste or upload the parent too, to compare the two")
        return await form_again(
            request,
            [NO_PARENT],
            submission.checkpoint,
            None,
            status_code=400,
            checkpoint_name=submission.name if submission.uploaded else None,
        )
    limits = settings_of(request).limits
    parent_data = submission.parent

    def work() -> Data:
        child = analyze(submission.checkpoint, limits)
        return compare(analyze(parent_data, limits), child, submission.parent_as_sent)

    model = await run_cpu(request, submission.size, work)
    return respond(request, model, "Changes from the parent", {})
