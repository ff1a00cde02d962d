"""The store's interface, its records and its errors, shared by the SQLite and PostgreSQL stores.

The store is domain core: synchronous (the web calls it from a thread pool), no web imports.
"""

from __future__ import annotations

import enum
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from app.config import ConfigError
from app.store.limits import WriteLimits
from app.store.storable import not_a_checkpoint

if TYPE_CHECKING:
    from app.analysis import Analysis

# §"They expire after 30 days": a deployment may shorten the window, never lengthen it.
MAX_RETENTION = timedelta(days=30)
DEFAULT_RETENTION = MAX_RETENTION
# How long the "gone" answer (410) outlives a record; after that its id is unknown (404).
DEFAULT_TOMBSTONE_TTL = timedelta(days=30)
# How far list_lineage follows parent links either way; lineage cycles are possible (ids are
# the uploaders' to choose), so the walk must be bounded.
LINEAGE_DEPTH = 64
DEFAULT_LIST_LIMIT = 500
# Longer metadata strings are not recorded: no real checkpoint id is that long, and a PostgreSQL
# b-tree entry cannot exceed about 2.7 kB.
MAX_META_TEXT = 512

Clock = Callable[[], datetime]
GoneReason = Literal["expired", "deleted"]


class StoreError(Exception):
    """Base of the store's own errors."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or is too busy right now; try again later (HTTP 503)."""


class RateLimited(StoreError):
    """This client has written its share for this minute (HTTP 429 with Retry-After)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many writes from this client; try again in {retry_after} s")
        self.retry_after = retry_after  # whole seconds until the next window


FullReason = Literal["quota", "disk"]


class StoreFull(StoreError):
    """Nothing more can be stored (HTTP 507): the deployment's quota is used up, or the
    database's disk is full. Reading and deleting still work."""

    def __init__(self, reason: FullReason, detail: str = "") -> None:
        what = (
            "the store has reached its quota (OCP_MAX_STORE_BYTES)"
            if reason == "quota"
            else "the store's disk is full"
        )
        super().__init__(f"{what}{': ' + detail if detail else ''}")
        self.reason: FullReason = reason


class StoreConfigError(ConfigError):
    """The store cannot start with these settings (a bad URL, a retention over 30 days…)."""


class NotStorable(ValueError):
    """A document the store refuses: not JSON, not a checkpoint (the version gate, the top
    level of §6), or carrying an apparent credential."""

    def __init__(self, message: str, paths: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.paths = paths  # JSON Pointers of the findings that forbid storing


@dataclass(frozen=True, slots=True)
class Meta:
    """Secret-free metadata of one stored checkpoint: never its contents or any of its text
    beyond these identifiers."""

    storage_id: str
    checkpoint_id: str | None
    parent_id: str | None
    created_at: str | None  # the document's own text, as written
    derivation_method: str | None
    task_status: str | None
    stored_at: datetime
    expires_at: datetime
    digest: str  # "sha-256:<hex>" of the stored bytes
    valid: bool
    errors: int
    warnings: int
    size: int
    # the child's parent.digest, as written (lineage by evidence: a document whose bytes match)
    parent_digest: str | None = None
    # The storage id of the parent the uploader proved it holds (it named that storage id when
    # storing this one): a read capability, so never in to_dict; the holder of this document's
    # link may follow it.
    parent_storage_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "storage_id": self.storage_id,
            "checkpoint_id": self.checkpoint_id,
            "parent_id": self.parent_id,
            "created_at": self.created_at,
            "derivation_method": self.derivation_method,
            "task_status": self.task_status,
            "stored_at": _iso(self.stored_at),
            "expires_at": _iso(self.expires_at),
            "digest": self.digest,
            "valid": self.valid,
            "errors": self.errors,
            "warnings": self.warnings,
            "size": self.size,
            "parent_digest": self.parent_digest,
        }


@dataclass(frozen=True, slots=True)
class Found:
    meta: Meta
    data: bytes  # exactly the bytes that were submitted


@dataclass(frozen=True, slots=True)
class Gone:
    storage_id: str
    reason: GoneReason
    at: datetime  # when it expired or was deleted


