"""Permalinks: storing a checkpoint, serving it back, retention, deletion.

The store is synchronous (app/store); every call runs on a store thread (`store_call`). A
stored page is immutable, so it carries an ETag (digest + app version), answers If-None-Match
with 304, and is cached rendered and encoded, so a popular link costs little.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import itertools
import json
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from threading import Lock
from typing import Any, cast
from urllib.parse import urlsplit

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from app import SPEC_VERSION, __version__
from app.analysis import Analysis, LintResult, analyze, pair
from app.digests import check_digest
from app.layout import TASK_STATUSES
from app.redaction import REDACTED, redact_text
from app.render.query import EVERY, PageQuery
from app.render.source import build_listing
from app.render.tracker import (
    NEWER,
    badge_message,
    preview_description,
    preview_title,
    summary_markdown,
)
from app.store import (
    Created,
    DeleteOutcome,
    Found,
    Gone,
    Meta,
    NotStorable,
    RateLimited,
    Store,
    StoreFull,
    StoreUnavailable,
    Usage,
    WriteLimits,
    client_key,
)
from app.store.ids import is_storage_id
from app.store.storable import Refusal, early_refusal, not_a_checkpoint
from app.stored_lineage import (
    Descendants,
    ParentResolution,
    newer_checkpoints,
    parent_sentence,
    resolve_parent,
)
from app.visible import visible
from app.web.analyses import AnalysisCache
from app.web.bodies import FORM_FIELDS, BodyTooSlow, EncodedBody, PayloadTooLarge
from app.web.caching import PRIVATE, accepts_gzip, etag_of, not_modified
from app.web.compression import Precompressed, gzip_body
from app.web.errors import wants_json
from app.web.pages import PAGE_LIST_LIMIT, checkpoint_json, page_from_view, page_view
from app.web.parameters import (
    PAGE_PARAMETERS,
    check_page_query,
    enum_parameter,
    refuse_unknown,
    storage_id_parameter,
)
from app.web.templating import render
from app.web.urls import public_base
from app.web.views import (
    CHECKPOINT_TYPES,
    BadRequest,
    Submission,
    checkpoint_page,
    media_type,
    read_carried,
    settings_of,
    shown_name,
)
from app.web.work import run_cpu, turn

OCP_MEDIA_TYPE = CHECKPOINT_TYPES[1]
LIFETIMES = {
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
}
NO_STORE = {"cache-control": "no-store"}
UNLISTED_NOTE = (
    "A permalink is unlisted, not private: anyone who has the link can read the checkpoint "
    "until it expires or you delete it."
)

# Plain data for a JSON body or a template: a stored checkpoint's metadata and links, a share
# result, preview tags.
Data = dict[str, Any]


def store_of(request: Request) -> Store:
    # Starlette's app state is untyped; the lifespan of create_app sets the store there.
    return cast(Store, request.app.state.store)


async def store_call(
    request: Request, method: str | Callable[..., Any], *args: object, **kwargs: object
) -> Any:
    """``store.<method>(*args, **kwargs)``, or ``method(store, *args, **kwargs)`` when it is a
    function, on a store thread. Waiting for a free one counts against the store timeout:
    when all are stuck on an unreachable database, the request gets 503 instead of queueing
    behind them."""
    state = request.app.state

    def all_busy() -> Exception:
        return StoreUnavailable("every connection to the checkpoint store is busy or waiting")

    async with turn(state.store_slots, settings_of(request).store_timeout, all_busy):
        store = store_of(request)
        if callable(method):
            call = functools.partial(method, store, *args, **kwargs)
        else:
            call = functools.partial(getattr(store, method), *args, **kwargs)
        try:
            # Once it runs, the call is bounded by the store's own timeout, and is never cut
            # off halfway: a write that committed is answered as such.
            return await anyio.to_thread.run_sync(call, limiter=state.store_threads)
        except (RateLimited, StoreFull, StoreUnavailable) as exc:
            # Answered without a traceback (429, 507, 503), and a client can ask for them as
            # fast as it likes: the traceback holds anyio's frame, which holds the future that
            # holds the exception, a cycle only the collector frees, and in it the call's
            # arguments (a document and its analysis, 300 KB for 50 KB stored).
            exc.__traceback__ = None
            if isinstance(exc, RateLimited):
                raise TooManyWrites(request, exc) from None
            if isinstance(exc, StoreFull):
                deleting = request.method == "DELETE" or request.url.path.endswith("/delete")
                raise StorageFull(exc, deleting=deleting) from None
            raise


class TooManyWrites(HTTPException):
    """429: this client's writes this minute are used; Retry-After says when they come back."""

    def __init__(self, request: Request, exc: RateLimited) -> None:
        limits = write_limits(request)
        allowed = [
            f"{limits.writes_per_minute} documents" if limits.writes_per_minute else "",
            f"{limits.bytes_per_minute:,} bytes" if limits.bytes_per_minute else "",
        ]
        super().__init__(
            429,
            "you have stored as much as one client may in a minute here "
            f"({' or '.join(a for a in allowed if a)}); nothing was stored. Try again in "
            f"{exc.retry_after} seconds",
            headers={"retry-after": str(exc.retry_after)},
        )


