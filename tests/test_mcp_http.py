"""The MCP server at /mcp of a real `ocp serve`, driven by the SDK's own streamable-HTTP client:
the same tools as over stdio, and the service's rules (limits, capabilities, rate limits)
holding over MCP exactly as over its HTTP API."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.serve import Server, request
from tests.test_guard import TABLE, library_answer
from tests.test_mcp import HANDOFF, SECRETS, TOOLS, call, in_thread

# `make check` leaves this out: it starts a real `ocp serve` for each server-side MCP client.
pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path):
    env = {"OCP_DATABASE_URL": str(tmp_path / "store.sqlite3"), "OCP_WRITE_RATE": "3"}
    with Server(tmp_path, env) as running:
        yield running


@asynccontextmanager
async def session(base: str) -> AsyncIterator[ClientSession]:
    transport = streamable_http_client(f"{base}/mcp")
    async with transport as (read, write, *_), ClientSession(read, write) as client:
        await client.initialize()
        yield client


def run(base: str, body: Callable[[ClientSession], Awaitable[None]]) -> None:
    async def main() -> None:
        async with session(base) as client:
            await body(client)

    in_thread(main)


def test_the_tools_over_http_and_the_stored_checkpoint_s_links_are_the_service_s(server):
    async def body(client: ClientSession) -> None:
        assert {t.name for t in (await client.list_tools()).tools} == TOOLS
        failed, report = await call(client, "lint_checkpoint", checkpoint=HANDOFF)
        assert not failed and report["results"][0]["valid"] is True
        failed, created = await call(client, "store_checkpoint", checkpoint=HANDOFF)
        assert not failed, created
        assert created["permalink"] == f"{server.base}/c/{created['storage_id']}"
        page = request(server.port, "GET", f"/c/{created['storage_id']}.json")
        assert page.status == 200  # the service serves what MCP stored
        read = await client.read_resource(f"opencheckpoint://stored/{created['storage_id']}")
        assert read.contents[0].text == HANDOFF
        for _, doc, proposed, outcome, _, _ in TABLE[:6]:
            failed, answer = await call(
                client, "check_call", checkpoint=json.dumps(doc), call=proposed
            )
            assert not failed and answer == library_answer(doc, proposed)
            assert answer["outcome"] == outcome
        failed, refused = await call(client, "store_checkpoint", checkpoint=SECRETS)
        assert failed and refused["error"]["status"] == 422

    run(server.base, body)


def test_the_service_s_write_rate_holds_over_mcp(server):
    async def body(client: ClientSession) -> None:
        statuses = []
        for n in range(5):
            doc = json.loads(HANDOFF)
            doc["id"] = f"urn:uuid:019a8000-0000-7000-8000-00000000010{n}"
            failed, answer = await call(client, "store_checkpoint", checkpoint=json.dumps(doc))
            statuses.append(answer["error"]["status"] if failed else 201)
        assert statuses[:3] == [201, 201, 201]
        assert 429 in statuses[3:]

    run(server.base, body)


def test_another_host_or_origin_is_refused_dns_rebinding(server):
    hello = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "page", "version": "1"},
            },
        }
    ).encode()
    kinds = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    for extra, status, said in (
        ({"host": "evil.example"}, 421, "Host header"),
        ({"origin": "http://evil.example"}, 403, "Origin header"),
    ):
        reply = request(server.port, "POST", "/mcp", hello, {**kinds, **extra})
        assert reply.status == status, (extra, reply.status)
        assert_json_rpc_error(reply, said)
    own = request(server.port, "POST", "/mcp", hello, kinds)
    assert own.status == 200


def assert_json_rpc_error(reply, said: str) -> None:
    """A JSON-RPC error object with no id, as JSON, whose message says ``said``."""
    assert reply.headers.get("content-type") == "application/json", reply.headers
    body = reply.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None
    assert body["error"]["code"] == -32600 and said in body["error"]["message"], body


KINDS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def test_transport_refusals_are_json_rpc_errors_and_allow_lists_only_post(tmp_path: Path):
    """Issue 28: DELETE was in Allow and answered 405; 403 and 413 were plain text with no
    Content-Type; a batch got -32602 with pydantic's dump of a union."""
    env = {"OCP_DATABASE_URL": str(tmp_path / "store.sqlite3"), "OCP_MAX_BYTES": "20000"}
    with Server(tmp_path, env) as running:
        for method in ("GET", "DELETE", "PUT"):
            refused = request(running.port, method, "/mcp", headers=KINDS)
            assert refused.status == 405 and refused.headers["allow"] == "POST", method
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        batch = request(running.port, "POST", "/mcp", json.dumps([ping, ping]).encode(), KINDS)
        assert batch.status == 400
        assert_json_rpc_error(batch, "batches are not supported in this protocol version")
        assert "validation" not in batch.body.decode().lower()
        # the limit of /mcp: a checkpoint and its parent (2 x 20,000 bytes) and a form's room
        large = json.dumps({**ping, "params": {"x": "y" * 200_000}}).encode()
        too_large = request(running.port, "POST", "/mcp", large, KINDS)
        assert too_large.status == 413
        assert_json_rpc_error(too_large, "105,536 bytes")
        assert "OCP_MAX_BYTES" in too_large.json()["error"]["message"]
        wrong_type = request(
            running.port, "POST", "/mcp", b"{}", {**KINDS, "content-type": "text/plain"}
        )
        assert wrong_type.status == 400
        assert_json_rpc_error(wrong_type, "application/json")
        # the 2026-07-28 transport's refusal of an Accept it cannot answer, bodiless from the SDK
        modern = {**KINDS, "accept": "text/html", "mcp-protocol-version": "2026-07-28"}
        not_acceptable = request(running.port, "POST", "/mcp", json.dumps(ping).encode(), modern)
        assert not_acceptable.status == 406
        assert_json_rpc_error(not_acceptable, "Accept: application/json, text/event-stream")


