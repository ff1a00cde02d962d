"""CORS for the read-only and lint endpoints, for the origins OCP_CORS_ORIGINS names.

A script on an allowed origin may read what anyone holding the address may read (the API
description, the listing, a stored checkpoint's JSON twins and exact bytes, the rules, the
schema) and may lint or guard a document it sends, which stores nothing. Writes (storing,
sharing, deleting) never answer CORS, so no other site's page can make a visitor's browser
store or delete through this service and read the answer. Credentials are never allowed: the
service has no cookies, and a bearer token a script sends is its own.

Starlette's CORSMiddleware applies to every route; this one answers only for the paths and
methods below and passes everything else through untouched, so a write's preflight gets the
route's own 405 without a single Access-Control-* header.
"""

from __future__ import annotations

import re

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

READ = frozenset({"GET", "HEAD"})
LINT = frozenset({"POST"})
# Each path (a storage id where /c/ has one: Starlette's own [^/]+) and the methods a script
# on an allowed origin may use there.
CORS_ROUTES: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = (
    (re.compile(r"/api/v1/openapi\.json"), READ),
    (re.compile(r"/openapi\.json"), READ),  # the same description, where tools look
    (re.compile(r"/healthz"), READ),
    (re.compile(r"/readyz"), READ),
    (re.compile(r"/api/v1/checkpoints"), READ),  # the listing; POST stores, so never
    (re.compile(r"/api/v1/lint"), LINT),
    (re.compile(r"/api/v1/guard"), LINT),
    (re.compile(r"/c/[^/]+\.json"), READ),
    (re.compile(r"/c/[^/]+/raw"), READ),
    (re.compile(r"/c/[^/]+\.md"), READ),  # the summary for a ticket
    (re.compile(r"/c/[^/]+/badge\.svg"), READ),
    (re.compile(r"/c/[^/]+/preview\.png"), READ),
    (re.compile(r"/c/[^/]+/lineage\.json"), READ),
    (re.compile(r"/c/[^/]+/diff\.json"), READ),
    (re.compile(r"/diff\.json"), READ),  # GET ?from=&to=; POST is the home page's form
    (re.compile(r"/c/[^/]+/diff\.patch"), READ),
    (re.compile(r"/diff\.patch"), READ),
    (re.compile(r"/rules\.json"), READ),
    (re.compile(r"/rules/[^/]{1,64}\.json"), READ),  # a rule's twin
    (re.compile(r"/schema/opencheckpoint-0\.1\.schema\.json"), READ),  # SCHEMA_ROUTE
)
# Content-Type: application/json (lint, guard) and Authorization (the listing's proof) make
# a request that is not simple, so the preflight must allow them; If-None-Match revalidates.
ALLOW_HEADERS = "Authorization, Content-Type, If-None-Match"
EXPOSE_HEADERS = "ETag, Retry-After"
MAX_AGE = "600"  # seconds a browser may keep a preflight's answer


def cors_methods(path: str) -> frozenset[str]:
    """The methods a cross-origin script may use on ``path``; empty: none."""
    for pattern, methods in CORS_ROUTES:
        if pattern.fullmatch(path):
            return methods
    return frozenset()


class ReadOnlyCORSMiddleware:
    """CORS on `CORS_ROUTES` only, for ``origins`` (``"*"``: any origin); never credentials."""

    def __init__(self, app: ASGIApp, origins: frozenset[str]) -> None:
        self.app = app
        self.origins = origins
        self.any_origin = "*" in origins

    def allows(self, origin: str) -> bool:
        return self.any_origin or origin.lower() in self.origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.origins or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        methods = cors_methods(scope["path"])
        if not methods:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        method = scope["method"]
        preflight = method == "OPTIONS" and "access-control-request-method" in headers
        allowed = origin is not None and self.allows(origin)
        if preflight:
            requested = headers["access-control-request-method"].strip().upper()
            if allowed and requested in methods:
                assert origin is not None
                await self._preflight(origin, methods)(scope, receive, send)
                return
            # A disallowed origin or method: the route's own answer (405), no CORS.
            await self.app(scope, receive, send)
            return
        if method not in methods:
            await self.app(scope, receive, send)
            return

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                response_headers = MutableHeaders(scope=message)
                # The answer differs by Origin even when a request sends none: a cache must
                # not hand the answer without these headers to a script that needs them.
                response_headers.add_vary_header("Origin")
                if allowed and origin is not None:
                    response_headers["access-control-allow-origin"] = self._allowed(origin)
                    response_headers["access-control-expose-headers"] = EXPOSE_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_cors)

    def _allowed(self, origin: str) -> str:
        return "*" if self.any_origin else origin

    def _preflight(self, origin: str, methods: frozenset[str]) -> Response:
        return Response(
            status_code=204,
            headers={
                "access-control-allow-origin": self._allowed(origin),
                "access-control-allow-methods": ", ".join(sorted(methods)),
                "access-control-allow-headers": ALLOW_HEADERS,
                "access-control-max-age": MAX_AGE,
                "vary": "Origin",
            },
        )
