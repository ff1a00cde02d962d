"""CORS (OCP_CORS_ORIGINS): none by default; for the origins named, the read-only and lint
endpoints answer cross-origin scripts, preflight included; writes never do, and credentials
are never allowed."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.config import ConfigError, Settings
from app.web import SCHEMA_ROUTE, create_app
from app.web.cors import READ, cors_methods
from app.web.openapi import openapi_document
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}
ALLOWED = "https://app.example.org"
OTHER = "https://evil.example.net"


def cors_headers(response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.lower().startswith("access-control-")}


def preflight(client: TestClient, path: str, method: str, origin: str = ALLOWED, **extra: str):
    headers = {"origin": origin, "access-control-request-method": method, **extra}
    return client.options(path, headers=headers)


def make_client(tmp_path, origins: str | None) -> TestClient:
    env = {"OCP_DATABASE_URL": str(tmp_path / "db.sqlite3")}
    if origins is not None:
        env["OCP_CORS_ORIGINS"] = origins
    return TestClient(create_app(Settings.from_env(env)))


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with make_client(tmp_path, f" {ALLOWED}, http://localhost:3000 ") as c:
        yield c


def store(client: TestClient, data: bytes = PARENT, parent: str | None = None) -> dict:
    url = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    response = client.post(url, content=data, headers={**JSON_TYPE, "origin": ALLOWED})
    assert response.status_code == 201, response.text
    assert cors_headers(response) == {}  # a write never answers CORS
    return response.json()


def test_no_cors_headers_by_default(tmp_path):
    with make_client(tmp_path, None) as client:
        created = store(client)
        for path in ("/api/v1/openapi.json", "/rules.json", f"/c/{created['storage_id']}.json"):
            response = client.get(path, headers={"origin": ALLOWED})
            assert response.status_code == 200
            assert cors_headers(response) == {}, path
            assert "origin" not in response.headers.get("vary", "").lower()
        lint = client.post("/api/v1/lint", content=PARENT, headers={**JSON_TYPE, "origin": ALLOWED})
        assert lint.status_code == 200 and cors_headers(lint) == {}
        asked = preflight(client, "/api/v1/lint", "POST")
        assert asked.status_code == 405 and cors_headers(asked) == {}


def test_a_preflight_from_an_allowed_origin(client):
    response = preflight(
        client, "/api/v1/lint", "POST", **{"access-control-request-headers": "content-type"}
    )
    assert response.status_code == 204
    assert response.headers["access-control-allow-origin"] == ALLOWED
    assert response.headers["access-control-allow-methods"] == "POST"
    assert "content-type" in response.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in response.headers
    assert "origin" in response.headers["vary"].lower()
    # the preflight of a read, and the guard's
    read = preflight(client, "/api/v1/checkpoints", "GET")
    assert read.status_code == 204
    assert read.headers["access-control-allow-methods"] == "GET, HEAD"
    assert preflight(client, "/api/v1/guard", "POST").status_code == 204


def test_simple_requests_from_an_allowed_origin(client):
    parent = store(client)
    child = store(client, CHILD, parent=parent["storage_id"])
    sid = child["storage_id"]
    checkpoint_id = json.loads(PARENT)["id"]
    reads = [
        "/api/v1/openapi.json",
        f"/api/v1/checkpoints?checkpoint_id={checkpoint_id}",
        f"/c/{sid}.json",
        f"/c/{sid}/raw",
        f"/c/{sid}/lineage.json",
        f"/c/{sid}/diff.json",
        f"/diff.json?from={parent['storage_id']}&to={sid}",
        "/rules.json",
        SCHEMA_ROUTE,
    ]
    for path in reads:
        response = client.get(path, headers={"origin": ALLOWED})
        assert response.status_code == 200, (path, response.text)
        assert response.headers["access-control-allow-origin"] == ALLOWED, path
        assert "access-control-allow-credentials" not in response.headers, path
        assert "origin" in response.headers["vary"].lower(), path
        # a revalidation needs the ETag, which a script sees only when it is exposed
        assert "etag" in response.headers["access-control-expose-headers"].lower(), path
    head = client.head(f"/c/{sid}.json", headers={"origin": "http://localhost:3000"})
    assert head.headers["access-control-allow-origin"] == "http://localhost:3000"
    lint = client.post("/api/v1/lint", content=PARENT, headers={**JSON_TYPE, "origin": ALLOWED})
    assert lint.status_code == 200
    assert lint.headers["access-control-allow-origin"] == ALLOWED


def test_an_error_is_readable_by_the_script_that_caused_it(client):
    response = client.get(f"/c/{'A' * 24}.json", headers={"origin": ALLOWED})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["access-control-allow-origin"] == ALLOWED


def test_a_disallowed_origin_gets_none(client):
    for path in ("/api/v1/openapi.json", "/rules.json"):
        response = client.get(path, headers={"origin": OTHER})
        assert response.status_code == 200
        assert cors_headers(response) == {}
        # still Vary: Origin, so a cache does not give this answer to an allowed origin
        assert "origin" in response.headers["vary"].lower()
    asked = preflight(client, "/api/v1/lint", "POST", origin=OTHER)
    assert asked.status_code == 405
    assert cors_headers(asked) == {}
    # an origin is its scheme, host and port: neither another port nor another scheme is it
    for near in ("https://app.example.org:8443", "http://app.example.org", "null"):
        assert cors_headers(client.get("/rules.json", headers={"origin": near})) == {}


def test_writes_never_answer_cors(client):
    created = store(client)
    sid = created["storage_id"]
    for path, method in (
        ("/api/v1/checkpoints", "POST"),
        (f"/api/v1/checkpoints/{sid}", "DELETE"),
        ("/share", "POST"),
        (f"/c/{sid}/delete", "POST"),
        ("/api/v1/lint", "GET"),  # not a method lint answers scripts with either
    ):
        asked = preflight(client, path, method)
        assert asked.status_code == 405, (path, method)
        assert cors_headers(asked) == {}, (path, method)
    share = client.post("/share", data={"checkpoint": "x"}, headers={"origin": ALLOWED})
    assert cors_headers(share) == {}
    form = client.get(f"/c/{sid}/delete", headers={"origin": ALLOWED})
    assert form.status_code == 200 and cors_headers(form) == {}
    page = client.get(f"/c/{sid}", headers={"origin": ALLOWED})
    assert cors_headers(page) == {}  # the HTML page is for people
    deleted = client.delete(
        f"/api/v1/checkpoints/{sid}",
        headers={"origin": ALLOWED, "authorization": f"Bearer {created['deletion_token']}"},
    )
    assert deleted.status_code == 200
    assert cors_headers(deleted) == {}


def test_any_origin(tmp_path):
    with make_client(tmp_path, "*") as client:
        response = client.get("/api/v1/openapi.json", headers={"origin": OTHER})
        assert response.headers["access-control-allow-origin"] == "*"
        assert preflight(client, "/api/v1/lint", "POST", origin=OTHER).status_code == 204
        asked = preflight(client, "/api/v1/checkpoints", "POST", origin=OTHER)
        assert asked.status_code == 405 and cors_headers(asked) == {}
        assert "access-control-allow-credentials" not in response.headers


def test_every_read_the_description_lists_answers_scripts():
    """The description and the CORS table name the same reads: a script that reads the
    description can use what it describes, except the writes."""
    document = openapi_document("http://testserver")
    for path, item in document["paths"].items():
        concrete = path.replace("{storage_id}", "A" * 24).replace("{code}", "OCP-S002")
        methods = cors_methods(concrete)
        if "get" in item:
            assert methods == READ, path
        elif "post" in item and path in ("/api/v1/lint", "/api/v1/guard"):
            assert methods == {"POST"}, path
    assert "POST" not in cors_methods("/api/v1/checkpoints")
    assert cors_methods(f"/api/v1/checkpoints/{'A' * 24}") == frozenset()
    assert cors_methods(SCHEMA_ROUTE) == READ
    assert cors_methods("/c/AAAA/raw/extra") == frozenset()


@pytest.mark.parametrize(
    ("raw", "origins"),
    [
        ("", frozenset()),
        (" , ", frozenset()),
        ("*", frozenset({"*"})),
        ("HTTPS://App.Example.org:443", frozenset({"https://app.example.org"})),
        ("http://localhost:3000,http://[::1]:8080", {"http://localhost:3000", "http://[::1]:8080"}),
    ],
)
def test_the_setting_is_read_as_a_browser_sends_origin(raw, origins):
    assert Settings.from_env({"OCP_CORS_ORIGINS": raw}).cors_origins == origins


@pytest.mark.parametrize(
    "raw",
    [
        "app.example.org",
        "ftp://app.example.org",
        "https://app.example.org/",
        "https://app.example.org/api",
        "https://app.example.org?x=1",
        "https://user@app.example.org",
        "https://app.example.org:port",
        "https://app.example.org:99999",
        "https://",
        "https://app.example.org, file:///etc",
    ],
)
def test_a_bad_origin_refuses_to_start(raw):
    with pytest.raises(ConfigError, match=r"OCP_CORS_ORIGINS must be .* scheme://host\[:port\]"):
        Settings.from_env({"OCP_CORS_ORIGINS": raw})
