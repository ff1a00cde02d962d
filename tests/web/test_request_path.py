"""What the request path does for the answers sent most (issue 29), held where it was made
cheaper: a cached permalink says over real HTTP what its first answer said, header for header
and byte for byte, each coding and representation its own; its headers are made once, with the
cache policy the middleware would give them; the base its links use is Starlette's, however it
is asked; the security headers and the cache policy still replace what a route says itself; a
permalink's query is checked whenever there is one. No timing here: bench/render.py and
bench/load.py show the speed."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from app.config import Settings
from app.store import StoreUnavailable
from app.web import create_app, stored
from app.web.cache_policy import CachePolicyMiddleware
from app.web.caching import gzip_accepted, listed, private_policy
from app.web.security import HEADERS, SecurityHeadersMiddleware
from app.web.urls import public_base
from tests.conftest import CONFORMANCE
from tests.serve import HOST, JSON, Server, request

DOCUMENT = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
# The headers of a cached permalink's 200, in the order they were always sent: the route's
# (as Response made them from a dict), then the security headers.
PAGE_HEADERS = [
    "date",
    "etag",
    "cache-control",
    "vary",
    "content-encoding",
    "content-length",
    "content-type",
    *HEADERS,
]


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[int, str]]:
    """A real `ocp serve` and the storage id of a checkpoint stored on it."""
    workdir: Path = tmp_path_factory.mktemp("request-path")
    with Server(workdir, {"OCP_DATABASE_URL": str(workdir / "db.sqlite3")}) as server:
        stored = request(server.port, "POST", "/api/v1/checkpoints", DOCUMENT, JSON)
        assert stored.status == 201, stored.body
        answer = stored.json()
        assert isinstance(answer, dict)
        yield server.port, answer["storage_id"]


def ordered(port: int, path: str, headers: dict[str, str]) -> tuple[int, list[str], dict, bytes]:
    """The status, the header names in the order sent, the headers, and the body as sent."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        names = [name.lower() for name, _ in response.getheaders()]
        fields = {name.lower(): value for name, value in response.getheaders()}
        return response.status, names, fields, response.read()
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("suffix", "accept"),
    [("", "text/html"), ("", "application/json"), (".json", "*/*")],
)
@pytest.mark.parametrize("coding", ["gzip", "identity"])
def test_a_cached_permalink_answers_as_its_first_request_did(
    served: tuple[int, str], suffix: str, accept: str, coding: str
) -> None:
    port, storage_id = served
    sent = {"accept": accept, "accept-encoding": coding}
    path = f"/c/{storage_id}{suffix}"
    first = ordered(port, path, sent)
    again = ordered(port, path, sent)  # from the page cache
    for status, names, fields, body in (first, again):
        assert status == 200
        expected = [n for n in PAGE_HEADERS if coding == "gzip" or n != "content-encoding"]
        assert names == expected
        assert fields["cache-control"] == "private, no-cache"
        assert fields["vary"] == ("Accept-Encoding" if suffix else "Accept, Accept-Encoding")
        assert int(fields["content-length"]) == len(body)
        assert fields["etag"].endswith('-gzip"') == (coding == "gzip")
    assert again[2]["etag"] == first[2]["etag"]
    assert again[3] == first[3]
    text = gzip.decompress(first[3]) if coding == "gzip" else first[3]
    if accept == "text/html":
        assert first[2]["content-type"] == "text/html; charset=utf-8"
        assert b"</html>" in text
    else:
        assert first[2]["content-type"] == "application/json"
        assert json.loads(text)["stored"]["storage_id"] == storage_id


def test_a_cached_permalink_still_revalidates_and_answers_head(served: tuple[int, str]) -> None:
    port, storage_id = served
    path = f"/c/{storage_id}"
    page = request(port, "GET", path, headers={"accept-encoding": "gzip"})
    tag = page.headers["etag"]
    revalidating = {"accept-encoding": "gzip", "if-none-match": tag}
    for method in ("GET", "HEAD"):
        again = request(port, method, path, headers=revalidating)
        assert again.status == 304
        assert again.body == b""
        assert again.headers["etag"] == tag
        assert again.headers["cache-control"] == "private, no-cache"
        assert again.headers["vary"] == "Accept, Accept-Encoding"
    head = request(port, "HEAD", path, headers={"accept-encoding": "gzip"})
    assert head.status == 200
    assert head.body == b""
    assert head.headers["content-length"] == page.headers["content-length"]
    assert head.headers["etag"] == tag


def test_a_permalink_query_is_checked_whenever_there_is_one(served: tuple[int, str]) -> None:
    port, storage_id = served
    assert request(port, "GET", f"/c/{storage_id}?").status == 200  # an empty query: none
    assert request(port, "GET", f"/c/{storage_id}?kind=nonsense").status == 400
    assert request(port, "GET", f"/c/{storage_id}.json?unknown=1").status == 400
    assert request(port, "GET", f"/c/{storage_id}?kind=").status == 200  # "any"


