"""The store over SQL, shared by SQLite and PostgreSQL: the two differ only in connections,
transactions, error mapping, placeholders and how instants are kept.

Two tables: ``checkpoints`` holds one row per storage id (live, expired or a tombstone) and
``checkpoint_bytes`` the exact submitted bytes, written in the same transaction. Keeping the
bytes apart means listings never touch them, and a tombstone is the metadata row with
everything but its id, instants and reason cleared, and no bytes row.

Two more keep writing bounded (app/store/limits.py): ``write_counters``, one row per client
per minute, and ``store_usage``, one row with the bytes of every bytes row, changed in the
same transaction as the bytes themselves (put, delete, the sweep).

Every SQL text here uses ``?`` placeholders; a dialect may rewrite them (``_sql``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from app.store import ids
from app.store.base import (
    DEFAULT_LIST_LIMIT,
    LINEAGE_DEPTH,
    Created,
    DeleteOutcome,
    Found,
    Gone,
    Meta,
    RateLimited,
    Store,
    StoreFull,
    StoreUnavailable,
    Usage,
    describe,
    meta_text,
)
from app.store.limits import UNLIMITED, WriteLimits, seconds_to_next_window, window_of

if TYPE_CHECKING:
    from app.analysis import Analysis

# A fresh 144-bit id colliding even once is astronomically unlikely; more than a few times in a
# row means the generator is broken, which must not turn into an endless loop.
ID_ATTEMPTS = 5
# Rows changed per purge transaction, so a large sweep never holds the write lock for long.
PURGE_BATCH = 500

META_COLUMNS = (
    "storage_id",
    "checkpoint_id",
    "parent_id",
    "created_at",
    "derivation_method",
    "task_status",
    "stored_at",
    "expires_at",
    "digest",
    "valid",
    "errors",
    "warnings",
    "size",
    "parent_digest",
    "parent_storage_id",
)
_META = ", ".join(META_COLUMNS)
_C_META = ", ".join(f"c.{column}" for column in META_COLUMNS)
_LIVE = "gone_at IS NULL AND expires_at > ?"

INSERT_META = (
    f"INSERT INTO checkpoints ({_META}, deletion_token_hash) "
    f"VALUES ({', '.join('?' * (len(META_COLUMNS) + 1))})"
)
INSERT_BYTES = "INSERT INTO checkpoint_bytes (storage_id, data) VALUES (?, ?)"
SELECT_ONE = (
    f"SELECT {_C_META}, c.gone_at, c.gone_reason, b.data FROM checkpoints c "
    "LEFT JOIN checkpoint_bytes b ON b.storage_id = c.storage_id WHERE c.storage_id = ?"
)
SELECT_META = f"SELECT {_META} FROM checkpoints WHERE storage_id = ? AND {_LIVE}"
SELECT_FOR_DELETE = (
    "SELECT deletion_token_hash, gone_at, expires_at FROM checkpoints WHERE storage_id = ?"
)
# What a tombstone keeps: storage_id, stored_at, expires_at, gone_at, gone_reason.
_CLEAR = (
    "checkpoint_id = NULL, parent_id = NULL, created_at = NULL, derivation_method = NULL, "
    "task_status = NULL, digest = NULL, valid = NULL, errors = NULL, warnings = NULL, "
    "size = NULL, deletion_token_hash = NULL, parent_digest = NULL, parent_storage_id = NULL"
)
TOMBSTONE_DELETED = (
    f"UPDATE checkpoints SET gone_at = ?, gone_reason = 'deleted', {_CLEAR} "
    "WHERE storage_id = ? AND gone_at IS NULL"
)
TOMBSTONE_EXPIRED = (
    f"UPDATE checkpoints SET gone_at = expires_at, gone_reason = 'expired', {_CLEAR} "
    "WHERE gone_at IS NULL AND expires_at <= ? AND storage_id IN ("
    "SELECT storage_id FROM checkpoints WHERE gone_at IS NULL AND expires_at <= ? LIMIT ?) "
    "RETURNING storage_id"
)
DELETE_BYTES = "DELETE FROM checkpoint_bytes WHERE storage_id = ? RETURNING length(data)"
# One statement counts a client's write in this minute's window and returns the new totals:
# concurrent writers (threads, instances) each see their own increment.
COUNT_WRITE = (
    "INSERT INTO write_counters (client, window_number, writes, bytes) VALUES (?, ?, 1, ?) "
    "ON CONFLICT (client, window_number) DO UPDATE SET writes = write_counters.writes + 1, "
    "bytes = write_counters.bytes + excluded.bytes RETURNING writes, bytes"
)
SWEEP_COUNTERS = "DELETE FROM write_counters WHERE window_number < ?"
# The quota, checked and taken in one statement: no row changed means it would overflow.
TAKE_USAGE = (
    "UPDATE store_usage SET stored_bytes = stored_bytes + ? WHERE id = 1 AND stored_bytes + ? <= ?"
)
GIVE_USAGE = "UPDATE store_usage SET stored_bytes = stored_bytes - ? WHERE id = 1"
SELECT_USAGE = "SELECT stored_bytes FROM store_usage WHERE id = 1"
PURGE_TOMBSTONES = (
    "DELETE FROM checkpoints WHERE gone_at IS NOT NULL AND gone_at <= ? AND storage_id IN ("
    "SELECT storage_id FROM checkpoints WHERE gone_at IS NOT NULL AND gone_at <= ? LIMIT ?)"
)
BY_CHECKPOINT_ID = (
    f"SELECT {_META} FROM checkpoints WHERE checkpoint_id = ? AND {_LIVE} "
    "ORDER BY stored_at DESC, storage_id LIMIT ?"
)
CHILDREN = (
    f"SELECT {_META} FROM checkpoints WHERE parent_id = ? AND {_LIVE} "
    "ORDER BY stored_at DESC, storage_id LIMIT ?"
)
BY_DIGEST = (
    f"SELECT {_META} FROM checkpoints WHERE digest = ? AND {_LIVE} "
    "ORDER BY stored_at DESC, storage_id LIMIT ?"
)
DERIVED_FROM = (
    f"SELECT {_META} FROM checkpoints WHERE parent_storage_id = ? AND {_LIVE} "
    "ORDER BY stored_at DESC, storage_id LIMIT ?"
)
CLAIMING_DIGEST = (
    f"SELECT {_META} FROM checkpoints WHERE parent_digest = ? AND {_LIVE} "
    "ORDER BY stored_at DESC, storage_id LIMIT ?"
)
# Ancestors: from the entries with an id, up through their parent ids; descendants: down
# through the entries naming an id as their parent. UNION plus the depth bound ends cycles.
# Only live entries are walked through, so the answer does not change when the sweep runs.
# Children without an id of their own are reached by their parent id alone.
LINEAGE = f"""
WITH RECURSIVE
  up(cid, depth) AS (
    SELECT CAST(? AS TEXT), 0
    UNION
    SELECT c.parent_id, up.depth + 1 FROM checkpoints c JOIN up ON c.checkpoint_id = up.cid
    WHERE up.depth < ? AND c.parent_id IS NOT NULL AND c.gone_at IS NULL AND c.expires_at > ?
  ),
  down(cid, depth) AS (
    SELECT CAST(? AS TEXT), 0
    UNION
    SELECT c.checkpoint_id, down.depth + 1 FROM checkpoints c JOIN down ON c.parent_id = down.cid
    WHERE down.depth < ? AND c.checkpoint_id IS NOT NULL AND c.gone_at IS NULL
      AND c.expires_at > ?
  )