class StorageFull(HTTPException):
    """507: the quota is used, or the disk is full. Reading and deleting still work."""

    def __init__(self, exc: StoreFull, *, deleting: bool = False) -> None:
        if deleting:
            # Deleting works on a full disk through the store's reserve; this is a disk so full
            # that the reserve is used up too.
            detail = (
                "the checkpoint store's disk is full, even the room kept for deleting, so the "
                "checkpoint was not deleted; try again once the deployment has made room"
            )
        elif exc.reason == "quota":
            detail = (
                "the checkpoint store is full: it keeps a fixed amount of checkpoints and that "
                "is used, so nothing was stored. Space comes back as stored checkpoints expire "
                "or are deleted"
            )
        else:
            detail = (
                "the checkpoint store's disk is full, so nothing was stored. Stored "
                "checkpoints can still be read and deleted"
            )
        super().__init__(507, detail)
        self.reason = exc.reason


def write_limits(request: Request) -> WriteLimits:
    settings = settings_of(request)
    return WriteLimits(settings.write_rate, settings.write_rate_bytes, settings.max_store_bytes)


async def readyz(request: Request) -> Response:
    """Readiness: 200 when the store answers, 503 (with Retry-After) while it does not, so a
    load balancer sends store traffic elsewhere. Linting works either way.

    A full store (its quota used, or its disk full) is still ready: 200 with ``"storage":
    "full"`` and ``"writable": false``. Reading, linting and deleting work, and deleting is
    how space comes back; every instance shares the one store, so a 503 would take them all
    out of the balancer and turn a full disk into an outage of everything."""
    body = {"version": __version__, "spec_version": SPEC_VERSION}
    try:
        usage: Usage = await store_call(request, "usage")
    except StoreUnavailable as exc:
        return JSONResponse(
            {**body, "status": "unavailable", "store": str(exc)},
            status_code=503,
            headers={"retry-after": "30", "cache-control": "no-store"},
        )
    limits = write_limits(request)
    full = usage.full(limits)
    storage = {"storage": "full" if full else "ok", "writable": not full}
    if full:
        storage["full_because"] = "disk" if usage.disk_full else "quota"
    return JSONResponse(
        {**body, "status": "ready", **storage}, headers={"cache-control": "no-store"}
    )


# --- storing --------------------------------------------------------------------------------


def _lifetime(value: str | None, store: Store) -> timedelta | None:
    if value in (None, ""):
        return None
    lifetime = LIFETIMES.get(value)
    if lifetime is None:
        raise BadRequest(f"lifetime must be one of {', '.join(LIFETIMES)}")
    return min(lifetime, store.retention)


def _check_upload_token(request: Request, offered: str | None) -> str | None:
    """Private deployments list upload tokens (OCP_UPLOAD_TOKENS); each is compared in
    constant time, so timing tells nothing about a near miss. Returns the token used (None
    where none is needed): its holder is the client the write rate counts."""
    tokens = settings_of(request).upload_tokens
    if not tokens:
        return None
    header = request.headers.get("authorization", "")
    candidate = offered or (header[7:].strip() if header.lower().startswith("bearer ") else "")
    matched = False
    for token in tokens:
        matched |= hmac.compare_digest(candidate.encode(), token.encode())
    if not matched:
        raise HTTPException(
            401,
            "this deployment stores checkpoints only with an upload token",
            headers=bearer_challenge("upload"),
        )
    return candidate


def analysis_of(request: Request, record: Found) -> Analysis:
    """The analysis of a stored document, kept by its digest (app/web/analyses.py)."""
    cache: AnalysisCache = request.app.state.analyses
    return cache.get(record.meta.digest, record.data)


async def _store(
    request: Request,
    data: bytes,
    lifetime: timedelta | None,
    parent_storage_id: str | None = None,
    upload_token: str | None = None,
) -> Created:
    """Store ``data``; with ``parent_storage_id``, the stored parent the uploader holds (its
    link is the proof), checked to be the parent the document names.

    The gates run cheapest first: the body limit (while it streams), the intake, the version
    gate and the top level of a checkpoint, the first apparent credential; only then the
    whole analysis; the store counts the write against the client's rate and the quota in the
    transaction that stores it (429, 507)."""
    settings = settings_of(request)
    gate = await run_cpu(request, len(data), early_refusal, data, settings.limits)
    if isinstance(gate, Refusal):
        findings = [f.to_dict() for f in gate.findings]
        raise Unprocessable(gate.message, findings, list(gate.secret_paths))
    work = functools.partial(analyze, data, settings.limits, intake=gate, secret_free=True)
    analysis = await run_cpu(request, len(data), work)
    refuse_unstorable(analysis)
    if parent_storage_id is not None:
        await _check_parent(request, analysis, parent_storage_id)
    try:
        created: Created = await store_call(
            request,
            "put",
            data,
            analysis,
            lifetime=lifetime,
            parent_storage_id=parent_storage_id,
            client=client_key(request.client.host if request.client else None, upload_token),
            limits=write_limits(request),
        )
        return created
    except NotStorable as exc:  # the store checks again, whatever the caller did
        withheld = analysis.redaction.pointer
        raise Unprocessable(str(exc), [], [withheld(p) for p in exc.paths]) from None


