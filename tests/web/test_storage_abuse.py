"""Storage that cannot be flooded, over HTTP: only checkpoints are stored (422 otherwise), a
client over its write rate gets 429 with Retry-After, a full store 507, as JSON for the API and
a page for the share form; /readyz says when the store is full."""

from __future__ import annotations

import base64
import gc
import json
import types
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.config import ConfigError, Settings
from app.store import RateLimited
from app.web import create_app
from app.web.stored import TooManyWrites
from tests.backends import Backend, FakeClock
from tests.conftest import CONFORMANCE
from tests.store.disks import fill, small_disk

MINIMAL = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
JSON_TYPE = {"content-type": "application/json"}
API = "/api/v1/checkpoints"


def document(number: int, size: int = 0) -> bytes:
    doc = {**MINIMAL, "id": f"urn:x:abuse-{number}"}
    doc["task"] = {**MINIMAL["task"], "objective": f"Objective {number} " + "z" * size}
    return json.dumps(doc).encode()


def app_client(backend_url: str, clock: FakeClock, **settings: Any) -> TestClient:
    return TestClient(create_app(Settings(database_url=backend_url, **settings), clock=clock))


@pytest.fixture
def client(backend: Backend, clock: FakeClock) -> Iterator[TestClient]:
    with app_client(backend.url, clock, write_rate=3) as c:
        yield c


def test_a_json_object_that_is_not_a_checkpoint_is_refused_saying_what_to_do(
    client: TestClient, backend: Backend
) -> None:
    response = client.post(API, content=json.dumps({"blob": "A" * 5000}), headers=JSON_TYPE)
    assert response.status_code == 422
    error = response.json()["error"]
    assert 'no "opencheckpoint" member' in error and "POST /api/v1/lint" in error
    nameless = {"opencheckpoint": "0.1", "blob": "A"}
    response = client.post(API, content=json.dumps(nameless), headers=JSON_TYPE)
    assert response.status_code == 422
    assert '"id", "created_at", "source" or "task" members' in response.json()["error"]
    assert backend.count("checkpoints") == 0


def test_the_share_form_refuses_a_non_checkpoint_with_a_page(client: TestClient) -> None:
    encoded = base64.b64encode(json.dumps({"blob": "A"}).encode()).decode()
    response = client.post("/share", data={"checkpoint_b64": encoded})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("text/html")
    assert "opencheckpoint" in response.text


def test_a_client_over_its_rate_gets_429_with_retry_after(
    client: TestClient, clock: FakeClock, backend: Backend
) -> None:
    for number in range(3):
        assert client.post(API, content=document(number), headers=JSON_TYPE).status_code == 201
    refused = client.post(API, content=document(3), headers=JSON_TYPE)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "60"  # the clock is 12:00:00.12: frees at 12:01
    body = refused.json()
    assert body["status"] == 429 and "3 documents" in body["error"]
    assert "Retry-After" in body["advice"]
    assert backend.count("checkpoints") == 3
    clock.advance(timedelta(seconds=45))
    assert client.post(API, content=document(4), headers=JSON_TYPE).headers["retry-after"] == "15"
    clock.advance(timedelta(seconds=15))
    assert client.post(API, content=document(5), headers=JSON_TYPE).status_code == 201


