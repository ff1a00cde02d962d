"""POST /api/v1/guard: what a checkpoint records about a proposed tool call (app/guard.py).

The body is JSON: ``{"call": {"tool": …, "arguments": {…}}, "checkpoint": …}``, where the
checkpoint is its text as a JSON string (its exact bytes: the digest and the positions are the
text's) or the document itself as an object, or ``"storage_id"`` names a stored one, read as
its permalink is (the storage id is the capability; an expired or deleted one answers 410).
``"checkpoint_id"`` is its deprecated old name, accepted for one release (in answers and the
listing, ``checkpoint_id`` is the document's own id); giving both is an error.
The answer is the same as `ocp guard --format json` gives: 200 for each of its three outcomes,
which are answers, not errors; 400 with where when the call or the checkpoint cannot be read;
413 when the body holds more than one checkpoint within the deployment's limit and a call.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.analysis import Analysis, analyze
from app.guard import GuardError, guard, proposed_call, with_newer
from app.parse import Limits, parse
from app.redaction import unparsed_findings
from app.store.base import Found
from app.stored_lineage import newer_checkpoints
from app.web.bodies import FORM_OVERHEAD, PayloadTooLarge
from app.web.stored import analysis_of, fetch, store_call
from app.web.views import BadRequest, media_type, settings_of
from app.web.work import run_cpu

JSON_TYPES = ("application/json",)
# How many newer linked checkpoints a stored checkpoint's answer reads the call against.
NEWER_COMPARED = 3


class Unreadable(BadRequest):
    """400 with the guard's account of what it could not read, as `findings`."""

    def __init__(self, error: GuardError) -> None:
        super().__init__(f"{error.subject}: {error.message}")
        self.findings = [error.as_json()]


async def api_guard(request: Request) -> Response:
    if media_type(request) not in JSON_TYPES:
        raise BadRequest(
            'send a JSON object as application/json: {"call": {"tool": …, "arguments": {…}}, '
            '"checkpoint": "<its text>"} (or "storage_id": a storage id)',
            status_code=415,
        )
    limits = settings_of(request).limits
    body = await request.body()
    envelope = parse(
        body,
        Limits(2 * limits.max_bytes + FORM_OVERHEAD, min(512, limits.max_depth + 2)),
    )
    _within_limits(body, envelope.document, limits)
    if envelope.document is None:
        first = unparsed_findings(envelope.findings[:1])[0]
        raise Unreadable(
            GuardError(
                f"the body is not JSON: {first.message}",
                first.path,
                subject="body",
                line=first.line,
                column=first.column,
            )
        )
    fields = envelope.document
    if not isinstance(fields, dict):
        raise Unreadable(GuardError("the body is a JSON object", subject="body"))
    try:
        call = proposed_call(fields.get("call"))
    except GuardError as exc:
        raise Unreadable(GuardError(exc.message, "/call" + exc.path)) from None
    given, (id_name, stored_id) = fields.get("checkpoint"), _storage_id(fields)
    if (given is None) == (stored_id is None):
        # (null is as good as absent; a member the body does not take is left for a later
        # version to read: the call and the checkpoint, each required, cannot be misspelt
        # into another answer)
        twice = "once, not both: " if given is not None else ""
        raise Unreadable(
            GuardError(
                f'give the checkpoint {twice}as "checkpoint" (its text) or "{id_name}"',
                subject="body",
            )
        )
    analysis: Analysis
    if stored_id is not None:
        if not isinstance(stored_id, str):
            raise Unreadable(GuardError(f"{id_name} is a string", f"/{id_name}", subject="body"))
        record = await fetch(request, stored_id)
        analysis = await run_cpu(request, len(record.data), analysis_of, request, record)
        newer = await store_call(request, newer_checkpoints, record.meta)
        linked = [n.meta for n in newer.of("linked")[:NEWER_COMPARED]]
        newest = []
        for meta in linked:
            found = await store_call(request, "get", meta.storage_id)
            if isinstance(found, Found):
                newest.append(
                    (
                        meta.storage_id,
                        await run_cpu(request, len(found.data), analysis_of, request, found),
                    )
                )
    else:
        data = (
            given.encode("utf-8", "surrogatepass")
            if isinstance(given, str)
            else json.dumps(given, ensure_ascii=False).encode("utf-8", "surrogatepass")
        )
        analysis = await run_cpu(request, len(data), analyze, data, limits)
    try:
        answer = guard(analysis, call)
        if stored_id is not None:
            answer = with_newer(answer, call, newer, newest)
    except GuardError as exc:
        raise Unreadable(exc) from None
    return JSONResponse(answer.as_json())


def _storage_id(fields: dict[str, object]) -> tuple[str, object]:
    """The member naming a stored checkpoint, and its value: ``storage_id``, or its deprecated
    old name ``checkpoint_id``; both at once is unreadable, naming them."""
    if "storage_id" in fields and "checkpoint_id" in fields:
        raise Unreadable(
            GuardError(
                'give "storage_id" only: "checkpoint_id" is its deprecated old name, and both '
                "were given",
                "/checkpoint_id",
                subject="body",
            )
        )
    if "checkpoint_id" in fields:
        return "checkpoint_id", fields["checkpoint_id"]
    return "storage_id", fields.get("storage_id")


def _within_limits(body: bytes, fields: object, limits: Limits) -> None:
    """413, as the lint's raw body gets, for a body larger than one checkpoint and a call.

    The transport lets in twice the document limit, because a checkpoint sent as its text is
    a JSON string, escaped (quotes and line ends doubled, non-ASCII as \\u escapes): such a
    body may be larger than the limit while the checkpoint it carries is not. So the
    checkpoint's own bytes are held to the limit, and any other body to the limit and room
    for the call."""
    given = fields.get("checkpoint") if isinstance(fields, dict) else None
    if isinstance(given, str):
        size = len(given.encode("utf-8", "surrogatepass"))
        if size > limits.max_bytes:
            raise PayloadTooLarge(limits.max_bytes, "the checkpoint in the body")
    elif len(body) > limits.max_bytes + FORM_OVERHEAD:
        raise PayloadTooLarge(
            limits.max_bytes + FORM_OVERHEAD,
            "the body (one checkpoint within the document limit, and the call)",
        )