async def _check_parent(request: Request, child: Analysis, parent_storage_id: str) -> None:
    """The stored document named as the parent exists and is the one the child names: its id
    is the child's parent.id, and its bytes match the child's parent.digest when recorded."""
    record = await store_call(request, "get", parent_storage_id)
    if isinstance(record, Gone):
        what = "expired" if record.reason == "expired" else "was deleted by its uploader"
        raise ParentProblem(
            f"the parent you gave {what} on {_readable(record.at)}, so it cannot be linked; "
            "share the parent again and give its new permalink, or share this checkpoint alone",
            status_code=410,
        )
    if not isinstance(record, Found):
        raise ParentProblem(
            "there is no stored checkpoint at the parent's storage id you gave; store the "
            "parent first, and give the storage id it was stored under",
            status_code=404,
        )
    parent = await run_cpu(request, record.meta.size, analysis_of, request, record)
    document = child.document or {}
    named = document.get("parent")
    if not isinstance(named, dict) or named.get("id") != (parent.document or {}).get("id"):
        raise ParentProblem(
            "the stored checkpoint you gave as the parent is not the one this checkpoint "
            "names: its id is not this checkpoint's parent.id",
            status_code=409,
        )
    check = check_digest(named.get("digest"), [("exact", record.data)])
    if check.state == "mismatch":
        raise ParentProblem(
            "the stored checkpoint you gave as the parent does not match this checkpoint's "
            "parent.digest: it is another version of that document",
            status_code=409,
        )


class Unprocessable(HTTPException):
    def __init__(self, detail: str, findings: list[Data], secret_paths: list[str]) -> None:
        super().__init__(422, detail)
        self.findings = findings
        self.secret_paths = secret_paths


class ParentProblem(Unprocessable):
    """The stored parent given (?parent=, the Share form's parent permalink) cannot be linked;
    the detail says why. 404 when nothing is stored at the storage id given, 410 when it is
    gone (the id names a resource that is not there, as on every other address), 409 when it
    is not the parent the child names (the request conflicts with what is stored: another
    parent, or another version of it). The Share form shows its page again either way."""

    def __init__(self, detail: str, status_code: int = 422) -> None:
        super().__init__(detail, [], [])
        self.status_code = status_code


def refuse_unstorable(result: Analysis | LintResult) -> None:
    if result.document is None:
        raise Unprocessable(
            "the document is not JSON, so it cannot be stored; fix the json finding first",
            [f.to_dict() for f in result.findings],
            [],
        )
    not_stored = not_a_checkpoint(result.document, result.version_error)
    if not_stored is not None:
        raise Unprocessable(not_stored, [], [])
    secret_paths = result.secret_paths
    if secret_paths:
        raise Unprocessable(
            "the document appears to contain credentials, so it is never stored (§10.5); "
            "remove them (and rotate them if they are real), then share again",
            [],
            secret_paths,
        )


def created_dict(request: Request, created: Created) -> Data:
    base = public_base(request)
    return {
        "storage_id": created.storage_id,
        "permalink": f"{base}/c/{created.storage_id}",
        "raw": f"{base}/c/{created.storage_id}/raw",
        "json": f"{base}/c/{created.storage_id}.json",
        "badge": f"{base}/c/{created.storage_id}/badge.svg",
        "markdown": f"{base}/c/{created.storage_id}.md",
        "expires_at": _iso(created.expires_at),
        "stored_at": _iso(created.stored_at),
        "digest": created.digest,
        "valid": created.meta.valid,
        "deletion_token": created.deletion_token,
        "note": UNLISTED_NOTE,
    }


async def api_store(request: Request) -> Response:
    """POST /api/v1/checkpoints: the raw document as the body; ?lifetime=1h|1d|7d|30d;
    ?parent=STORAGE_ID: the stored parent (its storage id proves you hold it), so the child's
    page links it and its diff."""
    upload_token = _check_upload_token(request, None)
    if media_type(request) not in CHECKPOINT_TYPES:
        raise BadRequest(
            f"send the checkpoint as application/json or {OCP_MEDIA_TYPE}", status_code=415
        )
    store = store_of(request)
    refuse_unknown(request, ("lifetime", "parent"))
    lifetime = _lifetime(enum_parameter(request.query_params.getlist, "lifetime", LIFETIMES), store)
    data = await request.body()
    parent = storage_id_parameter(request.query_params.getlist, "parent")
    created = await _store(request, data, lifetime, parent, upload_token)
    body = created_dict(request, created)
    # The deletion token is in this answer, once: no cache may keep it.
    return JSONResponse(body, status_code=201, headers={"location": body["permalink"], **NO_STORE})


