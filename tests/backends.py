"""Fixtures that run every store test against both stores.

PostgreSQL: with OCP_TEST_POSTGRES_URL set, the tests use that server, in a schema of their
own created for the session and dropped after it. Without it they start a throwaway cluster
(scripts/pg-throwaway.sh) for the session and stop it at the end. Missing server binaries fail
the PostgreSQL tests with the install command; they are never skipped.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import subprocess
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.analysis import LintResult, lint
from app.store import Store, open_store
from tests.conftest import CONFORMANCE, ROOT

SCRIPT = ROOT / "scripts" / "pg-throwaway.sh"
START = datetime(2026, 12, 1, 12, 0, 0, 123456, tzinfo=UTC)
PG_TABLES = ("checkpoint_bytes", "checkpoints", "schema_version", "write_counters", "store_usage")


class FakeClock:
    """An injectable clock that moves only when told to."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


class Cluster:
    """A throwaway PostgreSQL cluster driven through scripts/pg-throwaway.sh."""

    def __init__(self) -> None:
        run = subprocess.run(
            ["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=120
        )
        if run.returncode != 0:
            pytest.fail(
                "cannot start a throwaway PostgreSQL for the store tests (set "
                "OCP_TEST_POSTGRES_URL or install the server: apt-get install -y postgresql):\n"
                + run.stderr,
                pytrace=False,
            )
        values = dict(line.split("=", 1) for line in run.stdout.split())
        self.dir = values["PGDIR"]
        self.url = values["OCP_TEST_POSTGRES_URL"]

    def _run(self, action: str) -> None:
        subprocess.run(["bash", str(SCRIPT), action, self.dir], check=True, timeout=120)

    def pause(self) -> None:
        self._run("pause")

    def resume(self) -> None:
        self._run("resume")

    def stop(self) -> None:
        self._run("stop")


@dataclass
class PostgresServer:
    base_url: str  # the database to use
    schema: str
    cluster: Cluster | None  # ours to stop and start, when we started it

    @property
    def url(self) -> str:
        return with_schema(self.base_url, self.schema)


def with_schema(url: str, schema: str) -> str:
    """``url`` with libpq's ``options`` set so that unqualified names live in ``schema``."""
    options = urllib.parse.quote(f"-c search_path={schema}")
    return f"{url}{'&' if '?' in url else '?'}options={options}"


def pg_execute(url: str, *statements: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    external = os.environ.get("OCP_TEST_POSTGRES_URL")
    cluster = None if external else Cluster()
    base_url = external or cluster.url  # type: ignore[union-attr]
    schema = f"ocp_test_{secrets.token_hex(6)}"
    try:
        pg_execute(base_url, f"CREATE SCHEMA {schema}")
        yield PostgresServer(base_url, schema, cluster)
    finally:
        if cluster is not None:
            cluster.stop()
        else:
            pg_execute(base_url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@dataclass
class Backend:
    """One store's database, as the tests see it from outside the store."""

    name: str
    url: str
    server: PostgresServer | None = None
    path: Path | None = None
    opened: list[Store] = field(default_factory=list)

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Raw rows, read behind the store's back (to check what is really kept)."""
        if self.name == "sqlite":
            conn = sqlite3.connect(str(self.path))
            try:
                return conn.execute(sql).fetchall()
            finally:
                conn.close()
        import psycopg

        with psycopg.connect(self.url) as conn:
            return conn.execute(sql).fetchall()  # type: ignore[arg-type]

    def count(self, table: str) -> int:
        return self.rows(f"SELECT count(*) FROM {table}")[0][0]


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        path = tmp_path / "store.sqlite3"
        yield Backend("sqlite", str(path), path=path)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    # Clean slate for each test: the tables go, and the next store re-creates them.
    pg_execute(server.url, f"DROP TABLE IF EXISTS {', '.join(PG_TABLES)} CASCADE")
    yield Backend("postgres", server.url, server=server)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_store(backend: Backend, clock: FakeClock) -> Iterator[Callable[..., Store]]:
    opened: list[Store] = []

    def make(**options: Any) -> Store:
        options.setdefault("clock", clock)
        options.setdefault("timeout", 3.0)
        store = open_store(backend.url, **options)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store: Callable[..., Store]) -> Store:
    return make_store()


def conformance_files() -> list[Path]:
    return sorted(CONFORMANCE.glob("*.ocp.json"))


_LINTED: dict[str, tuple[bytes, LintResult]] = {}


def linted(name: str) -> tuple[bytes, LintResult]:
    """A conformance document's bytes and lint result (linted once per session)."""
    if name not in _LINTED:
        data = (CONFORMANCE / name).read_bytes()
        _LINTED[name] = (data, lint(data))
    return _LINTED[name]


def checkpoint(
    checkpoint_id: object, parent: object = None, method: str | None = None, **members: Any
) -> tuple[bytes, LintResult]:
    """valid-minimal with another id (and parent, derivation…), and its lint result."""
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    doc["id"] = checkpoint_id
    if parent is not None:
        doc["parent"] = {"id": parent}
    if method is not None:
        doc["derivation"] = {"method": method}
    doc.update(members)
    data = json.dumps(doc, indent=1).encode()
    return data, lint(data)