def test_a_2026_client_discovers_the_same_honest_capabilities_over_http(server):
    from mcp import Client

    async def main() -> None:
        async with Client(f"{server.base}/mcp") as client:
            assert client.protocol_version == "2026-07-28"  # server/discover, over HTTP
            capabilities = client.server_capabilities
            assert capabilities is not None and capabilities.prompts is None
            assert capabilities.resources is not None and not capabilities.resources.subscribe
            assert not capabilities.resources.list_changed
            assert capabilities.tools is not None and not capabilities.tools.list_changed
            result = await client.call_tool("lint_checkpoint", {"checkpoint": HANDOFF})
            assert not result.is_error

    in_thread(main)


def test_a_get_of_mcp_is_refused_at_once_and_holds_no_connection(tmp_path: Path):
    """A stateless server has no stream to push on: GET /mcp answers 405 with the methods it
    takes, as Streamable HTTP allows, where it answered an event stream that never sent a byte
    nor closed, so that a few idle clients held every connection of the cap (issue: 503 for
    every route until they hung up)."""
    env = {"OCP_DATABASE_URL": str(tmp_path / "store.sqlite3"), "OCP_MAX_CONNECTIONS": "2"}
    with Server(tmp_path, env) as running:
        for _ in range(5):  # more than the cap: none of them stays open
            refused = request(
                running.port, "GET", "/mcp", headers={"accept": "text/event-stream"}, timeout=5
            )
            assert refused.status == 405
            assert "POST" in refused.headers["allow"]
        assert request(running.port, "GET", "/healthz").status == 200

        async def body(client: ClientSession) -> None:
            failed, report = await call(client, "lint_checkpoint", checkpoint=HANDOFF)
            assert not failed and report["results"][0]["valid"] is True

        run(running.base, body)  # the SDK's own client only POSTs