async def share(request: Request) -> Response:
    """POST /share: the Share button of a checkpoint page."""
    if media_type(request) not in ("multipart/form-data", "application/x-www-form-urlencoded"):
        raise BadRequest(
            "send the share form from a checkpoint page, as multipart/form-data or "
            "application/x-www-form-urlencoded",
            status_code=415,
        )
    limit = settings_of(request).limits.max_bytes
    try:
        form = await request.form(max_files=0, max_fields=FORM_FIELDS, max_part_size=2 * limit + 8)
    except (PayloadTooLarge, BodyTooSlow, EncodedBody):
        raise  # 413, 408, 415: what the delete form answers too
    except Exception:
        raise BadRequest("the form could not be read; send it again from the page") from None
    upload_token = _check_upload_token(request, _text(form.get("upload_token")))
    data = read_carried(form, "checkpoint", limit)
    if not data:
        raise BadRequest("there is no checkpoint to share; check one first")
    parent_data = read_carried(form, "parent", limit)
    lifetime = _lifetime(_text(form.get("lifetime")), store_of(request))
    shared = []
    link = _text(form.get("parent_link"))
    if parent_data:
        # The parent first: the child is then stored with its proven link, so its page links
        # the parent and the diff.
        parent = await _store(request, parent_data, lifetime, upload_token=upload_token)
        parent_id: str | None = parent.storage_id
        shared.append({**created_dict(request, parent), "role": "parent"})
        created = await _store(request, data, lifetime, parent_id, upload_token)
    else:
        try:
            parent_id = storage_id_in_link(link)
            created = await _store(request, data, lifetime, parent_id, upload_token)
        except (ParentProblem, BadLink) as exc:
            # The checkpoint page again, its Share form refilled, with what is wrong beside it
            return await _share_again(request, form, data, link or "", str(exc.detail))
    shared.insert(0, {**created_dict(request, created), "role": "checkpoint"})
    # stored with its proven parent: its page links the parent, and it has a diff page
    shared[0]["linked_parent"] = parent_id is not None
    return HTMLResponse(
        render("shared.html", created=shared[0], shared=shared),
        status_code=201,
        headers=NO_STORE,
    )


async def _share_again(
    request: Request, form: Mapping[str, object], data: bytes, link: str, problem: str
) -> Response:
    """422: the checkpoint's page again (from the bytes its Share form carried), with the
    form refilled and why the parent's permalink cannot be used, so nothing is lost."""
    if wants_json(request):
        raise Unprocessable(problem, [], [])
    host = urlsplit(link.strip()).hostname if "//" in link else None
    if host and host != urlsplit(public_base(request)).hostname:
        problem = f"{problem} (it is not a permalink of this service: it links to {host})"
    shown = _text(form.get("name"))
    name = shown_name(shown) if shown else "checkpoint"
    submission = Submission(data, None, name, query=PageQuery.of(request.query_params.getlist))
    again = {"problem": visible(redact_text(problem)), "parent_link": shown_name(link)[:512]}
    return await checkpoint_page(request, submission, share_again=again, status_code=422)


class BadLink(BadRequest):
    """The Share form's parent permalink is no link to a stored checkpoint."""


_PERMALINK_ID = re.compile(r"(?:.*/)?c/([A-Za-z0-9_-]+)/?(?:[?#].*)?|([A-Za-z0-9_-]+)")


def storage_id_in_link(text: str | None) -> str | None:
    """The storage id in a permalink pasted into the share form (any host: the same store
    may be served under several names), or a bare storage id; None for an empty field."""
    text = (text or "").strip()
    if not text:
        return None
    match = _PERMALINK_ID.fullmatch(text[:512])
    storage_id = match and (match.group(1) or match.group(2))
    if not is_storage_id(storage_id):
        raise BadLink(
            "the parent's permalink is not a link to a stored checkpoint: paste the link its "
            "share page gave (…/c/ followed by its storage id), or leave it empty",
            status_code=422,
        )
    return storage_id


def bearer_challenge(scope: str) -> dict[str, str]:
    """The WWW-Authenticate header of a 401 (RFC 6750 §3)."""
    return {"www-authenticate": f'Bearer realm="ocp-viewer", scope="{scope}"'}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


# --- reading --------------------------------------------------------------------------------


