"""Entity tags, the 304 they allow, and HEAD, for every route at once.

The stored pages, their raw bytes and the static files tag each of their codings themselves
(app/web/caching.py), from what they cache. Everything else the service answers to a GET in one
piece (the front page, the rules and their JSON twins, the schema, the OpenAPI document, a
stored checkpoint's source and lineage pages) is tagged here, from the bytes sent: outside the
gzip middleware, so each coding has its own tag, as there (RFC 9110 §8.8.3). A 200 that carries
a tag, its route's or ours, is a 304 when If-None-Match matches it, whether or not the route
checked.

HEAD is answered as GET is, then the body dropped (§9.3.2): the same status and headers, the
ETag and Content-Length of the body a GET gets included, and a 304 where a GET gets one. The
routes below see a GET.

Left untagged: other methods, answers other than 200, streamed bodies, and answers that must not
be stored (``no-store``: those carrying a deletion token), which no cache should revalidate.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.caching import etag_of, none_match, request_header, response_fields

# What a 304 keeps of the 200 it stands for: no content, so no content's metadata (§15.4.5).
_CONTENT_HEADERS = ("content-length", "content-type", "content-encoding")
_EMPTY: Message = {"type": "http.response.body", "body": b""}


class EntityTagMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        wanted = request_header(scope, b"if-none-match")
        start: Message | None = None
        answered = False  # a 304 went out: the route's body is dropped

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        send_out = without_body if head else send

        async def not_modified(held: Message) -> None:
            nonlocal answered
            headers = MutableHeaders(scope=held)
            for name in _CONTENT_HEADERS:
                del headers[name]
            answered = True
            await send({**held, "status": 304})
            await send(_EMPTY)

        async def send_tagged(message: Message) -> None:
            nonlocal start
            if answered:
                return
            if message["type"] == "http.response.start":
                fields = response_fields(message.get("headers", []), b"etag", b"cache-control")
                etag = fields.get(b"etag")
                if message["status"] != 200:
                    await send_out(message)
                elif etag is not None:
                    if none_match(wanted, etag):
                        await not_modified(message)
                    else:
                        await send_out(message)
                elif "no-store" in fields.get(b"cache-control", ""):
                    await send_out(message)
                else:
                    start = message  # held until the body says whether it is one piece
                return
            if start is None or message["type"] != "http.response.body":
                await send_out(message)
                return
            held, start = start, None
            if message.get("more_body", False):
                await send_out(held)  # streamed: as it is
                await send_out(message)
                return
            headers = MutableHeaders(scope=held)
            body: bytes = message.get("body", b"")
            etag = headers["etag"] = etag_of(body, headers.get("content-encoding"))
            if none_match(wanted, etag):
                await not_modified(held)
                return
            await send_out(held)
            await send_out(message)

        # The routes answer HEAD as GET; the scope is copied, so the server still sees HEAD.
        inner = {**scope, "method": "GET"} if head else scope
        await self.app(inner, receive, send_tagged)
