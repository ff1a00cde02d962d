"""open_store: which store a database URL names, and the settings it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store import StoreConfigError, open_store
from app.store.sqlite import SqliteStore


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
