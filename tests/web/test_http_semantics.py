"""HTTP as caches and clients read it, over real HTTP against `ocp serve`, on every route
(issue 28, "HTTP caches"): HEAD carries what GET carries and no body; If-None-Match (strong,
weak, lists, ``*``) is a 304 for HEAD and GET wherever there is an ETag, with the 200's
Cache-Control and Vary; every answer of a capability's address (``/c/{id}…``, ``/diff``) is
private, its errors included; Vary names Accept-Encoding on every answer that could have been
compressed and Accept where the answer depends on it; errors negotiate problem+json; 401 and 403
say which token to send; a body over the limit is 413.

The routes are read from the app itself and the documented paths from its OpenAPI document: a
new route without an example here fails `test_every_route_has_an_example`, and then every
check below runs on it.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.routing import Route

from app.config import Settings
from app.mcp_http import service_with_mcp
from app.web.errors import prefers_json
from tests.conftest import CONFORMANCE
from tests.serve import HOST, Reply, Server, request

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
OTHER = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
TOKEN = "upload-token-for-the-http-tests"
MAX_BYTES = 40_000  # every document above fits; a pair's route takes about twice that
UNKNOWN = "A" * 24  # the shape of a storage id, stored nowhere
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
PROGRAM_ACCEPTS = (
    "application/problem+json",
    "application/json",
    "application/vnd.opencheckpoint+json",
    "application/json, text/plain, */*",  # what many HTTP client libraries send
)
COMPRESSIBLE = ("text/html", "application/json", "application/problem+json")
CODINGS = ("identity", "gzip")

# One example of each GET route, by its path in the route table. {child} is a checkpoint stored
# with its parent {parent}; {checkpoint_id} the id inside the parent document.
GET_EXAMPLES: dict[str, str] = {
    "/": "/",
    "/healthz": "/healthz",
    "/readyz": "/readyz",
    "/example": "/example",
    "/api/v1/openapi.json": "/api/v1/openapi.json",
    "/openapi.json": "/openapi.json",  # the OpenAPI document at the root, once it is routed
    "/api/v1/checkpoints": "/api/v1/checkpoints?checkpoint_id={checkpoint_id}",
    "/c/{storage_id}.json": "/c/{child}.json",
    "/c/{storage_id}.md": "/c/{child}.md",
    "/c/{storage_id}/badge.svg": "/c/{child}/badge.svg",
    "/c/{storage_id}/preview.png": "/c/{child}/preview.png",
    "/c/{storage_id}": "/c/{child}",
    "/c/{storage_id}/raw": "/c/{child}/raw",
    "/c/{storage_id}/source": "/c/{child}/source",
    "/c/{storage_id}/diff.json": "/c/{child}/diff.json",
    "/c/{storage_id}/diff.patch": "/c/{child}/diff.patch",
    "/c/{storage_id}/diff": "/c/{child}/diff",
    "/c/{storage_id}/lineage.json": "/c/{child}/lineage.json",
    "/c/{storage_id}/lineage": "/c/{child}/lineage",
    "/c/{storage_id}/delete": "/c/{child}/delete",
    "/diff": "/diff?from={parent}&to={child}",
    "/diff.json": "/diff.json?from={parent}&to={child}",
    "/diff.patch": "/diff.patch?from={parent}&to={child}",
    "/rules": "/rules",
    "/rules.json": "/rules.json",
    "/rules/{code}": "/rules/OCP-S002",
    "/schema/opencheckpoint-0.1.schema.json": "/schema/opencheckpoint-0.1.schema.json",
    "/favicon.ico": "/favicon.ico",
    "/static/{path}": "/static/app.css",
}
# Documented paths that a route above serves beside its own, each with an example.
TWINS = {"/rules/{code}.json": "/rules/OCP-S002.json"}
# What each route taking a body is sent, as (content type, body of a given size).
JSON_BODY = "application/json"
FORM_BODY = "application/x-www-form-urlencoded"
BODY_EXAMPLES: dict[str, tuple[str, str]] = {
    "/view": (FORM_BODY, "/view"),
    "/view.json": (FORM_BODY, "/view.json"),
    "/live": (FORM_BODY, "/live"),
    "/share": (FORM_BODY, "/share"),
    "/api/v1/lint": (JSON_BODY, "/api/v1/lint"),
    "/api/v1/guard": (JSON_BODY, "/api/v1/guard"),
    "/api/v1/checkpoints": (JSON_BODY, "/api/v1/checkpoints"),
    "/diff": (FORM_BODY, "/diff"),
    "/diff.json": (FORM_BODY, "/diff.json"),
    "/c/{storage_id}/delete": (FORM_BODY, "/c/{child}/delete"),
    "/mcp": (JSON_BODY, "/mcp"),
}
# Routes whose answer to a body over the limit is not a 413, and why.
NOT_413 = {
    # htmx swaps in only a 200, so the live panel says "Not checked: … too large" in one
    "/live": 200,
}


def template(route: Route) -> str:
    return route.path.replace(":path}", "}")


def routes() -> list[Route]:
    app = service_with_mcp(Settings(database_url="unused.sqlite3"))
    return [route for route in app.routes if isinstance(route, Route)]


def methods(route: Route) -> set[str]:
    return set(route.methods or ())


GET_ROUTES = sorted(template(r) for r in routes() if "GET" in methods(r))
# Every GET route's example (a route without one is a KeyError here, named by the test below)
# and the documented twins.
GET_CASES = {
    **{route: GET_EXAMPLES.get(route, "") for route in GET_ROUTES},
    **TWINS,
}
BODY_ROUTES = sorted(template(r) for r in routes() if methods(r) & {"POST", "PUT", "PATCH"})


# --- the service --------------------------------------------------------------------------


@dataclass(frozen=True)
class Service:
    server: Server
    ids: Mapping[str, str]  # parent, child, gone (deleted), checkpoint_id

    def call(
        self,
        method: str,
        path: str,
        headers: Mapping[str, str] | None = None,
        body: bytes | None = None,
    ) -> Reply:
        return request(self.server.port, method, path, body, headers, timeout=30.0)

    def path(self, example: str, **ids: str) -> str:
        return example.format(**{**self.ids, **ids})


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> Iterator[Service]:
    workdir: Path = tmp_path_factory.mktemp("http-semantics")
    env = {
        "OCP_DATABASE_URL": str(workdir / "db.sqlite3"),
        "OCP_UPLOAD_TOKENS": TOKEN,
        "OCP_MAX_BYTES": str(MAX_BYTES),
    }
    with Server(workdir, env) as server:
        port = server.port
        sending = {"content-type": JSON_BODY, **bearer(TOKEN)}

        def upload(data: bytes, query: str = "") -> dict:
            sent = request(port, "POST", f"/api/v1/checkpoints{query}", data, sending, 30.0)
            assert sent.status == 201, sent.body
            answer = sent.json()
            assert isinstance(answer, dict)
            return answer

        parent = upload(PARENT)["storage_id"]
        child = upload(CHILD, f"?parent={parent}")["storage_id"]
        gone = upload(OTHER)
        deleted = request(
            port,
            "DELETE",
            f"/api/v1/checkpoints/{gone['storage_id']}",
            headers=bearer(gone["deletion_token"]),
        )
        assert deleted.status == 200, deleted.body
        ids = {
            "parent": parent,
            "child": child,
            "gone": gone["storage_id"],
            "checkpoint_id": json.loads(PARENT)["id"],
        }
        yield Service(server, ids)


def get_headers(route: str, **more: str) -> dict[str, str]:
    # the listing shows what it stores under a checkpoint id to an upload token's holder
    return {**(bearer(TOKEN) if route == "/api/v1/checkpoints" else {}), **more}


def raw_head(port: int, path: str, headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
    """HEAD as curl sends it, on its own connection read to the end: whatever follows the
    headers is a body the server should not have sent."""
    lines = [f"HEAD {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    with socket.create_connection((HOST, port), timeout=30.0) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        answer[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), answer, rest


def directives(reply_headers: Mapping[str, str]) -> set[str]:
    value = reply_headers.get("cache-control", "")
    return {d.strip().partition("=")[0].lower() for d in value.split(",") if d.strip()}


def varies(reply_headers: Mapping[str, str]) -> set[str]:
    return {v.strip().lower() for v in reply_headers.get("vary", "").split(",") if v.strip()}


def media_type(reply_headers: Mapping[str, str]) -> str:
    return reply_headers.get("content-type", "").partition(";")[0].strip().lower()


def is_capability(route: str) -> bool:
    return route.startswith("/c/") or route in ("/diff", "/diff.json", "/diff.patch")


# --- the route table ------------------------------------------------------------------------


def test_every_route_has_an_example(service):
    """A route added without an example here would escape every check below."""
    assert set(GET_ROUTES) - set(GET_EXAMPLES) == set(), "give each GET route an example"
    assert set(BODY_ROUTES) - set(BODY_EXAMPLES) == set(), "give each body route an example"
    document = service.call("GET", "/api/v1/openapi.json").json()
    assert isinstance(document, dict)
    documented = {path for path, operations in document["paths"].items() if "get" in operations}
    assert documented - set(GET_CASES) - set(GET_EXAMPLES) == set(), "give it an example"


# --- HEAD and If-None-Match -----------------------------------------------------------------

SENT_HEADERS = (
    "etag",
    "cache-control",
    "vary",
    "content-type",
    "content-length",
    "content-encoding",
)


@pytest.mark.parametrize("route", sorted(GET_CASES))
def test_head_carries_what_get_carries_and_no_body(service, route):
    path = service.path(GET_CASES[route])
    for coding in CODINGS:
        headers = get_headers(route, **{"accept-encoding": coding})
        got = service.call("GET", path, headers)
        status, head, body = raw_head(service.server.port, path, headers)
        assert status == got.status, (route, coding)
        assert body == b"", f"HEAD {route} sent a body"
        for name in SENT_HEADERS:
            assert head.get(name) == got.headers.get(name), (route, coding, name)


@pytest.mark.parametrize("route", sorted(GET_CASES))
def test_every_storable_200_carries_an_etag(service, route):
    got = service.call("GET", service.path(GET_CASES[route]), get_headers(route))
    assert got.status == 200, (route, got.body[:300])
    if "no-store" not in directives(got.headers):
        assert got.headers.get("etag"), f"{route} answers 200 with no ETag"


@pytest.mark.parametrize("route", sorted(GET_CASES))
def test_if_none_match_is_a_304_for_get_and_head(service, route):
    path = service.path(GET_CASES[route])
    for coding in CODINGS:
        sent = get_headers(route, **{"accept-encoding": coding})
        first = service.call("GET", path, sent)
        etag = first.headers.get("etag")
        if etag is None:
            continue  # no-store: nothing a cache may revalidate (checked above)
        for wanted in (etag, f"W/{etag}", f'"other", {etag}', f'W/"x",W/{etag}', "*"):
            conditional = {**sent, "if-none-match": wanted}
            again = service.call("GET", path, conditional)
            status, head, body = raw_head(service.server.port, path, conditional)
            for answer_status, answer, content in (
                (again.status, again.headers, again.body),
                (status, head, body),
            ):
                assert answer_status == 304, (route, coding, wanted)
                assert content == b""
                for name in ("etag", "cache-control", "vary"):
                    assert answer.get(name) == first.headers.get(name), (route, wanted, name)
                assert "content-type" not in answer
        other = service.call("GET", path, {**sent, "if-none-match": '"other", W/"else"'})
        assert other.status == 200 and other.body == first.body, route


# --- Cache-Control --------------------------------------------------------------------------

CAPABILITY_ROUTES = [route for route in sorted(GET_CASES) if is_capability(route)]


@pytest.mark.parametrize("route", CAPABILITY_ROUTES)
def test_a_capability_is_never_kept_by_a_shared_cache(service, route):
    """Its 200, and its answers for an id that was deleted or names nothing."""
    example = GET_CASES[route]
    cases = {
        "stored": service.path(example),
        "deleted": service.path(example, child=service.ids["gone"], parent=service.ids["gone"]),
        "unknown": service.path(example, child=UNKNOWN, parent=UNKNOWN),
    }
    for case, path in cases.items():
        for accept in (BROWSER, "application/json"):
            got = service.call("GET", path, {"accept": accept})
            kept_by_none = directives(got.headers)
            assert "public" not in kept_by_none and "s-maxage" not in kept_by_none
            assert kept_by_none & {"private", "no-store"}, (route, case, got.status)
            if "no-store" not in kept_by_none:
                assert "no-cache" in kept_by_none, (route, case)  # expiry takes effect at once
    assert service.call("GET", cases["deleted"]).status in (200, 410)  # a grey badge is a 200


@pytest.mark.parametrize("path", ["/static/app.css", "/favicon.ico"])
def test_public_resources_keep_their_own_policy(service, path):
    assert service.call("GET", path).headers["cache-control"] == "public, max-age=3600"


# --- Vary -----------------------------------------------------------------------------------


def answers_of(service: Service, route: str) -> Iterator[tuple[str, str]]:
    """The example's path, and on a capability's route the path of a deleted and an unknown
    id, with a label for each."""
    example = GET_CASES[route]
    yield "stored", service.path(example)
    if is_capability(route):
        yield (
            "deleted",
            service.path(example, child=service.ids["gone"], parent=service.ids["gone"]),
        )
        yield "unknown", service.path(example, child=UNKNOWN, parent=UNKNOWN)


@pytest.mark.parametrize("route", sorted(GET_CASES))
def test_vary_names_what_chose_the_answer(service, route):
    for case, path in answers_of(service, route):
        by_accept = {}
        for accept in (BROWSER, "application/json"):
            for coding in CODINGS:
                sent = get_headers(route, accept=accept, **{"accept-encoding": coding})
                got = service.call("GET", path, sent)
                if media_type(got.headers) in COMPRESSIBLE:
                    assert "accept-encoding" in varies(got.headers), (route, case, coding)
                by_accept[accept] = got
        chosen = {media_type(got.headers) for got in by_accept.values()}
        if len(chosen) > 1:
            for got in by_accept.values():
                assert "accept" in varies(got.headers), (route, case, chosen)


# --- errors ---------------------------------------------------------------------------------


def error_paths(service: Service) -> Iterator[tuple[str, str]]:
    yield "no route", "/no/such/page"
    yield "no rule", "/rules/OCP-X999"
    for route in CAPABILITY_ROUTES:
        for case, path in answers_of(service, route):
            if case != "stored":
                yield f"{route} {case}", path


def test_errors_are_problems_for_programs_and_pages_for_browsers(service):
    checked = 0
    for label, path in error_paths(service):
        page = service.call("GET", path, {"accept": BROWSER})
        if page.status < 400 or media_type(page.headers) != "text/html":
            continue  # the badge of a deleted id is an image that says so
        checked += 1
        assert "accept" in varies(page.headers), label
        for accept in PROGRAM_ACCEPTS:
            got = service.call("GET", path, {"accept": accept})
            assert got.status == page.status, (label, accept)
            assert media_type(got.headers) == "application/problem+json", (label, accept)
            body = got.json()
            assert isinstance(body, dict) and body["status"] == got.status
            assert body["detail"] and body["advice"], (label, accept)
            assert "accept" in varies(got.headers), label
    assert checked >= 10, "the error examples hardly reach an error page"


def test_a_405_negotiates_too(service):
    page = service.call("DELETE", "/rules", {"accept": BROWSER})
    problem = service.call("DELETE", "/rules", {"accept": "application/problem+json"})
    assert page.status == problem.status == 405
    assert media_type(page.headers) == "text/html"
    assert media_type(problem.headers) == "application/problem+json"
    assert problem.headers["allow"] == page.headers["allow"]


WRONG = "not-a-token-of-this-service-8c1f"


def test_401_and_403_say_what_to_send_and_repeat_nothing_sent(service):
    child = service.ids["child"]
    refusals = {
        "upload without a token": service.call(
            "POST", "/api/v1/checkpoints", {"content-type": JSON_BODY}, OTHER
        ),
        "upload with a wrong token": service.call(
            "POST", "/api/v1/checkpoints", {"content-type": JSON_BODY, **bearer(WRONG)}, OTHER
        ),
        "listing without proof": service.call(
            "GET", service.path(GET_EXAMPLES["/api/v1/checkpoints"]), bearer(WRONG)
        ),
        "delete without a token": service.call("DELETE", f"/api/v1/checkpoints/{child}"),
        "delete with a wrong token": service.call(
            "DELETE", f"/api/v1/checkpoints/{child}", bearer(WRONG)
        ),
    }
    for label, got in refusals.items():
        assert got.status in (401, 403), (label, got.status)
        body = got.json()
        assert isinstance(body, dict)
        advice = body["advice"]
        assert isinstance(advice, str) and "Bearer" in advice, label
        assert WRONG not in got.body.decode(), label
    assert refusals["delete with a wrong token"].status == 403
    assert "deletion token" in refusals["delete with a wrong token"].json()["advice"]
    assert "upload token" in refusals["upload without a token"].json()["advice"]
    assert "?holding=" in refusals["listing without proof"].json()["advice"]


# --- bodies over the limit ------------------------------------------------------------------

# Over what any route takes: the base64 of two documents and a form's overhead
# (app/web/bodies.py).
OVERSIZED = 3 * MAX_BYTES + 64 * 1024 + 4096


@pytest.mark.parametrize("route", BODY_ROUTES)
def test_a_body_over_the_limit_is_413(service, route):
    content_type, example = BODY_EXAMPLES[route]
    path = service.path(example)
    if content_type == FORM_BODY:
        body = b"checkpoint=" + b"a" * OVERSIZED
    else:
        body = b'{"checkpoint": "' + b"a" * OVERSIZED + b'"}'
    headers = {"content-type": content_type, "accept": "application/json", **bearer(TOKEN)}
    got = service.call("POST", path, headers, body)
    assert got.status == NOT_413.get(route, 413), (route, got.status, got.body[:300])
    if got.status == 200:
        assert b"Not checked: the request body is larger than" in got.body


@pytest.mark.parametrize(
    ("accept", "problem"),
    [
        ("application/problem+json", True),
        ("application/vnd.opencheckpoint+json", True),
        ("application/json, text/plain, */*", True),
        ("text/html;q=0.5, application/json", True),
        (BROWSER, False),
        ("application/json;q=0.5, text/html", False),
        ("application/json, text/html", False),  # a tie: the page
        ("application/json;q=0, */*", False),
        ("application/json;q=nonsense", False),
        ("*/*", False),
        ("", False),
    ],
)
def test_which_accept_headers_prefer_a_problem(accept, problem):
    assert prefers_json(accept) is problem
