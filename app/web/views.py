"""Thin views: read the request, call the core, present the result as HTML or its JSON twin."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from app import SPEC_VERSION, __version__
from app.analysis import LintResult, analyze, pair
from app.config import Settings
from app.parse import Limits
from app.redaction import redact_text
from app.render.query import EVERY, PageQuery
from app.report import FileResult, report_dict
from app.resources import example_bytes, rule_doc, schema_bytes
from app.rules import RULES, Rule
from app.secrets import scan_text
from app.visible import visible
from app.web.bodies import FORM_FIELDS, EncodedBody, PayloadTooLarge, carried_limit
from app.web.caching import accepts_gzip
from app.web.carried import CarriedError, carried
from app.web.compression import Precompressed
from app.web.docs import rule_page_html
from app.web.errors import wants_json
from app.web.pages import checkpoint_html, checkpoint_json
from app.web.parameters import PAGE_PARAMETERS, check_page_query, refuse_unknown
from app.web.templating import render
from app.web.urls import public_base
from app.web.work import run_cpu

CHECKPOINT_TYPES = ("application/json", "application/vnd.opencheckpoint+json")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class BadRequest(HTTPException):
    def __init__(self, detail: str, status_code: int = 400) -> None:
        super().__init__(status_code=status_code, detail=detail)


class MissingCheckpoint(BadRequest):
    """The form came without a checkpoint; ``parent``: what it gave as the parent, so a form
    shown again keeps it."""

    def __init__(self, parent: bytes | None) -> None:
        super().__init__(NO_CHECKPOINT)
        self.parent = parent


NO_CHECKPOINT = "paste a checkpoint, or choose a .ocp.json file to upload"
NO_PARENT = (
    "give the parent checkpoint too, to compare the two: paste it or choose its file under "
    "“Compare with its parent”, then press “Compare with the parent” again"
)


def settings_of(request: Request) -> Settings:
    # Starlette's app state is untyped; create_app sets the settings there.
    return cast(Settings, request.app.state.settings)


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


# --- pages --------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    return HTMLResponse(render("index.html", limits=settings_of(request).limits))


async def example(request: Request) -> Response:
    """GET /example: the page of the bundled example checkpoint, as the form would show it
    (a link, so it works without JavaScript; nothing is stored)."""
    submission = Submission(example_bytes(), None, "example.ocp.json")
    return await checkpoint_page(request, submission)


async def healthz(request: Request) -> Response:
    """Liveness: the process answers. It says nothing of the store (see readyz), so a
    database outage does not get every instance restarted."""
    return JSONResponse({"status": "ok", "version": __version__, "spec_version": SPEC_VERSION})


@dataclass(frozen=True, slots=True)
class FormInput:
    """One document of the form, and what the page says about where it came from."""

    data: bytes
    name: str  # the file's name, or "pasted checkpoint"
    described: str  # 'the file "x.ocp.json" (1,234 bytes)', 'the pasted text (…)'
    ignored: str | None = None  # the pasted text, when a file was chosen as well
    # pasted text as the browser sent it, before its CRLF line ends were made LF
    as_sent: bytes | None = None
    uploaded: bool = False  # a chosen file (not pasted text, not carried by a page)


@dataclass(slots=True)
class Submission:
    checkpoint: bytes
    parent: bytes | None
    name: str
    # Which inputs were checked and which were not, in sentences for the page and the panel.
    checked: str = ""
    notes: tuple[str, ...] = ()
    # a pasted parent as the browser sent it (parent.digest is checked against both)
    parent_as_sent: bytes | None = None
    # the statements the page lists: the address's parameters and the form's
    query: PageQuery = EVERY
    uploaded: bool = False  # the checkpoint is a chosen file

    @property
    def size(self) -> int:
        """The bytes the work is about: the larger of the checkpoint and its parent."""
        return max(len(self.checkpoint), len(self.parent or b""))

    def check(self, limits: Limits) -> LintResult:
        """The checkpoint's analysis and, with a parent, the pair: each stage once."""
        child = analyze(self.checkpoint, limits)
        if self.parent is None:
            return LintResult(child)
        parent = analyze(self.parent, limits)
        return LintResult(child, pair(child, parent, parent_as_sent=self.parent_as_sent))


