"""The checkpoint page and its JSON twin, from a lint result: shared by the service's views
and by `ocp render`, which writes the page as one self-contained file."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from markupsafe import Markup

from app.analysis import LintResult
from app.parse import DEFAULT_LIMITS, Limits
from app.render import CheckpointView, build_view, hidden_key
from app.render.checklist import CHECKLIST_NAMED
from app.render.model import CARD_LISTS
from app.render.query import EVERY, PageQuery
from app.render.search import search_view
from app.report import VALIDITY_NOTE, result_dict, tool_info
from app.resources import static_text
from app.visible import may_decode_to_controls
from app.web.carried import carry
from app.web.templating import render

# A part of the render model or of the diff: plain JSON-like data (the JSON twin serializes it as
# is; templates read it by key).
Model = dict[str, Any]


def checkpoint_json(
    name: str,
    result: LintResult,
    limits: Limits = DEFAULT_LIMITS,
    *,
    now: datetime | None = None,
    query: PageQuery = EVERY,
) -> Model:
    """The JSON twin of the checkpoint page: the lint report and the page's render model,
    with every item of every list (the statements its query lists)."""
    return {
        "tool": tool_info(),
        "note": VALIDITY_NOTE,
        "report": result_dict(name, result),
        "view": _view(result, now=now, query=query),
    }


def page_view(
    result: LintResult,
    limits: Limits,
    *,
    now: datetime | None = None,
    query: PageQuery = EVERY,
) -> CheckpointView:
    """The render model as the HTML page shows it (lists cut to PAGE_LIST_LIMIT)."""
    return _view(result, list_limit=PAGE_LIST_LIMIT, now=now, query=query)


def _view(
    result: LintResult,
    list_limit: int | None = None,
    now: datetime | None = None,
    query: PageQuery = EVERY,
) -> CheckpointView:
    moment = now if now is not None else datetime.now(UTC)
    if not query.text:
        return build_view(result, now=moment, list_limit=list_limit, query=query)
    # A search reads every card, not the first PAGE_LIST_LIMIT of each list: the HTML page
    # then cuts what matched (`for_page`), as it cuts any list.
    return search_view(build_view(result, now=moment, query=query), query.text)


def checkpoint_html(
    name: str,
    result: LintResult,
    limits: Limits = DEFAULT_LIMITS,
    *,
    standalone: bool = False,
    public_url: str | None = None,
    stored: Model | None = None,
    preview: Model | None = None,
    upload_token_required: bool = False,
    notes: Sequence[str] = (),
    query: PageQuery = EVERY,
    share_again: Model | None = None,
) -> str:
    """The checkpoint page. ``standalone``: one file with its CSS inlined and no script, for
    attaching to a ticket or an email; links to rule pages then point at ``public_url``.
    ``share_again``: why sharing it failed (``problem``) and what the Share form had
    (``parent_link``), so the form is shown again, refilled, with the problem beside it."""
    view = page_view(result, limits, query=query)
    return page_from_view(
        name,
        view,
        result,
        standalone=standalone,
        public_url=public_url,
        stored=stored,
        preview=preview,
        upload_token_required=upload_token_required,
        notes=notes,
        share_again=share_again,
    )


def page_from_view(
    name: str,
    view: CheckpointView,
    result: LintResult,
    *,
    standalone: bool = False,
    public_url: str | None = None,
    stored: Model | None = None,
    preview: Model | None = None,
    upload_token_required: bool = False,
    notes: Sequence[str] = (),
    share_again: Model | None = None,
) -> str:
    """The templates' part of the page, from a render model already built."""
    shown = for_page(view)
    share = share_state(result, standalone=standalone, stored=stored is not None)
    context: Model = {
        "name": name,
        "view": shown,
        # Where the site's links point: this service (""), a service named for a standalone
        # file, or nowhere (None: a file written with no service to link to).
        "link_base": (public_url.rstrip("/") if public_url else None) if standalone else "",
        "stored": stored,
        "preview": preview,
        "share": share,
        # How the page's own controls (a list's next statements, the statement filter) move
        # without JavaScript: "link", to the same address with other parameters (a stored
        # page); "form", sending the page's Share form, which carries the document, back to
        # /view; None where neither can (a file written by `ocp render`, a page that holds a
        # credential and so carries no copy).
        "nav": "link" if stored is not None else "form" if share == "form" else None,
        # the diff page of a stored child, where each card's change since the parent is
        "diff_base": stored.get("diff") if stored is not None else None,
        # The exact bytes for the Share form (app/web/carried.py), and the parent's, so
        # sharing stores both and the child links its parent
        "share_fields": _share_fields(result, name) if share == "form" else [],
        "shares_parent": share == "form" and _shares_parent(result),
        # A child shared alone can still be linked to a parent shared before: its uploader
        # gives the parent's permalink, which proves they hold it.
        "asks_parent_link": (
            share == "form"
            and isinstance((result.document or {}).get("parent"), dict)
            and (result.parent is None or result.parent.document is None)
        ),
        "upload_token_required": upload_token_required,
        # what the form's handling says of the submission (which input was checked)
        "notes": list(notes),
        # why sharing failed, and the Share form's own fields to refill
        "share_again": share_again,
        # how many cards of one list the page shows, which a search note names when it cut one
        "page_list_limit": PAGE_LIST_LIMIT,
    }
    if standalone:
        inline = f"{static_text('app.css')}\n@media print {{\n{static_text('print.css')}\n}}\n"
        digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
        context.update(
            standalone=True,
            # Our own stylesheet, not document data: the one string this page does not escape.
            inline_css=Markup(inline),
            csp=f"default-src 'none'; style-src 'sha256-{digest}'; img-src data:; "
            "base-uri 'none'; form-action 'none'",
        )
    # the page shows the document, its parent's, and the file name: where none of them can
    # hold a terminal control, the page is not searched for one
    parent = result.parent
    scan = (
        result.analysis.may_hold_controls
        or (parent is not None and parent.may_hold_controls)
        or may_decode_to_controls(name.encode("utf-8", "surrogatepass"))
    )
    return render("checkpoint.html", scan_controls=scan, **context)