SELECT {_META} FROM checkpoints
WHERE {_LIVE}
  AND (checkpoint_id IN (SELECT cid FROM up UNION SELECT cid FROM down)
       OR parent_id IN (SELECT cid FROM down WHERE depth < ?))
ORDER BY stored_at DESC, storage_id
LIMIT ?
"""
TOKEN_HASHES = (
    "SELECT storage_id, deletion_token_hash FROM checkpoints WHERE storage_id IN ({ids}) AND "
    + _LIVE
)
PING = "SELECT 1"


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...


class SqlStore(Store):
    """Store logic over a DB-API-like connection; subclasses supply the dialect."""

    # Exceptions a dialect raises for a constraint violation (a storage id collision among them).
    integrity_errors: tuple[type[Exception], ...] = ()

    # dialect hooks

    @abstractmethod
    def _read(self) -> AbstractContextManager[Connection]:
        """A connection for reads; errors reaching the database raise StoreUnavailable."""

    @abstractmethod
    def _write(self) -> AbstractContextManager[Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    def _is_id_collision(self, exc: Exception) -> bool: ...

    @abstractmethod
    def _to_db(self, instant: datetime) -> Any: ...

    @abstractmethod
    def _from_db(self, value: Any) -> datetime: ...

    def _sql(self, sql: str) -> str:
        return sql

    _lock_for_update = ""  # appended to the row read before a delete

    # Set when a write finds the disk full, cleared by the next document stored (readiness).
    _disk_full = False
    # Set when the quota refuses a write, cleared when a write succeeds or space is freed.
    _quota_refused = False

    # writing

    def put(
        self,
        data: bytes,
        result: Analysis,
        *,
        lifetime: timedelta | None = None,
        parent_storage_id: str | None = None,
        client: str | None = None,
        limits: WriteLimits | None = None,
    ) -> Created:
        data = bytes(data)
        described = describe(data, result)
        life = self.lifetime(lifetime)
        limits = limits or UNLIMITED
        token = ids.new_deletion_token()
        for _ in range(ID_ATTEMPTS):
            stored_at = self.now()
            meta = Meta(
                storage_id=ids.new_storage_id(),
                checkpoint_id=described.checkpoint_id,
                parent_id=described.parent_id,
                created_at=described.created_at,
                derivation_method=described.derivation_method,
                task_status=described.task_status,
                stored_at=stored_at,
                expires_at=stored_at + life,
                digest=described.digest,
                valid=described.valid,
                errors=described.errors,
                warnings=described.warnings,
                size=described.size,
                parent_digest=described.parent_digest,
                parent_storage_id=parent_storage_id,
            )
            try:
                with self._write() as conn:
                    if client is not None:
                        self._count_write(conn, client, len(data), stored_at, limits)
                    self._insert_meta(conn, meta, ids.token_hash(token))
                    self._insert_bytes(conn, meta.storage_id, data)
                    # Last: the one row every write changes is held only until the commit.
                    self._take_quota(conn, len(data), limits)
            except self.integrity_errors as exc:
                if self._is_id_collision(exc):
                    continue
                raise
            self._disk_full = self._quota_refused = False
            return Created(
                storage_id=meta.storage_id,
                deletion_token=token,
                stored_at=meta.stored_at,
                expires_at=meta.expires_at,
                digest=meta.digest,
                meta=meta,
            )
        raise RuntimeError(f"no unused storage id after {ID_ATTEMPTS} attempts")

    # Two statements in one transaction: separate methods so a test can fail between them.
    def _insert_meta(self, conn: Connection, meta: Meta, token_hash: bytes) -> None:
        conn.execute(
            self._sql(INSERT_META),
            (
                meta.storage_id,
                meta.checkpoint_id,
                meta.parent_id,
                meta.created_at,
                meta.derivation_method,
                meta.task_status,
                self._to_db(meta.stored_at),
                self._to_db(meta.expires_at),
                meta.digest,
                meta.valid,
                meta.errors,
                meta.warnings,
                meta.size,
                meta.parent_digest,
                meta.parent_storage_id,
                token_hash,
            ),
        )

    def _insert_bytes(self, conn: Connection, storage_id: str, data: bytes) -> None:
        conn.execute(self._sql(INSERT_BYTES), (storage_id, data))

    def _count_write(
        self, conn: Connection, client: str, size: int, at: datetime, limits: WriteLimits
    ) -> None:
        """Count this write against the client's minute; over the rate, the transaction is
        rolled back (RateLimited), so a refused write is not counted."""
        writes, written = conn.execute(
            self._sql(COUNT_WRITE), (client, window_of(at), size)
        ).fetchone()
        if limits.over_rate(writes, written):
            raise RateLimited(seconds_to_next_window(at))

    def _take_quota(self, conn: Connection, size: int, limits: WriteLimits) -> None:
        taken = conn.execute(self._sql(TAKE_USAGE), (size, size, limits.max_store_bytes))
        if taken.rowcount != 1:
            self._quota_refused = True
            raise StoreFull(
                "quota",
                f"{limits.max_store_bytes} bytes of checkpoints are stored; space comes back "
                "as checkpoints expire or are deleted",
            )

    def _delete_bytes(self, conn: Connection, storage_ids: Sequence[str]) -> None:
        """Delete these bytes rows and give their bytes back to the quota."""
        freed = 0
        for storage_id in storage_ids:
            row = conn.execute(self._sql(DELETE_BYTES), (storage_id,)).fetchone()
            freed += row[0] if row is not None else 0
        if freed:
            conn.execute(self._sql(GIVE_USAGE), (freed,))
            self._quota_refused = False  # (a rollback after this only delays the next write)

    def delete(self, storage_id: str, token: str) -> DeleteOutcome:
        canonical = ids.canonical_storage_id(storage_id)
        if canonical is None:
            return DeleteOutcome.NOT_FOUND
        storage_id = canonical
        now = self.now()
        with self._write() as conn:
            row = conn.execute(
                self._sql(SELECT_FOR_DELETE + self._lock_for_update), (storage_id,)
            ).fetchone()
            if row is None:
                return DeleteOutcome.NOT_FOUND
            token_hash, gone_at, expires_at = row
            if gone_at is not None or self._from_db(expires_at) <= now:
                # Gone already (a purged tombstone would be NOT_FOUND above): the sweep owns
                # expired records, and a deleted one cannot be deleted twice.
                if self._tombstone_outlived(self._from_db(gone_at or expires_at), now):
                    return DeleteOutcome.NOT_FOUND
                return DeleteOutcome.GONE
            if not ids.token_matches(token, token_hash):
                return DeleteOutcome.WRONG_TOKEN
            self._delete_bytes(conn, [storage_id])
            changed = conn.execute(self._sql(TOMBSTONE_DELETED), (self._to_db(now), storage_id))
            return DeleteOutcome.DELETED if changed.rowcount == 1 else DeleteOutcome.GONE

    def purge_expired(self) -> int:
        # A full disk stops the sweep, not the service: its caller retries what is
        # unavailable (the sweep runs again at the next interval).
        try:
            return self._sweep()
        except StoreFull as exc:
            raise StoreUnavailable(f"the sweep cannot run now: {exc}") from exc

    def _sweep(self) -> int:
        now = self.now()
        at = self._to_db(now)
        expired = 0
        while True:
            with self._write() as conn:
                rows = conn.execute(self._sql(TOMBSTONE_EXPIRED), (at, at, PURGE_BATCH)).fetchall()
                self._delete_bytes(conn, [storage_id for (storage_id,) in rows])
            expired += len(rows)
            if len(rows) < PURGE_BATCH:
                break
        cutoff = self._to_db(now - self.tombstone_ttl)
        while True:
            with self._write() as conn:
                purged = conn.execute(
                    self._sql(PURGE_TOMBSTONES), (cutoff, cutoff, PURGE_BATCH)
                ).rowcount
            if purged < PURGE_BATCH:
                break
        with self._write() as conn:
            conn.execute(self._sql(SWEEP_COUNTERS), (window_of(now),))
        return expired

    # reading

    def get(self, storage_id: str) -> Found | Gone | None:
        canonical = ids.canonical_storage_id(storage_id)
        if canonical is None:
            return None
        storage_id = canonical
        now = self.now()
        with self._read() as conn:
            row = conn.execute(self._sql(SELECT_ONE), (storage_id,)).fetchone()
        if row is None:
            return None
        gone_at, gone_reason, data = row[len(META_COLUMNS) :]
        if gone_at is not None:
            at, reason = self._from_db(gone_at), gone_reason
        else:
            meta = self._meta(row)
            # Expiry is decided here, against the clock, not by the sweep having run. (A live
            # row always has its bytes: both are written, and cleared, in one transaction.)
            if now < meta.expires_at and data is not None:
                return Found(meta, bytes(data))
            at, reason = meta.expires_at, "expired"
        if self._tombstone_outlived(at, now):
            return None
        return Gone(storage_id, reason, at)

    def meta(self, storage_id: str) -> Meta | None:
        canonical = ids.canonical_storage_id(storage_id)
        if canonical is None:
            return None
        storage_id = canonical
        with self._read() as conn:
            row = conn.execute(
                self._sql(SELECT_META), (storage_id, self._to_db(self.now()))
            ).fetchone()
        return self._meta(row) if row is not None else None

    def by_checkpoint_id(
        self, checkpoint_id: str, *, limit: int = DEFAULT_LIST_LIMIT
    ) -> list[Meta]:
        return self._list(BY_CHECKPOINT_ID, checkpoint_id, limit)

    def children(self, checkpoint_id: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        return self._list(CHILDREN, checkpoint_id, limit)

    def by_digest(self, digest: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        return self._list(BY_DIGEST, digest, limit)

    def derived_from(self, storage_id: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        canonical = ids.canonical_storage_id(storage_id)
        if canonical is None:
            return []
        storage_id = canonical
        return self._list(DERIVED_FROM, storage_id, limit)

    def claiming_digest(self, digest: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        return self._list(CLAIMING_DIGEST, digest, limit)

    def list_lineage(self, checkpoint_id: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        wanted = meta_text(checkpoint_id)
        if wanted is None:
            return []
        now = self._to_db(self.now())
        depth = LINEAGE_DEPTH
        params = (wanted, depth, now, wanted, depth, now, now, depth, limit)
        with self._read() as conn:
            rows = conn.execute(self._sql(LINEAGE), params).fetchall()
        return [self._meta(row) for row in rows]

    def deletion_token_holder(self, storage_ids: Sequence[str], token: str) -> str | None:
        wanted = sorted({c for c in map(ids.canonical_storage_id, storage_ids) if c is not None})
        if not wanted:
            return None
        sql = TOKEN_HASHES.format(ids=", ".join("?" * len(wanted)))
        with self._read() as conn:
            rows = conn.execute(self._sql(sql), (*wanted, self._to_db(self.now()))).fetchall()
        holder = None
        for storage_id, token_hash in rows:  # no early exit: every row costs the same
            if ids.token_matches(token, bytes(token_hash)):
                holder = storage_id
        return holder

    def ping(self) -> None:
        with self._read() as conn:
            conn.execute(self._sql(PING)).fetchone()

    def usage(self) -> Usage:
        with self._read() as conn:
            row = conn.execute(self._sql(SELECT_USAGE)).fetchone()
        stored = int(row[0]) if row else 0
        return Usage(stored, disk_full=self._disk_full, quota_refused=self._quota_refused)

    def _list(self, sql: str, value: str, limit: int) -> list[Meta]:
        # An id that could never have been recorded matches nothing; the database is spared a
        # value it might reject (NUL, lone surrogates).
        wanted = meta_text(value)
        if wanted is None:
            return []
        with self._read() as conn:
            rows = conn.execute(self._sql(sql), (wanted, self._to_db(self.now()), limit)).fetchall()
        return [self._meta(row) for row in rows]

    def _meta(self, row: Sequence[Any]) -> Meta:
        values = dict(zip(META_COLUMNS, row, strict=False))
        values["stored_at"] = self._from_db(values["stored_at"])
        values["expires_at"] = self._from_db(values["expires_at"])
        values["valid"] = bool(values["valid"])
        return Meta(**values)

    def _tombstone_outlived(self, gone_at: datetime, now: datetime) -> bool:
        return gone_at + self.tombstone_ttl <= now
