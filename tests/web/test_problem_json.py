"""Errors for programs are RFC 9457 problem documents (application/problem+json) that keep
every member the service's JSON errors always had; people still get the HTML page."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.parse import Limits
from app.web import create_app
from tests.conftest import CONFORMANCE

VALID = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
MINIMAL = (CONFORMANCE / "valid-minimal.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}
HTML = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
UNKNOWN = "A" * 24  # the shape of a storage id, stored nowhere
# What every JSON error carried before it was a problem document.
OLD_MEMBERS = {"ok", "status", "error", "advice"}


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as c:
        yield c


def store(client: TestClient, data: bytes = VALID) -> dict:
    response = client.post("/api/v1/checkpoints", content=data, headers=JSON_TYPE)
    assert response.status_code == 201, response.text
    return response.json()


def assert_problem(response, status: int, title: str) -> dict:
    """The answer is a problem of ``status``, with the reason phrase, and the old members."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["type"] == "about:blank"
    assert body["title"] == title
    assert body["status"] == status
    assert isinstance(body["detail"], str) and body["detail"]
    assert set(body) >= OLD_MEMBERS
    assert body["ok"] is False
    assert body["error"] == body["detail"]
    assert isinstance(body["advice"], str)  # "" where there is none to give (401, 403)
    return body


def test_400_a_listing_without_a_checkpoint_id(client):
    body = assert_problem(client.get("/api/v1/checkpoints"), 400, "Bad Request")
    assert "checkpoint_id" in body["detail"]


def test_401_keeps_its_challenge(tmp_path):
    settings = Settings(
        database_url=str(tmp_path / "db.sqlite3"), upload_tokens=frozenset({"t0ken"})
    )
    with TestClient(create_app(settings)) as client:
        response = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE)
    assert_problem(response, 401, "Unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer ")


def test_403_and_404_and_410_of_deleting(client):
    created = store(client)
    url = f"/api/v1/checkpoints/{created['storage_id']}"
    assert_problem(client.delete(url, headers={"authorization": "Bearer nope"}), 403, "Forbidden")
    assert_problem(
        client.delete(f"/api/v1/checkpoints/{UNKNOWN}", headers={"authorization": "Bearer x"}),
        404,
        "Not Found",
    )
    token = {"authorization": f"Bearer {created['deletion_token']}"}
    assert client.delete(url, headers=token).status_code == 200
    assert_problem(client.delete(url, headers=token), 410, "Gone")


def test_404_of_a_json_twin_and_of_a_client_that_asks_for_json(client):
    assert_problem(client.get(f"/c/{UNKNOWN}.json"), 404, "Not Found")
    negotiated = client.get(f"/c/{UNKNOWN}", headers={"accept": "application/json"})
    assert_problem(negotiated, 404, "Not Found")


def test_405_keeps_allow(client):
    response = client.get("/api/v1/lint")
    assert_problem(response, 405, "Method Not Allowed")
    assert response.headers["allow"] == "POST"


def test_410_says_when_and_why(client):
    created = store(client)
    token = {"authorization": f"Bearer {created['deletion_token']}"}
    client.delete(f"/api/v1/checkpoints/{created['storage_id']}", headers=token)
    body = assert_problem(client.get(f"/c/{created['storage_id']}.json"), 410, "Gone")
    assert body["reason"] == "deleted"
    assert body["gone_at"].endswith("Z")


def test_413_is_content_too_large_on_every_python(tmp_path):
    with TestClient(create_app(Settings(limits=Limits(max_bytes=1000)))) as client:
        response = client.post("/api/v1/lint", content=b" " * 2000, headers=JSON_TYPE)
    body = assert_problem(response, 413, "Content Too Large")
    assert "1,000 bytes" in body["detail"]


def test_413_of_a_small_form_gives_its_own_advice(client):
    """A deletion form past its small limit holds no document: the advice about a document's
    size and OCP_MAX_BYTES is not its (a review as a new user found it given)."""
    created = store(client)
    response = client.post(
        f"/c/{created['storage_id']}/delete",
        content=b"token=" + b"x" * 70_000,
        headers={"content-type": "application/x-www-form-urlencoded", "accept": "application/json"},
    )
    body = assert_problem(response, 413, "Content Too Large")
    assert "OCP_MAX_BYTES" not in body["advice"] and "small form" in body["advice"]


def test_415_a_body_of_another_type(client):
    response = client.post("/api/v1/lint", content=VALID, headers={"content-type": "text/plain"})
    assert_problem(response, 415, "Unsupported Media Type")
    compressed = client.post(
        "/api/v1/checkpoints", content=VALID, headers={**JSON_TYPE, "content-encoding": "gzip"}
    )
    assert_problem(compressed, 415, "Unsupported Media Type")


def test_422_keeps_findings_and_secret_paths(client):
    not_json = client.post("/api/v1/checkpoints", content=b'{"a": NaN}', headers=JSON_TYPE)
    body = assert_problem(not_json, 422, "Unprocessable Content")
    assert body["findings"][0]["code"] == "json"
    assert body["secret_paths"] == []
    document = json.loads(VALID)
    document["task"]["outcome"] = "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    secret = client.post(
        "/api/v1/checkpoints", content=json.dumps(document).encode(), headers=JSON_TYPE
    )
    body = assert_problem(secret, 422, "Unprocessable Content")
    assert body["secret_paths"] == ["/task/outcome"]
    assert "ghp_" not in secret.text


def test_429_keeps_retry_after(tmp_path):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), write_rate=1)
    with TestClient(create_app(settings)) as client:
        store(client)
        response = client.post("/api/v1/checkpoints", content=VALID, headers=JSON_TYPE)
    assert_problem(response, 429, "Too Many Requests")
    assert response.headers["retry-after"].isdigit()


def test_503_while_the_store_is_unreachable():
    settings = Settings(database_url="postgresql://postgres@127.0.0.1:1/ocp", store_timeout=1)
    with TestClient(create_app(settings)) as client:
        response = client.get(f"/c/{UNKNOWN}.json")
    body = assert_problem(response, 503, "Service Unavailable")
    assert response.headers["retry-after"].isdigit()
    assert "store is not answering" in body["detail"]


def test_507_once_the_quota_is_used(tmp_path):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), max_store_bytes=len(VALID))
    with TestClient(create_app(settings)) as client:
        store(client)
        response = client.post("/api/v1/checkpoints", content=MINIMAL, headers=JSON_TYPE)
    body = assert_problem(response, 507, "Insufficient Storage")
    assert "full" in body["detail"]


def test_people_still_get_the_page(client):
    response = client.get(f"/c/{UNKNOWN}", headers=HTML)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "<html" in response.text and '"ok"' not in response.text
