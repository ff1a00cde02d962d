"""gzip where the client accepts it: the unsaved page, the other pages and the JSON answers,
byte for byte the same once decoded; never where the client refuses it, never twice, and not
for the responses that tag and encode each coding themselves."""

from __future__ import annotations

import asyncio
import gzip
import json

import httpx
import pytest
from starlette.responses import HTMLResponse, Response
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from app.config import Settings
from app.web import create_app
from app.web.compression import GZIPPED, MINIMUM_SIZE, CompressionMiddleware, Precompressed
from tests.conftest import CONFORMANCE

HANDOFF = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
GZIP = {"accept-encoding": "gzip"}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as c:
        yield c


def raw(client: TestClient, method: str, path: str, **kwargs) -> httpx.Response:
    """The response as sent, its body still encoded."""
    request = client.build_request(method, path, **kwargs)
    response = client.send(request, stream=True)
    response.read_raw = b"".join(response.iter_raw())  # type: ignore[attr-defined]
    response.close()
    return response


def view(client: TestClient, headers: dict[str, str]) -> httpx.Response:
    files = {"checkpoint_file": ("handoff.ocp.json", HANDOFF, "application/json")}
    return raw(client, "POST", "/view", files=files, headers=headers)


def test_the_unsaved_page_is_gzipped_and_decodes_to_the_same_page(client) -> None:
    plain = view(client, {"accept-encoding": "identity"})
    packed = view(client, GZIP)
    assert plain.headers.get("content-encoding") is None
    assert packed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    assert int(packed.headers["content-length"]) == len(packed.read_raw)
    assert gzip.decompress(packed.read_raw) == plain.read_raw
    assert len(packed.read_raw) * 4 < len(plain.read_raw)  # HTML compresses several times
    # the security headers are on it too
    assert "content-security-policy" in packed.headers


@pytest.mark.parametrize("refusal", ["gzip;q=0", "identity", "*;q=0", "br"])
def test_a_client_that_refuses_gzip_gets_the_page_as_it_is(client, refusal: str) -> None:
    response = view(client, {"accept-encoding": refusal})
    assert response.headers.get("content-encoding") is None
    assert response.read_raw.startswith(b"<!doctype html>") or b"<html" in response.read_raw[:200]


def test_other_pages_and_json_answers_are_gzipped(client) -> None:
    for path in ("/", "/rules", "/rules/OCP-S008"):
        response = raw(client, "GET", path, headers=GZIP)
        assert response.headers["content-encoding"] == "gzip", path
        assert b"</html>" in gzip.decompress(response.read_raw)
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["statements"] = [
        {"id": f"s-{i}", "kind": "observation", "text": "Seen.", "origin": {"type": "agent"},
         "evidence": [f"missing-{i}"]}
        for i in range(20)
    ]  # fmt: skip
    invalid = json.dumps(document).encode()
    lint = raw(
        client,
        "POST",
        "/api/v1/lint",
        content=invalid,
        headers={**GZIP, "content-type": "application/json"},
    )
    assert lint.headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(lint.read_raw))["results"][0]["valid"] is False


def test_responses_that_tag_their_codings_are_left_to_themselves(client) -> None:
    created = client.post(
        "/api/v1/checkpoints", content=HANDOFF, headers={"content-type": "application/json"}
    ).json()
    page = raw(client, "GET", f"/c/{created['storage_id']}", headers=GZIP)
    # the stored page's own gzip, with the tag of that coding (app/web/stored.py): not twice
    assert page.headers["content-encoding"] == "gzip"
    assert page.headers["etag"].endswith('-gzip"')
    assert b"</html>" in gzip.decompress(page.read_raw)
    # the raw bytes and the static files carry one tag for their one coding
    for path in (f"/c/{created['storage_id']}/raw", "/static/app.css"):
        response = raw(client, "GET", path, headers=GZIP)
        assert "etag" in response.headers, path
        assert response.headers.get("content-encoding") is None, path


def test_small_answers_are_not_compressed(client) -> None:
    response = raw(client, "GET", "/healthz", headers=GZIP)
    assert response.status_code == 200
    assert response.headers.get("content-encoding") is None


def test_the_json_twin_of_the_unsaved_page_is_gzipped_and_decodes_to_the_same(client) -> None:
    files = {"checkpoint_file": ("handoff.ocp.json", HANDOFF, "application/json")}
    plain = raw(client, "POST", "/view.json", files=files, headers={"accept-encoding": "identity"})
    packed = raw(client, "POST", "/view.json", files=files, headers=GZIP)
    assert plain.headers.get("content-encoding") is None
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["content-type"] == plain.headers["content-type"] == "application/json"
    assert gzip.decompress(packed.read_raw) == plain.read_raw
    assert json.loads(plain.read_raw)["submission"]["checked"].startswith("Checked the checkpoint")


def served(response: Response, accept_encoding: str = "gzip") -> list[Message]:
    """What the server receives when the middleware sends ``response``."""

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        await response(scope, receive, send)

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/view",
        "headers": [(b"accept-encoding", accept_encoding.encode())],
    }
    asyncio.run(CompressionMiddleware(endpoint)(scope, receive, send))
    return sent


def test_a_page_gzipped_where_it_was_made_is_sent_as_any_other_would_be() -> None:
    page = "<!doctype html>" + "<p>a page made in a worker thread</p>" * 200
    start, body = served(Precompressed(HTMLResponse(page), gzip_wanted=True))
    headers = dict(start["headers"])
    assert headers[b"content-encoding"] == b"gzip"
    assert headers[b"content-length"] == str(len(body["body"])).encode()
    assert b"accept-encoding" in headers[b"vary"].lower()
    assert gzip.decompress(body["body"]) == page.encode()
    assert GZIPPED not in body  # the server gets an ordinary body


@pytest.mark.parametrize("refusal", ["identity", "gzip;q=0"])
def test_a_page_gzipped_where_it_was_made_goes_plain_to_a_client_that_refuses_gzip(
    refusal: str,
) -> None:
    page = "<!doctype html>" + "<p>words</p>" * 200
    start, body = served(Precompressed(HTMLResponse(page), gzip_wanted=True), refusal)
    assert b"content-encoding" not in dict(start["headers"])
    assert body["body"] == page.encode()
    assert GZIPPED not in body


def test_small_or_tagged_pages_are_not_gzipped_where_they_are_made_nor_after() -> None:
    small = Precompressed(HTMLResponse("<p>short</p>"), gzip_wanted=True)
    assert small.gzipped is None
    start, body = served(small)
    assert b"content-encoding" not in dict(start["headers"])
    assert len(body["body"]) < MINIMUM_SIZE
    tagged = HTMLResponse("<p>tagged</p>" * 200, headers={"etag": '"x"'})
    start, body = served(Precompressed(tagged, gzip_wanted=True))
    # a tagged answer encodes its codings itself: the middleware leaves it, gzip and all
    assert b"content-encoding" not in dict(start["headers"])
    assert body["body"] == tagged.body
    assert GZIPPED not in body
