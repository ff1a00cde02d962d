"""Storage abuse against a real `ocp serve` with small limits in its environment: a flood from
one client gets 429, non-checkpoints get 422, a full quota gets 507 (and /readyz says so),
deleting frees the quota, and the SQLite file shrinks back. Bounded and fast: a few dozen
small requests on loopback."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serve import Server, checkpoint_bytes, request, upload

# `make check` leaves this out: it starts real `ocp serve` processes to fill.
pytestmark = pytest.mark.slow

RATE = 5
DOCUMENT_LIMIT = 256 * 1024
QUOTA = 600 * 1024
SWEEP_WAIT = 20.0  # seconds at most for a sweep to run (one every half second here)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("storage-rate")
    env = {"OCP_DATABASE_URL": str(workdir / "ocp.sqlite3"), "OCP_WRITE_RATE": str(RATE)}
    with Server(workdir, env) as server:
        yield server


@pytest.fixture(scope="module")
def quota(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    workdir = tmp_path_factory.mktemp("storage-quota")
    database = workdir / "ocp.sqlite3"
    env = {
        "OCP_DATABASE_URL": str(database),
        "OCP_WRITE_RATE": "0",
        "OCP_MAX_BYTES": str(DOCUMENT_LIMIT),
        "OCP_MAX_STORE_BYTES": str(QUOTA),
        "OCP_PURGE_INTERVAL_SECONDS": "0.5",  # the sweep empties the log after deletions
    }
    with Server(workdir, env) as server:
        yield server, database


def test_a_flood_from_one_client_gets_429_with_retry_after(limited: Server) -> None:
    replies = [upload(limited.port, checkpoint_bytes(n, "flood")) for n in range(3 * RATE)]
    statuses = [reply.status for reply in replies]
    assert set(statuses) <= {201, 429}, statuses
    # The first RATE are stored; a minute boundary in the middle admits at most RATE more.
    assert statuses[:RATE] == [201] * RATE
    assert RATE <= statuses.count(201) <= 2 * RATE
    refused = [reply for reply in replies if reply.status == 429]
    assert refused, "nothing was refused"
    for reply in refused:
        assert 1 <= int(reply.headers["retry-after"]) <= 60
        body = reply.json()
        assert isinstance(body, dict) and body["status"] == 429


def test_a_flood_of_json_that_is_not_a_checkpoint_is_refused(limited: Server) -> None:
    blob = json.dumps({"blob": "B" * 50_000}).encode()
    for _ in range(10):
        reply = upload(limited.port, blob)
        assert reply.status in (422, 429)  # refused either way; never stored
        if reply.status == 422:
            error = reply.json()["error"]  # type: ignore[index]
            assert 'no "opencheckpoint" member' in error


def stored_size(database: Path) -> int:
    wal = database.with_name(database.name + "-wal")
    return database.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def test_a_full_quota_is_507_and_deleting_frees_it_and_the_file(
    quota: tuple[Server, Path],
) -> None:
    server, database = quota
    stored: list[dict[str, str]] = []
    full = None
    for number in range(20):  # 100 KB each: the 600 KB quota takes 5 or 6
        reply = upload(server.port, checkpoint_bytes(number, "quota", words=16_000))
        if reply.status == 507:
            full = reply
            break
        assert reply.status == 201, reply.body[:300]
        stored.append(reply.json())  # type: ignore[arg-type]
    assert full is not None, "the quota never filled"
    assert 4 <= len(stored) <= 6
    assert "store is full" in full.json()["error"]  # type: ignore[index]
    ready = request(server.port, "GET", "/readyz")
    assert ready.status == 200
    assert ready.json() | {"version": None, "spec_version": None} == {
        "version": None,
        "spec_version": None,
        "status": "ready",
        "storage": "full",
        "writable": False,
        "full_because": "quota",
    }
    before = stored_size(database)
    for created in stored:
        token = {"authorization": f"Bearer {created['deletion_token']}"}
        reply = request(
            server.port, "DELETE", f"/api/v1/checkpoints/{created['storage_id']}", None, token
        )
        assert reply.status == 200
    # The quota is free again at once, and after a sweep the file has given its pages back.
    assert request(server.port, "GET", "/readyz").json()["storage"] == "ok"  # type: ignore[index]
    deadline = time.monotonic() + SWEEP_WAIT
    while stored_size(database) >= before / 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert stored_size(database) < before / 3, (before, stored_size(database))
    again = upload(server.port, checkpoint_bytes(99, "quota", words=16_000))
    assert again.status == 201
    assert request(server.port, "GET", f"/c/{stored[0]['storage_id']}/raw").status == 410
