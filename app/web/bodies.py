"""Request bodies within limits: refused while they stream, before they are all read.

* over the size limit of its route (`body_limit`): 413, at once when Content-Length says so,
  otherwise as soon as the streamed bytes pass it;
* too slow (a client trickling a byte a second holds a worker and a connection): 408 once the
  whole body has taken longer than the body timeout;
* compressed (Content-Encoding other than identity): 415, since a small gzip body can inflate
  to gigabytes and nothing here needs compression.
"""

from __future__ import annotations

import time

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class PayloadTooLarge(Exception):
    def __init__(self, limit: int, what: str = "the request body") -> None:
        super().__init__(f"{what} is larger than {limit:,} bytes")
        self.limit = limit


class BodyTooSlow(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"the request body did not arrive within {seconds:g} seconds; send it again, whole"
        )


class EncodedBody(Exception):
    def __init__(self, encoding: str) -> None:
        super().__init__(
            f"compressed request bodies ({encoding[:40]}) are not accepted; send the document "
            "uncompressed"
        )


# Room for a form's framing and its small fields (lifetime, upload token) beside the documents.
FORM_OVERHEAD = 64 * 1024
# The most fields a form sends: the documents, their names, the share form's choices and a
# page's list and filter choices (app/render/query.py), each parameter given a few times.
FORM_FIELDS = 24
# Routes whose form carries a checkpoint and its parent (or, for the guard, a checkpoint's
# text as a JSON string, escaped, and the call). A mount adds its own (app/web/mounts.py:
# /mcp, a tool call with a checkpoint and its parent).
_PAIR_FORMS = frozenset({"/live", "/diff", "/diff.json", "/api/v1/lint", "/api/v1/guard"})
# Routes that take the Share form too: a checkpoint and its parent, each base64
# (app/web/carried.py; a page's own buttons send it back to /view).
_CARRIED_FORMS = frozenset({"/share", "/view", "/view.json"})
# Routes that take a checkpoint as the whole body (application/json and the like)
_RAW_DOCUMENT = frozenset({"/api/v1/lint", "/api/v1/checkpoints", "/view", "/view.json"})
_FORM_TYPES = (b"multipart/form-data", b"application/x-www-form-urlencoded")


def body_limit(
    path: str, content_type: bytes, max_document: int, pair_forms: frozenset[str] = _PAIR_FORMS
) -> int:
    """The largest body a request to ``path`` may send: one document for the raw API, two
    and a form's framing for the forms that carry a parent, the base64 of two for Share, and
    a small form for everything else (deleting, a GET that sends a body anyway)."""
    kind = content_type.split(b";")[0].strip().lower()
    if path in _RAW_DOCUMENT and kind not in _FORM_TYPES:
        return max_document
    if path in pair_forms:
        return 2 * max_document + FORM_OVERHEAD
    if path in _CARRIED_FORMS:  # a checkpoint and its parent, each base64
        return 2 * carried_limit(max_document) + FORM_OVERHEAD
    return FORM_OVERHEAD


def carried_limit(max_document: int) -> int:
    """The longest field that carries one document (its base64)."""
    return 4 * (max_document + 2) // 3


class BodyLimitMiddleware:
    """Enforces the size limit of each route, the body timeout and the identity encoding on
    every request body; the endpoint sees the exceptions above, which the error handlers turn
    into pages."""

    def __init__(
        self,
        app: ASGIApp,
        max_document: int,
        timeout: float = 30.0,
        pair_paths: frozenset[str] = frozenset(),
    ) -> None:
        self.app = app
        self.max_document = max_document
        self.timeout = timeout
        self.pair_forms = _PAIR_FORMS | pair_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal: Exception | None = None
        content_type = b""
        declared = 0
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
            elif name == b"content-type":
                content_type = value
            elif name == b"content-encoding" and value.strip().lower() not in (b"", b"identity"):
                refusal = EncodedBody(value.decode("latin-1"))
        max_body = body_limit(scope["path"], content_type, self.max_document, self.pair_forms)
        if refusal is None and declared > max_body:
            refusal = PayloadTooLarge(max_body)
        received = 0
        deadline: float | None = None
        complete = False

        async def limited_receive() -> Message:
            nonlocal received, deadline, complete
            if refusal is not None:
                raise refusal
            if complete:  # the body is in; later calls wait for a disconnect: no deadline
                return await receive()
            if deadline is None:
                deadline = time.monotonic() + self.timeout
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BodyTooSlow(self.timeout)
            with anyio.move_on_after(remaining) as scope_:
                message = await receive()
            if scope_.cancelled_caught:
                raise BodyTooSlow(self.timeout)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_body:
                    raise PayloadTooLarge(max_body)
                complete = not message.get("more_body", False)
            return message

        await self.app(scope, limited_receive, send)