def share_state(result: LintResult, *, standalone: bool, stored: bool) -> str | None:
    """What the page's share box says: ``stored`` (its permalink), ``form`` (the Share
    button), ``credential`` (why it cannot be stored, §10.5), or None: no box at all, on a
    standalone file (`ocp render`, nothing to share it with) and for bytes that are not JSON."""
    if standalone:
        return None
    if stored:
        return "stored"
    if result.document is None:
        return None
    return "credential" if result.secrets else "form"


# How many items of one list the HTML page shows. A reviewer reads a few hundred objects, not
# thousands, and each costs template time; the JSON twin always has every one.
PAGE_LIST_LIMIT = 150


def for_page(view: CheckpointView) -> Model:
    """The render model with each long list cut to PAGE_LIST_LIMIT, and the number left out
    recorded beside it as ``<name>_hidden`` (``hidden`` for a list called ``items``).

    A model built with ``list_limit`` already has its findings, operations, statements,
    progress and resources cut that way (building them is most of the model's cost); this
    cuts the rest."""
    out: Model = dict(view)
    for key, lists in _LISTS.items():
        section = out.get(key)
        if isinstance(section, dict):
            out[key] = _cut(section, lists)
    checklist = out.get("before_continuing")
    if isinstance(checklist, dict):
        out["before_continuing"] = {
            **checklist,
            "groups": [_named_first(g) for g in checklist.get("groups", [])],
        }
    return out


# The checklist names the first few of each step and links to the cards of the rest: each
# object is shown once, in its section (a checklist of 150 operations was a second copy of
# the operations section, a fifth of a long page). The model names only so many of some steps
# already (app/render/checklist.py).
CHECKLIST_SHOWN = CHECKLIST_NAMED
# where the cards of each step's objects are
CHECKLIST_CARDS = {
    "stop_conditions": ("continuation", "Continuation"),
    "incompatibilities": ("continuation", "Continuation"),
    "requirements": ("continuation", "Continuation"),
    "preconditions": ("continuation", "Continuation"),
    "resources": ("resources", "Resources"),
    "statements": ("statements", "Statements"),
    "operations": ("operations", "Operations"),
}


def _named_first(group: Model) -> Model:
    cards = CHECKLIST_CARDS.get(str(group.get("key")))
    items = group.get("items")
    if cards is None or not isinstance(items, list):
        return group
    # (the model names only the first of some steps already, and counts the rest)
    hidden = max(0, len(items) - CHECKLIST_SHOWN) + int(group.get("hidden", 0) or 0)
    if not hidden:
        return group
    anchor, title = cards
    return {
        **group,
        "items": items[:CHECKLIST_SHOWN],
        "hidden": hidden,
        "more_anchor": anchor,
        "more_title": title,
    }


# section -> the lists it holds; a (name, lists) pair descends into each element of a list.
_LISTS: dict[str, tuple[Any, ...]] = {
    "findings": ("items",),
    "before_continuing": (("groups", ("items",)),),
    "statements": (("groups", (("by_origin", ("items",)),)),),
    "operations": (("groups", ("items",)),),
    # the page lists the session refs whole, as it always has
    **{key: lists for key, lists in CARD_LISTS.items() if key != "session_refs"},
}


def _cut(container: Model, lists: tuple[Any, ...]) -> Model:
    out = dict(container)
    for spec in lists:
        if isinstance(spec, tuple):
            name, inner = spec
            if isinstance(out.get(name), list):
                out[name] = [_cut(x, inner) if isinstance(x, dict) else x for x in out[name]]
            continue
        items = out.get(spec)
        if isinstance(items, list) and len(items) > PAGE_LIST_LIMIT:
            out[spec] = items[:PAGE_LIST_LIMIT]
            out[hidden_key(spec)] = len(items) - PAGE_LIST_LIMIT
    return out


def _shares_parent(result: LintResult) -> bool:
    parent = result.parent
    return parent is not None and not parent.secrets and parent.document is not None


def _share_fields(result: LintResult, name: str) -> list[tuple[str, str]]:
    """The Share form's hidden fields: the checkpoint's bytes and, when it can be stored with
    it, its parent's; and the name the page shows, for the page's own buttons that send the
    same form back to /view (a list's next statements, a filter) without JavaScript."""
    fields = [carry("checkpoint", result.data), ("name", name)]
    if result.parent is not None and _shares_parent(result):
        fields.append(carry("parent", result.parent.data))
    return fields
