"""open_store: which store a database URL names, and the settings it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store import Found, StoreConfigError, open_store
from app.store.sqlite import SqliteStore
from tests.conftest import CONFORMANCE


@pytest.mark.parametrize("form", ["{path}", "sqlite://{path}", "SQLite://{path}"])
def test_a_path_or_sqlite_url_opens_sqlite(tmp_path: Path, form: str) -> None:
    path = tmp_path / "store.sqlite3"
    store = open_store(form.format(path=path))
    try:
        assert isinstance(store, SqliteStore) and store.backend == "sqlite"
        assert store.path == str(path) and path.exists()
    finally:
        store.close()


def test_a_relative_sqlite_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    open_store("sqlite://relative.sqlite3").close()
    assert (tmp_path / "relative.sqlite3").exists()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "no database URL"),
        ("   ", "no database URL"),
        ("mysql://u@h/db", "unsupported database URL scheme 'mysql'"),
        ("https://example.org/db", "unsupported"),
        (":memory:", "needs a file path"),
        ("sqlite://", "needs a file path"),
        ("file:x.db?mode=memory", "needs a file path"),
        ("/no/such/folder/store.sqlite3", "does not exist"),
    ],
)
def test_unusable_urls_are_start_up_errors(url: str, message: str) -> None:
    with pytest.raises(StoreConfigError, match=message):
        open_store(url)


def test_a_malformed_postgres_url_is_a_start_up_error() -> None:
    with pytest.raises(StoreConfigError, match="invalid PostgreSQL URL"):
        open_store("postgresql://u@h/db?nonsense_option=1")


def test_a_version_1_database_is_migrated_and_keeps_what_it_holds(tmp_path):
    """A deployment upgraded in place: the schema of the first release, with a stored
    checkpoint, gains the lineage columns, and the checkpoint reads back unchanged."""
    import sqlite3

    from app.analysis import lint
    from app.store.sqlite import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[0][1]:
        conn.execute(statement)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)")
    conn.execute("INSERT INTO schema_version VALUES (1, '2026-11-01T00:00:00+00:00')")
    conn.execute(
        "INSERT INTO checkpoints (storage_id, checkpoint_id, stored_at, expires_at, digest, valid,"
        " errors, warnings, size, deletion_token_hash) VALUES ('AAAAAAAAAAAAAAAAAAAAAAAA', 'x',"
        " '2026-12-01T00:00:00+00:00', '2099-01-01T00:00:00+00:00', 'sha-256:00', 1, 0, 0,"
        " 2, x'00')"
    )
    conn.execute("INSERT INTO checkpoint_bytes VALUES ('AAAAAAAAAAAAAAAAAAAAAAAA', x'7b7d')")
    conn.commit()
    conn.close()
    with open_store(str(path)) as store:
        found = store.get("AAAAAAAAAAAAAAAAAAAAAAAA")
        assert isinstance(found, Found) and found.data == b"{}"
        assert found.meta.parent_digest is None and found.meta.parent_storage_id is None
        data = (CONFORMANCE / "valid-minimal.ocp.json").read_bytes()
        store.put(data, lint(data))
    versions = sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchall()
    assert [v for (v,) in versions] == [version for version, _ in MIGRATIONS]
