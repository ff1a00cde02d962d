"""The MCP server over streamable HTTP, at /mcp in the service (issue 14).

The same server as `ocp mcp` (app/mcp_server.py), its store tools calling the service's app in
this process, each request made as from the MCP client's own address: the limits, the
capability rules, the upload tokens and the rate limits are the service's own, unchanged.
Stateless (every request stands alone, as the tools need no session) and answering JSON rather
than an event stream: what a load balancer and several instances serve without affinity.

The MCP server is a consumer of the service, so this module imports the service and is given to
it as a mount (app/web/mounts.py); the service never imports the MCP server.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.config import Settings
from app.mcp_refusals import JsonRpcRefusals, send_error
from app.web import create_app
from app.web.bodies import FORM_OVERHEAD

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

MCP_PATH = "/mcp"


def service_with_mcp(
    settings: Settings, *, clock: Callable[[], datetime] | None = None
) -> Starlette:
    """The service as `ocp serve` runs it: its own routes, and the MCP server at /mcp."""
    return create_app(settings, clock=clock, mounts=[McpEndpoint(settings)])


class McpEndpoint:
    """The route of /mcp. The MCP server is built when the service starts (`running`, in its
    lifespan), not with the app: the SDK and the tools' models cost 20 ms an app, which a
    test suite making thousands pays for nothing, and 0.7 s of imports."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._app: ASGIApp | None = None
        self._handler: ASGIApp | None = None
        # No GET: a stateless server has no stream to push messages on, and the SDK answered
        # GET with an event stream that never sent or closed, each one holding a connection
        # of the service's cap for as long as its client liked. Streamable HTTP lets a server
        # answer 405 instead, and clients then only POST. No DELETE either: a stateless server
        # hands out no session id, so there is no session to end (the SDK answered 405 to it
        # while Allow listed it).
        self.routes: list[BaseRoute] = [Route(MCP_PATH, self, methods=["POST"])]
        # a tool call carries a checkpoint and its parent
        self.pair_paths = frozenset({MCP_PATH})

    def bind(self, app: ASGIApp) -> None:
        """The service whose HTTP API the store tools call (made after its routes)."""
        self._app = app

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        from app.mcp_server import build_server, in_process

        assert self._app is not None, "bind the service first"
        service = in_process(self._app, self.settings)
        server = build_server(self.settings, lambda: service)
        inner = server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            json_response=True,
            stateless_http=True,
            # a tool call carries a checkpoint (and a parent), escaped as JSON strings
            max_request_body_size=2 * self.settings.limits.max_bytes + FORM_OVERHEAD,
            transport_security=_security(self.settings),
        )
        (route,) = [r for r in inner.routes if isinstance(r, Route)]
        async with server.session_manager.run():
            # the transport's refusals (Origin, Host, size, a batch) as JSON-RPC errors
            self._handler = JsonRpcRefusals(route.app)
            try:
                yield
            finally:
                self._handler = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._handler is None:  # an app whose lifespan never ran (never `ocp serve`)
            await send_error(send, 503, "the MCP endpoint runs only in a started service")
            return
        await self._handler(scope, receive, send)


# Without OCP_PUBLIC_URL, /mcp answers at the loopback names only: a page that rebinds its own
# name to this machine (DNS rebinding) sends its name as Host, and is refused.
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def _security(settings: Settings) -> TransportSecuritySettings:
    """MCP's transport security (the streamable-HTTP transport MUST validate Origin): the
    Host and any Origin must be the service's own, the host of OCP_PUBLIC_URL; without it,
    a loopback name. A deployment reached by another name sets OCP_PUBLIC_URL."""
    from mcp.server.transport_security import TransportSecuritySettings

    if settings.public_url is None:
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=LOOPBACK_HOSTS,
            allowed_origins=LOOPBACK_ORIGINS,
        )
    parts = urlsplit(settings.public_url)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[parts.netloc],
        allowed_origins=[f"{parts.scheme}://{parts.netloc}"],
    )