async def read_form(request: Request, *, raw: bool = False) -> Submission:
    """The checkpoint and optional parent from the form. An uploaded file wins over pasted
    text, and the page says so: the user sees which input was checked. ``raw``: the
    checkpoint may be the whole body instead (`CHECKPOINT_TYPES`, as /api/v1/lint takes it),
    checked as the form would check it."""
    kind = media_type(request)
    if raw and kind in CHECKPOINT_TYPES:
        return await read_raw(request)
    if kind not in FORM_TYPES:
        raw_types = f"the checkpoint itself as {' or '.join(CHECKPOINT_TYPES)}, or " if raw else ""
        raise BadRequest(
            f"send {raw_types}the form as multipart/form-data or application/x-www-form-urlencoded",
            status_code=415,
        )
    limit = settings_of(request).limits.max_bytes
    # A URL-encoded field may take three bytes for each byte of the document (%22); its
    # decoded size is checked against the limit below.
    # A multipart part may carry the document as base64 (the Share form, sent back here by a
    # page's own buttons); every document's decoded size is checked against the limit below.
    url_encoded = media_type(request) == FORM_TYPES[0]
    part_limit = (3 * limit if url_encoded else carried_limit(limit)) + 1
    try:
        form = await request.form(max_files=2, max_fields=FORM_FIELDS, max_part_size=part_limit)
    except PayloadTooLarge:
        raise
    except MultiPartException as exc:
        if "maximum size" in str(exc):  # Starlette's words for a part over max_part_size
            raise PayloadTooLarge(limit, "a document in the form") from None
        raise BadRequest(
            f"the form could not be read ({exc}); send it again from the page"
        ) from None
    except Exception as exc:  # python-multipart's errors differ by version; all mean bad input
        if "maximum size" in str(exc):  # a URL-encoded field past max_part_size, in its words
            raise PayloadTooLarge(limit, "a document in the form") from None
        raise BadRequest(
            f"the form could not be read ({exc}); send it again from the page"
        ) from None
    checkpoint = await _field(form, "checkpoint", "checkpoint", limit)
    parent = await _field(form, "parent", "parent", limit)
    if checkpoint is None:
        raise MissingCheckpoint(parent.data if parent is not None else None)
    checked = f"Checked {checkpoint.described}" + (
        f", with {parent.described} as its parent." if parent is not None else "."
    )
    notes = tuple(x.ignored for x in (checkpoint, parent) if x is not None and x.ignored)

    def values(name: str) -> list[str]:
        given = [*request.query_params.getlist(name), *form.getlist(name)]
        return [v for v in given if isinstance(v, str)]

    refuse_unknown(request, PAGE_PARAMETERS)
    check_page_query(values)
    return Submission(
        checkpoint.data,
        parent.data if parent is not None else None,
        checkpoint.name,
        checked,
        notes,
        parent.as_sent if parent is not None else None,
        PageQuery.of(values),
        checkpoint.uploaded,
    )


async def read_raw(request: Request) -> Submission:
    """The checkpoint as the request's whole body (application/json or
    application/vnd.opencheckpoint+json)."""
    limit = settings_of(request).limits.max_bytes
    data = await request.body()
    if len(data) > limit:
        raise PayloadTooLarge(limit, "the checkpoint in the request body")
    if not data.strip():
        raise BadRequest(
            "the request body is empty: send the checkpoint's JSON as the body, or use the form"
        )
    refuse_unknown(request, PAGE_PARAMETERS)
    check_page_query(request.query_params.getlist)
    return Submission(
        data,
        None,
        "request body",
        f"Checked the request body ({len(data):,} bytes).",
        query=PageQuery.of(request.query_params.getlist),
    )


def read_carried(form: Mapping[str, object], role: str, limit: int) -> bytes:
    """The bytes a page's Share form carries for ``role`` (`app.web.carried`); a damaged
    field is 400, one that inflates past the limit 413."""
    try:
        return carried(form, role, limit)
    except CarriedError as exc:
        raise BadRequest(str(exc), status_code=413 if exc.too_large else 400) from None


# The most characters of a file name a page shows (a name is the browser's to send, any length).
NAME_CHARS = 200


def shown_name(name: str) -> str:
    """A file name the browser sent, as the page, its JSON twin and its Share form show it:
    each apparent credential withheld (a token in a file name is repeated nowhere), and every
    character that could reorder, hide or break the text written as an escape (app/visible.py,
    as the CLI writes file names); at most `NAME_CHARS` characters."""
    return visible(redact_text(name))[:NAME_CHARS]


