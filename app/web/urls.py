"""Absolute URLs for the links the service hands out (permalinks, Open Graph tags, the
`Location` of a new checkpoint).

`OCP_PUBLIC_URL` when the deployment sets it; otherwise the request's own scheme, host and
port, so `ocp serve --port 8765` hands out links on 8765. Behind a proxy, the proxy's
`X-Forwarded-*` headers count only from the addresses given to `--forwarded-allow-ips`
(uvicorn's setting): anyone else could name any host."""

from __future__ import annotations

from starlette.requests import Request


def public_base(request: Request) -> str:
    """The service's base URL, without a trailing slash."""
    configured: str | None = request.app.state.settings.public_url
    if configured:
        return configured
    return str(request.base_url).rstrip("/")


def absolute(request: Request, path: str) -> str:
    """``path`` (which starts with "/") as an absolute URL of this service."""
    return public_base(request) + path