def test_a_refused_upload_leaves_nothing_for_the_collector_to_free(client: TestClient) -> None:
    """A client may ask for 429s as fast as it likes: each must be freed as it is answered,
    not left in a cycle (the store exception, anyio's future, the frames holding the document
    and its analysis) for a collection that may come late (1,500 of them grew a server by
    460 MB)."""
    for number in range(3):
        assert client.post(API, content=document(number), headers=JSON_TYPE).status_code == 201
    assert client.post(API, content=document(3), headers=JSON_TYPE).status_code == 429
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        refused = client.post(API, content=document(4, size=20_000), headers=JSON_TYPE)
        assert refused.status_code == 429
        gc.collect()
        kept = [o for o in gc.garbage if isinstance(o, (RateLimited, TooManyWrites))]
        frames = [
            o.f_code.co_name
            for o in gc.garbage
            if isinstance(o, types.FrameType) and "/app/" in o.f_code.co_filename
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert kept == []
    assert frames == []


def test_the_share_form_over_the_rate_gets_a_429_page(client: TestClient) -> None:
    for number in range(3):
        client.post(API, content=document(number), headers=JSON_TYPE)
    encoded = base64.b64encode(document(9)).decode()
    response = client.post("/share", data={"checkpoint_b64": encoded})
    assert response.status_code == 429
    assert response.headers["retry-after"] == "60"
    assert response.headers["content-type"].startswith("text/html")
    assert "429: Too many requests" in response.text


def test_refused_documents_do_not_use_the_rate(client: TestClient) -> None:
    for _ in range(5):
        blob = client.post(API, content=b'{"blob": 1}', headers=JSON_TYPE)
        assert blob.status_code == 422
    assert client.post(API, content=document(0), headers=JSON_TYPE).status_code == 201


def test_each_upload_token_is_a_client_of_its_own(backend: Backend, clock: FakeClock) -> None:
    tokens = frozenset({"token-one", "token-two"})
    with app_client(backend.url, clock, write_rate=1, upload_tokens=tokens) as c:
        one = {**JSON_TYPE, "authorization": "Bearer token-one"}
        two = {**JSON_TYPE, "authorization": "Bearer token-two"}
        assert c.post(API, content=document(0), headers=one).status_code == 201
        assert c.post(API, content=document(1), headers=one).status_code == 429
        assert c.post(API, content=document(2), headers=two).status_code == 201


def test_a_full_quota_is_507_and_deleting_frees_it(backend: Backend, clock: FakeClock) -> None:
    size = len(document(0))
    with app_client(backend.url, clock, max_store_bytes=2 * size + 10) as c:
        first = c.post(API, content=document(0), headers=JSON_TYPE).json()
        assert c.post(API, content=document(1), headers=JSON_TYPE).status_code == 201
        assert c.get("/readyz").json()["storage"] == "ok"  # ten bytes left: not full yet
        full = c.post(API, content=document(2), headers=JSON_TYPE)
        assert full.status_code == 507
        assert "store is full" in full.json()["error"]
        encoded = base64.b64encode(document(3)).decode()
        page = c.post("/share", data={"checkpoint_b64": encoded})
        assert page.status_code == 507 and "507: Storage full" in page.text
        assert backend.count("checkpoints") == 2
        # Deleting gives the space back at once.
        token = {"authorization": f"Bearer {first['deletion_token']}"}
        assert c.delete(f"{API}/{first['storage_id']}", headers=token).status_code == 200
        assert c.post(API, content=document(4), headers=JSON_TYPE).status_code == 201


def test_readyz_says_a_full_store_is_still_ready_but_not_writable(
    backend: Backend, clock: FakeClock
) -> None:
    size = len(document(0))
    with app_client(backend.url, clock, max_store_bytes=size) as c:
        ready = c.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["storage"] == "ok" and ready.json()["writable"] is True
        assert c.post(API, content=document(0), headers=JSON_TYPE).status_code == 201
        full = c.get("/readyz")
        assert full.status_code == 200  # reads and deletes still work: keep the instance
        assert full.json() | {"version": None} == {
            "version": None,
            "spec_version": full.json()["spec_version"],
            "status": "ready",
            "storage": "full",
            "writable": False,
            "full_because": "quota",
        }
        assert full.headers["cache-control"] == "no-store"


def test_a_full_disk_is_507_storage_full_and_delete_works(tmp_path: Path, clock: FakeClock) -> None:
    disk = tmp_path / "disk"
    with small_disk(disk), app_client(str(disk / "ocp.sqlite3"), clock) as c:
        stored = [
            c.post(API, content=document(n, 20_000), headers=JSON_TYPE).json() for n in range(10)
        ]
        fill(disk)
        full = c.post(API, content=document(99, 20_000), headers=JSON_TYPE)
        assert full.status_code == 507, full.text
        assert "disk is full" in full.json()["error"]
        assert "retry-after" not in full.headers  # not "not answering": it answers
        ready = c.get("/readyz").json()
        assert ready["storage"] == "full" and ready["full_because"] == "disk"
        assert c.get(f"/c/{stored[1]['storage_id']}/raw").status_code == 200
        for created in stored[:5]:
            token = {"authorization": f"Bearer {created['deletion_token']}"}
            deleted = c.delete(f"{API}/{created['storage_id']}", headers=token)
            assert deleted.status_code == 200, deleted.text
            assert c.get(f"/c/{created['storage_id']}/raw").status_code == 410


def test_the_write_settings_have_sane_defaults_and_refuse_what_cannot_work() -> None:
    defaults = Settings.from_env({})
    assert (defaults.write_rate, defaults.write_rate_bytes) == (60, 32 * 1024 * 1024)
    assert defaults.max_store_bytes == 1024**3
    unlimited = Settings.from_env({"OCP_WRITE_RATE": "0", "OCP_WRITE_RATE_BYTES": "0"})
    assert (unlimited.write_rate, unlimited.write_rate_bytes) == (0, 0)
    for env in (
        {"OCP_WRITE_RATE": "-1"},
        {"OCP_WRITE_RATE_BYTES": "1000"},  # smaller than one document of the largest size
        {"OCP_MAX_STORE_BYTES": "1000"},
        {"OCP_MAX_STORE_BYTES": "lots"},
    ):
        with pytest.raises(ConfigError):
            Settings.from_env(env)
    # the limits' errors name the variables set, not the fields they fill
    for env, named in (
        ({"OCP_MAX_DEPTH": "0"}, "OCP_MAX_DEPTH must be between 1 and 512"),
        ({"OCP_MAX_BYTES": "-1"}, "OCP_MAX_BYTES must be positive"),
    ):
        with pytest.raises(ConfigError, match=named):
            Settings.from_env(env)