async def _field(form: FormData, name: str, role: str, limit: int) -> FormInput | None:
    text = form.get(name)
    pasted = sent = None
    if isinstance(text, str) and text.strip():
        sent = text.encode("utf-8", "surrogatepass")
        if len(sent) > limit:
            raise PayloadTooLarge(limit, f"the pasted {role}")
        # Browsers send textarea line breaks as CRLF, whatever the pasted document had.
        pasted = sent.replace(b"\r\n", b"\n")
    upload = form.get(f"{name}_file")
    named = form.get(name)
    if not isinstance(upload, UploadFile) and isinstance(named, UploadFile):
        upload = named  # a file in the part of the text (curl -F checkpoint=@case.ocp.json)
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read(limit + 1)
        if len(data) > limit:
            raise PayloadTooLarge(limit, f"the {role} file")
        if data:
            ignored = (
                f"The pasted {role} text was not checked: a chosen file is checked instead. "
                "Clear the file choice to check the pasted text."
                if pasted is not None
                else None
            )
            filename = shown_name(upload.filename)
            return FormInput(
                data,
                filename,
                f"the {role} file “{filename}” ({len(data):,} bytes)",
                ignored,
                uploaded=True,
            )
    if isinstance(upload, str) and upload:
        # a file's part sent without a file name (a client that is not a browser): the form
        # parser hands it over as text, and it is still the file, which wins over the text
        data = upload.encode("utf-8", "surrogatepass")
        if len(data) > limit:
            raise PayloadTooLarge(limit, f"the {role} file")
        ignored = (
            f"The pasted {role} text was not checked: the {role} file is checked instead."
            if pasted is not None
            else None
        )
        described = f"the {role} file ({len(data):,} bytes)"
        return FormInput(data, role, described, ignored, uploaded=True)
    if pasted is not None:
        described = f"the pasted {role} ({len(pasted):,} bytes)"
        return FormInput(pasted, f"pasted {role}", described, as_sent=sent)
    # the document a checkpoint page carries (its Share form, sent back by the page's own
    # buttons: a list's next statements, a filter)
    data = read_carried(form, role, limit)
    if data:
        shown = form.get("name")
        name = shown_name(shown) if isinstance(shown, str) and shown else role
        return FormInput(data, name, f"the {role} the page carried ({len(data):,} bytes)")
    return None


async def view(request: Request) -> Response:
    try:
        submission = await read_form(request, raw=True)
    except MissingCheckpoint as exc:
        if wants_json(request):
            raise
        return await form_again(request, [exc.detail], None, exc.parent, status_code=400)
    return await checkpoint_page(request, submission)


async def form_again(
    request: Request,
    problems: list[str],
    checkpoint: bytes | None,
    parent: bytes | None,
    *,
    status_code: int = 422,
    checkpoint_name: str | None = None,
) -> Response:
    """The home page's form again, listing what to fix, with what the user gave put back in
    its boxes (a chosen file's text too), so nothing they pasted or chose is lost. A document
    that is not UTF-8 text, or that looks like it holds a credential, is not repeated: the
    page says so and how to keep it (the browser's Back keeps the boxes)."""
    notes: list[str] = []

    def put_back(data: bytes | None, role: str) -> str:
        if not data:
            return ""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            notes.append(
                f"The {role} you gave is not UTF-8 text, so it is not put back in its box: "
                "choose its file again."
            )
            return ""
        if scan_text(text):
            notes.append(
                f"The {role} you gave appears to contain a credential, so this page does not "
                "repeat it: go back in your browser to keep what you gave, or give it again "
                "without the credential."
            )
            return ""
        return text

    def work() -> tuple[str, str]:
        return put_back(checkpoint, "checkpoint"), put_back(parent, "parent")

    size = max(len(checkpoint or b""), len(parent or b""))
    checkpoint_text, parent_text = await run_cpu(request, size, work)
    if checkpoint_text and checkpoint_name:
        notes.append(
            f"The file “{checkpoint_name}” is in the checkpoint box above, as text: a page "
            "cannot choose a file again for you."
        )
    page = render(
        "index.html",
        limits=settings_of(request).limits,
        problems=problems,
        notes=notes,
        checkpoint_text=checkpoint_text,
        parent_text=parent_text,
        parent_open=bool(parent_text) or any(p == NO_PARENT for p in problems),
    )
    return HTMLResponse(page, status_code=status_code)


