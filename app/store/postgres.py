"""The shared store for several instances behind a load balancer: PostgreSQL via psycopg 3.

A small connection pool serves the web's worker threads. Each connection is checked when it
is taken from the pool, so after the server restarts the dead ones are dropped and replaced
instead of failing a request each; while the server is down, a call waits at most ``timeout``
seconds for a connection and then raises StoreUnavailable.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolClosed

from app.store.base import StoreConfigError, StoreFull, StoreUnavailable, utc_now
from app.store.sql import SqlStore

logger = logging.getLogger(__name__)

# Serializes migrations when several instances start at once (an arbitrary constant: "ocp-st").
MIGRATION_LOCK = 0x6F63702D7374
RECONNECT_TIMEOUT = 10.0

# Each entry: (version, statements). Append new versions; never edit an applied one.
MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """CREATE TABLE checkpoints (
                storage_id text PRIMARY KEY,
                checkpoint_id text,
                parent_id text,
                created_at text,
                derivation_method text,
                task_status text,
                stored_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                digest text,
                valid boolean,
                errors integer,
                warnings integer,
                size bigint,
                deletion_token_hash bytea,
                gone_at timestamptz,
                gone_reason text CHECK (gone_reason IN ('expired', 'deleted')),
                CHECK ((gone_at IS NULL) = (gone_reason IS NULL)),
                CHECK (gone_at IS NOT NULL OR (digest IS NOT NULL AND valid IS NOT NULL
                       AND errors IS NOT NULL AND warnings IS NOT NULL AND size IS NOT NULL
                       AND deletion_token_hash IS NOT NULL))
            )""",
            """CREATE TABLE checkpoint_bytes (
                storage_id text PRIMARY KEY
                    REFERENCES checkpoints (storage_id) ON DELETE CASCADE,
                data bytea NOT NULL
            )""",
            "CREATE INDEX checkpoints_checkpoint_id ON checkpoints (checkpoint_id, stored_at)"
            " WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_parent_id ON checkpoints (parent_id, stored_at)"
            " WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_expires_at ON checkpoints (expires_at) WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_gone_at ON checkpoints (gone_at) WHERE gone_at IS NOT NULL",
        ],
    ),
    (
        # Lineage by evidence: a parent found by the digest its child records, a parent the
        # uploader proved it holds, and the children that name either.
        2,
        [
            "ALTER TABLE checkpoints ADD COLUMN parent_digest text",
            "ALTER TABLE checkpoints ADD COLUMN parent_storage_id text",
            "CREATE INDEX checkpoints_digest ON checkpoints (digest, stored_at)"
            " WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_parent_digest ON checkpoints (parent_digest, stored_at)"
            " WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_parent_storage_id ON checkpoints"
            " (parent_storage_id, stored_at) WHERE gone_at IS NULL",
        ],
    ),
    (
        # Writing bounded (app/store/limits.py): each client's writes per minute, and the bytes
        # stored, counted from the bytes already kept.
        3,
        [
            """CREATE TABLE write_counters (
                client text NOT NULL,
                window_number bigint NOT NULL,
                writes integer NOT NULL,
                bytes bigint NOT NULL,
                PRIMARY KEY (client, window_number)
            )""",
            """CREATE TABLE store_usage (
                id integer PRIMARY KEY CHECK (id = 1),
                stored_bytes bigint NOT NULL
            )""",
            "INSERT INTO store_usage (id, stored_bytes)"
            " SELECT 1, coalesce(sum(length(data)), 0) FROM checkpoint_bytes",
        ],
    ),
]


@cache
def _placeholders(sql: str) -> str:
    # The shared SQL uses "?" and contains no "%"; psycopg wants "%s".
    return sql.replace("?", "%s")


class PostgresStore(SqlStore):
    backend = "postgresql"
    integrity_errors = (psycopg.IntegrityError,)
    _lock_for_update = " FOR UPDATE"

    def __init__(
        self, url: str, *, timeout: float = 5.0, pool_size: int = 10, **options: object
    ) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        try:
            params = conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise StoreConfigError(f"invalid PostgreSQL URL: {exc}") from None
        # Without a connect timeout, a connection attempt to an unreachable host can hang for
        # minutes (TCP retries), well past the pool's own timeout.
        extra = {} if "connect_timeout" in params else {"connect_timeout": max(2, int(timeout))}
        self._closed = False
        self._pool = ConnectionPool(
            url,
            kwargs=extra,
            min_size=1,
            max_size=max(1, pool_size),
            timeout=timeout,
            check=ConnectionPool.check_connection,
            # While the server is down the pool retries with growing delays; giving up after a
            # short while lets the next request start a fresh attempt at once, so recovery
            # after a long outage takes seconds, not half the outage.
            reconnect_timeout=RECONNECT_TIMEOUT,
            name="ocp-store",
            open=False,
        )
        try:
            try:
                self._pool.open(wait=True, timeout=timeout)
            except psycopg.OperationalError as exc:  # PoolTimeout: no connection in time
                raise StoreUnavailable(f"cannot reach the PostgreSQL store: {exc}") from exc
            self._migrate()
        except BaseException:
            self._pool.close()
            raise

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection]:
        if self._closed:
            raise StoreUnavailable("the store is closed")
        try:
            # Commits when the block ends, rolls back if it raises; a broken connection is
            # discarded by the pool rather than handed out again.
            with self._pool.connection() as conn:
                yield conn
        except pg_errors.DiskFull as exc:  # 53100: the server answers, but cannot write
            self._disk_full = True
            raise StoreFull("disk", "the PostgreSQL server has no space left") from exc
        except (psycopg.OperationalError, PoolClosed) as exc:  # PoolTimeout is Operational
            raise StoreUnavailable(f"PostgreSQL store unavailable: {exc}") from exc

    _read = _connection
    _write = _connection

    def _migrate(self) -> None:
        try:
            with self._connection() as conn:
                # Held until this transaction ends: instances starting together take turns.
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    "version integer PRIMARY KEY, applied_at timestamptz NOT NULL)"
                )
                row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
                current = (row[0] if row else None) or 0
                known = MIGRATIONS[-1][0]
                if current > known:
                    raise StoreConfigError(
                        f"the database schema is version {current}, newer than this code's {known}"
                    )
                for version, statements in MIGRATIONS:
                    if version <= current:
                        continue
                    for statement in statements:
                        conn.execute(statement)
                    conn.execute(
                        "INSERT INTO schema_version (version, applied_at) VALUES (%s, %s)",
                        (version, utc_now()),
                    )
                    logger.info("store schema migrated to version %d", version)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise StoreConfigError(f"cannot create the store's tables: {exc}") from exc

    # dialect

    def _sql(self, sql: str) -> str:
        return _placeholders(sql)

    def _is_id_collision(self, exc: Exception) -> bool:
        return (
            isinstance(exc, pg_errors.UniqueViolation)
            and exc.diag.constraint_name == "checkpoints_pkey"
        )

    def _to_db(self, instant: datetime) -> datetime:
        return instant.astimezone(UTC)

    def _from_db(self, value: datetime) -> datetime:
        return value.astimezone(UTC)

    def close(self) -> None:
        self._closed = True
        self._pool.close()
