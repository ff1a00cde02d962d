"""Request bodies within limits: refused while they stream, before they are all read.

* over the size limit: 413, at once when Content-Length says so, otherwise as soon as the
  streamed bytes pass it;
* too slow (a client trickling a byte a second holds a worker and a connection): 408 once the
  whole body has taken longer than the body timeout;
* compressed (Content-Encoding other than identity): 415, since a small gzip body can inflate
  to gigabytes and nothing here needs compression.
"""

from __future__ import annotations

import time

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class PayloadTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is larger than {limit:,} bytes")
        self.limit = limit


class BodyTooSlow(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(
            f"the request body did not arrive within {seconds:g} seconds; send it again, whole"
        )


class EncodedBody(Exception):
    def __init__(self, encoding: str) -> None:
        super().__init__(
            f"compressed request bodies ({encoding[:40]}) are not accepted; send the document "
            "uncompressed"
        )


class BodyLimitMiddleware:
    """Enforces the size limit, the body timeout and the identity encoding on every request
    body; the endpoint sees the exceptions above, which the error handlers turn into pages."""

    def __init__(self, app: ASGIApp, max_body: int, timeout: float = 30.0) -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal: Exception | None = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_body:
                    refusal = PayloadTooLarge(self.max_body)
            elif name == b"content-encoding" and value.strip().lower() not in (b"", b"identity"):
                refusal = EncodedBody(value.decode("latin-1"))
        received = 0
        deadline: float | None = None
        complete = False

        async def limited_receive() -> Message:
            nonlocal received, deadline, complete
            if refusal is not None:
                raise refusal
            if complete:  # the body is in; later calls wait for a disconnect: no deadline
                return await receive()
            if deadline is None:
                deadline = time.monotonic() + self.timeout
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BodyTooSlow(self.timeout)
            with anyio.move_on_after(remaining) as scope_:
                message = await receive()
            if scope_.cancelled_caught:
                raise BodyTooSlow(self.timeout)
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise PayloadTooLarge(self.max_body)
                complete = not message.get("more_body", False)
            return message

        await self.app(scope, limited_receive, send)
