"""Conditional GET (RFC 9110 §13.1.2): If-None-Match compares entity tags weakly, so
``W/"x"`` matches ``"x"``, and ``*`` matches any current representation."""

from __future__ import annotations

from starlette.requests import Request


def not_modified(request: Request, etag: str) -> bool:
    wanted = request.headers.get("if-none-match")
    if wanted is None:
        return False
    if wanted.strip() == "*":
        return True
    return _opaque(etag) in {_opaque(tag) for tag in wanted.split(",")}


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag
