"""CPU work (linting, rendering, comparing) off the event loop, in two lanes by document size.

Python runs one thread at a time: 45 uploads of 250 KB each analysed on 45 threads made a 5 KB
lint wait 74 s behind them, each thread getting 1/46 of the interpreter. Large documents
therefore take turns in a lane of a few threads, and small ones have a lane of their own, so a
small document shares the interpreter with a few large ones at most. A request that cannot get
a turn within the wait answers 503 with Retry-After instead of queueing without end.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request

from app.collector import CollectionPaused

T = TypeVar("T")

# A document at most this large takes the small lane: a page of it costs milliseconds.
SMALL_DOCUMENT = 64 * 1024
RETRY_AFTER_SECONDS = 5


class Busy(HTTPException):
    """Every turn of a lane stayed taken for the whole wait."""

    def __init__(self) -> None:
        super().__init__(
            503,
            "the service is busy checking other large documents; try again in a few seconds",
            headers={"retry-after": str(RETRY_AFTER_SECONDS)},
        )


class CpuLanes:
    """The two lanes' turns, created on first use inside the running event loop."""

    def __init__(self, small: int = 8, large: int | None = None, wait: float = 30.0) -> None:
        self.sizes = (small, large or max(2, min(4, os.cpu_count() or 2)))
        self.wait = wait
        self._limiters: tuple[anyio.CapacityLimiter, ...] | None = None

    def limiters(
        self,
    ) -> tuple[anyio.CapacityLimiter, anyio.CapacityLimiter, anyio.CapacityLimiter]:
        """The small lane's turns, the large lane's, and the threads both run on."""
        if self._limiters is None:
            small, large = self.sizes
            self._limiters = (
                anyio.CapacityLimiter(small),
                anyio.CapacityLimiter(large),
                anyio.CapacityLimiter(small + large),
            )
        small_lane, large_lane, threads = self._limiters
        return small_lane, large_lane, threads


@contextlib.asynccontextmanager
async def turn(
    limiter: anyio.CapacityLimiter, wait: float, refusal: Callable[[], Exception]
) -> AsyncIterator[None]:
    """One of ``limiter``'s tokens for the block, waited for ``wait`` seconds at most; past
    that, ``refusal()`` is raised (a 503 of some kind) rather than queueing without end."""
    acquired = False
    with anyio.move_on_after(wait):
        await limiter.acquire()
        acquired = True
    if not acquired:
        raise refusal()
    try:
        yield
    finally:
        limiter.release()


async def run_cpu(request: Request, size: int, fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` on a thread, in the lane for a document of ``size`` bytes (the larger of
    a child and its parent); 503 when no turn comes within the lanes' wait."""
    lanes: CpuLanes = request.app.state.cpu_lanes
    small_lane, large_lane, threads = lanes.limiters()
    lane = small_lane if size <= SMALL_DOCUMENT else large_lane
    # A large document's work pauses the cyclic garbage collector (app/collector.py): each
    # collection while its page is built walked the whole document again (4 MB of nested
    # arguments: 1.7 s a page, 0.7 with the collector waiting). It waits for one job at most.
    work = (
        functools.partial(fn, *args)
        if lane is small_lane
        else functools.partial(_collector_paused, fn, *args)
    )
    async with turn(lane, lanes.wait, Busy):
        return await anyio.to_thread.run_sync(work, limiter=threads)


def _collector_paused(fn: Callable[..., T], *args: object) -> T:
    with CollectionPaused():
        return fn(*args)