class PageCache:
    """Rendered pages of stored checkpoints, by storage id: immutable content, so a short
    time-to-live only bounds how long a deletion on another instance goes unnoticed.

    A page is rendered once however many requests want it at the same time (`rendered`): a
    popular link whose page had expired was rendered by every request that came before the
    first render finished, each a whole render, all at once and each slowing the others."""

    def __init__(self, size: int = 256, ttl: float = 60.0) -> None:
        self.size, self.ttl = size, ttl
        self._items: OrderedDict[tuple[str, ...], tuple[float, CachedPage]] = OrderedDict()
        self._lock = Lock()
        self._rendering: dict[tuple[str, ...], asyncio.Task[CachedPage]] = {}
        self._forgotten = 0  # deletions so far: a render begun before one is not kept

    async def rendered(
        self, key: tuple[str, ...], render: Callable[[], Awaitable[CachedPage]]
    ) -> CachedPage:
        """The page of ``key`` from ``render``, run once for every request that asks while it
        runs, in a task of its own: a request that goes away does not take it from the
        others. Kept once made; a render that fails fails each request waiting, and the next
        one tries again."""
        task = self._rendering.get(key)
        if task is None:
            task = asyncio.ensure_future(self._render(key, render))
            self._rendering[key] = task
            task.add_done_callback(functools.partial(self._rendered, key))
        return await asyncio.shield(task)

    async def _render(
        self, key: tuple[str, ...], render: Callable[[], Awaitable[CachedPage]]
    ) -> CachedPage:
        forgotten = self._forgotten
        page = await render()
        if forgotten == self._forgotten:  # no deletion meanwhile: it may be one of this page's
            self.put(key, page)
        return page

    def _rendered(self, key: tuple[str, ...], task: asyncio.Task[CachedPage]) -> None:
        if self._rendering.get(key) is task:
            del self._rendering[key]
        if not task.cancelled():
            task.exception()  # each waiting request raised it; none left means none to tell

    def get(self, key: tuple[str, ...]) -> CachedPage | None:
        with self._lock:
            item = self._items.get(key)
            if item is None or time.monotonic() - item[0] > self.ttl:
                self._items.pop(key, None)
                return None
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: tuple[str, ...], value: CachedPage) -> None:
        with self._lock:
            self._items[key] = (time.monotonic(), value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, storage_id: str) -> None:
        with self._lock:
            self._forgotten += 1
            for key in [k for k in self._items if k[0] == storage_id]:
                del self._items[key]
        # a render under way read the checkpoint before it went: the next request starts anew
        for key in [k for k in self._rendering if k[0] == storage_id]:
            del self._rendering[key]


async def fetch(request: Request, storage_id: str) -> Found:
    """The stored checkpoint, or the right error: 410 with when it went, 404 otherwise."""
    record = await store_call(request, "get", storage_id)
    if isinstance(record, Found):
        return record
    if isinstance(record, Gone):
        raise GoneError(record)
    raise HTTPException(
        404, "there is no stored checkpoint at this address; check the link you were given"
    )


class GoneError(HTTPException):
    def __init__(self, gone: Gone) -> None:
        what = "expired" if gone.reason == "expired" else "was deleted by its uploader"
        super().__init__(
            410, f"this checkpoint {what} on {_readable(gone.at)}; it is no longer kept"
        )
        self.gone = gone


def _revalidate(etag: str, vary: str) -> dict[str, str]:
    # Revalidate every time (cheap with the ETag): expiry and deletion must take effect. A
    # capability's answer is private (app/web/cache_policy.py): said here already, so the
    # middleware has nothing to change on the answer sent most often.
    return {"etag": etag, "cache-control": PRIVATE, "vary": vary}


# What /c/{id} varies on (it chooses HTML or JSON by Accept), and /c/{id}.json
NEGOTIATED_VARY = "Accept, Accept-Encoding"
TWIN_VARY = "Accept-Encoding"


@dataclass(frozen=True, slots=True)
class CachedPage:
    """A rendered stored page, encoded once: the bytes, their gzip, a tag for each, and the
    moment it may no longer be served without rendering again: when the checkpoint expires or
    when one of its time-dependent sentences changes ("3 days ago", an approval that expires),
    whichever comes first. With them, the headers of each answer it gives (`answer`), encoded
    once too."""

    body: bytes
    gzipped: bytes
    etag: str
    gzip_etag: str
    fresh_until: datetime
    media_type: str
    # (gzipped, negotiated) -> the headers of that answer (`cached_page` makes them)
    heads: Mapping[tuple[bool, bool], list[tuple[bytes, bytes]]]

    def answer(self, gzipped: bool, negotiated: bool) -> Response:
        """The 200 of one coding, as Response would make it from `_revalidate`'s headers."""
        return CachedAnswer(
            self.gzipped if gzipped else self.body, list(self.heads[gzipped, negotiated])
        )


