"""Analyses of stored documents, kept by digest: the bytes under a digest never change, so a
document linked from many pages (a parent, a fork, a popular permalink) is analysed once per
instance. Bounded by the bytes the analyses hold."""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

import app.schema  # noqa: F401  (see below)
from app.analysis import Analysis, analyze
from app.parse import Limits

# The service checks with jsonschema-rs from its first document: loading it as the service
# starts leaves the pure-Python screen (app/schema_screen.py) to one-shot processes, the
# linter's run, which it spares that import.

# An analysis holds the document, its text and its indexes: a few times its bytes.
_COST_PER_BYTE = 8


class AnalysisCache:
    def __init__(self, limits: Limits, budget: int = 256 * 1024 * 1024) -> None:
        self.limits = limits
        self.budget = budget
        self._items: OrderedDict[str, Analysis] = OrderedDict()
        self._held = 0
        self._lock = Lock()

    def get(self, digest: str, data: bytes) -> Analysis:
        """The analysis of ``data``, whose sha-256 digest is ``digest`` (as the store records
        it); analysed now when not kept."""
        with self._lock:
            found = self._items.get(digest)
            if found is not None:
                self._items.move_to_end(digest)
                return found
        analysis = analyze(data, self.limits)  # outside the lock: it may take a while
        cost = len(data) * _COST_PER_BYTE
        if cost > self.budget // 4:
            return analysis  # too large to keep without pushing out everything else
        with self._lock:
            if digest not in self._items:
                self._items[digest] = analysis
                self._held += cost
            while self._held > self.budget and self._items:
                _, dropped = self._items.popitem(last=False)
                self._held -= len(dropped.data) * _COST_PER_BYTE
        return analysis
