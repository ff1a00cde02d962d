"""How `ocp serve` runs uvicorn so that slow or numerous clients cannot take the service down.

* The HTTP implementation and the event loop are pinned (h11 with the guards of
  app/web/connections.py; asyncio's selector loop), so what is tested is what runs.
* Connections are capped below the file-descriptor limit, with room kept for the store, the
  log and the connections accepted but not yet turned away (asyncio accepts up to `backlog`
  at a time, which is therefore small when descriptors are few), so descriptors never run out
  because of clients. The kernel's listen queue, which costs no descriptor of ours, stays
  long (LISTEN_QUEUE), so a burst of connections waits there instead of being dropped.
* Should accept() fail anyway (EMFILE, ENFILE: descriptors taken elsewhere, or a limit lowered
  under the running process), asyncio stops watching the socket for a second and tries again,
  which is right, but it goes on calling accept() for the rest of the batch, logging a
  traceback and scheduling another retry for every failure, so the retries multiply (thousands
  a second within a minute) and so does the log (256 MB in 50 s at 256 descriptors). Here the
  listening socket refuses further attempts for a moment after such a failure (asyncio then
  ends the batch: one attempt per retry), and the loop logs one line per interval, with a
  count, instead of a traceback per attempt. Connections waiting meanwhile stay in the
  listen queue and are accepted once descriptors free up.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import resource
import socket
import time
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp

from app.config import ConfigError, Settings
from app.web.connections import ConnectionLimits, guarded_protocol
from app.web.logs import log_config
from app.web.throttle import Throttle

_LOG = logging.getLogger("uvicorn.error")

DEFAULT_MAX_CONNECTIONS = 1000
# The soft limit is raised to the hard one at start (as Go programs do), up to this.
DESCRIPTOR_CEILING = 65536
# What asyncio's selector loop says when accept() fails for want of resources
# (BaseSelectorEventLoop._accept_connection), and the errors it says it for.
ACCEPT_FAILED = "socket.accept() out of system resource"
_RESOURCE_ERRORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
# Shorter than asyncio's retry delay (constants.ACCEPT_RETRY_DELAY, 1 s), so that each retry
# makes one real attempt.
ACCEPT_PAUSE = 0.5
LISTEN_QUEUE = 2048  # uvicorn's default backlog; the kernel caps it at net.core.somaxconn


def reserved_descriptors(pool_size: int) -> int:
    """Descriptors kept for all but connections: standard streams, the log, the event loop,
    the listening socket, files read while answering, and the store's (one socket per
    PostgreSQL connection; a database file, its WAL and its index per SQLite thread)."""
    return 32 + 3 * pool_size


@dataclass(frozen=True, slots=True)
class Capacity:
    descriptors: int  # the process's limit (RLIMIT_NOFILE, soft)
    max_connections: int
    accept_batch: int  # how many connections asyncio accepts in one go (uvicorn's backlog)


def capacity(settings: Settings, descriptors: int) -> Capacity:
    """How many connections fit in ``descriptors``; ConfigError when OCP_MAX_CONNECTIONS asks
    for more than fit, or none do."""
    spare = descriptors - reserved_descriptors(settings.store_pool_size)
    batch = max(8, min(128, spare // 8))
    # Accepted connections count until they are turned away: a few batches.
    fit = spare - 3 * batch
    wanted = settings.max_connections
    if wanted is None:
        if fit < 1:
            raise ConfigError(
                f"the process may open only {descriptors:,} files (ulimit -n): too few to serve "
                f"connections beside the store; raise it to at least "
                f"{descriptors - fit + 16:,}"
            )
        return Capacity(descriptors, min(DEFAULT_MAX_CONNECTIONS, fit), batch)
    if wanted > fit:
        raise ConfigError(
            f"OCP_MAX_CONNECTIONS is {wanted:,}, but with {descriptors:,} file descriptors "
            f"(ulimit -n) at most {max(fit, 0):,} connections fit beside the store; lower it or "
            "raise the limit"
        )
    return Capacity(descriptors, wanted, batch)


def descriptor_limit() -> int:
    """The soft RLIMIT_NOFILE, raised first to the hard limit (at most DESCRIPTOR_CEILING):
    the soft default of 1,024 is a relic of select(), which the event loop does not use."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = DESCRIPTOR_CEILING if hard == resource.RLIM_INFINITY else hard
    target = min(ceiling, DESCRIPTOR_CEILING)
    if soft != resource.RLIM_INFINITY and target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft
        return target
    return soft if soft != resource.RLIM_INFINITY else DESCRIPTOR_CEILING


