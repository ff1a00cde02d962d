"""HTTP as caches, proxies and clients read it: entity tags per representation and coding,
Vary, weak validators, pages whose time-dependent sentences change, no-store on the answer that
carries a deletion token, Allow, WWW-Authenticate, content codings, body limits per route,
readiness."""

from __future__ import annotations

import base64
import gzip
import json
import logging
from datetime import timedelta

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.parse import Limits
from app.web import NotOpenYet, create_app
from app.web.logs import CapabilityFilter
from tests.backends import START, FakeClock
from tests.conftest import CONFORMANCE

VALID = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(tmp_path, clock):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings, clock=clock)) as c:
        yield c


def store(client: TestClient, data: bytes = VALID) -> dict:
    response = client.post("/api/v1/checkpoints", content=data, headers=JSON_TYPE)
    assert response.status_code == 201, response.text
    return response.json()


def test_negotiated_permalink_varies_on_accept(client):
    storage_id = store(client)["storage_id"]
    html = client.get(f"/c/{storage_id}", headers={"accept": "text/html"})
    as_json = client.get(f"/c/{storage_id}", headers={"accept": "application/json"})
    assert html.headers["content-type"].startswith("text/html")
    assert as_json.headers["content-type"].startswith("application/json")
    for response in (html, as_json):
        assert response.headers["vary"] == "Accept, Accept-Encoding"
    assert client.get(f"/c/{storage_id}.json").headers["vary"] == "Accept-Encoding"


def test_each_representation_and_coding_has_its_own_etag(client):
    storage_id = store(client)["storage_id"]
    identity = {"accept-encoding": "identity"}
    tags = {
        "html": client.get(f"/c/{storage_id}", headers=identity).headers["etag"],
        "html-gzip": client.get(f"/c/{storage_id}", headers={"accept-encoding": "gzip"}).headers[
            "etag"
        ],
        "json": client.get(f"/c/{storage_id}.json", headers=identity).headers["etag"],
        "raw": client.get(f"/c/{storage_id}/raw").headers["etag"],
    }
    assert len(set(tags.values())) == 4, tags
    # a JSON request that offers the HTML's tag gets the JSON, not a 304
    crossed = client.get(
        f"/c/{storage_id}",
        headers={"accept": "application/json", "if-none-match": tags["html"], **identity},
    )
    assert crossed.status_code == 200
    assert crossed.json()["stored"]["storage_id"] == storage_id


def test_every_page_and_answer_of_a_get_carries_an_etag_and_answers_304(client):
    """Not only the stored pages: the front page, the rules and their twins, the schema, the
    OpenAPI document, a stored checkpoint's source and lineage; each coding its own tag."""
    storage_id = store(client)["storage_id"]
    paths = [
        "/",
        "/rules",
        "/rules.json",
        "/rules/OCP-S002",
        "/rules/OCP-S002.json",
        "/schema/opencheckpoint-0.1.schema.json",
        "/api/v1/openapi.json",
        f"/c/{storage_id}/source",
        f"/c/{storage_id}/lineage",
        f"/c/{storage_id}/lineage.json",
    ]
    for path in paths:
        tags = {}
        for coding in ("identity", "gzip"):
            sent = client.get(path, headers={"accept-encoding": coding})
            assert sent.status_code == 200, path
            tag = tags[coding] = sent.headers["etag"]
            again = client.get(path, headers={"accept-encoding": coding, "if-none-match": tag})
            assert again.status_code == 304 and again.content == b"", path
            assert again.headers["etag"] == tag and "content-type" not in again.headers
            assert client.get(path, headers={"if-none-match": '"other"'}).status_code == 200
        if "gzip" in client.get(path).headers.get("content-encoding", ""):
            assert tags["identity"] != tags["gzip"], path


def test_weak_validators_match(client):
    storage_id = store(client)["storage_id"]
    identity = {"accept-encoding": "identity"}
    etag = client.get(f"/c/{storage_id}", headers=identity).headers["etag"]
    weak = client.get(f"/c/{storage_id}", headers={"if-none-match": f"W/{etag}", **identity})
    assert weak.status_code == 304
    listed = client.get(
        f"/c/{storage_id}", headers={"if-none-match": f'"other", W/{etag}', **identity}
    )
    assert listed.status_code == 304
    raw_tag = client.get(f"/c/{storage_id}/raw").headers["etag"]
    assert (
        client.get(f"/c/{storage_id}/raw", headers={"if-none-match": f"W/{raw_tag}"}).status_code
        == 304
    )


def expiring_approval(expires_at: str) -> bytes:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["created_at"] = "2026-12-01T11:00:00Z"
    doc["operations"] = [
        {
            "id": "approval-1",
            "kind": "approval",
            "status": "awaiting",
            "description": "The manager approves the refund.",
            "requested_at": "2026-12-01T10:00:00Z",
            "expires_at": expires_at,
        }
    ]
    return json.dumps(doc).encode()


def test_the_etag_changes_when_time_dependent_content_does(client, clock):
    """An awaiting approval that expires after the first view: a revalidating browser must
    get the page that says it has passed, not a 304 for the one that did not."""
    expires = START + timedelta(minutes=30)
    stamp = expires.strftime("%Y-%m-%dT%H:%M:%SZ")
    storage_id = store(client, expiring_approval(stamp))["storage_id"]
    identity = {"accept-encoding": "identity"}
    first = client.get(f"/c/{storage_id}", headers=identity)
    assert "has passed" not in first.text
    clock.advance(timedelta(minutes=31))
    again = client.get(
        f"/c/{storage_id}", headers={"if-none-match": first.headers["etag"], **identity}
    )
    assert again.status_code == 200
    assert again.headers["etag"] != first.headers["etag"]
    assert f"Its expires_at ({stamp}) has passed" in again.text


