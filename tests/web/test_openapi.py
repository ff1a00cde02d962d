"""GET /api/v1/openapi.json: a valid OpenAPI 3.1 description whose one server is the address
it was read at, which describes every /api/v1 route, and which the service keeps: a walk of
every operation it lists, with real requests, gets only statuses it lists for that operation,
with the headers it names and bodies its schemas accept."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from jsonschema import Draft202012Validator
from jsonschema_path.handlers import default_handlers
from openapi_spec_validator import OpenAPIV31SpecValidator, validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from starlette.routing import Match, Route
from starlette.testclient import TestClient

from app.config import Settings
from app.schema import SCHEMA_ID
from app.web import SCHEMA_ROUTE, create_app
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
HANDOFF = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}
DOCUMENT_URI = "urn:ocp-viewer:openapi"  # where the tests' registry keeps the description
UNKNOWN = "A" * 24  # the shape of a storage id, stored nowhere
CALL = {"tool": "payments.refactor", "arguments": {}}

Document = dict[str, Any]


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as c:
        yield c


@pytest.fixture
def document(client: TestClient) -> Document:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    described: Document = response.json()
    return described


def operations(document: Document) -> set[tuple[str, str]]:
    methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
    return {(path, m) for path, item in document["paths"].items() for m in item if m in methods}


def test_the_description_is_valid_openapi_3_1(client, document, monkeypatch):
    def served(uri: str) -> Any:
        # The checkpoint schema is referenced where this service serves it, at the path of
        # its $id: the reference resolves to what the service answers, fetched from it.
        assert uri == f"http://testserver{SCHEMA_ROUTE}", uri
        return client.get(urlsplit(uri).path).json()

    def nowhere(uri: str) -> Any:
        raise AssertionError(f"the description references {uri}")

    monkeypatch.setitem(default_handlers, "http", served)
    monkeypatch.setitem(default_handlers, "https", nowhere)
    assert document["openapi"].startswith("3.1.")
    validate(document, cls=OpenAPIV31SpecValidator)
    assert urlsplit(SCHEMA_ID).path == SCHEMA_ROUTE


def test_its_server_is_the_address_the_request_came_to(tmp_path):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings), base_url="http://ocp.test:8765") as client:
        servers = client.get("/api/v1/openapi.json").json()["servers"]
    assert [s["url"] for s in servers] == ["http://ocp.test:8765"]
    public = Settings(database_url=settings.database_url, public_url="https://ocp.example.org")
    with TestClient(create_app(public), base_url="http://10.0.0.7:8000") as client:
        servers = client.get("/api/v1/openapi.json").json()["servers"]
    assert [s["url"] for s in servers] == ["https://ocp.example.org"]


def test_every_api_route_is_described_and_every_description_is_a_route(client, document):
    app = client.app
    described = operations(document)
    for route in app.routes:
        if isinstance(route, Route) and route.path.startswith("/api/v1/"):
            for method in (route.methods or set()) - {"HEAD"}:
                assert (route.path, method.lower()) in described, (route.path, method)
    for path, method in described:
        concrete = path.replace("{storage_id}", UNKNOWN)
        scope = {"type": "http", "path": concrete, "method": method.upper()}
        matches = [r.matches(scope)[0] for r in app.routes]
        assert matches[[m != Match.NONE for m in matches].index(True)] == Match.FULL, path


# --- the walk -----------------------------------------------------------------------------


def _pointer(*tokens: str) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def _at(document: Document, pointer: str) -> Any:
    node: Any = document
    for token in pointer.lstrip("/").split("/"):
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


@dataclass
class Walk:
    """Checks answers against the description, and remembers which operations it saw."""

    document: Document
    registry: Registry[Any]
    seen: set[tuple[str, str]]

    def check(self, path: str, method: str, response: httpx.Response) -> Any:
        """The answer's status is listed for the operation, with the headers it names, and
        its body, when JSON, is valid against the schema listed for its media type."""
        what = f"{method.upper()} {path}"
        operation = self.document["paths"][path][method]
        status = str(response.status_code)
        assert status in operation["responses"], f"{what} answered {status}: {response.text}"
        pointer = _pointer("paths", path, method, "responses", status)
        described = operation["responses"][status]
        if "$ref" in described:
            pointer = described["$ref"].removeprefix("#")
            described = _at(self.document, pointer)
        for name, header in described.get("headers", {}).items():
            if "$ref" in header:
                header = _at(self.document, header["$ref"].removeprefix("#"))
            if header.get("required"):
                assert name.lower() in response.headers, f"{what} {status} has no {name}"
        content = described.get("content")
        self.seen.add((path, method))
        if not content:
            assert response.content == b"", what
            return None
        media = response.headers["content-type"].split(";")[0].strip()
        assert media in content, f"{what} {status} answered {media}, not {list(content)}"
        if not media.endswith("json"):
            return None  # a page, for people
        body = response.json()
        schema = {"$ref": f"{DOCUMENT_URI}#{pointer}/content/{_pointer(media)[1:]}/schema"}
        validator = Draft202012Validator(
            schema, registry=self.registry, format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(body)]
        assert not errors, f"{what} {status}: {errors[:5]}"
        return body


@pytest.fixture
def walk(client: TestClient, document: Document) -> Walk:
    registry: Registry[Any] = Registry().with_resources(
        [
            (DOCUMENT_URI, DRAFT202012.create_resource(document)),
            (SCHEMA_ID, Resource.from_contents(client.get(SCHEMA_ROUTE).json())),
        ]
    )
    return Walk(document, registry, set())


def test_every_operation_answers_as_described(client, document, walk):
    """One real request (or more) for each operation the description lists, each with a
    valid body where one is needed."""
    post = client.post
    stored = walk.check(
        "/api/v1/checkpoints",
        "post",
        post("/api/v1/checkpoints?lifetime=7d", content=PARENT, headers=JSON_TYPE),
    )
    parent = stored["storage_id"]
    child_answer = post(
        f"/api/v1/checkpoints?parent={parent}",
        content=CHILD,
        headers={"content-type": "application/vnd.opencheckpoint+json"},
    )
    child = walk.check("/api/v1/checkpoints", "post", child_answer)["storage_id"]
    doomed = walk.check(
        "/api/v1/checkpoints",
        "post",
        post("/api/v1/checkpoints", content=HANDOFF, headers=JSON_TYPE),
    )

    requests: dict[tuple[str, str], list[Callable[[], httpx.Response]]] = {
        ("/api/v1/openapi.json", "get"): [lambda: client.get("/api/v1/openapi.json")],
        ("/api/v1/lint", "post"): [
            lambda: post("/api/v1/lint", content=HANDOFF, headers=JSON_TYPE),
            lambda: post(
                "/api/v1/lint",
                files={
                    "checkpoint_file": ("child.ocp.json", CHILD, "application/json"),
                    "parent_file": ("parent.ocp.json", PARENT, "application/json"),
                },
            ),
        ],
        ("/api/v1/guard", "post"): [
            lambda: post("/api/v1/guard", json={"call": CALL, "checkpoint": HANDOFF.decode()}),
            lambda: post("/api/v1/guard", json={"call": CALL, "checkpoint": json.loads(CHILD)}),
            lambda: post("/api/v1/guard", json={"call": CALL, "checkpoint_id": child}),
        ],
        ("/api/v1/checkpoints", "get"): [
            lambda: client.get(
                "/api/v1/checkpoints",
                params={"checkpoint_id": json.loads(PARENT)["id"], "holding": child},
            ),
            lambda: client.get("/api/v1/checkpoints", params={"checkpoint_id": "nobody's"}),
        ],
        ("/c/{storage_id}.json", "get"): [
            lambda: client.get(f"/c/{child}.json"),
            lambda: client.get(f"/c/{child}.json", params={"kind": "decision", "from": "1"}),
        ],
        ("/c/{storage_id}/raw", "get"): [lambda: client.get(f"/c/{parent}/raw")],
        ("/c/{storage_id}.md", "get"): [lambda: client.get(f"/c/{child}.md")],
        ("/c/{storage_id}/badge.svg", "get"): [lambda: client.get(f"/c/{child}/badge.svg")],
        ("/c/{storage_id}/preview.png", "get"): [lambda: client.get(f"/c/{child}/preview.png")],
        ("/c/{storage_id}/lineage.json", "get"): [lambda: client.get(f"/c/{child}/lineage.json")],
        ("/c/{storage_id}/diff.json", "get"): [lambda: client.get(f"/c/{child}/diff.json")],
        ("/diff.json", "get"): [
            lambda: client.get("/diff.json", params={"from": parent, "to": child})
        ],
        ("/diff.json", "post"): [
            lambda: post("/diff.json", data={"checkpoint": CHILD.decode(), "parent": PARENT}),
            lambda: post(
                "/diff.json",
                files={
                    "checkpoint_file": ("child.ocp.json", CHILD, "application/json"),
                    "parent": (None, PARENT.decode()),
                },
            ),
        ],
        ("/diff.patch", "get"): [
            lambda: client.get("/diff.patch", params={"from": parent, "to": child})
        ],
        ("/c/{storage_id}/diff.patch", "get"): [lambda: client.get(f"/c/{child}/diff.patch")],
        ("/view.json", "post"): [
            lambda: post("/view.json", content=HANDOFF, headers=JSON_TYPE),
            lambda: post("/view.json?kind=decision", data={"checkpoint": HANDOFF.decode()}),
        ],
        ("/openapi.json", "get"): [lambda: client.get("/openapi.json")],
        ("/healthz", "get"): [lambda: client.get("/healthz")],
        ("/readyz", "get"): [lambda: client.get("/readyz")],
        ("/rules.json", "get"): [lambda: client.get("/rules.json")],
        ("/rules/{code}.json", "get"): [
            lambda: client.get("/rules/OCP-S002.json"),
            lambda: client.get("/rules/secret.json"),
        ],
        (SCHEMA_ROUTE, "get"): [lambda: client.get(SCHEMA_ROUTE)],
        ("/api/v1/checkpoints/{storage_id}", "delete"): [
            lambda: client.delete(
                f"/api/v1/checkpoints/{doomed['storage_id']}",
                headers={"authorization": f"Bearer {doomed['deletion_token']}"},
            )
        ],
    }
    assert set(requests) | {("/api/v1/checkpoints", "post")} == operations(document)
    for (path, method), calls in requests.items():
        for call in calls:
            response = call()
            assert response.status_code < 300, (path, method, response.text)
            walk.check(path, method, response)
    assert walk.seen == operations(document)


def test_the_errors_are_described_too(client, walk):
    """What each operation answers when the request is wrong, or its checkpoint is gone."""
    post = client.post
    created = post("/api/v1/checkpoints", content=HANDOFF, headers=JSON_TYPE).json()
    sid, token = created["storage_id"], {"authorization": f"Bearer {created['deletion_token']}"}
    etag = client.get(f"/c/{sid}.json").headers["etag"]
    raw_etag = client.get(f"/c/{sid}/raw").headers["etag"]
    probes: list[tuple[str, str, Callable[[], httpx.Response], int]] = [
        (
            "/api/v1/lint",
            "post",
            lambda: post("/api/v1/lint", content=HANDOFF, headers={"content-type": "text/plain"}),
            415,
        ),
        ("/api/v1/lint", "post", lambda: post("/api/v1/lint", files={"other": ("x", b"")}), 400),
        (
            "/api/v1/guard",
            "post",
            lambda: post("/api/v1/guard", content=b"[", headers=JSON_TYPE),
            400,
        ),
        (
            "/api/v1/guard",
            "post",
            lambda: post("/api/v1/guard", json={"call": CALL, "checkpoint_id": UNKNOWN}),
            404,
        ),
        (
            "/api/v1/checkpoints",
            "post",
            lambda: post("/api/v1/checkpoints?lifetime=1y", content=HANDOFF, headers=JSON_TYPE),
            400,
        ),
        (
            "/api/v1/checkpoints",
            "post",
            lambda: post("/api/v1/checkpoints", content=b'{"a": NaN}', headers=JSON_TYPE),
            422,
        ),
        (
            "/api/v1/checkpoints",
            "post",
            lambda: post(f"/api/v1/checkpoints?parent={UNKNOWN}", content=CHILD, headers=JSON_TYPE),
            404,
        ),
        ("/api/v1/checkpoints", "get", lambda: client.get("/api/v1/checkpoints"), 400),
        (
            "/api/v1/checkpoints/{storage_id}",
            "delete",
            lambda: client.delete(f"/api/v1/checkpoints/{sid}"),
            401,
        ),
        (
            "/api/v1/checkpoints/{storage_id}",
            "delete",
            lambda: client.delete(
                f"/api/v1/checkpoints/{sid}", headers={"authorization": "Bearer x"}
            ),
            403,
        ),
        (
            "/api/v1/checkpoints/{storage_id}",
            "delete",
            lambda: client.delete(f"/api/v1/checkpoints/{UNKNOWN}", headers=token),
            404,
        ),
        (
            "/c/{storage_id}.json",
            "get",
            lambda: client.get(f"/c/{sid}.json", headers={"if-none-match": etag}),
            304,
        ),
        (
            "/c/{storage_id}/raw",
            "get",
            lambda: client.get(f"/c/{sid}/raw", headers={"if-none-match": raw_etag}),
            304,
        ),
        ("/c/{storage_id}.json", "get", lambda: client.get(f"/c/{UNKNOWN}.json"), 404),
        ("/c/{storage_id}/raw", "get", lambda: client.get(f"/c/{UNKNOWN}/raw"), 404),
        ("/c/{storage_id}.md", "get", lambda: client.get(f"/c/{UNKNOWN}.md"), 404),
        ("/c/{storage_id}/badge.svg", "get", lambda: client.get(f"/c/{UNKNOWN}/badge.svg"), 404),
        (
            "/c/{storage_id}/raw",
            "get",
            lambda: client.get(f"/c/{UNKNOWN}/raw", headers={"accept": "application/json"}),
            404,
        ),
        (
            "/c/{storage_id}/lineage.json",
            "get",
            lambda: client.get(f"/c/{UNKNOWN}/lineage.json"),
            404,
        ),
        # stored without its parent: there is no diff to show
        ("/c/{storage_id}/diff.json", "get", lambda: client.get(f"/c/{sid}/diff.json"), 404),
        ("/diff.json", "get", lambda: client.get("/diff.json", params={"from": sid}), 400),
        (
            "/api/v1/checkpoints/{storage_id}",
            "delete",
            lambda: client.delete(f"/api/v1/checkpoints/{sid}", headers=token),
            200,
        ),
        # deleted: gone, with when and why
        (
            "/api/v1/checkpoints/{storage_id}",
            "delete",
            lambda: client.delete(f"/api/v1/checkpoints/{sid}", headers=token),
            410,
        ),
        ("/c/{storage_id}.json", "get", lambda: client.get(f"/c/{sid}.json"), 410),
        ("/c/{storage_id}/raw", "get", lambda: client.get(f"/c/{sid}/raw"), 410),
        ("/c/{storage_id}.md", "get", lambda: client.get(f"/c/{sid}.md"), 410),
        ("/c/{storage_id}/preview.png", "get", lambda: client.get(f"/c/{sid}/preview.png"), 410),
        ("/c/{storage_id}/badge.svg", "get", lambda: client.get(f"/c/{sid}/badge.svg"), 200),
        ("/c/{storage_id}/lineage.json", "get", lambda: client.get(f"/c/{sid}/lineage.json"), 410),
        ("/c/{storage_id}/diff.json", "get", lambda: client.get(f"/c/{sid}/diff.json"), 410),
        (
            "/diff.json",
            "get",
            lambda: client.get("/diff.json", params={"from": sid, "to": UNKNOWN}),
            410,
        ),
        (
            "/api/v1/guard",
            "post",
            lambda: post("/api/v1/guard", json={"call": CALL, "checkpoint_id": sid}),
            410,
        ),
    ]
    for path, method, call, status in probes:
        response = call()
        assert response.status_code == status, (path, method, response.text)
        body = walk.check(path, method, response)
        if status >= 400 and response.headers["content-type"] == "application/problem+json":
            assert body["status"] == status and body["ok"] is False


def test_a_private_deployment_answers_as_described(tmp_path, document):
    """401 with its challenge where an upload token is needed, and the store with one."""
    settings = Settings(
        database_url=str(tmp_path / "private.sqlite3"), upload_tokens=frozenset({"t0ken"})
    )
    with TestClient(create_app(settings)) as client:
        registry: Registry[Any] = Registry().with_resources(
            [
                (DOCUMENT_URI, DRAFT202012.create_resource(document)),
                (SCHEMA_ID, Resource.from_contents(client.get(SCHEMA_ROUTE).json())),
            ]
        )
        walk = Walk(document, registry, set())
        refused = client.post("/api/v1/checkpoints", content=HANDOFF, headers=JSON_TYPE)
        assert refused.status_code == 401
        walk.check("/api/v1/checkpoints", "post", refused)
        listing = client.get("/api/v1/checkpoints", params={"checkpoint_id": "x"})
        assert listing.status_code == 401
        walk.check("/api/v1/checkpoints", "get", listing)
        stored = client.post(
            "/api/v1/checkpoints",
            content=HANDOFF,
            headers={**JSON_TYPE, "authorization": "Bearer t0ken"},
        )
        assert stored.status_code == 201
        walk.check("/api/v1/checkpoints", "post", stored)
