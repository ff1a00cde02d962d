"""Absolute URLs for the links the service hands out (permalinks, Open Graph tags, the
`Location` of a new checkpoint).

`OCP_PUBLIC_URL` when the deployment sets it; otherwise the request's own scheme, host and
port, so `ocp serve --port 8765` hands out links on 8765. Behind a proxy, the proxy's
`X-Forwarded-*` headers count only from the addresses given to `--forwarded-allow-ips`
(uvicorn's setting): anyone else could name any host."""

from __future__ import annotations

import functools

from starlette.datastructures import URL
from starlette.requests import Request

from app.web.caching import request_header


def public_base(request: Request) -> str:
    """The service's base URL, without a trailing slash."""
    configured: str | None = request.app.state.settings.public_url
    if configured:
        return configured
    scope = request.scope
    host = request_header(scope, b"host")
    root = scope.get("app_root_path", scope.get("root_path", ""))
    if host is not None and len(host) > _HOST_CHARS:
        return str(request.base_url).rstrip("/")  # kept out of the cache below
    server = scope.get("server")  # a list from some servers (Starlette's test client)
    return _base(scope.get("scheme", "http"), None if server is None else tuple(server), host, root)


# A host name has at most 253 characters, and a port 6 more; a longer Host header names none.
_HOST_CHARS = 260


# What Starlette's request.base_url makes of the parts it reads, kept for the few a service is
# asked under: building it was most of a cached permalink's own work. Bounded, as the Host
# header is the client's to send.
@functools.lru_cache(maxsize=64)
def _base(scheme: str, server: tuple[str, int] | None, host: str | None, root: str) -> str:
    scope = {
        "type": "http",
        "scheme": scheme,
        "server": server,
        "path": root if root.endswith("/") else root + "/",
        "root_path": root,
        "query_string": b"",
        "headers": [] if host is None else [(b"host", host.encode("latin-1"))],
    }
    return str(URL(scope=scope)).rstrip("/")


def absolute(request: Request, path: str) -> str:
    """``path`` (which starts with "/") as an absolute URL of this service."""
    return public_base(request) + path
