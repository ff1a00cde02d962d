"""SQLite gives deleted space back: new files in incremental auto_vacuum, old ones converted
once, free pages cut off by deletions and sweeps."""

from __future__ import annotations

import json
import logging
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from app.analysis import analyze
from app.store import Found, open_store
from app.store import sqlite as sqlite_store
from tests.backends import FakeClock
from tests.conftest import CONFORMANCE

MINIMAL = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())


def document(number: int, size: int) -> bytes:
    doc = {**MINIMAL, "id": f"urn:x:space-{number}"}
    doc["task"] = {**MINIMAL["task"], "objective": f"Objective {number} " + "y" * size}
    return json.dumps(doc).encode()


def on_disk(path: Path) -> int:
    """The database's bytes on disk: the file and its write-ahead log."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def auto_vacuum(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA auto_vacuum").fetchone()[0])
    finally:
        conn.close()


def test_deleting_everything_and_sweeping_shrinks_the_file_back(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "ocp.sqlite3"
    store = open_store(str(path), clock=clock)
    try:
        assert auto_vacuum(path) == 2  # INCREMENTAL, set before the first table
        store.purge_expired()
        empty = on_disk(path)
        stored = []
        for number in range(60):
            data = document(number, 50_000)
            stored.append(store.put(data, analyze(data), lifetime=timedelta(hours=1)))
        full = on_disk(path)
        assert full > 3_000_000
        for created in stored[:30]:
            store.delete(created.storage_id, created.deletion_token)
        clock.advance(timedelta(hours=2))  # the other 30 expire
        store.purge_expired()
        # Only the tombstones are left: the file is back near its empty size.
        assert on_disk(path) < empty + 128 * 1024
        assert store.usage().stored_bytes == 0
    finally:
        store.close()


def test_one_deletion_gives_its_space_back_at_once(tmp_path: Path) -> None:
    path = tmp_path / "ocp.sqlite3"
    store = open_store(str(path))
    try:
        small = document(0, 100)
        store.put(small, analyze(small))
        large = document(1, 2_000_000)
        created = store.put(large, analyze(large))
        store.purge_expired()
        before = on_disk(path)
        store.delete(created.storage_id, created.deletion_token)
        # The file shrinks at once; its log keeps its length for the next writes (a passive
        # checkpoint never waits for readers) until the sweep empties it.
        assert path.stat().st_size < before - 1_500_000
        store.purge_expired()
        assert on_disk(path) < before - 1_500_000
    finally:
        store.close()


def test_a_file_made_without_auto_vacuum_is_converted_once(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = open_store(str(path))
    data = document(0, 1000)
    created = store.put(data, analyze(data))
    store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA auto_vacuum = NONE")
    conn.execute("VACUUM")
    conn.close()
    assert auto_vacuum(path) == 0  # as a file made before this version
    reopened = open_store(str(path))
    try:
        assert auto_vacuum(path) == 2
        found = reopened.get(created.storage_id)
        assert isinstance(found, Found) and found.data == data
    finally:
        reopened.close()


def test_a_large_old_file_is_left_as_it_is_and_named_in_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "old.sqlite3"
    open_store(str(path)).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA auto_vacuum = NONE")
    conn.execute("VACUUM")
    conn.close()
    monkeypatch.setattr(sqlite_store, "CONVERT_LIMIT", 1024)
    with caplog.at_level(logging.WARNING, logger="app.store.sqlite"):
        open_store(str(path)).close()
    assert auto_vacuum(path) == 0
    assert "PRAGMA auto_vacuum = INCREMENTAL; VACUUM" in caplog.text
