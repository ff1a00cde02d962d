"""What an issue tracker fetches of a stored checkpoint (issue 27):

- ``GET /c/{id}/badge.svg``: the verdict and how many things must be verified first, as an SVG
  badge an issue or a README embeds. A checkpoint that expired or was deleted gets a badge
  saying so (a 404 would show a broken image in every ticket that embeds it).
- ``GET /c/{id}.md``: the verdict, the summary's lines and links to the permalink and to each
  object's card, to paste into a ticket.

Both are made by `app.render.tracker` from the page's own render model, so they say what the
page says; neither carries document text.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from app.render.preview_image import preview_png
from app.render.tracker import GREY, badge_message, badge_svg, card_words, summary_markdown
from app.web.caching import etag_of, not_modified
from app.web.pages import page_view
from app.web.stored import GoneError, checked, store_of, tracker_view, with_lineage
from app.web.urls import public_base
from app.web.views import settings_of
from app.web.work import run_cpu

Data = dict[str, Any]
# A capability's page: no shared cache keeps it (RFC 9111 §5.2.2.7), and every use revalidates
TRACKER_CACHE = "private, no-cache"
SVG = "image/svg+xml"
MARKDOWN = "text/markdown; charset=utf-8"
PNG = "image/png"


async def _view_of(request: Request, storage_id: str) -> tuple[str, Data]:
    record, lineage = await with_lineage(request, storage_id)
    now: datetime = store_of(request).now()
    limits = settings_of(request).limits

    def build() -> Data:
        return tracker_view(page_view(checked(request, record, lineage), limits, now=now), lineage)

    view = await run_cpu(request, record.meta.size, build)
    return f"{public_base(request)}/c/{record.meta.storage_id}", view


async def badge(request: Request) -> Response:
    """GET /c/{id}/badge.svg. A checkpoint that expired or was deleted, or an id that names
    nothing, still gets a badge (grey, saying so): a ticket that embeds it shows why."""
    try:
        _, view = await _view_of(request, request.path_params["storage_id"])
    except GoneError as gone:
        what = "expired" if gone.gone.reason == "expired" else "deleted"
        return _answer(request, badge_svg(what, GREY), SVG)
    except HTTPException as exc:
        if exc.status_code != 404:
            raise
        return _answer(request, badge_svg("not found", GREY), SVG, status=404)
    message, colour = badge_message(view)
    return _answer(request, badge_svg(message, colour), SVG)


async def preview_image(request: Request) -> Response:
    """GET /c/{id}/preview.png: the link-preview card a chat app shows (og:image)."""
    _, view = await _view_of(request, request.path_params["storage_id"])
    verdict, headline, lines, band = card_words(view)
    body = await run_cpu(request, 0, preview_png, verdict, headline, lines, band)
    return _answer_bytes(request, body, PNG)


async def markdown(request: Request) -> Response:
    """GET /c/{id}.md."""
    permalink, view = await _view_of(request, request.path_params["storage_id"])
    return _answer(request, summary_markdown(view, permalink), MARKDOWN)


def _answer(request: Request, text: str, media_type: str, status: int = 200) -> Response:
    return _answer_bytes(request, text.encode("utf-8"), media_type, status)


def _answer_bytes(request: Request, body: bytes, media_type: str, status: int = 200) -> Response:
    """The body with its entity tag; 304 when the client holds it already. Revalidated every
    time, as the page is: expiry and deletion must show at once."""
    etag = etag_of(body)
    headers = {"cache-control": TRACKER_CACHE, "etag": etag}
    if status == 200 and not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, status, media_type=media_type, headers=headers)
