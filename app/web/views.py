"""Thin views: read the request, call the core, present the result as HTML or its JSON twin."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from app import SPEC_VERSION, __version__
from app.config import Settings
from app.lint import lint
from app.report import FileResult, report_dict
from app.rules import RULES
from app.schema import schema_bytes
from app.web.bodies import PayloadTooLarge
from app.web.docs import rule_page_html
from app.web.errors import wants_json
from app.web.pages import checkpoint_html, checkpoint_json
from app.web.templating import render

CHECKPOINT_TYPES = ("application/json", "application/vnd.opencheckpoint+json")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class BadRequest(HTTPException):
    def __init__(self, detail: str, status_code: int = 400) -> None:
        super().__init__(status_code=status_code, detail=detail)


def settings_of(request: Request) -> Settings:
    return request.app.state.settings


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


# --- pages --------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    return HTMLResponse(render("index.html", limits=settings_of(request).limits))


async def healthz(request: Request) -> Response:
    """Liveness: the process answers. It says nothing of the store (see readyz), so a
    database outage does not get every instance restarted."""
    return JSONResponse({"status": "ok", "version": __version__, "spec_version": SPEC_VERSION})


@dataclass(slots=True)
class Submission:
    checkpoint: bytes
    parent: bytes | None
    name: str


async def read_form(request: Request) -> Submission:
    """The checkpoint and optional parent from the form: an uploaded file wins over pasted text."""
    if media_type(request) not in FORM_TYPES:
        raise BadRequest(
            "send the form as multipart/form-data or application/x-www-form-urlencoded",
            status_code=415,
        )
    limit = settings_of(request).limits.max_bytes
    try:
        form = await request.form(max_files=2, max_fields=8, max_part_size=limit + 1)
    except PayloadTooLarge:
        raise
    except Exception as exc:  # python-multipart's errors differ by version; all mean bad input
        raise BadRequest(
            f"the form could not be read ({exc}); send it again from the page"
        ) from None
    checkpoint, name = await _field(form, "checkpoint", limit)
    parent, _ = await _field(form, "parent", limit)
    if checkpoint is None:
        raise BadRequest("paste a checkpoint, or choose a .ocp.json file to upload")
    return Submission(checkpoint, parent, name or "pasted checkpoint")


async def _field(form, name: str, limit: int) -> tuple[bytes | None, str | None]:
    upload = form.get(f"{name}_file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read(limit + 1)
        if len(data) > limit:
            raise PayloadTooLarge(limit)
        if data:
            return data, upload.filename
    text = form.get(name)
    if isinstance(text, str) and text.strip():
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > limit:
            raise PayloadTooLarge(limit)
        # Browsers send textarea line breaks as CRLF; the pasted document had LF.
        return data.replace(b"\r\n", b"\n"), None
    return None, None


async def view(request: Request) -> Response:
    submission = await read_form(request)
    limits = settings_of(request).limits
    # Linting and rendering are CPU work: off the event loop, so one large document does not
    # stall every other request.
    result = await run_in_threadpool(
        lint, submission.checkpoint, parent=submission.parent, limits=limits
    )
    if wants_json(request):
        model = await run_in_threadpool(checkpoint_json, submission.name, result, limits)
        return JSONResponse(model)
    html = await run_in_threadpool(
        partial(
            checkpoint_html,
            submission.name,
            result,
            limits,
            upload_token_required=bool(settings_of(request).upload_tokens),
        )
    )
    return HTMLResponse(html)


async def live_panel(request: Request) -> Response:
    """The findings panel alone, for htmx's live linting as the user types."""
    try:
        submission = await read_form(request)
    except BadRequest as exc:
        return HTMLResponse(render("_live.html", result=None, message=exc.detail))
    result = await run_in_threadpool(
        lint, submission.checkpoint, parent=submission.parent, limits=settings_of(request).limits
    )
    return HTMLResponse(render("_live.html", result=result, message=None))


# --- API ----------------------------------------------------------------------------------


async def api_lint(request: Request) -> Response:
    """The raw document as the body, or multipart with `checkpoint` (and `parent`) parts."""
    kind = media_type(request)
    limits = settings_of(request).limits
    if kind in CHECKPOINT_TYPES:
        data = await request.body()
        parent = None
    elif kind == "multipart/form-data":
        submission = await read_form(request)
        data, parent = submission.checkpoint, submission.parent
    else:
        raise BadRequest(
            "send the checkpoint as application/json or application/vnd.opencheckpoint+json "
            "(or multipart/form-data with checkpoint and parent parts)",
            status_code=415,
        )
    result = await run_in_threadpool(lint, data, parent=parent, limits=limits)
    return JSONResponse(report_dict([FileResult("-", result)]))


# --- rules and schema ----------------------------------------------------------------------


async def rules_index(request: Request) -> Response:
    rules = sorted(RULES.values(), key=lambda r: (r.level != "syntax", r.code))
    if wants_json(request):
        return JSONResponse(
            [
                {"code": r.code, "severity": r.severity, "level": r.level, "summary": r.summary}
                for r in rules
            ]
        )
    return HTMLResponse(render("rules.html", rules=rules))


async def rule_page(request: Request) -> Response:
    code = request.path_params["code"]
    rule = RULES.get(code)
    if rule is None:
        raise HTTPException(404, f"there is no rule {code[:40]!r}; see the list of rules")
    return HTMLResponse(render("rule.html", rule=rule, body=rule_page_html(code)))


async def schema(request: Request) -> Response:
    return Response(schema_bytes(), media_type="application/schema+json")
