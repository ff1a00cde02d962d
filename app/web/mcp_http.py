"""The MCP server over streamable HTTP, at /mcp in the service (issue 14).

The same server as `ocp mcp` (app/mcp_server.py), its store tools calling this very app in
this process, each request made as from the MCP client's own address: the limits, the
capability rules, the upload tokens and the rate limits are the service's own, unchanged.
Stateless (every request stands alone, as the tools need no session) and answering JSON rather
than an event stream: what a load balancer and several instances serve without affinity.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from app.config import Settings
from app.mcp_server import Service, build_server, in_process
from app.web.bodies import FORM_OVERHEAD

MCP_PATH = "/mcp"


class McpEndpoint:
    """The routes of /mcp, and the lifespan its session manager needs; the app it calls is
    set when the app exists (`bind`), since the routes are made before it."""

    def __init__(self, settings: Settings) -> None:
        self._service: Service | None = None
        self.server = build_server(settings, self._current)
        inner = self.server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            json_response=True,
            stateless_http=True,
            # a tool call carries a checkpoint (and a parent), escaped as JSON strings
            max_request_body_size=2 * settings.limits.max_bytes + FORM_OVERHEAD,
            transport_security=_security(settings),
        )
        self.routes: list[BaseRoute] = list(inner.routes)
        self.settings = settings

    def _current(self) -> Service:
        assert self._service is not None, "the /mcp endpoint is used before its app exists"
        return self._service

    def bind(self, app: ASGIApp) -> None:
        self._service = in_process(app, self.settings)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with self.server.session_manager.run():
            yield


def _security(settings: Settings) -> TransportSecuritySettings:
    """DNS-rebinding protection (MCP's transport security) where the service's address is
    known: only its host, and browser pages of its own origin. Without OCP_PUBLIC_URL the
    service answers whatever host it is reached at, as its pages do."""
    if settings.public_url is None:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    parts = urlsplit(settings.public_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[parts.netloc],
        allowed_origins=[origin],
    )
