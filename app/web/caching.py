"""HTTP caching, done once: entity tags of the bytes sent, conditional GET, the encodings a
client accepts.

* The ETag is a hash of the exact body sent (RFC 9110 §8.8.3): the HTML page, its JSON twin,
  the raw bytes and each content coding get their own, and the tag changes whenever the
  content does, a page's time-dependent sentences included.
* If-None-Match compares weakly (§13.1.2): ``W/"x"`` matches ``"x"``; ``*`` matches any.
* gzip only when the client accepts it with a non-zero quality (§12.5.3): ``gzip;q=0`` and
  ``*;q=0`` refuse it.
"""

from __future__ import annotations

import hashlib

from starlette.requests import Request


def etag_of(body: bytes, coding: str | None = None) -> str:
    tag = hashlib.sha256(body).hexdigest()[:32]
    return f'"{tag}-{coding}"' if coding else f'"{tag}"'


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


def accepts_gzip(request: Request) -> bool:
    header = request.headers.get("accept-encoding")
    if not header:
        return False
    qualities: dict[str, float] = {}
    for item in header.split(","):
        coding, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        qualities[coding.strip().lower()] = quality
    if "gzip" in qualities:
        return qualities["gzip"] > 0
    if "x-gzip" in qualities:
        return qualities["x-gzip"] > 0
    return qualities.get("*", 0.0) > 0