def cached_page(body: bytes, gzipped: bytes, fresh_until: datetime, media_type: str) -> CachedPage:
    """The cached page of ``body`` and its gzip, with each answer's headers made now."""
    etag, gzip_etag = etag_of(body), etag_of(body, "gzip")
    heads = {}
    for packed, negotiated in itertools.product((False, True), repeat=2):
        headers = _revalidate(
            gzip_etag if packed else etag, NEGOTIATED_VARY if negotiated else TWIN_VARY
        )
        if packed:
            # Nothing secret is on the page (the deletion token never is), so a compressed
            # page that reflects the request's host leaks nothing (BREACH).
            headers["content-encoding"] = "gzip"
        heads[packed, negotiated] = Response(
            gzipped if packed else body, media_type=media_type, headers=headers
        ).raw_headers
    return CachedPage(body, gzipped, etag, gzip_etag, fresh_until, media_type, heads)


class CachedAnswer(Response):
    """A cached page's 200: its bytes and the headers made when it was cached (a Response
    built from a dict of headers for each answer cost as much as the rest of the view)."""

    def __init__(self, body: bytes, raw_headers: list[tuple[bytes, bytes]]) -> None:
        self.status_code = 200
        self.background = None
        self.body = body
        self.raw_headers = raw_headers  # a list of its own: the middleware may edit it


@dataclass(frozen=True, slots=True)
class StoredLineage:
    """A stored checkpoint's parent, resolved by evidence, and the newer checkpoints derived
    from it (app/stored_lineage.py)."""

    parent: ParentResolution
    newer: Descendants


def stored_lineage(store: Store, meta: Meta) -> StoredLineage:
    """Run on a store thread: metadata, and the bytes of the parent when one is found."""
    return StoredLineage(resolve_parent(store, meta), newer_checkpoints(store, meta))


async def permalink(request: Request) -> Response:
    """GET /c/{id} and /c/{id}.json: the checkpoint page (or its JSON twin) of the stored bytes,
    checked against its parent when the store holds one by evidence (§8.2: with both
    documents at hand, OCP-T001 and OCP-T002 apply).

    A popular link is served from the page cache without touching the database: the bytes are
    immutable and ``expires_at`` never changes, so a cached page is right until it expires,
    until its time-dependent content changes, or until a deletion clears it (at once here,
    within the cache's minute elsewhere; a parent or a newer checkpoint stored since shows
    within that minute too). /c/{id} chooses HTML or JSON by Accept, so it varies on Accept;
    each representation and each coding has its own entity tag."""
    storage_id = request.path_params["storage_id"]
    negotiated = not request.scope["path"].endswith(".json")
    as_json = not negotiated or wants_json(request)
    if request.scope["query_string"]:  # without one, the query is EVERY: nothing to check
        refuse_unknown(request, PAGE_PARAMETERS)
        check_page_query(request.query_params.getlist)
        query = PageQuery.of(request.query_params.getlist)
        if query.any:
            # a filtered or paged view (app/render/query.py): rendered for the asking, never
            # kept, so no one fills the cache with the combinations of a page's parameters
            return await _queried_page(request, storage_id, as_json, negotiated, query)
    cache: PageCache = request.app.state.page_cache
    # The page holds absolute links of the base it was asked under (public_base).
    key = (storage_id, "json" if as_json else "html", public_base(request))
    page = cache.get(key)
    now = store_of(request).now()
    if not isinstance(page, CachedPage) or now >= page.fresh_until:

        async def render() -> CachedPage:
            record, lineage = await with_lineage(request, storage_id)
            made = functools.partial(_cached_page, request, record, lineage, as_json, now)
            return await run_cpu(request, record.meta.size, made)

        page = await cache.rendered(key, render)
        if now >= page.fresh_until:
            # made for a request just before this one, and past its time already (the
            # checkpoint expired meanwhile): this request's own, which says so
            page = await render()
    gzipped = accepts_gzip(request)
    etag = page.gzip_etag if gzipped else page.etag
    if not_modified(request, etag):
        vary = NEGOTIATED_VARY if negotiated else TWIN_VARY
        return Response(status_code=304, headers=_revalidate(etag, vary))
    return page.answer(gzipped, negotiated)


async def _queried_page(
    request: Request, storage_id: str, as_json: bool, negotiated: bool, query: PageQuery
) -> Response:
    record, lineage = await with_lineage(request, storage_id)
    now = store_of(request).now()
    headers = {"cache-control": "no-cache"}
    if negotiated:
        headers["vary"] = "Accept"
    gzip_wanted = accepts_gzip(request)

    def page() -> Response:
        # rendered, encoded and compressed in one turn of a worker thread (Precompressed)
        text, _ = _render_stored(request, record, lineage, as_json, now, query)
        if as_json:
            response = Response(text, media_type="application/json", headers=headers)
        else:
            response = HTMLResponse(text, headers=headers)
        return Precompressed(response, gzip_wanted=gzip_wanted)

    return await run_cpu(request, record.meta.size, page)


