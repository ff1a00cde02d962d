"""Immutable expiry: at most 30 days, shorter on request or by deployment; the sweep."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from app.config import ConfigError
from app.store import Found, Gone, Store, StoreConfigError
from tests.backends import START, Backend, FakeClock, linted

HOUR, DAY = timedelta(hours=1), timedelta(days=1)


def test_found_before_expiry_gone_after_even_before_the_sweep(
    store: Store, backend: Backend, clock: FakeClock
) -> None:
    data, result = linted("valid-coding-refactor.ocp.json")
    created = store.put(data, result, lifetime=HOUR)
    assert created.expires_at == START + HOUR
    clock.advance(HOUR - timedelta(microseconds=1))
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.data == data
    clock.advance(timedelta(microseconds=1))
    # Not swept yet: the bytes are still in the table, but never served.
    assert backend.count("checkpoint_bytes") == 1
    assert store.get(created.storage_id) == Gone(created.storage_id, "expired", START + HOUR)
    assert store.by_checkpoint_id(result.document["id"]) == []  # type: ignore[index]


def test_the_sweep_deletes_bytes_and_metadata_then_old_tombstones(
    store: Store, backend: Backend, clock: FakeClock
) -> None:
    data, result = linted("valid-coding-refactor.ocp.json")
    short = store.put(data, result, lifetime=HOUR)
    long = store.put(data, result, lifetime=7 * DAY)
    assert store.purge_expired() == 0
    clock.advance(2 * HOUR)
    assert store.purge_expired() == 1
    assert store.purge_expired() == 0
    assert backend.rows("SELECT storage_id FROM checkpoint_bytes") == [(long.storage_id,)]
    [tombstone] = backend.rows(
        "SELECT checkpoint_id, parent_id, created_at, digest, valid, errors, warnings, size, "
        f"deletion_token_hash, gone_reason FROM checkpoints WHERE storage_id = '{short.storage_id}'"
    )
    assert tombstone == (None,) * 9 + ("expired",)
    assert store.get(short.storage_id) == Gone(short.storage_id, "expired", START + HOUR)
    assert isinstance(store.get(long.storage_id), Found)

    # The tombstone answers "gone" for the tombstone TTL after expiry, then the id is unknown,
    # whether or not the sweep has removed the row yet.
    clock.now = START + HOUR + store.tombstone_ttl - timedelta(microseconds=1)
    assert isinstance(store.get(short.storage_id), Gone)
    clock.advance(timedelta(microseconds=1))
    assert store.get(short.storage_id) is None
    assert backend.count("checkpoints") == 2
    assert store.purge_expired() == 1  # the long one expired meanwhile
    assert store.get(short.storage_id) is None
    assert backend.rows("SELECT storage_id FROM checkpoints") == [(long.storage_id,)]
    assert backend.count("checkpoint_bytes") == 0


def test_a_record_expired_long_ago_is_unknown_even_unswept(store: Store, clock: FakeClock) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result, lifetime=HOUR)
    clock.advance(HOUR + store.tombstone_ttl)
    assert store.get(created.storage_id) is None
    assert store.purge_expired() == 1


def test_the_sweep_works_in_batches(
    make_store: Callable[..., Store],
    backend: Backend,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.store import sql

    monkeypatch.setattr(sql, "PURGE_BATCH", 3)
    store = make_store()
    data, result = linted("valid-minimal.ocp.json")
    for _ in range(8):
        store.put(data, result, lifetime=HOUR)
    clock.advance(HOUR)
    assert store.purge_expired() == 8
    assert backend.count("checkpoint_bytes") == 0
    clock.advance(store.tombstone_ttl)
    assert store.purge_expired() == 0
    assert backend.count("checkpoints") == 0


@pytest.mark.parametrize("lifetime", [HOUR, DAY, 7 * DAY, 30 * DAY])
def test_an_uploader_may_ask_for_a_shorter_life(store: Store, lifetime: timedelta) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result, lifetime=lifetime)
    assert created.expires_at == START + lifetime == created.meta.expires_at
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.meta.expires_at == START + lifetime


def test_the_default_life_is_the_retention(store: Store) -> None:
    data, result = linted("valid-minimal.ocp.json")
    assert store.retention == 30 * DAY
    assert store.put(data, result).expires_at == START + 30 * DAY


@pytest.mark.parametrize(
    "lifetime", [30 * DAY + timedelta(microseconds=1), 31 * DAY, timedelta(0), -HOUR]
)
def test_a_longer_or_empty_life_is_refused(
    store: Store, backend: Backend, lifetime: timedelta
) -> None:
    data, result = linted("valid-minimal.ocp.json")
    with pytest.raises(ValueError, match="lifetime"):
        store.put(data, result, lifetime=lifetime)
    assert backend.count("checkpoints") == 0


def test_a_deployment_may_shorten_the_retention(make_store: Callable[..., Store]) -> None:
    store = make_store(retention=7 * DAY)
    data, result = linted("valid-minimal.ocp.json")
    assert store.put(data, result).expires_at == START + 7 * DAY
    assert store.put(data, result, lifetime=DAY).expires_at == START + DAY
    with pytest.raises(ValueError, match="longer than this deployment's retention"):
        store.put(data, result, lifetime=30 * DAY)


@pytest.mark.parametrize(
    "retention", [30 * DAY + timedelta(seconds=1), 31 * DAY, 365 * DAY, timedelta(0), -DAY]
)
def test_a_retention_over_30_days_is_a_start_up_error(
    make_store: Callable[..., Store], retention: timedelta
) -> None:
    with pytest.raises(StoreConfigError) as error:
        make_store(retention=retention)
    assert isinstance(error.value, ConfigError) and isinstance(error.value, ValueError)
    if retention > 30 * DAY:
        assert "never lengthen" in str(error.value)


def test_expiry_is_immutable_across_reopening(
    make_store: Callable[..., Store], clock: FakeClock
) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = make_store().put(data, result, lifetime=7 * DAY)
    # A later deployment shortens its retention: what was stored keeps its own expiry.
    reopened = make_store(retention=DAY)
    clock.advance(3 * DAY)
    found = reopened.get(created.storage_id)
    assert isinstance(found, Found) and found.meta.expires_at == START + 7 * DAY


def test_the_clock_must_be_aware(make_store: Callable[..., Store]) -> None:
    from datetime import datetime

    store = make_store(clock=lambda: datetime(2026, 12, 1, 12, 0))
    data, result = linted("valid-minimal.ocp.json")
    with pytest.raises(ValueError, match="aware"):
        store.put(data, result)