def test_each_host_gets_a_page_with_its_own_links(served: tuple[int, str]) -> None:
    port, storage_id = served
    for host in ("reviewer.example:8765", "other.example", f"{HOST}:{port}"):
        page = request(port, "GET", f"/c/{storage_id}", headers={"host": host})
        assert page.status == 200
        assert f'content="http://{host}/c/{storage_id}"'.encode() in page.body


# --- the parts, alone -----------------------------------------------------------------------


def scope_of(**given: Any) -> Scope:
    return {
        "type": "http",
        "method": "GET",
        "path": "/c/x",
        "query_string": b"",
        "headers": [],
        **given,
    }


class State:
    def __init__(self) -> None:
        self.settings = type("Settings", (), {"public_url": None})()


class App:
    state = State()


@pytest.mark.parametrize(
    "given",
    [
        {"headers": [(b"host", b"ocp.example:8765")], "server": ("127.0.0.1", 8000)},
        {"headers": [(b"host", b"ocp.example")], "scheme": "https", "server": ["10.0.0.1", 443]},
        {"headers": [], "server": ("127.0.0.1", 80)},
        {"headers": [], "server": ("::1", 8000)},
        {"headers": [(b"host", b"[::1]:8000")], "server": ("::1", 8000)},
        {"headers": [(b"host", b"bad host!")], "server": ("127.0.0.1", 8000)},
        {"headers": [(b"host", b"ocp.example")], "root_path": "/ocp", "server": None},
        {"headers": [(b"host", b"ocp.example")], "app_root_path": "/a/", "root_path": "/b"},
        {"headers": [(b"host", b"x" * 300)], "server": ("127.0.0.1", 8000)},
        {"headers": [(b"x-other", b"1"), (b"host", b"first"), (b"host", b"second")]},
    ],
)
def test_the_base_of_links_is_what_starlette_makes_of_the_request(given: dict) -> None:
    scope = scope_of(app=App(), **given)
    for _ in range(2):  # made, then remembered
        assert public_base(Request(scope)) == str(Request(scope).base_url).rstrip("/")


def test_the_parsers_remembered_answer_as_they_always_did() -> None:
    assert gzip_accepted("gzip, deflate, br") is True
    assert gzip_accepted("gzip;q=0, identity") is False
    assert gzip_accepted("*;q=0.5") is True
    assert gzip_accepted(None) is False
    assert private_policy("no-cache") == "private, no-cache"
    assert private_policy("public, max-age=60, immutable") == "private, no-cache, immutable"
    assert private_policy("no-store") == "no-store"
    assert listed("Accept, accept-encoding", "Accept-Encoding")
    assert listed("*", "Accept")
    assert not listed("Accept", "Accept-Encoding")