async def with_lineage(request: Request, storage_id: str) -> tuple[Found, StoredLineage]:
    """The stored record and what its lineage is by evidence: what every page of it reads."""
    record = await fetch(request, storage_id)
    return record, await store_call(request, stored_lineage, record.meta)


def checked(request: Request, record: Found, lineage: StoredLineage) -> LintResult:
    """The stored document's report: its analysis, and the pair with its parent when one was
    resolved (both analyses kept by digest)."""
    child = analysis_of(request, record)
    parent = lineage.parent.parent
    if parent is None:
        return LintResult(child)
    return LintResult(child, pair(child, analysis_of(request, parent)))


def _cached_page(
    request: Request, record: Found, lineage: StoredLineage, as_json: bool, now: datetime
) -> CachedPage:
    text, changes_at = _render_stored(request, record, lineage, as_json, now)
    body = text.encode("utf-8")
    fresh_until = record.meta.expires_at
    if changes_at is not None:
        fresh_until = min(fresh_until, datetime.fromisoformat(changes_at))
    media_type = "application/json" if as_json else "text/html; charset=utf-8"
    return cached_page(body, gzip_body(body), fresh_until, media_type)


def _render_stored(
    request: Request,
    record: Found,
    lineage: StoredLineage,
    as_json: bool,
    now: datetime,
    query: PageQuery = EVERY,
) -> tuple[str, str | None]:
    """The page or its JSON twin, and when its time-dependent content changes (or None)."""
    settings = settings_of(request)
    result = checked(request, record, lineage)
    name = f"checkpoint {record.meta.storage_id}"
    stored = stored_dict(request, record.meta, lineage, result)
    if as_json:
        body = checkpoint_json(name, result, settings.limits, now=now, query=query)
        body["stored"] = stored
        return json.dumps(body, ensure_ascii=False), body["view"]["changes_at"]
    view = page_view(result, settings.limits, now=now, query=query)
    # What "copy as Markdown" copies: the same text as /c/{id}.md, from this same view
    told = tracker_view(view, lineage)
    stored["markdown_text"] = summary_markdown(told, stored["permalink"])
    stored["badge_text"] = badge_message(told)[0]
    html = page_from_view(
        name, view, result, stored=stored, preview=preview_tags(request, record.meta, told)
    )
    return html, view["changes_at"]


def stored_dict(
    request: Request,
    meta: Meta,
    lineage: StoredLineage | None = None,
    result: LintResult | None = None,
) -> Data:
    """The stored checkpoint's metadata and links, and what its lineage is by evidence. Links
    only where the uploader proved it holds the other document (a storage id is the read
    capability); verified and claimed relations are named, never linked."""
    base = public_base(request)
    out = {
        **meta.to_dict(),
        "permalink": f"{base}/c/{meta.storage_id}",
        "raw": f"/c/{meta.storage_id}/raw",
        "lineage": f"/c/{meta.storage_id}/lineage",
        "badge": f"/c/{meta.storage_id}/badge.svg",
        "markdown": f"/c/{meta.storage_id}.md",
        "diff": None,
        "delete": f"/c/{meta.storage_id}/delete",
        "note": UNLISTED_NOTE,
        "parent": None,
        "newer": None,
    }
    if lineage is not None:
        resolution = lineage.parent
        digest = result.pair.digest.state if result is not None and result.pair else None
        linked = resolution.parent if resolution.linked else None
        out["parent"] = {
            "state": resolution.state,
            "sentence": parent_sentence(resolution, digest),
            "digest": digest,
            "compared": resolution.compared,
            "claimants": resolution.claimants,
            "link": f"/c/{linked.meta.storage_id}" if linked is not None else None,
        }
        if linked is not None:
            out["diff"] = f"/c/{meta.storage_id}/diff"
        out["newer"] = _newer_dict(lineage.newer)
    return out


def _newer_dict(descendants: Descendants) -> Data:
    """Newer checkpoints derived from this one (§10.3): linked ones with their links, the
    others counted by the evidence for them."""
    linked = [
        {
            "link": f"/c/{n.meta.storage_id}",
            "created_at": n.meta.created_at,
            "task_status": n.meta.task_status if n.meta.task_status in TASK_STATUSES else None,
            "derivation_method": n.meta.derivation_method,
        }
        for n in descendants.of("linked")
    ]
    verified, claimed = len(descendants.of("verified")), len(descendants.of("claimed"))
    sentences = []
    if verified:
        sentences.append(
            f"{verified} stored checkpoint{'s' if verified != 1 else ''} record"
            f"{'' if verified != 1 else 's'} these exact bytes as its parent (parent.digest) "
            f"but {'were' if verified != 1 else 'was'} not shared with a link to this one."
        )
    if claimed:
        sentences.append(
            f"{claimed} stored checkpoint{'s' if claimed != 1 else ''} "
            f"name{'' if claimed != 1 else 's'} this checkpoint's id as parent.id, with nothing "
            "to verify it."
        )
    return {
        "linked": linked,
        "verified": verified,
        "claimed": claimed,
        "truncated": descendants.truncated,
        "any": bool(linked or verified or claimed),
        "sentences": sentences,
    }