class ListeningSocket(socket.socket):
    """The listening socket: after an accept() that failed for want of resources, further
    attempts within ACCEPT_PAUSE say "nothing to accept" (EAGAIN) without trying; its listen
    queue is LISTEN_QUEUE long, whatever batch asyncio accepts at a time."""

    _paused_until = 0.0

    @classmethod
    def taking_over(cls, sock: socket.socket) -> ListeningSocket:
        return cls(sock.family, sock.type, sock.proto, fileno=sock.detach())

    def listen(self, backlog: int = LISTEN_QUEUE) -> None:
        # asyncio passes its accept batch here too; the queue itself costs us no descriptor.
        super().listen(max(backlog, LISTEN_QUEUE))

    def accept(self) -> tuple[socket.socket, Any]:
        if time.monotonic() < self._paused_until:
            raise BlockingIOError(errno.EAGAIN, "accepting paused: out of resources")
        try:
            connection, address = super().accept()
        except OSError as exc:
            if exc.errno in _RESOURCE_ERRORS:
                self._paused_until = time.monotonic() + ACCEPT_PAUSE
            raise
        if connection.family in (socket.AF_INET, socket.AF_INET6):
            # Each answer is written at once, headers and body: Nagle's algorithm would hold
            # its last part until the client acknowledges the first, and a client delays that
            # acknowledgement by 40 ms. asyncio turns it off only for a socket made with
            # IPPROTO_TCP, which uvicorn's (protocol 0) and so ours are not.
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


class AcceptFailures:
    """The event loop's exception handler: a failed accept() becomes one line per interval;
    every other report goes to asyncio's default handler, unchanged."""

    def __init__(self, throttle: Throttle) -> None:
        self.throttle = throttle

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if (
            context.get("message") != ACCEPT_FAILED
            or not isinstance(exc, OSError)
            or exc.errno not in _RESOURCE_ERRORS
        ):
            loop.default_exception_handler(context)
            return
        reason = f"{os.strerror(exc.errno)} ({errno.errorcode[exc.errno]})"
        self.throttle.report(
            loop,
            f"Cannot accept connections: {reason}; new ones wait in the listen queue, tried "
            "again every second",
            f"accept() failed {{count}} more times in the last {{seconds}} s: {reason}",
        )


def event_loop() -> asyncio.AbstractEventLoop:
    """uvicorn's loop factory (named by import string in `serve`): asyncio's selector loop
    with accept failures throttled."""
    loop = asyncio.SelectorEventLoop()
    loop.set_exception_handler(AcceptFailures(Throttle(_LOG)))
    return loop


def serve(
    app: ASGIApp, settings: Settings, room: Capacity, host: str, port: int, forwarded: str | None
) -> None:
    """Run the service until it is stopped; SystemExit(3) when it could not start (uvicorn's
    status for a start-up failure)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(
            ConnectionLimits(
                settings.header_timeout,
                room.max_connections,
                send_timeout=settings.send_timeout,
                body_timeout=settings.body_timeout,
            )
        ),
        ws="none",
        loop=f"{__name__}:event_loop",
        backlog=room.accept_batch,
        timeout_keep_alive=settings.keep_alive_timeout,
        # X-Forwarded-* only from the proxies named: from anyone else they could name any host
        proxy_headers=bool(forwarded),
        forwarded_allow_ips=forwarded or None,
        log_config=log_config(),
        server_header=False,
    )
    # After Config, which sets up the logging.
    _LOG.info(
        "Connections: at most %s (%s file descriptors); request headers within %g s; idle "
        "kept-alive connections closed after %d s; an answer left unread cut off after %g s",
        f"{room.max_connections:,}",
        f"{room.descriptors:,}",
        settings.header_timeout,
        settings.keep_alive_timeout,
        settings.send_timeout,
    )
    server = uvicorn.Server(config)
    listening = ListeningSocket.taking_over(config.bind_socket())
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[listening])
    if not server.started:
        raise SystemExit(3)
