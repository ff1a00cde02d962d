"""gzip for the pages and JSON answers a client accepts it for (issue 12: a 2 MB document's
page is several megabytes of very repetitive HTML).

Left as they are: responses that already say their coding or carry an entity tag (the stored
pages, the raw bytes and the static files encode and tag each coding themselves: one tag for
two codings would break conditional requests), streamed bodies, and small ones. Every answer of
a type that is compressed says ``Vary: Accept-Encoding``, whether this one was or not: a cache
that kept the identity answer for a client that refused gzip must not hand it to one that
accepts it as if nothing else were possible, nor the reverse (RFC 9110 §12.5.5). Which codings a
client accepts is read as `app.web.caching.accepts_gzip` reads it (``gzip;q=0`` refuses).

Nothing secret is compressed beside text an attacker chooses (BREACH): the only secret a page
carries is the deletion token of the share result, minted by the very request that shows it,
so a third party learns nothing it could not ask for itself.
"""

from __future__ import annotations

import gzip

import anyio.to_thread
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.caching import accepts_gzip, vary_on

COMPRESSED_TYPES = frozenset({"text/html", "application/json", "application/problem+json"})
MINIMUM_SIZE = 1024
# Level 6 (zlib's default) makes a 7 MB page about as small as level 9 does, in a third of
# the time; past THREAD_SIZE it is compressed off the event loop.
LEVEL = 6
THREAD_SIZE = 128 * 1024


class CompressionMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        gzipped = accepts_gzip(Request(scope))
        start: Message | None = None

        async def send_compressed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = Headers(raw=message.get("headers", []))
                if _media_type(headers) in COMPRESSED_TYPES:
                    vary_on(MutableHeaders(scope=message), "Accept-Encoding")
                if gzipped and _compressible(headers):
                    start = message  # held until the body says whether it is one piece
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            held, start = start, None
            body: bytes = message.get("body", b"")
            if message.get("more_body", False) or len(body) < MINIMUM_SIZE:
                await send(held)  # streamed or small: as it is
                await send(message)
                return
            if len(body) > THREAD_SIZE:
                packed = await anyio.to_thread.run_sync(gzip_body, body)
            else:
                packed = gzip_body(body)
            headers = MutableHeaders(scope=held)
            headers["content-encoding"] = "gzip"
            headers["content-length"] = str(len(packed))
            await send(held)
            await send({**message, "body": packed})

        await self.app(scope, receive, send_compressed)


def _compressible(headers: Headers) -> bool:
    if "content-encoding" in headers or "etag" in headers:
        return False
    return _media_type(headers) in COMPRESSED_TYPES


def _media_type(headers: Headers) -> str:
    return headers.get("content-type", "").partition(";")[0].strip().lower()


def gzip_body(body: bytes) -> bytes:
    """A response body as this service sends it gzipped (the stored pages' cache too); mtime 0:
    the same page gives the same bytes."""
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)
