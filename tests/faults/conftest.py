"""Fixtures of the fault tests: a PostgreSQL cluster the tests may stop and start, and fresh
schemas in it (so the service migrates an empty database, as a new deployment does)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from tests.backends import Cluster, PostgresServer, pg_execute, with_schema


@dataclass
class PausablePostgres:
    """A cluster of our own: `pause` stops it (pg_ctl stop -m fast, data kept), `resume`
    starts it again on the same port."""

    cluster: Cluster
    paused: bool = False
    schemas: list[str] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        return self.cluster.url

    def pause(self) -> None:
        assert not self.paused
        self.cluster.pause()
        self.paused = True

    def resume(self) -> None:
        if self.paused:
            self.cluster.resume()
            self.paused = False

    @contextlib.contextmanager
    def outage(self) -> Iterator[None]:
        """PostgreSQL is down inside the block, and up again after it whatever happens."""
        self.pause()
        try:
            yield
        finally:
            self.resume()

    def fresh_schema(self) -> str:
        """The URL of a new, empty schema (dropped when the fixture ends)."""
        schema = f"ocp_fault_{secrets.token_hex(5)}"
        pg_execute(self.base_url, f"CREATE SCHEMA {schema}")
        self.schemas.append(schema)
        return with_schema(self.base_url, schema)


@pytest.fixture(scope="module")
def pausable_postgres(postgres_server: PostgresServer) -> Iterator[PausablePostgres]:
    """The session's throwaway cluster; with OCP_TEST_POSTGRES_URL (a server that is not ours
    to stop) a throwaway cluster of this module's own, as the store's restart test does."""
    own = postgres_server.cluster is None
    cluster = Cluster() if own else postgres_server.cluster
    assert cluster is not None
    pg = PausablePostgres(cluster)
    try:
        yield pg
    finally:
        pg.resume()
        if own:
            cluster.stop()
        else:
            for schema in pg.schemas:
                pg_execute(pg.base_url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")
