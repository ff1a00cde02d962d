"""Crash safety: SIGKILL a real `ocp serve` at random moments during a stream of uploads.

A few client threads upload distinct small checkpoints without pause; the server process is
killed with SIGKILL several times (seeded random moments, the seed printed; set
OCP_FAULT_SEED to replay one) and restarted on the same database. Afterwards:

- every upload acknowledged with 201 is served back byte-for-byte by GET /c/{id}/raw;
- every row in the database is whole: a metadata row has its bytes, the bytes match the
  recorded digest and are exactly the bytes of an upload that was sent, no bytes without a
  row; a row no client saw acknowledged can only be an upload whose answer was lost with the
  process (committed, then killed before the 201 went out), never a part of one;
- SQLite's integrity_check is ok (PostgreSQL: the same consistency, read from its tables).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.backends import Backend
from tests.serve import TRANSPORT_ERRORS, Server, checkpoint_bytes, request, upload

# `make check` leaves this out: it kills a real server again and again.
pytestmark = pytest.mark.slow

KILLS = 3
CLIENTS = 4
UPTIME = (0.5, 2.0)  # seconds the server runs before each kill, drawn at random
AFTER_LAST = 0.5  # seconds of uploads after the last restart
RAW = "application/vnd.opencheckpoint+json"


def digest_of(data: bytes) -> str:
    return "sha-256:" + hashlib.sha256(data).hexdigest()


@dataclass
class Ledger:
    """What the clients sent and what they were told, shared by the client threads."""

    sent: dict[str, bytes] = field(default_factory=dict)  # digest → bytes, every attempt
    acked: dict[str, bytes] = field(default_factory=dict)  # storage id → bytes, 201 only
    refused_connection: set[str] = field(default_factory=set)  # digests, never reached it
    cut: set[str] = field(default_factory=set)  # digests, in flight when the server died
    other_answers: list[tuple[int, bytes]] = field(default_factory=list)  # not 201
    lock: threading.Lock = field(default_factory=threading.Lock)


def client(port: int, ledger: Ledger, numbers: itertools.count, stop: threading.Event) -> None:
    rng = random.Random()  # only the sizes; the kills carry the seed
    while not stop.is_set():
        number = next(numbers)
        data = checkpoint_bytes(number, "crash", words=rng.randrange(0, 120))
        digest = digest_of(data)
        with ledger.lock:
            ledger.sent[digest] = data
        try:
            reply = upload(port, data, timeout=5.0)
        except ConnectionRefusedError:
            # Nobody listening (killed, not yet restarted): the server never saw it.
            with ledger.lock:
                ledger.refused_connection.add(digest)
            time.sleep(0.02)
            continue
        except TRANSPORT_ERRORS:
            # Reset, timed out or cut short: in flight when the process died, not acknowledged.
            with ledger.lock:
                ledger.cut.add(digest)
            continue
        with ledger.lock:
            if reply.status == 201:
                body = reply.json()
                assert isinstance(body, dict) and body["digest"] == digest, body
                ledger.acked[body["storage_id"]] = data
            else:
                ledger.other_answers.append((reply.status, reply.body[:300]))


def rows_of(backend: Backend) -> list[tuple[str, str | None, bytes | None]]:
    """Every metadata row with its bytes (None when missing), read behind the service's back."""
    return [
        (storage_id, digest, None if data is None else bytes(data))
        for storage_id, digest, data in backend.rows(
            "SELECT c.storage_id, c.digest, b.data FROM checkpoints c "
            "LEFT JOIN checkpoint_bytes b ON b.storage_id = c.storage_id"
        )
    ]


def test_sigkill_during_uploads_loses_nothing_acknowledged(
    backend: Backend, tmp_path: Path
) -> None:
    seed = int(os.environ.get("OCP_FAULT_SEED") or random.SystemRandom().randrange(2**32))
    print(f"crash test seed: OCP_FAULT_SEED={seed} ({backend.name})")
    rng = random.Random(seed)
    server = Server(
        tmp_path,
        {
            "OCP_DATABASE_URL": backend.url,
            "OCP_STORE_TIMEOUT_SECONDS": "5",
            "OCP_DB_POOL_SIZE": "4",
            "OCP_WRITE_RATE": "0",  # one client uploading without pause: no per-client rate
        },
    )
    ledger = Ledger()
    stop = threading.Event()
    numbers = itertools.count()
    threads = [
        threading.Thread(target=client, args=(server.port, ledger, numbers, stop), daemon=True)
        for _ in range(CLIENTS)
    ]
    kills: list[tuple[float, int, int]] = []  # (uptime, acked so far, cut so far)
    started = time.monotonic()
    try:
        server.start()
        for thread in threads:
            thread.start()
        for _ in range(KILLS):
            uptime = rng.uniform(*UPTIME)
            time.sleep(uptime)
            server.kill()
            with ledger.lock:
                kills.append((round(uptime, 2), len(ledger.acked), len(ledger.cut)))
            server.start()
        time.sleep(AFTER_LAST)
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
            assert not thread.is_alive(), "a client thread hung"
        print(
            f"{len(ledger.sent)} uploads sent, {len(ledger.acked)} acknowledged, "
            f"{len(ledger.cut)} cut off in flight, {len(ledger.refused_connection)} refused "
            f"while down; kills (uptime s, acked, cut so far): {kills}; "
            f"{time.monotonic() - started:.1f} s"
        )
        assert not ledger.other_answers, f"answers other than 201: {ledger.other_answers[:5]}"
        assert len(ledger.acked) >= 50, "too few uploads to prove anything"
        assert ledger.cut, "no kill landed on an upload in flight"

        # Every acknowledged upload is there, byte for byte, after the last restart.
        for storage_id, data in ledger.acked.items():
            reply = request(server.port, "GET", f"/c/{storage_id}/raw", timeout=5.0)
            assert reply.status == 200, (storage_id, reply.status, reply.body[:300])
            assert reply.headers["content-type"] == RAW
            assert reply.body == data, storage_id
    finally:
        stop.set()
        server.kill()  # one last crash before looking at the files
        for thread in threads:
            thread.join(timeout=10)

    # Nothing is half there: read the tables directly.
    rows = rows_of(backend)
    stored = {storage_id for storage_id, _, _ in rows}
    assert set(ledger.acked) <= stored
    unacknowledged = 0
    for storage_id, digest, data in rows:
        assert data is not None, f"{storage_id}: a metadata row without its bytes"
        assert digest == digest_of(data), f"{storage_id}: the bytes do not match the digest"
        assert ledger.sent.get(digest) == data, f"{storage_id}: bytes no client sent"
        if storage_id in ledger.acked:
            assert ledger.acked[storage_id] == data
        else:
            # Committed, then the process died before the 201 reached the client.
            assert digest in ledger.cut, f"{storage_id}: stored, yet its client was answered"
            unacknowledged += 1
    orphans = backend.rows(
        "SELECT count(*) FROM checkpoint_bytes b "
        "LEFT JOIN checkpoints c ON c.storage_id = b.storage_id WHERE c.storage_id IS NULL"
    )
    assert orphans == [(0,)], "bytes without a metadata row"
    digests = [digest for _, digest, _ in rows]
    assert len(digests) == len(set(digests)), "one upload stored twice"
    print(
        f"{len(rows)} rows: {len(ledger.acked)} acknowledged, {unacknowledged} committed "
        "whose answer was lost with the process"
    )
    if backend.name == "sqlite":
        assert backend.path is not None
        conn = sqlite3.connect(str(backend.path))
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            conn.close()
