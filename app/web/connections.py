"""The HTTP protocol of `ocp serve`: uvicorn's h11 protocol with the two guards it lacks.

* A header deadline. uvicorn closes a kept-alive connection left idle, but a connection that
  sends part of a request line or of its headers and then stalls (a slowloris: one byte every
  few seconds, never the blank line) is held for ever, each one a file descriptor. Here a
  request's line and headers must be complete within the header timeout, counted from when the
  connection opens or, on a kept-alive one, from the first byte of the next request. Too slow:
  408 and closed (silently when nothing at all was sent, as a browser's unused preconnection).
* A connection cap. uvicorn's `limit_concurrency` answers 503 only once a request's headers
  are in, so connections that never finish theirs are not limited by it. Here, at the cap, a
  new connection takes the place of the oldest one that is between requests (idle, or still
  sending headers); when every connection is busy with a request, the new one gets 503 and is
  closed at once. Connections, and so descriptors, never pass the cap for longer than it takes
  to close the surplus.
* A deadline for a body nobody reads. When the application answers without reading the
  request's body (GET /healthz with a Content-Length), uvicorn goes on reading and discarding
  it to reuse the connection, and every byte restarts its keep-alive timer: a body trickled
  a byte at a time held the connection for ever. Here the rest must arrive within the body
  timeout of the answer.
* A send deadline. A client that stops reading its answer (slow read: its receive window
  shut) keeps the response's task waiting to write, for ever in uvicorn. Here, once the send
  buffer has stayed full for the send timeout, the connection is dropped.

Request bodies have their own deadline (the body timeout, app/web/bodies.py).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.web.throttle import Throttle

_LOG = logging.getLogger("uvicorn.error")


def _plain_response(status: str, text: str, extra: str = "") -> bytes:
    """A whole response written straight to the transport, before or instead of a request."""
    body = text.encode()
    head = (
        f"HTTP/1.1 {status}\r\n"
        "content-type: text/plain; charset=utf-8\r\n"
        "x-content-type-options: nosniff\r\n"
        f"content-length: {len(body)}\r\n"
        f"{extra}"
        "connection: close\r\n"
        "\r\n"
    )
    return head.encode() + body


REQUEST_TIMEOUT = _plain_response(
    "408 Request Timeout", "The request's headers did not arrive in time; send it again, whole.\n"
)
SERVICE_UNAVAILABLE = _plain_response(
    "503 Service Unavailable", "Too many connections; try again shortly.\n", "retry-after: 1\r\n"
)


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    header_timeout: float  # seconds for a request's line and headers
    max_connections: int
    send_timeout: float = 30.0  # seconds the send buffer may stay full
    body_timeout: float = 30.0  # seconds for the rest of a body left unread by the application


@dataclass(eq=False)
class ConnectionGuard:
    """What the connections of one server share: the limits, the connections between requests
    (oldest first: the first to give way at the cap) and the throttled refusal log."""

    limits: ConnectionLimits
    between_requests: dict[GuardedH11Protocol, None] = field(default_factory=dict)
    refusals: Throttle = field(default_factory=lambda: Throttle(_LOG))

    def make_room(self) -> bool:
        """Close the oldest connection between requests; False when there is none. One that
        was closing already (its keep-alive time was up) is let go and the next one closed."""
        while self.between_requests:
            oldest = next(iter(self.between_requests))
            was_open = not oldest.transport.is_closing()
            oldest.give_way()
            if was_open:
                return True
        return False


class GuardedH11Protocol(H11Protocol):
    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._send_deadline: asyncio.TimerHandle | None = None
        self._leftover_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        # Counted before this one joins: at the cap, an idle or half-sent connection gives way.
        crowded = len(self.connections) >= self.guard.limits.max_connections
        room = not crowded or self.guard.make_room()
        super().connection_made(transport)
        if not room:
            self.guard.refusals.report(
                self.loop,
                f"Connection limit ({self.guard.limits.max_connections:,}) reached, every "
                "connection busy with a request: new connections get 503 (OCP_MAX_CONNECTIONS)",
                "Connection limit: {count} more connections refused in the last {seconds} s",
            )
            transport.write(SERVICE_UNAVAILABLE)
            transport.close()
            return
        self._arm_header_deadline()
        self._track()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            # Part of a request whose headers are not complete: uvicorn has stopped its
            # keep-alive timer, so the header deadline runs from now. A request that arrives
            # whole, the usual case, never needs the timer.
            self._arm_header_deadline()
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            # Part of a pipelined request is already buffered: not idle, so the header
            # deadline (from now) rather than uvicorn's keep-alive timer applies.
            self._unset_keepalive_if_required()
            self._arm_header_deadline()
        elif self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            # Answered, but the body is still coming: it may not take for ever.
            self._leftover_deadline = self._leftover_deadline or self.loop.call_later(
                self.guard.limits.body_timeout, self.transport.close
            )
        self._track()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_deadline is None:
            self._send_deadline = self.loop.call_later(
                self.guard.limits.send_timeout, self._answer_unread
            )

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_send_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_deadline()
        self._cancel_send_deadline()
        self._cancel_leftover_deadline()
        self.guard.between_requests.pop(self, None)
        super().connection_lost(exc)

    def give_way(self) -> None:
        """Closed to make room at the cap (it was idle or still sending headers)."""
        self.guard.between_requests.pop(self, None)
        self._cancel_header_deadline()
        self.transport.close()

    def _track(self) -> None:
        between = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if between:
            self.guard.between_requests.setdefault(self, None)
            self._cancel_leftover_deadline()  # the unread body ended: the next request
        else:
            # The headers are complete (or the connection is closing): no deadline of ours.
            self.guard.between_requests.pop(self, None)
            self._cancel_header_deadline()

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None and not self.transport.is_closing():
            self._header_deadline = self.loop.call_later(
                self.guard.limits.header_timeout, self._headers_too_slow
            )

    def _cancel_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _cancel_leftover_deadline(self) -> None:
        if self._leftover_deadline is not None:
            self._leftover_deadline.cancel()
            self._leftover_deadline = None

    def _cancel_send_deadline(self) -> None:
        if self._send_deadline is not None:
            self._send_deadline.cancel()
            self._send_deadline = None

    def _answer_unread(self) -> None:
        self._send_deadline = None
        # abort, not close: close would wait for the buffer to drain, which is the problem.
        self.transport.abort()

    def _headers_too_slow(self) -> None:
        self._header_deadline = None
        self.guard.between_requests.pop(self, None)
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """The protocol class for one server (uvicorn builds one instance per connection)."""

    class Protocol(GuardedH11Protocol):
        guard = ConnectionGuard(limits)

    return Protocol
