"""Security headers on every response, the Content-Security-Policy serialized in one place."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP: dict[str, list[str]] = {
    "default-src": ["'none'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "form-action": ["'self'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
}


def serialize_csp(policy: dict[str, list[str]]) -> str:
    return "; ".join(f"{name} {' '.join(values)}" for name, values in policy.items())


HEADERS = {
    "content-security-policy": serialize_csp(CSP),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}


# The headers as the server takes them, encoded once, and appended to a response that has none
# of them (every response: no route sets one), as MutableHeaders would append each; one that
# had one would get it replaced, as MutableHeaders replaces it.
_RAW = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in HEADERS.items()]
_NAMES = frozenset(name for name, _ in _RAW)


class SecurityHeadersMiddleware:
    """Adds the headers to every HTTP response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = message.get("headers", [])
                if any(name in _NAMES for name, _ in present):
                    headers = MutableHeaders(scope=message)
                    for name, value in HEADERS.items():
                        headers[name] = value
                else:
                    message["headers"] = [*present, *_RAW]
            await send(message)

        await self.app(scope, receive, send_with_headers)