async def checkpoint_page(
    request: Request,
    submission: Submission,
    *,
    share_again: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    """The checkpoint page of a submission (or its JSON twin). ``share_again``: the page
    again after its Share form failed, with why and the form refilled (`share`)."""
    limits = settings_of(request).limits
    query = submission.query
    gzip_wanted = accepts_gzip(request)
    # Linting, rendering, encoding and compressing are CPU work: off the event loop, so one
    # large document does not stall every other request, and in the lane of its size
    # (app/web/work.py); all in one turn, so a page waits for one turn and one thread hop.
    if wants_json(request):
        notes = {"checked": submission.checked, "notes": list(submission.notes)}

        def twin() -> Response:
            result = submission.check(limits)
            model = checkpoint_json(submission.name, result, limits, query=query)
            model["submission"] = notes
            return Precompressed(JSONResponse(model), gzip_wanted=gzip_wanted)

        return await run_cpu(request, submission.size, twin)
    upload_token_required = bool(settings_of(request).upload_tokens)

    def page() -> Response:
        result = submission.check(limits)
        html = checkpoint_html(
            submission.name,
            result,
            limits,
            upload_token_required=upload_token_required,
            notes=submission.notes,
            query=query,
            share_again=share_again,
        )
        return Precompressed(HTMLResponse(html, status_code=status_code), gzip_wanted=gzip_wanted)

    return await run_cpu(request, submission.size, page)


async def live_panel(request: Request) -> Response:
    """The findings panel alone, for htmx's live linting as the user types.

    Always 200 with a panel that says what happened: htmx swaps in only successful answers,
    and a refusal (too large, unreadable) must replace the last verdict, never leave it."""
    try:
        submission = await read_form(request)
    except (BadRequest, PayloadTooLarge, EncodedBody) as exc:
        detail = exc.detail if isinstance(exc, BadRequest) else str(exc)
        headers = {"connection": "close"} if isinstance(exc, PayloadTooLarge) else {}
        return HTMLResponse(
            render("_live.html", result=None, submission=None, message=f"Not checked: {detail}."),
            headers=headers,
        )
    result = await run_cpu(request, submission.size, submission.check, settings_of(request).limits)
    return HTMLResponse(render("_live.html", result=result, submission=submission, message=None))


# --- API ----------------------------------------------------------------------------------


async def api_lint(request: Request) -> Response:
    """The raw document as the body, or multipart with `checkpoint` (and `parent`) parts."""
    kind = media_type(request)
    limits = settings_of(request).limits
    if kind in CHECKPOINT_TYPES:
        submission = Submission(await request.body(), None, "-")
    elif kind == "multipart/form-data":
        submission = await read_form(request)
    else:
        raise BadRequest(
            "send the checkpoint as application/json or application/vnd.opencheckpoint+json "
            "(or multipart/form-data with a checkpoint part and, for a child, a parent part: "
            "each a file or text)",
            status_code=415,
        )
    result = await run_cpu(request, submission.size, submission.check, limits)
    report = report_dict([FileResult("-", result)])
    if result.parent is not None and result.parent.document is None:
        # The run's own error, as `ocp lint --parent` reports it (the report's `errors`):
        # a report whose lineage checks did not run must not read as a clean lineage.
        first = result.parent.findings[0]  # (the intake's first, a credential withheld)
        problem = (
            f"parent:{first.line}:{first.column}: the parent is not a JSON checkpoint, so "
            f"lineage rules cannot run: {first.message}; send the parent's JSON text, or no "
            "parent to lint the checkpoint alone"
        )
        report = {**report, "errors": [problem], "failure": f"ocp lint fails: {problem}"}
    return JSONResponse(report)


# --- rules and schema ----------------------------------------------------------------------


def _rule_entry(request: Request, rule: Rule) -> dict[str, str]:
    """A rule as the JSON twins list it, with the addresses of its page and of its twin."""
    page = f"{public_base(request)}{rule.help_url}"
    return {
        "code": rule.code,
        "severity": rule.severity,
        "level": rule.level,
        "summary": rule.summary,
        "page": page,
        "json": f"{page}.json",
    }


async def rules_index(request: Request) -> Response:
    rules = sorted(RULES.values(), key=lambda r: (r.level != "syntax", r.code))
    if wants_json(request):
        return JSONResponse([_rule_entry(request, r) for r in rules])
    return HTMLResponse(render("rules.html", rules=rules))


async def rule_page(request: Request) -> Response:
    """A rule's page; at its address with .json (or asked for JSON), its twin: the rule, what
    the linter checks, and its page's text as written (Markdown)."""
    code = request.path_params["code"]
    twin = code.endswith(".json")
    code = code.removesuffix(".json")
    rule = RULES.get(code)
    if rule is None:
        raise HTTPException(404, f"there is no rule {code[:40]!r}; see the list of rules")
    if twin or wants_json(request):
        doc = rule_doc(code)
        return JSONResponse(
            {
                **_rule_entry(request, rule),
                "description": rule.description,
                "text": doc.read_text(encoding="utf-8") if doc.is_file() else None,
            }
        )
    return HTMLResponse(render("rule.html", rule=rule, body=rule_page_html(code)))


async def schema(request: Request) -> Response:
    return Response(schema_bytes(), media_type="application/schema+json")
