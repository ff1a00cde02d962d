"""A full disk: writes are StoreFull (507), never "not answering"; deleting still works; the
store says it is full. SQLite on a real tmpfs that runs out; PostgreSQL through a real
53100 disk_full error raised by the server."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from app.analysis import analyze
from app.store import DeleteOutcome, Found, Gone, StoreFull, StoreUnavailable, open_store
from tests.backends import FakeClock, PostgresServer, pg_execute, with_schema
from tests.conftest import CONFORMANCE
from tests.store.disks import fill, small_disk

MINIMAL = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())


def document(number: int, size: int = 20_000) -> bytes:
    doc = {**MINIMAL, "id": f"urn:x:disk-{number}"}
    doc["task"] = {**MINIMAL["task"], "objective": f"Objective {number} " + "x" * size}
    return json.dumps(doc).encode()


def put(store, number):  # type: ignore[no-untyped-def]
    data = document(number)
    return store.put(data, analyze(data))


def test_sqlite_on_a_full_disk_refuses_writes_and_still_deletes(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        store = open_store(str(disk / "ocp.sqlite3"), reserve_bytes=1024 * 1024, timeout=2.0)
        try:
            stored = [put(store, number) for number in range(30)]
            filler = fill(disk)
            with pytest.raises(StoreFull) as full:
                put(store, 100)
            assert full.value.reason == "disk"
            assert store.usage().disk_full
            # Reads work, and so does deleting, one after another.
            assert isinstance(store.get(stored[0].storage_id), Found)
            for created in stored[:20]:
                assert store.delete(created.storage_id, created.deletion_token) == (
                    DeleteOutcome.DELETED
                )
                assert isinstance(store.get(created.storage_id), Gone)
            assert store.usage().stored_bytes == sum(len(document(n)) for n in range(20, 30))
            # Room made by someone else: writes work again and the store is no longer full.
            filler.unlink()
            put(store, 101)
            assert not store.usage().disk_full
        finally:
            store.close()


def test_without_the_reserve_a_full_disk_cannot_delete(tmp_path: Path) -> None:
    # Why the reserve exists: SQLite appends a delete to its log, which needs disk space.
    with small_disk(tmp_path / "disk") as disk:
        store = open_store(str(disk / "ocp.sqlite3"), reserve_bytes=0, timeout=2.0)
        try:
            stored = [put(store, number) for number in range(30)]
            fill(disk)
            with pytest.raises(StoreFull):
                store.delete(stored[0].storage_id, stored[0].deletion_token)
        finally:
            store.close()


def test_the_sweep_on_a_full_disk_expires_through_the_reserve_or_waits(tmp_path: Path) -> None:
    for reserve in (1024 * 1024, 0):
        clock = FakeClock()
        with small_disk(tmp_path / f"disk-{reserve}") as disk:
            store = open_store(
                str(disk / "ocp.sqlite3"), reserve_bytes=reserve, timeout=2.0, clock=clock
            )
            try:
                for number in range(30):
                    data = document(number)
                    store.put(data, analyze(data), lifetime=timedelta(hours=1))
                fill(disk)
                clock.advance(timedelta(hours=2))
                if reserve:
                    assert store.purge_expired() == 30
                    assert store.usage().stored_bytes == 0
                else:
                    # Never StoreFull out of the sweep: the service's sweep retries this.
                    with pytest.raises(StoreUnavailable):
                        store.purge_expired()
            finally:
                store.close()


def test_the_reserve_is_taken_again_once_a_delete_made_room(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        store = open_store(str(disk / "ocp.sqlite3"), reserve_bytes=512 * 1024, timeout=2.0)
        reserve = disk / "ocp.sqlite3-reserve"
        try:
            assert reserve.stat().st_size == 512 * 1024
            stored = [put(store, number) for number in range(40)]
            store.purge_expired()  # the sweep has run, as at start-up and every interval
            fill(disk)
            for created in stored:
                store.delete(created.storage_id, created.deletion_token)
            # The deletions gave their pages back to the file system, and the reserve is held
            # again, so the next full disk can be emptied too.
            assert reserve.stat().st_size == 512 * 1024
        finally:
            store.close()


DISK_FULL_TRIGGER = (
    "CREATE OR REPLACE FUNCTION ocp_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ "
    "BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' "
    "USING ERRCODE = 'disk_full'; END $$",
    "CREATE TRIGGER ocp_test_disk_full BEFORE INSERT ON checkpoint_bytes "
    "FOR EACH ROW EXECUTE FUNCTION ocp_test_disk_full()",
)


@pytest.mark.postgres
def test_postgres_disk_full_is_storage_full_and_deletes_still_work(
    postgres_server: PostgresServer,
) -> None:
    url = with_schema(postgres_server.base_url, postgres_server.schema + "_disk")
    pg_execute(
        postgres_server.base_url, f"CREATE SCHEMA IF NOT EXISTS {postgres_server.schema}_disk"
    )
    store = open_store(url, timeout=2.0)
    try:
        kept = put(store, 0)
        pg_execute(url, *DISK_FULL_TRIGGER)
        with pytest.raises(StoreFull) as full:
            put(store, 1)
        assert full.value.reason == "disk"
        assert store.usage().disk_full
        assert store.usage().stored_bytes == len(document(0))  # the failed write took nothing
        assert store.delete(kept.storage_id, kept.deletion_token) == DeleteOutcome.DELETED
        assert store.usage().stored_bytes == 0
        # A sweep that cannot write is unavailable for now (retried), never StoreFull.
        pg_execute(
            url,
            "CREATE TRIGGER ocp_test_sweep_full BEFORE DELETE ON write_counters "
            "FOR EACH STATEMENT EXECUTE FUNCTION ocp_test_disk_full()",
        )
        with pytest.raises(StoreUnavailable):
            store.purge_expired()
    finally:
        store.close()
        pg_execute(postgres_server.base_url, f"DROP SCHEMA {postgres_server.schema}_disk CASCADE")
