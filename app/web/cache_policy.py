"""What a cache must know of every answer, set in one place, so no route can forget it:

* every answer of a capability's address (app/web/caching.py `is_capability`), errors, 304s
  and the expired or deleted page included, is ``private``;
* every answer names in Vary the request headers its negotiation read (`varies_on`: the
  error pages and the twins that choose JSON or HTML by Accept).

Outermost of the middleware, so the 304s made inside (app/web/tagging.py) carry both too.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.caching import (
    VARIED_ON,
    is_capability,
    listed,
    private_policy,
    response_fields,
    vary_on,
)


class CachePolicyMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        varied: set[str] = set()
        scope[VARIED_ON] = varied
        capability = is_capability(scope["path"])

        async def send_with_policy(message: Message) -> None:
            if message["type"] == "http.response.start" and (capability or varied):
                fields = response_fields(message.get("headers", []), b"cache-control", b"vary")
                policy = fields.get(b"cache-control")
                vary = fields.get(b"vary", "")
                # Edited only where something changes: a cached permalink says all of it
                # already (app/web/stored.py), and is the answer sent most often.
                if (capability and private_policy(policy) != policy) or any(
                    not listed(vary, name) for name in varied
                ):
                    headers = MutableHeaders(scope=message)
                    if capability:
                        headers["cache-control"] = private_policy(headers.get("cache-control"))
                    if varied:
                        vary_on(headers, *sorted(varied))
            await send(message)

        await self.app(scope, receive, send_with_policy)
