"""Database outage: PostgreSQL stops under a running `ocp serve`, and comes back.

While it is down, requests that need the store answer 503 with Retry-After and a page (or
JSON) that says what happened and what to do, within the store timeout; lint-only requests
keep answering 200 as fast as ever. When it is back, the same process serves stored
checkpoints again (nothing restarted) within a bounded time. A service started while the
database is down starts anyway: lint-only requests work at once, stored ones once it is back.
"""

from __future__ import annotations

import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.config import Settings
from app.web import create_app
from tests.faults.conftest import PausablePostgres
from tests.serve import (
    JSON,
    TRANSPORT_ERRORS,
    Reply,
    Server,
    checkpoint_bytes,
    request,
    upload,
)

# `make check` leaves this out: it holds PostgreSQL down past the pool's reconnect timeout.
pytestmark = pytest.mark.slow

STORE_TIMEOUT = 1.0  # OCP_STORE_TIMEOUT_SECONDS of the servers here
SLACK = 3.0  # what a 503 may take beyond the store timeout on a busy CI machine
OUTAGE = 12.0  # seconds PostgreSQL stays down: longer than the pool's reconnect timeout (10 s)
RECOVERY = 20.0  # seconds the service may take to serve stored checkpoints again
LINT_SLOW = 2.0  # a lint-only request never waits for the store
TRAFFIC_PAUSE = 0.05  # seconds between one background client's requests


def server_env(database_url: str) -> dict[str, str]:
    return {
        "OCP_DATABASE_URL": database_url,
        "OCP_STORE_TIMEOUT_SECONDS": str(STORE_TIMEOUT),
        "OCP_DB_POOL_SIZE": "4",
        # one test client stores many checkpoints in a few seconds: no per-client write rate
        "OCP_WRITE_RATE": "0",
    }