def test_the_age_in_words_is_not_served_stale(client, clock):
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["created_at"] = (START - timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
    storage_id = store(client, json.dumps(doc).encode())["storage_id"]
    identity = {"accept-encoding": "identity"}
    first = client.get(f"/c/{storage_id}.json", headers=identity)
    assert first.json()["view"]["header"]["created_age"] == "10 minutes ago"
    assert first.json()["view"]["changes_at"] is not None
    clock.advance(timedelta(hours=2))
    later = client.get(
        f"/c/{storage_id}.json", headers={"if-none-match": first.headers["etag"], **identity}
    )
    assert later.status_code == 200
    assert later.json()["view"]["header"]["created_age"] == "2 hours ago"
    assert later.headers["etag"] != first.headers["etag"]


def test_the_answer_with_the_deletion_token_is_never_stored(client):
    response = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE)
    assert response.status_code == 201
    assert response.headers["cache-control"] == "no-store"
    shared = client.post(
        "/share",
        files={
            "checkpoint_b64": (None, base64.b64encode(VALID).decode()),
            "lifetime": (None, "1h"),
        },
    )
    assert shared.status_code == 201
    assert shared.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/view", {"POST"}),
        ("PUT", "/diff", {"GET", "HEAD", "POST"}),
        ("DELETE", "/api/v1/checkpoints", {"GET", "HEAD", "POST"}),
        ("POST", "/rules", {"GET", "HEAD"}),
    ],
)
def test_405_says_which_methods_are_allowed(client, method, path, allowed):
    response = client.request(method, path)
    assert response.status_code == 405
    assert {m.strip() for m in response.headers["allow"].split(",")} == allowed


def test_401_carries_a_bearer_challenge(tmp_path):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), upload_tokens=frozenset({"t0k"}))
    with TestClient(create_app(settings)) as client:
        refused = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer ")
        created = client.post(
            "/api/v1/checkpoints",
            content=VALID,
            headers={**JSON_TYPE, "authorization": "Bearer t0k"},
        ).json()
        no_token = client.delete(f"/api/v1/checkpoints/{created['storage_id']}")
        assert no_token.status_code == 401
        assert no_token.headers["www-authenticate"].startswith("Bearer ")


@pytest.mark.parametrize(
    ("accept_encoding", "gzipped"),
    [
        ("gzip", True),
        ("gzip, deflate, br", True),
        ("gzip;q=0", False),
        ("gzip;q=0.0, identity", False),
        ("*;q=0", False),
        ("*", True),
        ("br;q=1, *;q=0.1", True),
        ("identity", False),
        ("gzip;q=bogus", False),
    ],
)
def test_gzip_only_when_accepted(client, accept_encoding, gzipped):
    storage_id = store(client)["storage_id"]
    with client.stream(
        "GET", f"/c/{storage_id}", headers={"accept-encoding": accept_encoding}
    ) as response:
        body = b"".join(response.iter_raw())
        assert (response.headers.get("content-encoding") == "gzip") is gzipped
    if gzipped:
        assert gzip.decompress(body).startswith(b"<!doctype html>")
    else:
        assert body.startswith(b"<!doctype html>")


@pytest.fixture
def small(tmp_path):
    """A deployment whose documents may be 2,000 bytes."""
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), limits=Limits(max_bytes=2000))
    with TestClient(create_app(settings)) as c:
        yield c


def padded(size: int) -> bytes:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["task"]["objective"] = ""
    base = len(json.dumps(doc).encode())
    doc["task"]["objective"] = "x" * (size - base)
    data = json.dumps(doc).encode()
    assert len(data) == size
    return data


@pytest.mark.parametrize("path", ["/api/v1/lint", "/api/v1/checkpoints"])
def test_raw_api_bodies_are_limited_to_one_document(small, path):
    assert small.post(path, content=padded(2000), headers=JSON_TYPE).status_code in (200, 201)
    too_big = small.post(path, content=padded(2001), headers=JSON_TYPE)
    assert too_big.status_code == 413
    assert "2,000 bytes" in too_big.json()["error"]


def test_forms_with_a_parent_may_carry_two_documents(small):
    files = {
        "checkpoint_file": ("c.json", padded(2000), "application/json"),
        "parent_file": ("p.json", padded(2000), "application/json"),
    }
    assert small.post("/view", files=files).status_code == 200
    one_too_big = {"checkpoint_file": ("c.json", padded(2001), "application/json")}
    assert small.post("/view", files=one_too_big).status_code == 413


def test_other_routes_take_small_bodies_only(small):
    storage_id = store(small, padded(1000))["storage_id"]
    big = b"token=" + b"x" * (70 * 1024)
    response = small.post(
        f"/c/{storage_id}/delete",
        content=big,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 413


def test_readyz_reports_the_store(client):
    assert client.get("/readyz").json()["status"] == "ready"
    real = client.app.state.store
    client.app.state.store = NotOpenYet(retention=real.retention)
    try:
        down = client.get("/readyz")
        assert down.status_code == 503
        assert down.headers["retry-after"]
        assert down.json()["status"] == "unavailable"
        # liveness is not readiness: the process still answers
        assert client.get("/healthz").status_code == 200
    finally:
        client.app.state.store = real


def test_access_log_lines_carry_no_capability():
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/c/Sx3kQ9secretid/raw?x=1", "1.1", 200),
        None,
    )
    assert CapabilityFilter().filter(record)
    line = record.getMessage()
    assert "Sx3kQ9secretid" not in line and "x=1" not in line
    assert '"GET /c/…/raw?… HTTP/1.1" 200' in line
