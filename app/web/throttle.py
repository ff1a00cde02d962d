"""One log line per interval for an event an attacker can repeat thousands of times a second
(an accept() failing for want of file descriptors, connections refused at the limit).

The first occurrence is written at once; the repeats within the interval are counted, and the
count is written when the interval ends, so the log says how long it lasted and how often it
happened without growing with the attack.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable


class Throttle:
    def __init__(
        self,
        logger: logging.Logger,
        interval: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.clock = clock
        self._window_start: float | None = None
        self._repeats = 0
        self._summary: str = ""
        self._flush: asyncio.TimerHandle | None = None

    def report(self, loop: asyncio.AbstractEventLoop, message: str, summary: str) -> None:
        """Log ``message`` (a warning) unless a line went out less than an interval ago; then
        count it, and at the end of the interval log ``summary`` with ``{count}`` and
        ``{seconds}`` filled in."""
        now = self.clock()
        if self._window_start is None or now - self._window_start >= self.interval:
            self._write_summary()
            self._window_start = now
            self.logger.warning(message)
            return
        self._repeats += 1
        self._summary = summary
        if self._flush is None:
            delay = max(0.0, self._window_start + self.interval - now)
            self._flush = loop.call_later(delay, self._end_window)

    def _end_window(self) -> None:
        self._flush = None
        self._write_summary()
        # The next occurrence starts a new window and is written at once.
        self._window_start = None

    def _write_summary(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if self._repeats:
            self.logger.warning(
                self._summary.format(count=f"{self._repeats:,}", seconds=f"{self.interval:g}")
            )
        self._repeats = 0
