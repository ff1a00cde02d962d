"""Refusals of /mcp as JSON-RPC error objects, whoever refuses (issue 28).

An MCP client reads every answer of the endpoint as JSON-RPC. The SDK's transport answers a
foreign Origin (403), a foreign Host (421), a body over its limit (413) and a wrong
Content-Type (400) in plain text with no Content-Type, and a JSON-RPC batch with -32602 and
pydantic's dump of the union it failed to match. Here each of those becomes one error object
with no id (JSON-RPC 2.0 §5: the request could not be read), ``Content-Type:
application/json`` and the status the transport chose; a batch is refused before the SDK
sees it, saying that this protocol version has none (MCP 2025-06-18 removed them).
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.bodies import PayloadTooLarge

INVALID_REQUEST = -32600  # JSON-RPC 2.0 §5.1: the JSON sent is not a valid request object
BATCH_REFUSED = (
    "batches are not supported in this protocol version: send one JSON-RPC request or "
    "notification per POST (MCP removed batching in 2025-06-18)"
)
TOO_LARGE_ADVICE = (
    "; a tool call carries at most a checkpoint and its parent, each within the deployment's "
    "limit (OCP_MAX_BYTES): keep large content in resources the checkpoint references (spec "
    "§3, §6.4)"
)
# What the transport's plain-text refusals mean, said as a client can act on it.
PLAIN_REFUSALS = {
    400: "the request is not JSON-RPC over Streamable HTTP: POST it as application/json",
    403: "the Origin header names a site this endpoint does not serve (DNS rebinding "
    "protection): call it from the service's own origin, or set OCP_PUBLIC_URL to the address "
    "it is reached at",
    406: "the request does not accept what this endpoint answers: send Accept: "
    "application/json, text/event-stream",
    413: "the request body is too large" + TOO_LARGE_ADVICE,
    421: "the Host header names an address this endpoint does not serve (DNS rebinding "
    "protection): reach it at its own address, or set OCP_PUBLIC_URL to the address it is "
    "reached at",
}


def error_body(message: str, code: int = INVALID_REQUEST) -> bytes:
    """A JSON-RPC error response with no id: the request could not be read as one."""
    error = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    return json.dumps(error).encode()


async def send_error(send: Send, status: int, message: str, *, close: bool = False) -> None:
    body = error_body(message)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if close:  # the rest of an oversized body is never read
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class JsonRpcRefusals:
    """Wraps the SDK's endpoint: reads the body (within the service's limit), refuses a batch
    and a body over the limit as JSON-RPC, and rewrites the SDK's plain-text refusals."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            messages = await _whole_body(receive)
        except PayloadTooLarge as exc:
            await send_error(send, 413, f"{exc}{TOO_LARGE_ADVICE}", close=True)
            return
        body = b"".join(m.get("body", b"") for m in messages)
        if body.lstrip()[:1] == b"[":
            await send_error(send, 400, BATCH_REFUSED)
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, _plain_refusals_as_json_rpc(send))


async def _whole_body(receive: Receive) -> list[Message]:
    """Every message of the request body (the service's body limit raises PayloadTooLarge
    as it streams past the limit of /mcp)."""
    messages: list[Message] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return messages


def _plain_refusals_as_json_rpc(send: Send) -> Send:
    """``send``, with an error answer that is not JSON (the SDK's plain-text refusals)
    replaced by a JSON-RPC error object of the same status."""
    held: Message | None = None

    async def sending(message: Message) -> None:
        nonlocal held
        if message["type"] == "http.response.start":
            headers = dict(message.get("headers", []))
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if message["status"] >= 400 and kind != b"application/json":
                held = message
                return
        elif held is not None and message["type"] == "http.response.body":
            if message.get("more_body", False):
                return  # the plain text is replaced whole: its parts are dropped
            status = held["status"]
            default = f"the request was refused ({status})"
            await send_error(send, status, PLAIN_REFUSALS.get(status, default))
            return
        await send(message)

    return sending
