"""The web service: `create_app(settings)` builds the Starlette application.

This package is the only place that imports Starlette and Jinja2; the core under `app/`
stays usable from the CLI and tests without them."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime
from typing import NoReturn

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.config import Settings
from app.store import Store, StoreUnavailable, open_store
from app.web import assets, diffs, guard, lineage, listing, openapi, stored, trackers, views
from app.web.analyses import AnalysisCache
from app.web.bodies import BodyLimitMiddleware
from app.web.cache_policy import CachePolicyMiddleware
from app.web.compression import CompressionMiddleware
from app.web.cors import ReadOnlyCORSMiddleware
from app.web.errors import EXCEPTION_HANDLERS
from app.web.mounts import Mount
from app.web.security import SecurityHeadersMiddleware
from app.web.tagging import EntityTagMiddleware
from app.web.work import CpuLanes

SCHEMA_ROUTE = "/schema/opencheckpoint-0.1.schema.json"  # the path of the schema's $id
STORE_RETRY = 1.0  # seconds between attempts to open a store that was unavailable at start-up
STORE_RETRY_AFTER_ERROR = 30.0  # … and after any other error (logged each time)
log = logging.getLogger("ocp.web")
Endpoint = Callable[[Request], Awaitable[Response]]


def create_app(
    settings: Settings | None = None,
    *,
    clock: Callable[[], datetime] | None = None,
    mounts: Sequence[Mount] = (),
) -> Starlette:
    """The service. ``mounts``: what else it serves, each with its routes and its lifetime (`ocp
    serve` adds the MCP server at /mcp: app/mcp_http.py)."""
    settings = settings or Settings.from_env()
    routes = [
        # First: Starlette tries each route in turn, and a popular permalink, the most frequent
        # request by far, was the nineteenth. No route but those under /c/ matches a path
        # there, and these keep their order among themselves, so nothing else changes.
        Route("/c/{storage_id}.json", stored.permalink, name="permalink_json"),
        Route("/c/{storage_id}.md", trackers.markdown, name="permalink_markdown"),
        Route("/c/{storage_id}/badge.svg", trackers.badge, name="badge"),
        Route("/c/{storage_id}/preview.png", trackers.preview_image, name="preview_image"),
        Route("/c/{storage_id}", stored.permalink, name="permalink"),
        Route("/c/{storage_id}/raw", stored.raw, name="raw"),
        Route("/c/{storage_id}/source", stored.source, name="source"),
        Route("/", views.index, name="index"),
        Route("/healthz", views.healthz, name="healthz"),
        Route("/readyz", stored.readyz, name="readyz"),
        Route("/view", views.view, methods=["POST"], name="view"),
        Route("/example", views.example, name="example"),
        Route("/view.json", views.view, methods=["POST"], name="view_json"),
        Route("/live", views.live_panel, methods=["POST"], name="live"),
        Route("/share", stored.share, methods=["POST"], name="share"),
        Route("/api/v1/openapi.json", openapi.openapi_json, name="openapi"),
        # Where tools look first (schemathesis, Swagger UI, `redocly lint URL`): the same
        # answer, not a redirect, since a client that follows none still gets it, and its
        # servers[] are absolute, so nothing in it resolves against where it was read.
        Route("/openapi.json", openapi.openapi_json, name="openapi_root"),
        Route("/api/v1/lint", views.api_lint, methods=["POST"], name="api_lint"),
        Route("/api/v1/guard", guard.api_guard, methods=["POST"], name="api_guard"),
        by_method(
            "/api/v1/checkpoints", "api_checkpoints", POST=stored.api_store, GET=listing.api_list
        ),
        Route(
            "/api/v1/checkpoints/{storage_id}",
            stored.api_delete,
            methods=["DELETE"],
            name="api_delete",
        ),
        Route("/c/{storage_id}/diff.json", diffs.stored_diff, name="diff_stored_json"),
        Route("/c/{storage_id}/diff.patch", diffs.stored_diff, name="diff_stored_patch"),
        Route("/c/{storage_id}/diff", diffs.stored_diff, name="diff_stored"),
        by_method("/diff", "diff", GET=diffs.any_two, POST=diffs.pasted),
        by_method("/diff.json", "diff_json", GET=diffs.any_two, POST=diffs.pasted),
        Route("/diff.patch", diffs.any_two, methods=["GET"], name="diff_any_patch"),
        Route("/c/{storage_id}/lineage.json", lineage.lineage_page, name="lineage_json"),
        Route("/c/{storage_id}/lineage", lineage.lineage_page, name="lineage"),
        Route("/c/{storage_id}/delete", stored.delete_form, methods=["GET", "POST"], name="delete"),
        Route("/rules", views.rules_index, name="rules"),
        Route("/rules.json", views.rules_index, name="rules_json"),
        Route("/rules/{code}", views.rule_page, name="rule"),
        Route(SCHEMA_ROUTE, views.schema, name="schema"),
        Route("/favicon.ico", assets.favicon, name="favicon"),
        Route("/static/{path:path}", assets.static, name="static"),
        *(route for mount in mounts for route in mount.routes),
    ]

    def open_now() -> Store:
        return open_store(
            settings.database_url,
            clock=clock,
            retention=settings.retention,
            timeout=settings.store_timeout,
            pool_size=settings.store_pool_size,
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Store calls get threads of their own, as many as the database has connections: in
        # an outage each may wait the whole store timeout, and they must not take the
        # threads that linting and rendering run on.
        app.state.store_slots = anyio.CapacityLimiter(settings.store_pool_size)
        app.state.store_threads = anyio.CapacityLimiter(settings.store_pool_size)
        try:
            app.state.store = await anyio.to_thread.run_sync(open_now)
        except StoreUnavailable as exc:
            # One of several instances, (re)started during a database outage: it starts
            # anyway, serves what needs no store, answers 503 for the rest, and keeps trying.
            log.warning("the store is unavailable at start-up, opening it later: %s", exc)
            app.state.store = NotOpenYet(retention=settings.retention)
        try:
            async with contextlib.AsyncExitStack() as stack:
                for mount in mounts:
                    await stack.enter_async_context(mount.running())
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(_open_then_sweep, app, open_now, settings.purge_interval)
                    yield
                    tasks.cancel_scope.cancel()
        finally:
            await anyio.to_thread.run_sync(app.state.store.close)

    app = Starlette(
        routes=routes,
        middleware=[
            # Outside the tags: the 304s made there carry the policy and Vary too.
            Middleware(CachePolicyMiddleware),
            # Outside the gzip: each coding's bytes have their own tag.
            Middleware(EntityTagMiddleware),
            Middleware(CompressionMiddleware),
            Middleware(SecurityHeadersMiddleware),
            # Inside the security headers, so a preflight it answers carries them too.
            Middleware(ReadOnlyCORSMiddleware, origins=settings.cors_origins),
            Middleware(
                BodyLimitMiddleware,
                max_document=settings.limits.max_bytes,
                timeout=settings.body_timeout,
                pair_paths=frozenset().union(*(mount.pair_paths for mount in mounts)),
            ),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.page_cache = stored.PageCache()
    app.state.analyses = AnalysisCache(settings.limits)
    app.state.cpu_lanes = CpuLanes()
    for mount in mounts:
        mount.bind(app)
    return app


def by_method(path: str, name: str, **endpoints: Endpoint) -> Route:
    """One route for a path that several methods share, so a 405 names them all in Allow
    (Starlette answers from the first route whose path matches)."""

    async def endpoint(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method  # Starlette adds HEAD
        return await endpoints[method](request)

    return Route(path, endpoint, methods=list(endpoints), name=name)


class NotOpenYet(Store):
    """Stands in for a store that could not be opened at start-up: every call is
    StoreUnavailable (503 with Retry-After) until ``_open_then_sweep`` replaces it."""

    backend = "not open yet"

    def _unavailable(self, *args: object, **kwargs: object) -> NoReturn:
        raise StoreUnavailable("the store could not be opened yet; the service keeps trying")

    put = get = delete = purge_expired = _unavailable
    by_checkpoint_id = children = list_lineage = ping = _unavailable
    by_digest = derived_from = claiming_digest = meta = deletion_token_holder = _unavailable
    usage = _unavailable

    def close(self) -> None:
        pass


async def _open_then_sweep(app: Starlette, open_now: Callable[[], Store], interval: float) -> None:
    """Open the store if start-up could not (every ``STORE_RETRY`` seconds), then sweep."""

    def attempt() -> None:
        # Set in the worker thread, so a store opened while shutdown waits is still closed.
        app.state.store = open_now()

    while isinstance(app.state.store, NotOpenYet):
        try:
            await anyio.to_thread.run_sync(attempt)
            log.info("the store is open")
        except StoreUnavailable as exc:
            log.debug("the store is still unavailable: %s", exc)
            await anyio.sleep(STORE_RETRY)
        except Exception:  # a setting or schema it cannot start with: say so, keep trying
            log.exception("the store cannot be opened")
            await anyio.sleep(STORE_RETRY_AFTER_ERROR)
    await _sweep_forever(app.state.store, interval)


async def _sweep_forever(store: Store, interval: float) -> None:
    """Purge expired checkpoints at start-up and then every ``interval`` seconds."""
    while True:
        try:
            purged = await anyio.to_thread.run_sync(store.purge_expired)
            if purged:
                log.info("purged %d expired checkpoints", purged)
        except StoreUnavailable:
            log.warning("the store is unavailable; the sweep will try again")
        await anyio.sleep(interval)
