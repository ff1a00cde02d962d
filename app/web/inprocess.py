"""A request to the service's app in this process, without any HTTP client.

The MCP server's store tools call the service's own HTTP API (app/mcp_server.py), so its rules
hold over MCP unchanged; but the service has no network client at all, so that no checkpoint
can make it call out (tests/hostile/test_no_fetch.py). This speaks ASGI to the app directly:
one HTTP request in, its whole response out, the way a server hands the app a connection.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import urlencode, urlsplit

import anyio
from starlette.types import ASGIApp, Message


@dataclass(frozen=True, slots=True)
class Reply:
    status_code: int
    headers: dict[str, str]  # lower-cased names, the last of each
    content: bytes

    @property
    def reason_phrase(self) -> str:
        try:
            return HTTPStatus(self.status_code).phrase
        except ValueError:
            return ""

    def json(self) -> Any:
        return json.loads(self.content)


async def call_app(
    app: ASGIApp,
    method: str,
    path: str,
    *,
    base_url: str,
    client: tuple[str, int],
    params: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    content: bytes = b"",
) -> Reply:
    """``method path`` as a request to ``app`` from ``client``, at the scheme and host of
    ``base_url`` (what the app's links are built from)."""
    base = urlsplit(base_url)
    host = base.hostname or "localhost"
    port = base.port or (443 if base.scheme == "https" else 80)
    sent = {
        "host": base.netloc,
        "content-length": str(len(content)),
        # its errors as JSON, wherever the path (a stored checkpoint's raw bytes answer a
        # person's browser with a page)
        "accept": "application/json",
        **(headers or {}),
    }
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": base.scheme or "http",
        "path": path,
        "raw_path": path.encode("ascii"),
        "root_path": "",
        "query_string": urlencode(params or {}).encode("ascii"),
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in sent.items()],
        "client": client,
        "server": (host, port),
        "state": {},
    }
    status = 500
    answer_headers: dict[str, str] = {}
    body = bytearray()
    delivered = False
    answered = anyio.Event()

    async def receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": content, "more_body": False}
        # the client stays until the whole answer is sent, as a waiting client does: a
        # streaming response listens for a disconnect, and one at once would cut it short
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
            for name, value in message.get("headers", []):
                answer_headers[name.decode("latin-1").lower()] = value.decode("latin-1")
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))
            if not message.get("more_body", False):
                answered.set()

    await app(scope, receive, send)
    return Reply(status, answer_headers, bytes(body))
