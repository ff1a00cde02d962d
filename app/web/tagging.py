"""An entity tag on every answer that does not make its own, and the 304 it allows.

The stored pages, their raw bytes and the static files tag each of their codings themselves
(app/web/caching.py), from what they cache. Everything else the service answers to a GET in one
piece (the front page, the rules and their JSON twins, the schema, the OpenAPI document, a
stored checkpoint's source and lineage pages) is tagged here, from the bytes sent: outside the
gzip middleware, so each coding has its own tag, as there (RFC 9110 §8.8.3).

Left untagged: other methods, answers other than 200, streamed bodies, and answers that must not
be stored (``no-store``: those carrying a deletion token), which no cache should revalidate.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.caching import etag_of, not_modified

# What a 304 keeps of the 200 it stands for: no content, so no content's metadata (§15.4.5).
_CONTENT_HEADERS = ("content-length", "content-type", "content-encoding")


class EntityTagMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        start: Message | None = None

        async def send_tagged(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = Headers(raw=message.get("headers", []))
                if message["status"] == 200 and _untagged(headers):
                    start = message  # held until the body says whether it is one piece
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            held, start = start, None
            if message.get("more_body", False):
                await send(held)  # streamed: as it is
                await send(message)
                return
            headers = MutableHeaders(scope=held)
            body: bytes = message.get("body", b"")
            etag = headers["etag"] = etag_of(body, headers.get("content-encoding"))
            if not_modified(Request(scope), etag):
                for name in _CONTENT_HEADERS:
                    del headers[name]
                await send({**held, "status": 304})
                await send({"type": "http.response.body", "body": b""})
                return
            await send(held)
            await send(message)

        await self.app(scope, receive, send_tagged)


def _untagged(headers: Headers) -> bool:
    return "etag" not in headers and "no-store" not in headers.get("cache-control", "")