def sent_through(middleware: Any, path: str, headers: list[tuple[bytes, bytes]]) -> list:
    """The response headers a route sending ``headers`` gets through ``middleware``."""

    async def route(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": list(headers)})
        await send({"type": "http.response.body", "body": b""})

    messages: list[Message] = []

    async def send(message: Message) -> None:
        messages.append(message)

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    asyncio.run(middleware(route)(scope_of(path=path), receive, send))
    return list(messages[0]["headers"])


def test_the_security_headers_replace_what_a_route_says_itself() -> None:
    mine = [(b"content-type", b"text/plain"), (b"x-frame-options", b"SAMEORIGIN")]
    sent = sent_through(SecurityHeadersMiddleware, "/", mine)
    expected = {name.encode(): value.encode() for name, value in HEADERS.items()}
    assert dict(sent) == {b"content-type": b"text/plain", **expected}
    assert len(sent) == 1 + len(HEADERS)  # replaced, not repeated
    plain = sent_through(SecurityHeadersMiddleware, "/", [(b"content-type", b"text/plain")])
    assert plain == [(b"content-type", b"text/plain"), *expected.items()]


@pytest.mark.parametrize(
    ("said", "made"),
    [
        (None, "private, no-cache"),
        ("no-cache", "private, no-cache"),
        ("public, max-age=3600", "private, no-cache"),
        ("private, no-cache", "private, no-cache"),
        ("no-store", "no-store"),
    ],
)
def test_a_capability_is_private_whatever_its_route_says(said: str | None, made: str) -> None:
    headers = [(b"content-type", b"text/html")]
    if said is not None:
        headers.insert(0, (b"cache-control", said.encode()))
    sent = dict(sent_through(CachePolicyMiddleware, "/c/AAAAAAAAAAAAAAAAAAAAAAAA", headers))
    assert sent[b"cache-control"] == made.encode()
    public = dict(sent_through(CachePolicyMiddleware, "/rules", headers))
    assert public.get(b"cache-control") == (None if said is None else said.encode())


def test_a_response_made_ahead_keeps_what_response_makes() -> None:
    cached_page = stored.cached_page
    body, packed = b"<!doctype html><p>page</p>" * 80, gzip.compress(b"x")
    page = cached_page(body, packed, datetime.now(UTC), "text/html; charset=utf-8")
    for coding in (True, False):
        for negotiated in (True, False):
            answer = page.answer(coding, negotiated)
            etag = page.gzip_etag if coding else page.etag
            headers = {
                "etag": etag,
                "cache-control": "private, no-cache",
                "vary": "Accept, Accept-Encoding" if negotiated else "Accept-Encoding",
                **({"content-encoding": "gzip"} if coding else {}),
            }
            made = Response(
                packed if coding else body, media_type="text/html; charset=utf-8", headers=headers
            )
            assert answer.raw_headers == made.raw_headers
            assert answer.body == made.body
            assert answer.status_code == 200
            # each answer's list is its own: a middleware editing one leaves the page's alone
            assert answer.raw_headers is not page.answer(coding, negotiated).raw_headers


# --- a page rendered once for the requests that want it at once -----------------------------


def _in_own_loop(test: Callable[[], Awaitable[None]]) -> None:
    """Run an async test on an event loop of its own thread (as tests/web/test_cpu_lanes.py:
    the browser tests keep a loop running in the main thread)."""
    failure: list[BaseException] = []

    def body() -> None:
        try:
            anyio.run(test)
        except BaseException as exc:  # reported in the test's own thread below
            failure.append(exc)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the test's event loop did not finish"
    if failure:
        raise failure[0]


@pytest.fixture
def slow_renders(monkeypatch) -> list[str]:
    """Each render of a stored page, by storage id, made slow enough for requests to meet."""
    renders: list[str] = []
    original = stored._cached_page

    def slow(request: Any, record: Any, *args: Any) -> Any:
        renders.append(record.meta.storage_id)
        time.sleep(0.3)  # a worker thread: the event loop goes on taking requests
        return original(request, record, *args)

    monkeypatch.setattr(stored, "_cached_page", slow)
    return renders


def test_a_page_is_rendered_once_for_every_request_that_wants_it_at_once(
    tmp_path, slow_renders
) -> None:
    async def body() -> None:
        app = create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))
        async with app.router.lifespan_context(app), _client(app) as client:
            storage_id = (await _store(client))["storage_id"]
            answers = await asyncio.gather(*(client.get(f"/c/{storage_id}") for _ in range(8)))
            assert {a.status_code for a in answers} == {200}
            assert len({a.content for a in answers}) == 1
            assert slow_renders == [storage_id]
            # kept: the next request is served from the cache
            assert (await client.get(f"/c/{storage_id}")).content == answers[0].content
            assert slow_renders == [storage_id]
            # each representation and each base its own page
            twin = await client.get(f"/c/{storage_id}.json")
            assert twin.status_code == 200
            assert slow_renders == [storage_id, storage_id]

    _in_own_loop(body)


def test_a_render_that_fails_fails_each_request_waiting_and_the_next_tries_again(
    tmp_path, monkeypatch, slow_renders
) -> None:
    failures = [StoreUnavailable("the database is away")]
    original = stored.with_lineage

    async def flaky(request: Any, storage_id: str) -> Any:
        await asyncio.sleep(0.2)
        if failures:
            raise failures.pop()
        return await original(request, storage_id)

    monkeypatch.setattr(stored, "with_lineage", flaky)

    async def body() -> None:
        app = create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))
        async with app.router.lifespan_context(app), _client(app) as client:
            storage_id = (await _store(client))["storage_id"]
            answers = await asyncio.gather(*(client.get(f"/c/{storage_id}") for _ in range(4)))
            assert {a.status_code for a in answers} == {503}
            assert slow_renders == []
            assert (await client.get(f"/c/{storage_id}")).status_code == 200
            assert slow_renders == [storage_id]

    _in_own_loop(body)


def test_a_page_rendered_while_its_checkpoint_is_deleted_is_not_kept(
    tmp_path, slow_renders
) -> None:
    async def body() -> None:
        app = create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))
        async with app.router.lifespan_context(app), _client(app) as client:
            created = await _store(client)
            storage_id, token = created["storage_id"], created["deletion_token"]

            async def delete_meanwhile() -> int:
                await asyncio.sleep(0.1)  # the render has read the checkpoint and is at work
                deleted = await client.delete(
                    f"/api/v1/checkpoints/{storage_id}",
                    headers={"authorization": f"Bearer {token}"},
                )
                return deleted.status_code

            page, deleted = await asyncio.gather(client.get(f"/c/{storage_id}"), delete_meanwhile())
            assert deleted == 200
            assert page.status_code == 200  # asked before the deletion
            assert (await client.get(f"/c/{storage_id}")).status_code == 410  # not the page

    _in_own_loop(body)


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def _store(client: httpx.AsyncClient) -> dict[str, Any]:
    stored_ = await client.post(
        "/api/v1/checkpoints", content=DOCUMENT, headers={"content-type": "application/json"}
    )
    assert stored_.status_code == 201, stored_.text
    answer = stored_.json()
    assert isinstance(answer, dict)
    return answer
