"""Concurrency, atomic writes, crashes, migrations, and an unreachable database."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from app.store import Found, Store, StoreConfigError, StoreUnavailable, open_store
from app.store.postgres import MIGRATIONS as PG_MIGRATIONS
from app.store.sql import SqlStore
from app.store.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from tests.backends import (
    PG_TABLES,
    Backend,
    Cluster,
    PostgresServer,
    checkpoint,
    linted,
    pg_execute,
    with_schema,
)
from tests.conftest import CONFORMANCE, ROOT

# `make check` leaves this out: it stops and restarts PostgreSQL.
pytestmark = pytest.mark.slow


def test_threads_put_and_get_at_once(store: Store, backend: Backend) -> None:
    documents = [checkpoint(f"urn:x:thread-{n}") for n in range(8)]
    errors: list[BaseException] = []
    stop = threading.Event()

    def writer(n: int) -> list[str]:
        data, result = documents[n]
        stored = []
        for _ in range(12):
            created = store.put(data, result)
            found = store.get(created.storage_id)
            assert isinstance(found, Found) and found.data == data
            stored.append(created.storage_id)
        return stored

    def reader() -> None:
        # Listings and sweeps running beside the writers must neither fail nor block them.
        try:
            while not stop.is_set():
                store.by_checkpoint_id("urn:x:thread-0")
                store.list_lineage("urn:x:thread-1")
                store.purge_expired()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    background = threading.Thread(target=reader)
    background.start()
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(writer, range(8)))
    finally:
        stop.set()
        background.join()
    assert not errors
    all_ids = [storage_id for stored in results for storage_id in stored]
    assert len(set(all_ids)) == 96
    for n, stored in enumerate(results):
        for storage_id in stored:
            found = store.get(storage_id)
            assert isinstance(found, Found) and found.data == documents[n][0]
    assert backend.count("checkpoints") == 96 == backend.count("checkpoint_bytes")


def test_a_failure_between_statements_leaves_nothing(
    store: Store, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, result = linted("valid-coding-refactor.ocp.json")

    def fail(conn: Any, storage_id: str, data: bytes) -> None:
        # The metadata row is written by now (visible inside the transaction); the bytes never
        # come.
        assert conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0] == 1
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_insert_bytes", fail)
    with pytest.raises(RuntimeError, match="disk on fire"):
        store.put(data, result)
    assert backend.count("checkpoints") == 0 and backend.count("checkpoint_bytes") == 0
    monkeypatch.undo()
    # The connection is usable again: no transaction was left open.
    created = store.put(data, result)
    assert isinstance(store.get(created.storage_id), Found)
    assert backend.count("checkpoints") == 1


CRASH = """
import os, sys
from app.analysis import lint
from app.store import open_store
from app.store.sql import SqlStore

real = SqlStore._insert_bytes

