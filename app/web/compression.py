"""gzip for the pages and JSON answers a client accepts it for (issue 12: a 2 MB document's
page is several megabytes of very repetitive HTML).

Left as they are: responses that already say their coding or carry an entity tag (the stored
pages, the raw bytes and the static files encode and tag each coding themselves: one tag for
two codings would break conditional requests), streamed bodies, and small ones. Every answer of
a type that is compressed says ``Vary: Accept-Encoding``, whether this one was or not: a cache
that kept the identity answer for a client that refused gzip must not hand it to one that
accepts it as if nothing else were possible, nor the reverse (RFC 9110 §12.5.5). Which codings a
client accepts is read as `app.web.caching.accepts_gzip` reads it (``gzip;q=0`` refuses).

An answer made for one request is compressed at DYNAMIC_LEVEL, in under half the default
level's time for an eighth more bytes; only the stored pages, compressed once and sent many
times, get the default level (`gzip_body`). A page rendered in a worker thread comes with its
gzip made there too (`Precompressed`), so the event loop only sends it.

Nothing secret is compressed beside text an attacker chooses (BREACH): the only secret a page
carries is the deletion token of the share result, minted by the very request that shows it,
so a third party learns nothing it could not ask for itself.
"""

from __future__ import annotations

import gzip

import anyio.to_thread
from starlette.datastructures import MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.caching import gzip_accepted, listed, request_header, response_fields, vary_on

COMPRESSED_TYPES = frozenset({"text/html", "application/json", "application/problem+json"})
MINIMUM_SIZE = 1024
# Level 6 (zlib's default) makes a 7 MB page about as small as level 9 does, in a third of
# the time: the level of what is compressed once and kept (the stored pages).
LEVEL = 6
# Level 3, the best of zlib's fast levels, for what is compressed for one request: the 83 KB
# page of a 5 KB document in 0.47 ms to 17.0 KB where level 6 took 1.11 ms for 15.2 KB, the
# 2.4 MB page of a 2 MB one in 6.5 ms to 153 KB (13 ms, 135 KB). Level 1 saves a tenth of a
# millisecond more on the small page for another 1.2 KB.
DYNAMIC_LEVEL = 3
# Past this, a body the middleware compresses itself is compressed off the event loop.
THREAD_SIZE = 128 * 1024
# The key of a body message that carries its gzip beside its bytes (`Precompressed`): an
# extension of our own between the response and this middleware, which takes it out.
GZIPPED = "ocp.gzipped"


class CompressionMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None

        async def send_compressed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                # the headers read straight from the list (a Headers for each answer cost as
                # much as the rest of this middleware)
                fields = response_fields(message.get("headers", []), *_READ)
                compressed_type = _media_type(fields.get(b"content-type", "")) in COMPRESSED_TYPES
                if compressed_type and not listed(fields.get(b"vary", ""), "Accept-Encoding"):
                    vary_on(MutableHeaders(scope=message), "Accept-Encoding")
                if (
                    compressed_type
                    and b"content-encoding" not in fields
                    and b"etag" not in fields
                    and gzip_accepted(request_header(scope, b"accept-encoding"))
                ):
                    start = message  # held until the body says whether it is one piece
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(_without_gzip(message))
                return
            held, start = start, None
            body: bytes = message.get("body", b"")
            if message.get("more_body", False) or len(body) < MINIMUM_SIZE:
                await send(held)  # streamed or small: as it is
                await send(_without_gzip(message))
                return
            packed: bytes | None = message.get(GZIPPED)
            if packed is None and len(body) > THREAD_SIZE:
                packed = await anyio.to_thread.run_sync(gzip_body, body, DYNAMIC_LEVEL)
            elif packed is None:
                packed = gzip_body(body, DYNAMIC_LEVEL)
            headers = MutableHeaders(scope=held)
            headers["content-encoding"] = "gzip"
            headers["content-length"] = str(len(packed))
            await send(held)
            await send({**_without_gzip(message), "body": packed})

        await self.app(scope, receive, send_compressed)


# what the middleware reads of a response's headers
_READ = (b"content-type", b"content-encoding", b"etag", b"vary")


def _media_type(content_type: str) -> str:
    return content_type.partition(";")[0].strip().lower()


def _without_gzip(message: Message) -> Message:
    """``message`` as the server gets it: without the gzip a `Precompressed` body carries."""
    if GZIPPED not in message:
        return message
    return {key: value for key, value in message.items() if key != GZIPPED}


def gzip_body(body: bytes, level: int = LEVEL) -> bytes:
    """A response body as this service sends it gzipped (the stored pages' cache at LEVEL,
    answers made for one request at DYNAMIC_LEVEL); mtime 0: the same page gives the same
    bytes."""
    return gzip.compress(body, compresslevel=level, mtime=0)


class Precompressed(Response):
    """``response`` as made whole in the worker thread that rendered it: its body encoded and,
    for a client that accepts gzip, gzipped there too, so the event loop only sends it (the
    83 KB page of a 5 KB document took 1.2 ms of the loop to compress, every other request
    waiting; a larger one, a second thread hop). The middleware sends the gzip under the same
    rules as any other body's (type, size, entity tag), and leaves it out where it does not;
    what the server receives is an ordinary response."""

    def __init__(self, response: Response, *, gzip_wanted: bool) -> None:
        # the response's own status, headers and body, as it would send them (no second
        # encoding: Response.__init__ would render the content again)
        self.status_code = response.status_code
        self.background = response.background
        self.body = response.body
        self.raw_headers = response.raw_headers
        body = bytes(self.body)
        wanted = gzip_wanted and len(body) >= MINIMUM_SIZE
        self.gzipped = gzip_body(body, DYNAMIC_LEVEL) if wanted else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        body: Message = {"type": "http.response.body", "body": self.body}
        if self.gzipped is not None:
            body[GZIPPED] = self.gzipped
        await send(body)
        if self.background is not None:
            await self.background()
