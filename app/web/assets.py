"""Our static files (`static/`), served from the package's resources.

A fixed list, read once: nothing else in the folder is reachable (its `__init__.py`, the
vendor notes), and each file carries a strong ETag of its bytes."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from app.resources import static_file
from app.web.caching import etag_of, not_modified

MEDIA_TYPES = {
    "app.css": "text/css; charset=utf-8",
    "print.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
    "vendor/htmx-2.0.11.min.js": "text/javascript; charset=utf-8",
}


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


@functools.cache
def asset(name: str) -> Asset | None:
    media_type = MEDIA_TYPES.get(name)
    if media_type is None:
        return None
    body = static_file(name).read_bytes()
    return Asset(body, media_type, etag_of(body))


def asset_response(request: Request, name: str) -> Response:
    found = asset(name)
    if found is None:
        raise HTTPException(404, "there is no such static file")
    headers = {"etag": found.etag, "cache-control": "public, max-age=3600"}
    if not_modified(request, found.etag):
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type=found.media_type, headers=headers)


async def static(request: Request) -> Response:
    return asset_response(request, request.path_params["path"])


async def favicon(request: Request) -> Response:
    return asset_response(request, "favicon.svg")
