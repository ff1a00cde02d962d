"""Limits on writing: a per-client rate and a total quota, counted in the store itself.

The counters are rows of the database, so every instance sharing one PostgreSQL enforces one
limit (a counter in one process would let N instances admit N times the rate). The rate uses
fixed windows of one minute: a client's writes and bytes in the current minute are one row,
updated by one atomic statement in the same transaction as the write, so a write refused for
any reason (the rate, the quota, a full disk) is not counted. A fixed window admits at most
twice the rate across a window boundary; that is the price of one row per client per minute.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime

WINDOW_SECONDS = 60
# IPv6 hands each subscriber at least a /64: counting single addresses would give one client
# 2^64 separate limits.
IPV6_CLIENT_PREFIX = 64


@dataclass(frozen=True, slots=True)
class WriteLimits:
    """What one write may use (the service's defaults are in app/config.py). 0 for a
    per-client figure: no per-client limit (a private deployment, a benchmark); the quota
    always applies."""

    writes_per_minute: int
    bytes_per_minute: int
    max_store_bytes: int

    def __post_init__(self) -> None:
        if self.writes_per_minute < 0 or self.bytes_per_minute < 0:
            raise ValueError("a per-client write rate must be 0 (no limit) or positive")
        if self.max_store_bytes < 1:
            raise ValueError("the store's quota must be positive")

    def over_rate(self, writes: int, size: int) -> bool:
        """Whether a client that has written ``writes`` documents of ``size`` bytes in this
        window (this write included) is over its rate."""
        too_many = self.writes_per_minute and writes > self.writes_per_minute
        too_large = self.bytes_per_minute and size > self.bytes_per_minute
        return bool(too_many or too_large)


# No limit at all: what a store does when its caller names none (the CLI, tests of other
# things). The quota is then only the column's range.
UNLIMITED = WriteLimits(0, 0, 2**62)


def window_of(instant: datetime) -> int:
    """The number of the one-minute window ``instant`` falls in (minutes since the epoch)."""
    return math.floor(instant.timestamp()) // WINDOW_SECONDS


def seconds_to_next_window(instant: datetime) -> int:
    """Whole seconds until the window after ``instant``'s begins (Retry-After), at least 1."""
    end = (window_of(instant) + 1) * WINDOW_SECONDS
    return max(1, math.ceil(end - instant.timestamp()))


def client_key(address: str | None, upload_token: str | None = None) -> str:
    """The key a client's counter is kept under: its upload token when it used one (a private
    deployment's users may share an address), else its address (IPv6 by /64 prefix). Only a
    hash is kept, so the counter table holds neither tokens nor addresses in the clear."""
    name = f"token:{upload_token}" if upload_token else f"address:{_address_key(address or '')}"
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _address_key(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address  # a test client's name, a Unix socket: as given
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(parsed)