def tracker_view(view: Mapping[str, Any], lineage: StoredLineage) -> dict[str, Any]:
    """The view as the badge, the Markdown, the link preview and the page's title read it:
    with whether a newer checkpoint of its lineage is stored (app/render/tracker.py NEWER)."""
    return {**view, NEWER: bool(lineage.newer.newer)}


def preview_tags(request: Request, meta: Meta, view: Mapping[str, Any]) -> Data:
    """Open Graph / Twitter card values: the verdict and the counts of what must be verified
    first, never document text, so a link preview leaks nothing of the checkpoint; the card's
    picture (/c/{id}/preview.png) says the same."""
    permalink = f"{public_base(request)}/c/{meta.storage_id}"
    return {
        "title": preview_title(view),
        "description": preview_description(view),
        "url": permalink,
        "image": f"{permalink}/preview.png",
        "image_alt": preview_title(view),
    }


async def source(request: Request) -> Response:
    """GET /c/{id}/source: every line of the stored document, numbered and redacted as its
    page lists them; the checkpoint page of a long document lists only some and links here."""
    record, lineage = await with_lineage(request, request.path_params["storage_id"])
    now = store_of(request).now()

    def page() -> str:
        listing = build_listing(checked(request, record, lineage), now, PAGE_LIST_LIMIT)
        return render(
            "source.html",
            storage_id=record.meta.storage_id,
            permalink=f"{public_base(request)}/c/{record.meta.storage_id}",
            source=listing,
            redacted=REDACTED,
        )

    html = await run_cpu(request, record.meta.size, page)
    return HTMLResponse(html, headers={"cache-control": "no-cache"})


async def raw(request: Request) -> Response:
    """GET /c/{id}/raw: exactly the stored bytes."""
    record = await fetch(request, request.path_params["storage_id"])
    etag = etag_of(record.data)
    headers = {
        "etag": etag,
        "cache-control": "no-cache",  # revalidate: expiry and deletion must take effect
        "content-disposition": f'inline; filename="{record.meta.storage_id}.ocp.json"',
    }
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(record.data, media_type=OCP_MEDIA_TYPE, headers=headers)


# --- deleting -------------------------------------------------------------------------------


async def api_delete(request: Request) -> Response:
    """DELETE /api/v1/checkpoints/{id} with the deletion token as a bearer token."""
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else ""
    outcome = await _delete(request, request.path_params["storage_id"], token)
    return JSONResponse({"ok": True, "status": 200, "deleted": outcome == DeleteOutcome.DELETED})


async def delete_form(request: Request) -> Response:
    """GET /c/{id}/delete shows the form, saying what it deletes; POST deletes with the token
    typed into it and confirms it. A wrong or missing token shows the form again, with why."""
    storage_id = request.path_params["storage_id"]
    record = await fetch(request, storage_id)
    meta = stored_dict(request, record.meta)
    if request.method == "GET":
        return HTMLResponse(render("delete.html", stored=meta, message=None), headers=NO_STORE)
    try:
        form = await request.form(max_files=0, max_fields=4)
    except (PayloadTooLarge, BodyTooSlow, EncodedBody):
        raise
    except Exception:  # python-multipart's errors differ by version; all mean bad input
        raise BadRequest("the form could not be read; send it again from the page") from None
    token = (_text(form.get("token")) or "").strip()
    try:
        await _delete(request, storage_id, token)
    except HTTPException as exc:
        if exc.status_code not in (401, 403):
            raise
        return HTMLResponse(
            render("delete.html", stored=meta, message=str(exc.detail)),
            status_code=exc.status_code,
            headers={**NO_STORE, **(exc.headers or {})},
        )
    return HTMLResponse(render("deleted.html", stored=meta), headers=NO_STORE)


async def _delete(request: Request, storage_id: str, token: str) -> DeleteOutcome:
    if not token:
        raise HTTPException(
            401,
            "give the deletion token you received when you shared it",
            headers=bearer_challenge("delete"),
        )
    outcome: DeleteOutcome = await store_call(request, "delete", storage_id, token)
    if outcome == DeleteOutcome.WRONG_TOKEN:
        raise HTTPException(403, "that is not the deletion token of this checkpoint")
    if outcome == DeleteOutcome.NOT_FOUND:
        raise HTTPException(404, "there is no stored checkpoint at this address")
    if outcome == DeleteOutcome.GONE:
        raise HTTPException(410, "this checkpoint has already expired or been deleted")
    request.app.state.page_cache.forget(storage_id)
    return outcome


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _readable(moment: datetime) -> str:
    """A moment of this service's own as a person reads it: ``2026-12-03 15:24:05 UTC``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