@pytest.fixture(scope="module")
def server(
    pausable_postgres: PausablePostgres, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    running = Server(
        tmp_path_factory.mktemp("outage"), server_env(pausable_postgres.fresh_schema())
    )
    try:
        running.start()
        yield running
    finally:
        running.stop()


# --- the requests ---------------------------------------------------------------------------

DOC = checkpoint_bytes(0, "outage-lint", words=20)
HTML = {"accept": "text/html"}
FORM = {"content-type": "application/x-www-form-urlencoded"}


def lint_only(port: int) -> list[tuple[str, Callable[[], Reply]]]:
    """Requests that never need the store."""
    form = urllib.parse.urlencode({"checkpoint": DOC.decode()}).encode()
    return [
        ("POST /api/v1/lint", lambda: request(port, "POST", "/api/v1/lint", DOC, JSON)),
        ("POST /view", lambda: request(port, "POST", "/view", form, {**FORM, **HTML})),
        ("POST /view.json", lambda: request(port, "POST", "/view.json", form, FORM)),
        ("GET /", lambda: request(port, "GET", "/", headers=HTML)),
        ("GET /rules", lambda: request(port, "GET", "/rules", headers=HTML)),
        ("GET /healthz", lambda: request(port, "GET", "/healthz")),
    ]


def check_lint_only(port: int) -> None:
    for name, call in lint_only(port):
        started = time.monotonic()
        reply = call()
        took = time.monotonic() - started
        assert reply.status == 200, (name, reply.status, reply.body[:300])
        assert took < LINT_SLOW, f"{name} took {took:.1f} s while the store was down"
        if name == "POST /api/v1/lint":
            report = reply.json()
            assert isinstance(report, dict), report
            assert [r["valid"] for r in report["results"]] == [True], report


def check_unavailable(reply: Reply, what: str, started: float, as_json: bool) -> None:
    """503, Retry-After, and a body that says what happened and what to do, in time."""
    took = time.monotonic() - started
    assert reply.status == 503, (what, reply.status, reply.body[:300])
    assert took < STORE_TIMEOUT + SLACK, f"{what}: the 503 took {took:.1f} s"
    retry_after = reply.headers.get("retry-after", "")
    assert retry_after.isdigit() and int(retry_after) > 0, (what, reply.headers)
    if as_json:
        assert reply.headers["content-type"].startswith("application/problem+json"), what
        body = reply.json()
        assert isinstance(body, dict), what
        assert body["ok"] is False and body["status"] == 503, body
        assert body["title"] == "Service Unavailable" and body["detail"] == body["error"], body
        assert "store is not answering" in body["error"], body
        assert "try again" in body["advice"], body
        assert "without storing it still works" in body["advice"], body
    else:
        assert reply.headers["content-type"].startswith("text/html"), what
        page = reply.body.decode()
        assert "503" in page and "Unavailable" in page, page
        assert "store is not answering" in page, page
        assert "try again" in page and "without storing it still works" in page, page


def check_store_unavailable(port: int, storage_id: str, number: int) -> None:
    probes: list[tuple[str, Callable[[], Reply], bool]] = [
        (
            "POST /api/v1/checkpoints",
            lambda: upload(port, checkpoint_bytes(number, "outage-down"), timeout=10),
            True,
        ),
        # a page not in this instance's cache needs the store (a cached one is served: below)
        ("GET /c/{id}", lambda: request(port, "GET", f"/c/{UNCACHED}", headers=HTML), False),
        ("GET /c/{id}.json", lambda: request(port, "GET", f"/c/{UNCACHED}.json"), True),
        ("GET /c/{id}/raw", lambda: request(port, "GET", f"/c/{storage_id}/raw"), False),
        (
            "GET /api/v1/checkpoints?checkpoint_id=…",
            lambda: request(port, "GET", "/api/v1/checkpoints?checkpoint_id=urn:x:1"),
            True,
        ),
    ]
    for what, call, as_json in probes:
        started = time.monotonic()
        check_unavailable(call(), what, started, as_json)
    if storage_id != UNCACHED:
        # A permalink viewed before the outage is still served from the page cache.
        cached = request(port, "GET", f"/c/{storage_id}", headers=HTML)
        assert cached.status == 200, (cached.status, cached.body[:300])


UNCACHED = "A" * 24  # an id no page cache holds


def wait_for_store(port: int, tag: str) -> tuple[str, bytes, float]:
    """Upload until one is stored (201); its storage id, bytes, and how long it took."""
    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        data = checkpoint_bytes(attempt, tag)
        try:
            reply = upload(port, data, timeout=10)
        except TRANSPORT_ERRORS as exc:
            raise AssertionError(f"the service stopped answering: {exc!r}") from exc
        if reply.status == 201:
            body = reply.json()
            assert isinstance(body, dict)
            return body["storage_id"], data, time.monotonic() - started
        assert reply.status == 503, (reply.status, reply.body[:300])
        assert time.monotonic() - started < RECOVERY, (
            f"still 503 {RECOVERY} s after PostgreSQL came back"
        )
        time.sleep(0.2)


def check_served(port: int, storage_id: str, data: bytes) -> None:
    raw = request(port, "GET", f"/c/{storage_id}/raw")
    assert raw.status == 200 and raw.body == data, (storage_id, raw.status, raw.body[:300])
    page = request(port, "GET", f"/c/{storage_id}", headers=HTML)
    assert page.status == 200, (storage_id, page.status, page.body[:300])


# --- background traffic ---------------------------------------------------------------------


@dataclass
class Traffic:
    """Requests running beside the probes: what each got, and how long it took."""

    port: int
    storage_id: str
    stop: threading.Event = field(default_factory=threading.Event)
    seen: list[tuple[str, int | str, float, str | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, calls: list[tuple[str, Callable[[], Reply]]]) -> None:
        while not self.stop.is_set():
            for name, call in calls:
                started = time.monotonic()
                try:
                    reply = call()
                    outcome: int | str = reply.status
                    retry_after = reply.headers.get("retry-after")
                except TRANSPORT_ERRORS as exc:
                    outcome, retry_after = type(exc).__name__, None
                with self.lock:
                    self.seen.append((name, outcome, time.monotonic() - started, retry_after))
                # steady traffic, not a flood: what matters is that requests are in flight
                # throughout the outage, and a flood costs the suite CPU for nothing
                self.stop.wait(TRAFFIC_PAUSE)

    def store_calls(self, worker: int) -> list[tuple[str, Callable[[], Reply]]]:
        numbers = iter(range(10**9))
        return [
            (
                "upload",
                lambda: upload(
                    self.port, checkpoint_bytes(next(numbers), f"outage-bg-{worker}"), timeout=10
                ),
            ),
            ("raw", lambda: request(self.port, "GET", f"/c/{self.storage_id}/raw", timeout=10)),
        ]


@pytest.mark.postgres
def test_an_outage_answers_503_for_the_store_only_and_recovers_without_a_restart(
    server: Server, pausable_postgres: PausablePostgres
) -> None:
    port = server.port
    first, first_data, _ = wait_for_store(port, "outage-before")
    check_served(port, first, first_data)

    traffic = Traffic(port, first)
    workers = [
        threading.Thread(target=traffic.run, args=(lint_only(port),), daemon=True),
        *(
            threading.Thread(target=traffic.run, args=(traffic.store_calls(n),), daemon=True)
            for n in range(3)
        ),
    ]
    for worker in workers:
        worker.start()
    rounds = 0
    try:
        time.sleep(0.5)
        with pausable_postgres.outage():
            down = time.monotonic()
            while rounds == 0 or time.monotonic() - down < OUTAGE:
                rounds += 1
                check_store_unavailable(port, first, rounds)
                check_lint_only(port)
                time.sleep(0.5)
            outage = time.monotonic() - down
        # PostgreSQL is back; the same process recovers on its own.
        again, again_data, took = wait_for_store(port, "outage-after")
        print(f"outage {outage:.1f} s, {rounds} probe rounds; stored again after {took:.1f} s")
        check_served(port, first, first_data)
        check_served(port, again, again_data)
        check_lint_only(port)
        time.sleep(0.5)
    finally:
        traffic.stop.set()
        for worker in workers:
            worker.join(timeout=15)
    assert not any(worker.is_alive() for worker in workers), "a traffic thread hung"
    assert server.running(), server.tail()

    by_outcome: dict[tuple[str, int | str], int] = {}
    for name, outcome, _, _ in traffic.seen:
        by_outcome[(name, outcome)] = by_outcome.get((name, outcome), 0) + 1
    print("background traffic:", dict(sorted(by_outcome.items(), key=str)))
    lint_names = {name for name, _ in lint_only(port)}
    for name, outcome, took, retry_after in traffic.seen:
        if name in lint_names:
            assert outcome == 200, (name, outcome)
            assert took < LINT_SLOW, f"{name} took {took:.1f} s during the outage"
        else:
            assert outcome in (200, 201, 503), (name, outcome)
            if outcome == 503:
                assert retry_after and retry_after.isdigit(), (name, retry_after)
    store_outcomes = {outcome for name, outcome, _, _ in traffic.seen if name not in lint_names}
    assert {201, 503} <= store_outcomes, store_outcomes  # it did see the outage, and the end


@pytest.mark.postgres
def test_the_service_starts_while_postgres_is_down(
    server: Server, pausable_postgres: PausablePostgres, tmp_path: Path
) -> None:
    """Several instances share one database: one that (re)starts during an outage must come
    up and serve lint-only requests, then stored ones once PostgreSQL is back, without
    another restart. Its schema is new, so the migration too waits for the database."""
    late = Server(tmp_path, server_env(pausable_postgres.fresh_schema()))
    try:
        with pausable_postgres.outage():
            late.start()
            check_lint_only(late.port)
            check_store_unavailable(late.port, UNCACHED, 1)
        storage_id, data, took = wait_for_store(late.port, "late-start")
        print(f"started during the outage; stored after {took:.1f} s once PostgreSQL was back")
        check_served(late.port, storage_id, data)
        # The instance that was already running recovered from this outage too.
        check_served(server.port, *wait_for_store(server.port, "late-start-other")[:2])
    finally:
        late.stop()
    assert "Traceback" not in late.tail(400), late.tail()


def test_an_unreachable_database_at_start_up_is_a_503_not_a_dead_service() -> None:
    """The same in process, without a cluster: nothing listens on port 1."""
    from starlette.testclient import TestClient

    settings = Settings(database_url="postgresql://postgres@127.0.0.1:1/ocp", store_timeout=1)
    with TestClient(create_app(settings)) as client:
        assert client.get("/").status_code == 200
        assert client.post("/api/v1/lint", content=DOC, headers=JSON).status_code == 200
        for reply in (
            client.post("/api/v1/checkpoints", content=DOC, headers=JSON),
            client.get(f"/c/{'A' * 24}", headers=HTML),
        ):
            assert reply.status_code == 503, reply.text
            assert reply.headers["retry-after"].isdigit()
            assert "store is not answering" in reply.text
