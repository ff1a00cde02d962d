"""HTTP caching, done once: entity tags of the bytes sent, conditional GET, the encodings a
client accepts, what an answer varies on, and who may keep a capability's answer.

* The ETag is a hash of the exact body sent (RFC 9110 §8.8.3): the HTML page, its JSON twin,
  the raw bytes and each content coding get their own, and the tag changes whenever the
  content does, a page's time-dependent sentences included.
* If-None-Match compares weakly (§13.1.2): ``W/"x"`` matches ``"x"``; ``*`` matches any.
* gzip only when the client accepts it with a non-zero quality (§12.5.3): ``gzip;q=0`` and
  ``*;q=0`` refuse it.
* A storage id is a capability: whoever has the address reads the checkpoint, and the lineage
  and diff pages name other storage ids. So every answer under /c/{id} and of /diff (its
  ``from`` and ``to`` are storage ids) is ``private`` (RFC 9111 §5.2.2.7): no shared cache
  keeps it, whatever its status, and ``no-cache`` makes the browser's own cache ask again, so
  an expiry or a deletion takes effect at once.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import Scope

# The scope key where negotiation notes which request headers chose the answer (a set shared
# by every copy of the scope; app/web/cache_policy.py names them in Vary).
VARIED_ON = "ocp.varied_on"
CAPABILITY_PATH = re.compile(r"^/c/[^/]+|^/diff(\.json|\.patch)?$")
PRIVATE = "private, no-cache"
# What a capability's answer drops of its route's own policy: each would let a shared cache
# keep it, or contradict the private no-cache put in its place.
_NOT_PRIVATE = frozenset({"public", "private", "no-cache", "s-maxage", "max-age"})


def etag_of(body: bytes, coding: str | None = None) -> str:
    tag = hashlib.sha256(body).hexdigest()[:32]
    return f'"{tag}-{coding}"' if coding else f'"{tag}"'


def not_modified(request: Request, etag: str) -> bool:
    return none_match(request.headers.get("if-none-match"), etag)


def none_match(wanted: str | None, etag: str) -> bool:
    """Whether an If-None-Match header value matches ``etag`` (weak comparison)."""
    if wanted is None:
        return False
    tags = {_opaque(tag) for tag in wanted.split(",")}
    return "*" in tags or _opaque(etag) in tags


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def accepts_gzip(request: Request) -> bool:
    return gzip_accepted(request.headers.get("accept-encoding"))


def request_header(scope: Scope, name: bytes) -> str | None:
    """The first value of the request header ``name`` (lower case), as Starlette's Headers
    would give it, without building them: the middleware read one header or two each."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def response_fields(headers: Iterable[tuple[bytes, bytes]], *names: bytes) -> dict[bytes, str]:
    """The first value of each of ``names`` (lower case) among a response's raw headers."""
    found: dict[bytes, str] = {}
    for key, value in headers:
        if key in names and key not in found:
            found[key] = value.decode("latin-1")
    return found


# Parsed once per distinct value (browsers send a handful); bounded, as a client may send any
# value it likes.
@functools.lru_cache(maxsize=128)
def gzip_accepted(header: str | None) -> bool:
    """Whether an Accept-Encoding value accepts gzip (a non-zero quality)."""
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


def varies_on(scope: Scope, header: str) -> None:
    """Note that the answer to this request depends on ``header`` (it goes into Vary)."""
    noted = scope.get(VARIED_ON)
    if isinstance(noted, set):
        noted.add(header)


def vary_on(headers: MutableHeaders, *names: str) -> None:
    """Add ``names`` to Vary, each once (Starlette's add_vary_header repeats them)."""
    present = [name.strip() for name in headers.get("vary", "").split(",") if name.strip()]
    known = {name.lower() for name in present}
    if "*" in known:
        return
    added = [name for name in names if name.lower() not in known]
    if added:
        headers["vary"] = ", ".join(present + added)


@functools.lru_cache(maxsize=64)  # the routes' own Vary values: a few
def listed(vary: str, name: str) -> bool:
    """Whether a Vary value already covers ``name``: `vary_on` would leave it as it is."""
    known = {item.strip().lower() for item in vary.split(",")}
    return name.lower() in known or "*" in known


def is_capability(path: str) -> bool:
    return CAPABILITY_PATH.match(path) is not None


@functools.lru_cache(maxsize=64)  # the routes' own Cache-Control values: a few
def private_policy(cache_control: str | None) -> str:
    """A capability's Cache-Control: its route's own, made private; ``no-store`` (the answer
    that carries a deletion token) stays as it is, already kept by no cache at all."""
    directives = [d.strip() for d in (cache_control or "").split(",") if d.strip()]
    names = {d.partition("=")[0].strip().lower() for d in directives}
    if "no-store" in names:
        return ", ".join(directives)
    kept = [d for d in directives if d.partition("=")[0].strip().lower() not in _NOT_PRIVATE]
    return ", ".join([PRIVATE, *kept])
