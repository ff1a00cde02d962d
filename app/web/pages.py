"""The checkpoint page and its JSON twin, from a lint result: shared by the service's views
and by `ocp render`, which writes the page as one self-contained file."""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime

from markupsafe import Markup

from app.lint import LintResult, lint
from app.parse import DEFAULT_LIMITS, Limits
from app.render import build_view, hidden_key
from app.report import VALIDITY_NOTE, result_dict, tool_info
from app.web.templating import STATIC, render


def checkpoint_json(name: str, result: LintResult, limits: Limits = DEFAULT_LIMITS) -> dict:
    """The JSON twin of the checkpoint page: the lint report and the page's render model,
    with every item of every list."""
    return {
        "tool": tool_info(),
        "note": VALIDITY_NOTE,
        "report": result_dict(name, result),
        "view": _view(result, limits),
    }


def _view(result: LintResult, limits: Limits, list_limit: int | None = None) -> dict:
    parent = None
    if result.parent is not None:
        # The render model compares with the parent as a lint result; its bytes already
        # passed intake under the same limits.
        parent = lint(result.parent.data, limits=limits)
    return build_view(result, now=datetime.now(UTC), parent=parent, list_limit=list_limit)


def checkpoint_html(
    name: str,
    result: LintResult,
    limits: Limits = DEFAULT_LIMITS,
    *,
    standalone: bool = False,
    public_url: str = "",
    stored: dict | None = None,
    preview: dict | None = None,
    upload_token_required: bool = False,
) -> str:
    """The checkpoint page. ``standalone``: one file with its CSS inlined and no script, for
    attaching to a ticket or an email; links to rule pages then point at ``public_url``."""
    view = _view(result, limits, list_limit=PAGE_LIST_LIMIT)
    return page_from_view(
        name,
        view,
        result,
        standalone=standalone,
        public_url=public_url,
        stored=stored,
        preview=preview,
        upload_token_required=upload_token_required,
    )


def page_from_view(
    name: str,
    view: dict,
    result: LintResult,
    *,
    standalone: bool = False,
    public_url: str = "",
    stored: dict | None = None,
    preview: dict | None = None,
    upload_token_required: bool = False,
) -> str:
    """The templates' part of the page, from a render model already built."""
    view = for_page(view)
    shareable = not standalone and stored is None and _shareable(result)
    context: dict = {
        "name": name,
        "view": view,
        "link_base": public_url.rstrip("/") if standalone else "",
        "stored": stored,
        "preview": preview,
        "shareable": shareable,
        # The exact bytes for the Share form: base64, as a textarea would turn line breaks
        # into CRLF.
        "source_b64": base64.b64encode(result.data).decode() if shareable else None,
        "upload_token_required": upload_token_required,
    }
    if standalone:
        css = (STATIC / "app.css").read_text(encoding="utf-8")
        print_css = (STATIC / "print.css").read_text(encoding="utf-8")
        inline = f"{css}\n@media print {{\n{print_css}\n}}\n"
        digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
        context.update(
            standalone=True,
            # Our own stylesheet, not document data: the one string this page does not escape.
            inline_css=Markup(inline),
            csp=f"default-src 'none'; style-src 'sha256-{digest}'; img-src data:; "
            "base-uri 'none'; form-action 'none'",
        )
    return render("checkpoint.html", **context)


def _shareable(result: LintResult) -> bool:
    """Only a document that parsed and shows no credential can be stored (§10.5)."""
    return result.document is not None and not result.secrets


# How many items of one list the HTML page shows. A reviewer reads a few hundred objects, not
# thousands, and each costs template time; the JSON twin always has every one.
PAGE_LIST_LIMIT = 150


def for_page(view: dict) -> dict:
    """The render model with each long list cut to PAGE_LIST_LIMIT, and the number left out
    recorded beside it as ``<name>_hidden`` (``hidden`` for a list called ``items``).

    A model built with ``list_limit`` already has its operations, statements, progress and
    resources cut that way (building them is most of the model's cost); this cuts the rest."""
    out = dict(view)
    for key, lists in _LISTS.items():
        section = out.get(key)
        if isinstance(section, dict):
            out[key] = _cut(section, lists)
    return out


# section -> the lists it holds; a (name, lists) pair descends into each element of a list.
_LISTS: dict[str, tuple] = {
    "findings": ("items",),
    "before_continuing": (("groups", ("items",)),),
    "statements": (("groups", (("by_origin", ("items",)),)),),
    "operations": (("groups", ("items",)),),
    "progress": ("completed", "next"),
    "resources": ("items",),
    "application_context": ("items",),
    "extensions": ("items",),
    "continuation": (
        "requirements",
        "preconditions",
        "stop_conditions",
        "recovery",
        "incompatibilities",
    ),
    "derivation": ("inputs", "omissions", "transformations"),
}


def _cut(container: dict, lists: tuple) -> dict:
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
