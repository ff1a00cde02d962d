"""Errors as a page for people and as JSON for programs, never a traceback.

The JSON is an RFC 9457 problem document (``application/problem+json``): ``type``, ``title``
(the status's reason phrase), ``status`` and ``detail``, beside the members this service's
error bodies always had (``ok``, ``error``, ``advice``, and what a status adds: ``findings``,
``secret_paths``, ``gone_at``, ``reason``), so a client written against either reads it.

Who gets which: a client that prefers JSON (``application/json``, ``application/problem+json``,
the checkpoint's own ``application/vnd.opencheckpoint+json``, any ``+json``) over HTML gets the
problem, as every address under /api/ and every .json twin does; a browser gets the page. The
answer then varies on Accept, and says so."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from app.store import StoreUnavailable
from app.web.bodies import FORM_OVERHEAD, BodyTooSlow, EncodedBody, PayloadTooLarge
from app.web.caching import varies_on
from app.web.logs import loggable_path
from app.web.templating import render

log = logging.getLogger("ocp.web")

PROBLEM_TYPE = "application/problem+json"
# No status here has a more specific problem type than its own (RFC 9457 §4.2.1): the title
# is then the reason phrase, and ``detail`` says what happened to this request.
PROBLEM_BLANK = "about:blank"

ADVICE = {
    400: "Check what you sent and try again from the form.",
    404: "Check the address, or start again from the home page.",
    408: "Send the request again, at once and whole.",
    405: "This address does not accept that method.",
    413: "Keep large content in resources the checkpoint references (spec §3, §6.4), or raise "
    "the limit in the deployment's settings (OCP_MAX_BYTES).",
    410: "Ask whoever shared the link for the checkpoint again, or for a new link.",
    415: "Send it again in a media type this address accepts: the message above names them.",
    422: "Fix what is listed, then try again.",
    429: "Wait the number of seconds the Retry-After header gives, then send it again.",
    507: "Nothing more can be stored for now; reading, checking and deleting still work.",
    503: "The checkpoint store is not answering; try again in a minute. Checking a checkpoint "
    "without storing it still works.",
    500: "Something went wrong on our side; nothing you sent was stored.",
}


SMALL_FORM_ADVICE = (
    "This address takes a small form (a deletion token, a few fields), never a document: send "
    "only its fields."
)


def wants_json(request: Request) -> bool:
    """JSON for the API, the .json twins and clients that ask for it; HTML for people."""
    if _json_only(request):
        return True
    varies_on(request.scope, "Accept")
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def wants_problem(request: Request) -> bool:
    """Whether an error goes out as a problem document rather than a page: as `wants_json`,
    and for any client that prefers a JSON type to HTML (`prefers_json`)."""
    if _json_only(request):
        return True
    varies_on(request.scope, "Accept")
    return prefers_json(request.headers.get("accept", ""))


def _json_only(request: Request) -> bool:
    # the path as routed (request.url.path is the same, once a whole URL is built for it)
    path: str = request.scope["path"]
    return path.startswith("/api/") or path.endswith(".json")


HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
JSON_TYPES = frozenset({"application/json", "application/problem+json"})


def prefers_json(accept: str) -> bool:
    """Whether an Accept header ranks a JSON type above HTML. Named HTML wins a tie (a browser
    lists both); a wildcard loses one (``application/json, */*`` asks for JSON)."""
    json_q = html_q = any_q = 0.0
    for item in accept.split(","):
        media_type, _, params = item.partition(";")
        media_type = media_type.strip().lower()
        quality = _quality(params)
        if media_type in JSON_TYPES or media_type.endswith("+json"):
            json_q = max(json_q, quality)
        elif media_type in HTML_TYPES:
            html_q = max(html_q, quality)
        elif media_type in ("*/*", "text/*"):
            any_q = max(any_q, quality)
    return json_q > 0 and json_q > html_q and json_q >= any_q


def _quality(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                return min(max(float(value), 0.0), 1.0)
            except ValueError:
                return 0.0
    return 1.0


# RFC 9110's names, where Python before 3.13 still has RFC 7231's: the title of a problem is
# then the same on every Python the service runs on.
PHRASES = {413: "Content Too Large", 422: "Unprocessable Content"}


def reason_phrase(status: int) -> str:
    """The status's reason phrase, as RFC 9110 names it."""
    if status in PHRASES:
        return PHRASES[status]
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


# Which token a 401 asks for, by the scope of its challenge (app/web/stored.py
# bearer_challenge): fixed words, so no credential a caller sent is ever repeated.
TOKEN_ADVICE = {
    "upload": "Send one of this deployment's upload tokens as 'Authorization: Bearer <token>' "
    "(the Share form has a field for it); the people who run this service issue them "
    "(OCP_UPLOAD_TOKENS).",
    "lineage": "Show that you hold a checkpoint of this lineage: give its storage id as "
    "?holding=, or its deletion token as 'Authorization: Bearer <token>'; or send an upload "
    "token of this deployment, which the people who run it issue.",
    "delete": "Send the deletion token you were given when you shared the checkpoint (the "
    "share answer's deletion_token), as 'Authorization: Bearer <token>' or in the form at "
    "/c/{id}/delete.",
}
AUTH_ADVICE = {
    401: "Send the token the WWW-Authenticate header names, as 'Authorization: Bearer <token>'.",
    403: "The token you sent does not allow this: send the deletion token given when the "
    "checkpoint was shared (the share answer's deletion_token) as 'Authorization: Bearer "
    "<token>'; whoever shared it holds that token.",
}

# Where a person's page says "the form", a program has only what it sent.
PROGRAM_ADVICE = {
    400: "Check what you sent: the detail says what is wrong, and where.",
    415: "Send it again in a media type this address accepts: the detail names them.",
}


def problem(
    status: int, detail: str, extra: dict[str, Any] | None = None, advice: str | None = None
) -> dict[str, Any]:
    """The JSON error body: an RFC 9457 problem and the members it always had."""
    return {
        "type": PROBLEM_BLANK,
        "title": reason_phrase(status),
        "status": status,
        "detail": detail,
        "ok": False,
        "error": detail,
        "advice": advice or PROGRAM_ADVICE.get(status) or ADVICE.get(status, ""),
        **(extra or {}),
    }


def error_response(
    request: Request,
    status: int,
    detail: str,
    extra: dict[str, Any] | None = None,
    advice: str | None = None,
) -> Response:
    """The error as a problem document for programs (`wants_problem`), as a page for people.
    ``advice``: what to do, where the status alone does not say (which token a 401 wants)."""
    extra = extra or {}
    if wants_problem(request):
        return JSONResponse(
            problem(status, detail, extra, advice), status_code=status, media_type=PROBLEM_TYPE
        )
    return HTMLResponse(
        render(
            "error.html",
            status=status,
            detail=detail,
            advice=advice or ADVICE.get(status, ""),
            extra=extra,
        ),
        status_code=status,
    )


def auth_advice(status: int, headers: dict[str, str]) -> str | None:
    """What a 401 or 403 tells the caller to send, from the scope its challenge names."""
    if status not in AUTH_ADVICE:
        return None
    challenge = headers.get("www-authenticate", "")
    for scope, advice in TOKEN_ADVICE.items():
        if f'scope="{scope}"' in challenge:
            return advice
    return AUTH_ADVICE[status]


async def http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    extra = {}
    for name in ("findings", "secret_paths"):  # Unprocessable: what to fix
        if hasattr(exc, name):
            extra[name] = getattr(exc, name)
    gone = getattr(exc, "gone", None)
    if gone is not None:
        # RFC 3339 to the second: the moment it went, not the microsecond a sweep saw it
        extra["gone_at"] = gone.at.replace(microsecond=0).isoformat().replace("+00:00", "Z")
        extra["reason"] = gone.reason
    headers = {name.lower(): value for name, value in (exc.headers or {}).items()}
    advice = auth_advice(exc.status_code, headers)
    response = error_response(request, exc.status_code, str(exc.detail), extra, advice)
    # Allow on 405 (from the router), WWW-Authenticate on 401, and whatever else a view names
    for name, value in headers.items():
        response.headers[name] = value
    return response


async def body_too_slow(request: Request, exc: Exception) -> Response:
    response = error_response(request, 408, str(exc))
    response.headers["connection"] = "close"
    return response


async def encoded_body(request: Request, exc: Exception) -> Response:
    return error_response(request, 415, str(exc))


async def store_unavailable(request: Request, exc: Exception) -> Response:
    log.warning(
        "store unavailable on %s %s: %s", request.method, loggable_path(request.url.path), exc
    )
    response = error_response(request, 503, "the checkpoint store is not answering right now")
    response.headers["retry-after"] = "30"
    return response


async def payload_too_large(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PayloadTooLarge)
    # (a form of a few fields, a deletion token's, past its small limit: no document is in it,
    # and the advice about a document's size and OCP_MAX_BYTES does not apply)
    advice = SMALL_FORM_ADVICE if exc.limit == FORM_OVERHEAD else None
    response = error_response(request, 413, str(exc), advice=advice)
    response.headers["connection"] = "close"
    return response


async def client_gone(request: Request, exc: Exception) -> Response:
    """The client closed the connection before its body arrived: nobody to answer, nothing to
    log beyond the access line (a traceback a request was a cheap way to flood the log)."""
    return Response(status_code=400, headers={"connection": "close"})


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, loggable_path(request.url.path))
    return error_response(request, 500, "internal error")


EXCEPTION_HANDLERS = {
    HTTPException: http_exception,
    PayloadTooLarge: payload_too_large,
    BodyTooSlow: body_too_slow,
    EncodedBody: encoded_body,
    StoreUnavailable: store_unavailable,
    ClientDisconnect: client_gone,
    Exception: server_error,
}
