"""The web service: `create_app(settings)` builds the Starlette application.

This package is the only place that imports Starlette and Jinja2; the core under `app/`
stays usable from the CLI and tests without them."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from app.config import Settings
from app.web import views
from app.web.bodies import BodyLimitMiddleware
from app.web.errors import EXCEPTION_HANDLERS
from app.web.security import SecurityHeadersMiddleware
from app.web.templating import STATIC

SCHEMA_ROUTE = "/schema/opencheckpoint-0.1.schema.json"  # the path of the schema's $id


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    # A form can carry the checkpoint and its parent, plus multipart framing.
    max_body = 2 * settings.limits.max_bytes + 64 * 1024
    routes = [
        Route("/", views.index, name="index"),
        Route("/healthz", views.healthz, name="healthz"),
        Route("/view", views.view, methods=["POST"], name="view"),
        Route("/view.json", views.view, methods=["POST"], name="view_json"),
        Route("/live", views.live_panel, methods=["POST"], name="live"),
        Route("/api/v1/lint", views.api_lint, methods=["POST"], name="api_lint"),
        Route("/rules", views.rules_index, name="rules"),
        Route("/rules.json", views.rules_index, name="rules_json"),
        Route("/rules/{code}", views.rule_page, name="rule"),
        Route(SCHEMA_ROUTE, views.schema, name="schema"),
        Route("/favicon.ico", views.favicon, name="favicon"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityHeadersMiddleware),
            Middleware(BodyLimitMiddleware, max_body=max_body),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.settings = settings
    return app