@dataclass(frozen=True, slots=True)
class Created:
    storage_id: str
    deletion_token: str  # shown once: the store keeps only its hash
    stored_at: datetime
    expires_at: datetime
    digest: str
    meta: Meta


class DeleteOutcome(enum.Enum):
    DELETED = "deleted"
    WRONG_TOKEN = "wrong_token"  # 403
    NOT_FOUND = "not_found"  # 404: never stored here, or its tombstone was purged
    GONE = "gone"  # 410: already expired or deleted


@dataclass(frozen=True, slots=True)
class Usage:
    """How full the store is: the bytes of the documents it keeps (what the quota counts),
    whether its last write found the disk full (cleared by the next write that succeeds), and
    whether the quota refused a write since space was last freed."""

    stored_bytes: int
    disk_full: bool
    quota_refused: bool = False

    def full(self, limits: WriteLimits) -> bool:
        return self.disk_full or self.quota_refused or self.stored_bytes >= limits.max_store_bytes


@dataclass(frozen=True, slots=True)
class Described:
    """What put records about a document, taken from its lint result."""

    checkpoint_id: str | None
    parent_id: str | None
    created_at: str | None
    derivation_method: str | None
    task_status: str | None
    digest: str
    valid: bool
    errors: int
    warnings: int
    size: int
    parent_digest: str | None


def describe(data: bytes, result: Analysis) -> Described:
    """The metadata of ``data``, refusing what must never be stored (§10.5)."""
    if result.data is not data and result.data != data:
        raise ValueError("the lint result is not of these bytes")
    document = result.document
    if not isinstance(document, dict):
        why = [f for f in result.findings if f.severity == "error"]
        detail = f": {why[0].message}" if why else ""
        raise NotStorable(f"the document is not JSON{detail}", tuple(f.path for f in why))
    refusal = not_a_checkpoint(document, result.version_error)
    if refusal is not None:
        raise NotStorable(refusal)
    secrets = tuple(f.path for f in result.secrets)
    if secrets:
        raise NotStorable("the document contains apparent credentials", secrets)
    parent = document.get("parent")
    derivation = document.get("derivation")
    task = document.get("task")
    return Described(
        checkpoint_id=meta_text(document.get("id")),
        parent_id=meta_text(parent.get("id")) if isinstance(parent, dict) else None,
        created_at=meta_text(document.get("created_at")),
        derivation_method=(
            meta_text(derivation.get("method")) if isinstance(derivation, dict) else None
        ),
        task_status=meta_text(task.get("status")) if isinstance(task, dict) else None,
        digest="sha-256:" + hashlib.sha256(data).hexdigest(),
        parent_digest=meta_text(parent.get("digest")) if isinstance(parent, dict) else None,
        valid=result.valid,
        errors=result.errors,
        warnings=result.warnings,
        size=len(data),
    )


def meta_text(value: object) -> str | None:
    """``value`` if it is a string both databases can store and index, else None.

    PostgreSQL text cannot hold NUL, neither database takes lone surrogates, and long values
    cannot be indexed; none of those is a plausible checkpoint id, status or timestamp.
    """
    if not isinstance(value, str) or len(value) > MAX_META_TEXT or "\x00" in value:
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return value


def check_retention(retention: timedelta, tombstone_ttl: timedelta) -> None:
    if not isinstance(retention, timedelta) or retention <= timedelta(0):
        raise StoreConfigError(f"retention must be a positive duration, not {retention!r}")
    if retention > MAX_RETENTION:
        raise StoreConfigError(
            f"retention {retention} is longer than the maximum of {MAX_RETENTION.days} days: "
            "a deployment may shorten how long checkpoints are kept, never lengthen it"
        )
    if not isinstance(tombstone_ttl, timedelta) or tombstone_ttl < timedelta(0):
        raise StoreConfigError(f"tombstone_ttl must be a duration ≥ 0, not {tombstone_ttl!r}")


def utc_now() -> datetime:
    return datetime.now(UTC)


def _iso(instant: datetime) -> str:
    return instant.astimezone(UTC).isoformat().replace("+00:00", "Z")


