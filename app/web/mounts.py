"""What another part of the program may add to the service: routes of its own, run for as long
as the service runs, calling the service back through its own app.

The MCP server at /mcp is one (app/mcp_http.py). It is a consumer of the service, built on its
HTTP API, so the dependency runs one way: it imports the service, and the service knows it
only as a ``Mount`` it was given (``create_app(settings, mounts=[...])``).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from starlette.routing import BaseRoute
from starlette.types import ASGIApp


class Mount(Protocol):
    """Routes the service serves beside its own, with their own lifetime."""

    @property
    def routes(self) -> list[BaseRoute]:
        """Served after the service's own routes."""
        ...

    @property
    def pair_paths(self) -> frozenset[str]:
        """Paths of ``routes`` whose request bodies may carry a checkpoint and its parent
        (the body limit allows two documents and a form's framing there)."""
        ...

    def bind(self, app: ASGIApp) -> None:
        """Told the finished service, before it starts, to call it back."""
        ...

    def running(self) -> AbstractAsyncContextManager[None]:
        """Entered when the service starts (its lifespan) and left when it stops."""
        ...
