"""The embedded store: one SQLite file in WAL mode.

Starlette runs the store's calls in a thread pool, so every thread gets its own connection
(WAL lets readers proceed while one writer commits). Writes take the write lock up front
(BEGIN IMMEDIATE): a deferred transaction that upgrades from read to write can fail with
"database is locked" at once, ignoring the busy timeout.

Space comes back: a new file is created with ``auto_vacuum = INCREMENTAL`` (it can only be set
before the first table), the sweep moves free pages to the end of the file and cuts them off
(``reclaim``, a bounded number of pages per step), and a file made before that is converted
once at start-up by a VACUUM when it is small enough (``CONVERT_LIMIT``; a larger one is named
in the log with the command that converts it). A full disk is StoreFull (507), never "not
answering"; deleting still works on it, through the disk reserve (app/store/reserve.py).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from app.store.base import (
    DeleteOutcome,
    StoreConfigError,
    StoreError,
    StoreFull,
    StoreUnavailable,
    Usage,
    utc_now,
)
from app.store.reserve import DEFAULT_RESERVE_BYTES, DiskReserve
from app.store.sql import SqlStore

log = logging.getLogger(__name__)

# A file made without auto_vacuum is converted at start-up (a VACUUM rewrites it whole, and
# needs that much free space) only up to this size.
CONVERT_LIMIT = 256 * 1024 * 1024
# Pages one reclaim step moves and cuts off (4 MiB at SQLite's default 4 KiB pages): a step
# is one write transaction, so it never holds the write lock long.
RECLAIM_PAGES = 1024
# Steps per sweep: what one sweep gives back at most (1 GiB); the next sweep goes on.
RECLAIM_STEPS = 256
# Free bytes on the database's file system after which a full disk counts as having room
# again (for readiness; the next write is the real test).
ROOM_AGAIN = 8 * 1024 * 1024

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
    (
        # Writing bounded (app/store/limits.py): each client's writes per minute, and the bytes
        # stored, counted from the bytes already kept.
        3,
        [
            """CREATE TABLE write_counters (
                client TEXT NOT NULL,
                window_number INTEGER NOT NULL,
                writes INTEGER NOT NULL,
                bytes INTEGER NOT NULL,
                PRIMARY KEY (client, window_number)
            )""",
            """CREATE TABLE store_usage (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                stored_bytes INTEGER NOT NULL
            )""",
            "INSERT INTO store_usage (id, stored_bytes)"
            " SELECT 1, coalesce(sum(length(data)), 0) FROM checkpoint_bytes",
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

    def __init__(
        self,
        path: str,
        *,
        timeout: float = 5.0,
        reserve_bytes: int = DEFAULT_RESERVE_BYTES,
        **options: object,
    ) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        if not path or path == ":memory:" or path.startswith("file:"):
            # Each thread has its own connection, and each in-memory connection its own database.
            raise StoreConfigError(f"the SQLite store needs a file path, not {path!r}")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise StoreConfigError(f"the folder of the SQLite database does not exist: {folder}")
        # Absolute once: a relative path must name the same file when the working folder
        # changes later (the store's threads and its sweep outlive any chdir)
        self.path = path = os.path.abspath(path)
        self._timeout = timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        self._closed = False
        self._reserve = DiskReserve(path + "-reserve", reserve_bytes)
        self._migrate()
        self._convert_to_incremental_vacuum()
        self._reserve.ensure()

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
            if _is_disk_full(exc):
                self._disk_full = True
                raise StoreFull("disk", "SQLite could not write its file") from exc
            # "database is locked" once busy_timeout ran out, I/O errors…
            raise StoreUnavailable(f"SQLite store unavailable: {exc}") from exc

    def _migrate(self) -> None:
        # WAL is a property of the file: set once, it stays. Switching to it takes an exclusive
        # lock, and SQLite answers "database is locked" at once, without its busy handler, when
        # another process opens the same new file in the same moment: so retry until timeout.
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                conn = self._connection()
                if conn.execute("PRAGMA page_count").fetchone()[0] == 0:
                    # A new file: free pages can be given back only if it is made so now.
                    conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
                conn.execute("PRAGMA journal_mode = WAL")
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

    def _convert_to_incremental_vacuum(self) -> None:
        """A file made before auto_vacuum: VACUUM it once into INCREMENTAL mode if small."""
        conn = self._connection()
        if conn.execute("PRAGMA auto_vacuum").fetchone()[0] != 0:
            return
        size = os.path.getsize(self.path)
        if size > CONVERT_LIMIT:
            log.warning(
                "the SQLite store %s (%d bytes) does not give deleted space back; stop the "
                "service and run: sqlite3 FILE 'PRAGMA auto_vacuum = INCREMENTAL; VACUUM'",
                os.path.basename(self.path),
                size,
            )
            return
        lock = _write_lock(self.path)
        if not lock.acquire(timeout=self._timeout):
            return
        try:
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
            conn.execute("VACUUM")
            log.info("the SQLite store now gives deleted space back (auto_vacuum)")
        except sqlite3.OperationalError as exc:  # busy, or no room to rewrite it: next start
            log.warning("could not convert the SQLite store to auto_vacuum: %s", exc)
        finally:
            lock.release()

    # space

    def reclaim(self, steps: int = RECLAIM_STEPS, *, truncate: bool = True) -> int:
        """Give free pages back to the file system, ``RECLAIM_PAGES`` per write transaction,
        at most ``steps`` transactions; then checkpoint the log into the file, which is when
        the file shrinks. Returns the pages freed. StoreFull when the disk has no room even
        for that (the caller releases the reserve).

        ``truncate``: empty the log file too. That checkpoint waits for readers (up to the
        busy timeout), so only the sweep and a full disk ask for it; a deletion's passive
        checkpoint never waits, and leaves the log its size for the next writes."""
        freed = 0
        if not self._room_to_checkpoint():
            # Moving pages would only lengthen the log, eating the room a delete was given.
            log.info("SQLite reclaim postponed: the disk has no room to checkpoint yet")
            return freed
        lock = _write_lock(self.path)
        for _ in range(steps):
            if not lock.acquire(timeout=self._timeout):
                break
            try:
                conn = self._connection()
                before = conn.execute("PRAGMA freelist_count").fetchone()[0]
                if before == 0:
                    break
                # The pragma frees one page per step of its statement; executescript steps it
                # to the end (execute would stop after the first).
                script = f"BEGIN IMMEDIATE; PRAGMA incremental_vacuum({RECLAIM_PAGES}); COMMIT;"
                try:
                    conn.executescript(script)
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                freed += before - conn.execute("PRAGMA freelist_count").fetchone()[0]
            except sqlite3.OperationalError as exc:
                if _is_disk_full(exc):
                    raise StoreFull("disk", "no room to give free pages back") from exc
                raise StoreUnavailable(f"SQLite store unavailable: {exc}") from exc
            finally:
                lock.release()
        self._checkpoint("TRUNCATE" if truncate else "PASSIVE")
        return freed

    def _checkpoint(self, mode: str) -> None:
        """Copy the log into the file (which then shrinks to its pages) and, in TRUNCATE
        mode, empty the log. Skipped while there is no room for it (``_room_to_checkpoint``)."""
        if not self._room_to_checkpoint():
            log.info("SQLite checkpoint postponed: the disk has no room for it yet")
            return
        try:
            self._connection().execute(f"PRAGMA wal_checkpoint({mode})").fetchall()
        except sqlite3.OperationalError as exc:  # readers in the way: the next sweep
            log.info("the SQLite checkpoint after a reclaim did not complete: %s", exc)

    def _room_to_checkpoint(self) -> bool:
        """Whether the file may grow to hold every page the log has for it. A checkpoint cut
        short by a full disk leaves the file grown and the log whole: the room a delete was
        given is gone. (The sweep checkpoints at start-up and every interval, so the log is
        short and this holds but on a disk filled to the last byte.)"""
        conn = self._connection()
        pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        growth = pages * page_size - os.path.getsize(self.path)
        return growth <= _free_bytes(self.path)

    def delete(self, storage_id: str, token: str) -> DeleteOutcome:
        """Delete, also on a full disk: when there is no room for the log, the reserve is
        released for the delete, the freed pages are given back, and the reserve is taken
        again."""
        disk_full = False
        try:
            outcome = super().delete(storage_id, token)
        except StoreFull:
            if not self._reserve.release():
                raise
            disk_full = True
            outcome = super().delete(storage_id, token)
        if outcome == DeleteOutcome.DELETED:
            self._give_back(steps=1, truncate=disk_full or self._reserve.missing)
        return outcome

    def _sweep(self) -> int:
        try:
            expired = super()._sweep()
        except StoreFull:
            if not self._reserve.release():
                raise
            expired = super()._sweep()
        self._give_back(steps=RECLAIM_STEPS)
        return expired

    def _give_back(self, steps: int, truncate: bool = True) -> None:
        """Reclaim after a delete or a sweep, which has committed: a failure here is logged,
        never the caller's answer; the next sweep tries again."""
        try:
            try:
                self.reclaim(steps, truncate=truncate)
            except StoreFull:
                self._reserve.release()
                self.reclaim(steps, truncate=True)
        except StoreError as exc:
            log.warning("could not give free pages back yet: %s", exc)
        self._reserve.ensure()

    def usage(self) -> Usage:
        stored = super().usage()
        if self._disk_full and _free_bytes(self.path) >= ROOM_AGAIN:
            self._disk_full = False  # someone made room since the last write failed
        # A reserve that cannot be allocated again means the disk has no room left.
        disk_full = self._disk_full or self._reserve.missing
        return Usage(stored.stored_bytes, disk_full, stored.quota_refused)

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


def _free_bytes(path: str) -> int:
    try:
        stat = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return 0
    return stat.f_bavail * stat.f_frsize


def _is_disk_full(exc: sqlite3.Error) -> bool:
    # SQLITE_FULL, and its extended codes (the low byte is the primary code).
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF == sqlite3.SQLITE_FULL
    return "database or disk is full" in str(exc)
