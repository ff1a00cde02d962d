"""Results of the lineage page kept by the digests they were computed from: a member's verdict
against its parent (keyed by both digests) and a comparison of sibling forks (keyed by the
parent's digest and each fork's storage id and digest). The bytes under a digest never change,
so a result is right for as long as it is kept, and a second view of the same lineage analyses
nothing. Small plain values only (never an analysis), bounded by count."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from threading import Lock
from typing import Any, Generic, TypeVar

Value = TypeVar("Value")


@dataclass(frozen=True, slots=True)
class Verdict:
    """A stored member's report in brief: its validity with the lineage checks against its
    proven parent when that parent was read (``with_parent``), and the parent.digest check."""

    valid: bool
    with_parent: bool
    digest: str | None  # "match", "mismatch", "not_recorded", … or None without a parent


class Kept(Generic[Value]):
    """A least-recently-used map of computed values, at most ``size`` of them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = Lock()

    def holds(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def kept(self, key: Hashable) -> Value | None:
        """The value kept under ``key``, or None: never computed here."""
        with self._lock:
            return self._items.get(key)

    def get(self, key: Hashable, compute: Callable[[], Value]) -> Value:
        """The value kept under ``key``, else ``compute()`` (outside the lock: it may take a
        while; two views computing the same value at once both keep the same answer)."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = compute()
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


@dataclass(frozen=True, slots=True)
class LineageResults:
    verdicts: Kept[Verdict]
    forks: Kept[dict[str, Any]]

    @classmethod
    def new(cls, size: int = 4096) -> LineageResults:
        return cls(Kept(size), Kept(size // 16))