def crash(self, conn, storage_id, data):
    real(self, conn, storage_id, data[: len(data) // 2])  # half the bytes, then the process dies
    os._exit(9)

SqlStore._insert_bytes = crash
store = open_store(sys.argv[1])
data = open(sys.argv[2], "rb").read()
store.put(data, lint(data))
"""


def test_a_crash_mid_upload_leaves_nothing(backend: Backend, store: Store) -> None:
    document = CONFORMANCE / "valid-support-handoff.ocp.json"
    run = subprocess.run(
        [sys.executable, "-c", CRASH, backend.url, str(document)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert run.returncode == 9, run.stderr.decode()
    assert backend.count("checkpoints") == 0 and backend.count("checkpoint_bytes") == 0
    data, result = linted(document.name)
    created = store.put(data, result)
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.data == data


def test_the_store_implements_the_two_statement_write(store: Store) -> None:
    # The atomicity tests above patch this method: make sure put really goes through it.
    assert isinstance(store, SqlStore)
    assert "_insert_bytes" in SqlStore.__dict__


@pytest.fixture
def fresh_url(backend: Backend, tmp_path: Path) -> Iterator[str]:
    """An empty database the store has never migrated."""
    if backend.name == "sqlite":
        yield str(tmp_path / "fresh.sqlite3")
        return
    server = backend.server
    assert server is not None
    schema = f"{server.schema}_fresh"
    pg_execute(
        server.base_url, f"DROP SCHEMA IF EXISTS {schema} CASCADE", f"CREATE SCHEMA {schema}"
    )
    try:
        yield with_schema(server.base_url, schema)
    finally:
        pg_execute(server.base_url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def test_instances_starting_together_migrate_once(backend: Backend, fresh_url: str) -> None:
    barrier = threading.Barrier(6)

    def start(_: int) -> Store:
        barrier.wait()
        return open_store(fresh_url, timeout=10)

    with ThreadPoolExecutor(max_workers=6) as pool:
        stores = list(pool.map(start, range(6)))
    try:
        data, result = linted("valid-minimal.ocp.json")
        created = stores[0].put(data, result)
        assert all(isinstance(s.get(created.storage_id), Found) for s in stores)
    finally:
        for s in stores:
            s.close()
    probe = Backend(backend.name, fresh_url, path=Path(fresh_url))
    migrations = [
        (v,) for v, _ in (SQLITE_MIGRATIONS if backend.name == "sqlite" else PG_MIGRATIONS)
    ]
    assert probe.rows("SELECT version FROM schema_version ORDER BY version") == migrations
    # Reopening a migrated database changes nothing.
    open_store(fresh_url).close()
    assert probe.rows("SELECT version FROM schema_version ORDER BY version") == migrations


def test_a_schema_newer_than_the_code_is_refused(
    store: Store, backend: Backend, make_store: Callable[..., Store]
) -> None:
    if backend.name == "sqlite":
        conn = sqlite3.connect(backend.url)
        conn.execute("INSERT INTO schema_version VALUES (99, 'later')")
        conn.commit()
        conn.close()
    else:
        pg_execute(backend.url, "INSERT INTO schema_version VALUES (99, now())")
    with pytest.raises(StoreConfigError, match="version 99"):
        make_store()


def test_sqlite_settings(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    store = open_store(str(path))
    try:
        conn = store._connection()  # type: ignore[attr-defined]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    finally:
        store.close()


def test_sqlite_busy_beyond_the_timeout_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    store = open_store(str(path), timeout=0.2)
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result)
    blocker = sqlite3.connect(str(path), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match="locked"):
            store.put(data, result)
        assert time.monotonic() - started < 2
        with pytest.raises(StoreUnavailable):
            store.delete(created.storage_id, created.deletion_token)
        found = store.get(created.storage_id)  # WAL: readers are not blocked by a writer
        assert isinstance(found, Found)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert isinstance(store.get(store.put(data, result).storage_id), Found)
    store.close()


def test_a_closed_store_is_unavailable(store: Store) -> None:
    store.close()
    with pytest.raises(StoreUnavailable):
        store.get("A" * 24)
    data, result = linted("valid-minimal.ocp.json")
    with pytest.raises(StoreUnavailable):
        store.put(data, result)


def test_ping(store: Store) -> None:
    store.ping()


def test_an_unreachable_postgres_is_unavailable_at_start() -> None:
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        open_store("postgresql://postgres@127.0.0.1:1/ocp", timeout=1)
    assert time.monotonic() - started < 10


@pytest.mark.postgres
def test_postgres_recovers_after_a_restart(postgres_server: PostgresServer) -> None:
    """Stop the server under a live store, then start it: the same Store works again."""
    own = postgres_server.cluster is None  # an external server is not ours to stop
    cluster = Cluster() if own else postgres_server.cluster
    assert cluster is not None
    url = cluster.url if own else postgres_server.url
    if not own:
        pg_execute(url, f"DROP TABLE IF EXISTS {', '.join(PG_TABLES)}")
    store = open_store(url, timeout=1.0)
    try:
        data, result = linted("valid-coding-refactor.ocp.json")
        created = store.put(data, result)
        cluster.pause()
        try:
            with pytest.raises(StoreUnavailable):
                store.get(created.storage_id)
            with pytest.raises(StoreUnavailable):
                store.put(data, result)
            with pytest.raises(StoreUnavailable):
                store.purge_expired()
        finally:
            cluster.resume()
        deadline = time.monotonic() + 20
        while True:
            try:
                found = store.get(created.storage_id)
                break
            except StoreUnavailable:
                assert time.monotonic() < deadline, "the store did not recover"
                time.sleep(0.1)
        assert isinstance(found, Found) and found.data == data
        again = store.put(data, result)
        assert isinstance(store.get(again.storage_id), Found)
    finally:
        store.close()
        if own:
            cluster.stop()
