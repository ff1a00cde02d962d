"""Request bodies within limits: refused with 413 while they stream, before they are all read."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class PayloadTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is larger than {limit:,} bytes")
        self.limit = limit


class BodyLimitMiddleware:
    """Refuses a body over ``max_body`` bytes: at once when Content-Length says so, otherwise
    as soon as the streamed bytes pass the limit (the endpoint then sees `PayloadTooLarge`,
    which the error handlers turn into 413)."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_body:
                    scope.setdefault("state", {})["body_too_large"] = self.max_body
                break
        received = 0
        limit = self.max_body

        async def limited_receive() -> Message:
            nonlocal received
            if scope.get("state", {}).get("body_too_large"):
                raise PayloadTooLarge(limit)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise PayloadTooLarge(limit)
            return message

        await self.app(scope, limited_receive, send)
