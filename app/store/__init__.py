"""Stored checkpoints: the exact bytes and secret-free metadata, with retention and lineage.

``open_store(url)`` picks the implementation: a file path or ``sqlite://PATH`` → SQLite (the
embedded default), ``postgresql://…`` → PostgreSQL (several instances sharing one database).
"""

from __future__ import annotations

import re
from datetime import timedelta

from app.store.base import (
    DEFAULT_RETENTION,
    DEFAULT_TOMBSTONE_TTL,
    LINEAGE_DEPTH,
    MAX_RETENTION,
    Clock,
    Created,
    DeleteOutcome,
    Found,
    Gone,
    Meta,
    NotStorable,
    RateLimited,
    Store,
    StoreConfigError,
    StoreError,
    StoreFull,
    StoreUnavailable,
    Usage,
)
from app.store.limits import WriteLimits, client_key
from app.store.reserve import DEFAULT_RESERVE_BYTES

__all__ = [
    "DEFAULT_RETENTION",
    "DEFAULT_TOMBSTONE_TTL",
    "LINEAGE_DEPTH",
    "MAX_RETENTION",
    "Clock",
    "Created",
    "DeleteOutcome",
    "Found",
    "Gone",
    "Meta",
    "NotStorable",
    "RateLimited",
    "Store",
    "StoreConfigError",
    "StoreError",
    "StoreFull",
    "StoreUnavailable",
    "Usage",
    "WriteLimits",
    "client_key",
    "open_store",
    "store_backend",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def open_store(
    database_url: str,
    *,
    clock: Clock | None = None,
    retention: timedelta = DEFAULT_RETENTION,
    tombstone_ttl: timedelta = DEFAULT_TOMBSTONE_TTL,
    timeout: float = 5.0,
    pool_size: int = 10,
    reserve_bytes: int = DEFAULT_RESERVE_BYTES,
) -> Store:
    """Open (and migrate) the store named by ``database_url``.

    ``sqlite://`` is followed by the path as is: ``sqlite:///var/lib/ocp.db`` is absolute,
    ``sqlite://ocp.db`` relative. ``timeout`` bounds how long a call waits for the database
    (SQLite's busy timeout, the pool's wait) before StoreUnavailable. Raises StoreConfigError
    for settings the store cannot start with (retention over 30 days among them) and
    StoreUnavailable when the database cannot be reached. ``reserve_bytes``: the disk SQLite
    holds back so that deleting works on a full disk (app/store/reserve.py).
    """
    options = {"clock": clock, "retention": retention, "tombstone_ttl": tombstone_ttl}
    backend, location = store_backend(database_url)
    if backend == "postgresql":
        from app.store.postgres import PostgresStore

        return PostgresStore(location, timeout=timeout, pool_size=pool_size, **options)
    from app.store.sqlite import SqliteStore

    return SqliteStore(
        location,
        timeout=timeout,
        reserve_bytes=reserve_bytes,
        clock=clock,
        retention=retention,
        tombstone_ttl=tombstone_ttl,
    )


def store_backend(database_url: str) -> tuple[str, str]:
    """Which store a URL names, ``("sqlite", path)`` or ``("postgresql", url)``, and whether it
    can be opened by this installation: StoreConfigError names what to fix. Checked before
    the service starts, so a wrong setting is one line, not a traceback."""
    url = (database_url or "").strip()
    if not url:
        raise StoreConfigError("no database URL or path given")
    match = _SCHEME.match(url)
    scheme = match.group(1).lower() if match else None
    if scheme in ("postgresql", "postgres"):
        try:
            import psycopg  # noqa: F401  (the `postgres` extra)
            import psycopg_pool  # noqa: F401
        except ImportError as exc:
            raise StoreConfigError(
                f"a postgresql:// database needs the PostgreSQL driver ({exc.name} is not "
                "installed): pip install 'ocp-viewer[postgres]'"
            ) from None
        return "postgresql", url
    if scheme == "sqlite":
        return "sqlite", url[match.end() :] if match else url
    if scheme is not None:
        raise StoreConfigError(
            f"unsupported database URL scheme {scheme!r}: use a file path, sqlite://PATH "
            "or postgresql://…"
        )
    return "sqlite", url
