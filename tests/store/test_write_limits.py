"""The per-client write rate and the total quota, on both stores: counted in the database, in
the transaction that stores, so several store instances on one database enforce one limit."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest

from app.store import Created, RateLimited, Store, StoreFull, WriteLimits, client_key
from tests.backends import Backend, FakeClock, checkpoint, pg_execute

ALICE = client_key("192.0.2.10")
BOB = client_key("192.0.2.11")
GENEROUS = 10**9


def limits(writes: int = 0, size: int = 0, quota: int = GENEROUS) -> WriteLimits:
    return WriteLimits(writes_per_minute=writes, bytes_per_minute=size, max_store_bytes=quota)


def doc(number: int) -> tuple[bytes, Any]:
    return checkpoint(f"urn:x:limits-{number}")


def put(store: Store, number: int, client: str | None, rule: WriteLimits) -> Created:
    data, result = doc(number)
    return store.put(data, result, client=client, limits=rule)


def test_a_client_over_its_rate_is_refused_until_the_next_minute(
    store: Store, clock: FakeClock, backend: Backend
) -> None:
    rule = limits(writes=3)
    for number in range(3):
        put(store, number, ALICE, rule)
    with pytest.raises(RateLimited) as refused:
        put(store, 3, ALICE, rule)
    # The clock starts at 12:00:00.123456: the window frees at 12:01:00.
    assert refused.value.retry_after == 60
    clock.advance(timedelta(seconds=30))
    with pytest.raises(RateLimited) as refused:
        put(store, 4, ALICE, rule)
    assert refused.value.retry_after == 30
    # The refused writes were not stored and not counted.
    assert backend.count("checkpoints") == 3
    assert backend.rows("SELECT writes FROM write_counters") == [(3,)]
    clock.advance(timedelta(seconds=30))
    put(store, 5, ALICE, rule)
    assert backend.count("checkpoints") == 4


def test_each_client_has_its_own_rate_and_no_client_means_no_rate(store: Store) -> None:
    rule = limits(writes=1)
    put(store, 0, ALICE, rule)
    put(store, 1, BOB, rule)
    with pytest.raises(RateLimited):
        put(store, 2, BOB, rule)
    for number in range(3, 6):  # the CLI and tests of other things name no client
        put(store, number, None, rule)


def test_the_byte_rate_counts_the_bytes_stored(store: Store) -> None:
    size = len(doc(0)[0])
    rule = limits(size=2 * size + size // 2)
    put(store, 0, ALICE, rule)
    put(store, 1, ALICE, rule)
    with pytest.raises(RateLimited):
        put(store, 2, ALICE, rule)


def test_two_store_instances_on_one_database_share_the_limit(
    make_store: Callable[..., Store],
) -> None:
    first, second = make_store(), make_store()
    rule = limits(writes=4)
    for number in range(4):
        put(first if number % 2 else second, number, ALICE, rule)
    with pytest.raises(RateLimited):
        put(first, 4, ALICE, rule)
    with pytest.raises(RateLimited):
        put(second, 5, ALICE, rule)


def test_concurrent_writers_never_exceed_the_rate(
    make_store: Callable[..., Store], backend: Backend
) -> None:
    stores = [make_store(), make_store()]
    rule = limits(writes=10)
    start = threading.Barrier(6)

    def attempt(number: int) -> bool:
        if number < 6:
            start.wait()
        try:
            put(stores[number % 2], number, ALICE, rule)
            return True
        except RateLimited:
            return False

    with ThreadPoolExecutor(6) as pool:
        outcomes = list(pool.map(attempt, range(30)))
    assert sum(outcomes) == 10
    assert backend.count("checkpoints") == 10


def test_the_quota_refuses_what_would_overflow_it_and_stores_nothing(
    store: Store, backend: Backend
) -> None:
    size = len(doc(0)[0])
    rule = limits(quota=2 * size + size // 2)
    put(store, 0, None, rule)
    put(store, 1, None, rule)
    assert not store.usage().full(rule)
    assert store.usage().full(limits(quota=2 * size))
    with pytest.raises(StoreFull) as full:
        put(store, 2, ALICE, rule)
    assert full.value.reason == "quota"
    assert backend.count("checkpoints") == 2 == backend.count("checkpoint_bytes")
    assert store.usage().stored_bytes == 2 * size
    # Half a document is left: full for readiness until space is freed.
    assert store.usage().quota_refused and store.usage().full(rule)


def test_deleting_and_expiry_give_the_quota_back(store: Store, clock: FakeClock) -> None:
    size = len(doc(0)[0])
    rule = limits(quota=2 * size)
    kept = put(store, 0, None, rule)
    data, result = doc(1)
    store.put(data, result, limits=rule, lifetime=timedelta(hours=1))
    with pytest.raises(StoreFull):
        put(store, 2, None, rule)
    store.delete(kept.storage_id, kept.deletion_token)
    assert store.usage().stored_bytes == size
    assert not store.usage().quota_refused
    put(store, 3, None, rule)
    clock.advance(timedelta(hours=2))
    store.purge_expired()
    assert store.usage().stored_bytes == size
    put(store, 4, None, rule)


def test_concurrent_writers_never_exceed_the_quota(
    make_store: Callable[..., Store], backend: Backend
) -> None:
    stores = [make_store(), make_store()]
    size = len(doc(0)[0])
    rule = limits(quota=5 * size + 10)

    def attempt(number: int) -> bool:
        try:
            put(stores[number % 2], number, None, rule)
            return True
        except StoreFull:
            return False

    with ThreadPoolExecutor(6) as pool:
        outcomes = list(pool.map(attempt, range(20)))
    assert sum(outcomes) == 5
    assert store_bytes(backend) == stores[0].usage().stored_bytes == 5 * size


def test_the_sweep_removes_past_windows(store: Store, clock: FakeClock, backend: Backend) -> None:
    put(store, 0, ALICE, limits(writes=5))
    put(store, 1, BOB, limits(writes=5))
    store.purge_expired()
    assert backend.count("write_counters") == 2  # this minute's: still counting
    clock.advance(timedelta(minutes=1))
    put(store, 2, BOB, limits(writes=5))
    store.purge_expired()
    assert backend.count("write_counters") == 1


def test_the_quota_counts_what_was_stored_before_it_existed(
    make_store: Callable[..., Store], backend: Backend
) -> None:
    store = make_store()
    for number in range(3):
        put(store, number, None, limits())
    store.close()
    # A database of schema version 2: no counters, no usage row.
    drop = ["DROP TABLE write_counters", "DROP TABLE store_usage"]
    drop.append("DELETE FROM schema_version WHERE version = 3")
    execute(backend, *drop)
    reopened = make_store()
    assert reopened.usage().stored_bytes == store_bytes(backend) > 0


def test_client_keys_hide_addresses_and_tokens_and_group_ipv6_by_prefix() -> None:
    key = client_key("203.0.113.7")
    assert "203.0.113.7" not in key and len(key) == 32
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::9")
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:203.0.113.7") == key
    assert client_key("203.0.113.7", "upload-token-1") != key
    assert "upload-token-1" not in client_key(None, "upload-token-1")


def store_bytes(backend: Backend) -> int:
    return int(backend.rows("SELECT coalesce(sum(length(data)), 0) FROM checkpoint_bytes")[0][0])


def execute(backend: Backend, *statements: str) -> None:
    """Statements run behind the store's back."""
    if backend.name == "postgres":
        pg_execute(backend.url, *statements)
        return
    conn = sqlite3.connect(str(backend.path), isolation_level=None)
    try:
        for statement in statements:
            conn.execute(statement)
    finally:
        conn.close()