class Store(ABC):
    """Stored checkpoints: exact bytes plus metadata, each with an immutable expiry."""

    backend: str  # "sqlite" or "postgresql"

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        retention: timedelta = DEFAULT_RETENTION,
        tombstone_ttl: timedelta = DEFAULT_TOMBSTONE_TTL,
    ) -> None:
        check_retention(retention, tombstone_ttl)
        self._clock = clock or utc_now
        self.retention = retention
        self.tombstone_ttl = tombstone_ttl

    def now(self) -> datetime:
        instant = self._clock()
        if instant.tzinfo is None or instant.utcoffset() is None:
            raise ValueError("the store's clock must return an aware datetime")
        return instant.astimezone(UTC)

    def lifetime(self, requested: timedelta | None) -> timedelta:
        """The life a new record gets: the retention, or a shorter one the uploader asked for."""
        if requested is None:
            return self.retention
        if not isinstance(requested, timedelta) or requested <= timedelta(0):
            raise ValueError(f"a lifetime must be a positive duration, not {requested!r}")
        if requested > self.retention:
            raise ValueError(
                f"a lifetime of {requested} is longer than this deployment's retention "
                f"({self.retention}); checkpoints can be kept shorter, never longer"
            )
        return requested

    @abstractmethod
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
        """Store ``data`` (whose lint result is ``result``) atomically; raise NotStorable for a
        document that is not a checkpoint or has apparent credentials, ValueError for a
        lifetime longer than the retention. ``parent_storage_id``: the stored parent the
        uploader showed it holds (the caller has checked that it is this document's parent).

        ``limits`` with ``client`` (app.store.limits.client_key): RateLimited when that client
        is over its rate this minute; with or without a client, StoreFull("quota") when the
        document would take the store past ``limits.max_store_bytes``. StoreFull("disk") when
        the database's disk is full."""

    @abstractmethod
    def get(self, storage_id: str) -> Found | Gone | None:
        """Found while live; Gone after expiry or deletion (until the tombstone is purged);
        None for an id unknown here (or malformed)."""

    @abstractmethod
    def delete(self, storage_id: str, token: str) -> DeleteOutcome: ...

    @abstractmethod
    def purge_expired(self) -> int:
        """Delete the bytes and metadata of every expired record, leaving a tombstone, and
        purge old tombstones; return how many records expired in this sweep."""

    @abstractmethod
    def meta(self, storage_id: str) -> Meta | None:
        """The metadata of a live entry, without its bytes; None otherwise."""

    @abstractmethod
    def by_checkpoint_id(
        self, checkpoint_id: str, *, limit: int = DEFAULT_LIST_LIMIT
    ) -> list[Meta]:
        """Live entries with this checkpoint id, newest first."""

    @abstractmethod
    def children(self, checkpoint_id: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        """Live entries whose parent.id is ``checkpoint_id``, newest first."""

    @abstractmethod
    def by_digest(self, digest: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        """Live entries whose bytes have this sha-256 digest ("sha-256:<hex>"), newest first."""

    @abstractmethod
    def derived_from(self, storage_id: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        """Live entries stored with ``storage_id`` as their proven parent, newest first."""

    @abstractmethod
    def claiming_digest(self, digest: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        """Live entries whose parent.digest is ``digest``, newest first."""

    @abstractmethod
    def deletion_token_holder(self, storage_ids: Sequence[str], token: str) -> str | None:
        """Which of the live entries ``storage_ids`` was stored with the deletion token
        ``token`` (None for none): every entry's hash is compared, each in constant time, so
        the answer takes as long whichever matches. Only named entries are compared: the
        hashes are not indexed, and a token is never looked up across the store."""

    @abstractmethod
    def list_lineage(self, checkpoint_id: str, *, limit: int = DEFAULT_LIST_LIMIT) -> list[Meta]:
        """Live entries of ``checkpoint_id``, its ancestors and its descendants (transitively,
        through live entries, at most LINEAGE_DEPTH generations each way), newest first."""

    @abstractmethod
    def usage(self) -> Usage:
        """The bytes stored and whether the disk was found full (for readiness)."""

    @abstractmethod
    def ping(self) -> None:
        """Raise StoreUnavailable unless the database answers (for readiness checks)."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
