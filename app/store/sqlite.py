"""The embedded store: one SQLite file in WAL mode.

Starlette runs the store's calls in a thread pool, so every thread gets its own connection
(WAL lets readers proceed while one writer commits). Writes take the write lock up front
(BEGIN IMMEDIATE): a deferred transaction that upgrades from read to write can fail with
"database is locked" at once, ignoring the busy timeout.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from app.store.base import StoreConfigError, StoreUnavailable, utc_now
from app.store.sql import SqlStore

# Each entry: (version, statements). Append new versions; never edit an applied one.
MIGRATIONS: list[tuple[int, list[str]]] = [
    (
        1,
        [
            """CREATE TABLE checkpoints (
                storage_id TEXT PRIMARY KEY,
                checkpoint_id TEXT,
                parent_id TEXT,
                created_at TEXT,
                derivation_method TEXT,
                task_status TEXT,
                stored_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                digest TEXT,
                valid INTEGER,
                errors INTEGER,
                warnings INTEGER,
                size INTEGER,
                deletion_token_hash BLOB,
                gone_at TEXT,
                gone_reason TEXT CHECK (gone_reason IN ('expired', 'deleted')),
                CHECK ((gone_at IS NULL) = (gone_reason IS NULL)),
                CHECK (gone_at IS NOT NULL OR (digest IS NOT NULL AND valid IS NOT NULL
                       AND errors IS NOT NULL AND warnings IS NOT NULL AND size IS NOT NULL
                       AND deletion_token_hash IS NOT NULL))
            )""",
            """CREATE TABLE checkpoint_bytes (
                storage_id TEXT PRIMARY KEY
                    REFERENCES checkpoints (storage_id) ON DELETE CASCADE,
                data BLOB NOT NULL
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
            "ALTER TABLE checkpoints ADD COLUMN parent_digest TEXT",
            "ALTER TABLE checkpoints ADD COLUMN parent_storage_id TEXT",
            "CREATE INDEX checkpoints_digest ON checkpoints (digest, stored_at)"
            " WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_parent_digest ON checkpoints (parent_digest, stored_at)"
            " WHERE gone_at IS NULL",
            "CREATE INDEX checkpoints_parent_storage_id ON checkpoints"
            " (parent_storage_id, stored_at) WHERE gone_at IS NULL",
        ],
    ),
]


_WRITE_LOCKS: dict[str, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def _write_lock(path: str) -> threading.Lock:
    """One lock per database file in this process, shared by every store opened on it."""
    key = os.path.realpath(path)
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(key, threading.Lock())


class SqliteStore(SqlStore):
    backend = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: str, *, timeout: float = 5.0, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        if not path or path == ":memory:" or path.startswith("file:"):
            # Each thread has its own connection, and each in-memory connection its own database.
            raise StoreConfigError(f"the SQLite store needs a file path, not {path!r}")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise StoreConfigError(f"the folder of the SQLite database does not exist: {folder}")
        self.path = path
        self._timeout = timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        self._closed = False
        self._migrate()

    # connections

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: the module starts no transactions of its own; ours are explicit.
        # check_same_thread=False only so that close() may close other threads' connections.
        conn = sqlite3.connect(
            self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False
        )
        conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        with self._guard:
            if self._closed:
                conn.close()
                raise StoreUnavailable("the store is closed")
            self._connections.append(conn)
        return conn

    def _connection(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreUnavailable("the store is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        # Autocommit: each SELECT reads one consistent snapshot, and every read here is one SELECT.
        try:
            yield self._connection()
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable(f"SQLite store unavailable: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        # Writers of this process queue on a lock instead of SQLite's busy handler, which
        # polls and sleeps: under load some writers kept missing the free moment and waited
        # seconds. busy_timeout still covers writers in other processes.
        lock = _write_lock(self.path)
        if not lock.acquire(timeout=self._timeout):
            raise StoreUnavailable("SQLite store unavailable: too many writes are waiting")
        try:
            with self._write_transaction() as conn:
                yield conn
        finally:
            lock.release()

    @contextmanager
    def _write_transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            # "database is locked" once busy_timeout ran out, I/O errors, a full disk…
            raise StoreUnavailable(f"SQLite store unavailable: {exc}") from exc

    def _migrate(self) -> None:
        # WAL is a property of the file: set once, it stays. Switching to it takes an exclusive
        # lock, and SQLite answers "database is locked" at once, without its busy handler, when
        # another process opens the same new file in the same moment: so retry until timeout.
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                self._connection().execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if time.monotonic() >= deadline or "locked" not in str(exc):
                    raise StoreUnavailable(f"cannot open the SQLite store: {exc}") from exc
                time.sleep(0.02)
        with self._write() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            current = conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0
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
                    "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                    (version, self._to_db(utc_now())),
                )

    # dialect

    def _is_id_collision(self, exc: Exception) -> bool:
        return "checkpoints.storage_id" in str(exc)

    def _to_db(self, instant: datetime) -> str:
        # Fixed-width UTC text (always microseconds, no offset): sorts as it compares.
        return instant.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")

    def _from_db(self, value: str) -> datetime:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)

    def close(self) -> None:
        with self._guard:
            self._closed = True
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.close()
