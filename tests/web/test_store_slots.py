"""Store calls run on threads of their own: when every one is stuck on an unreachable
database, further store requests get 503 at once and linting is not held up."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

VALID = (CONFORMANCE / "valid-minimal.ocp.json").read_bytes()


class StuckStore:
    """A store whose reads hang until released, like one waiting on a dead database."""

    retention = None

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Semaphore(0)

    def now(self):
        return datetime.now(UTC)

    def get(self, storage_id):
        self.entered.release()
        self.release.wait(30)
        return None

    def close(self) -> None:
        self.release.set()


def test_stuck_store_calls_leave_linting_free(tmp_path):
    settings = Settings(
        database_url=str(tmp_path / "db.sqlite3"), store_pool_size=2, store_timeout=0.5
    )
    with TestClient(create_app(settings)) as client:
        real = client.app.state.store
        stuck = client.app.state.store = StuckStore()
        try:
            with ThreadPoolExecutor(max_workers=4) as pool:
                # two permalinks (requests for the same one wait for one store call)
                held = [pool.submit(client.get, f"/c/{letter * 24}") for letter in "AB"]
                for _ in range(2):
                    assert stuck.entered.acquire(timeout=10)  # both store threads are stuck
                refused = client.get(f"/c/{'C' * 24}")
                assert refused.status_code == 503
                assert "retry-after" in refused.headers
                lint = client.post(
                    "/api/v1/lint", content=VALID, headers={"content-type": "application/json"}
                )
                assert lint.status_code == 200  # while the two store calls still hang
                assert not any(f.done() for f in held)
                stuck.release.set()
                assert [f.result(timeout=30).status_code for f in held] == [404, 404]
        finally:
            client.app.state.store = real
