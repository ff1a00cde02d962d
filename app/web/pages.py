"""The checkpoint page and its JSON twin, from a lint result: shared by the service's views
and by `ocp render`, which writes the page as one self-contained file."""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime

from markupsafe import Markup

from app.lint import LintResult, lint
from app.parse import DEFAULT_LIMITS, Limits
from app.render import build_view
from app.report import VALIDITY_NOTE, result_dict, tool_info
from app.web.templating import STATIC, render


def checkpoint_json(name: str, result: LintResult, limits: Limits = DEFAULT_LIMITS) -> dict:
    """The JSON twin of the checkpoint page: the lint report and the page's render model."""
    parent = None
    if result.parent is not None:
        # The render model compares with the parent as a lint result; its bytes already
        # passed intake under the same limits.
        parent = lint(result.parent.data, limits=limits)
    return {
        "tool": tool_info(),
        "note": VALIDITY_NOTE,
        "report": result_dict(name, result),
        "view": build_view(result, now=datetime.now(UTC), parent=parent),
    }


def checkpoint_html(
    name: str,
    result: LintResult,
    limits: Limits = DEFAULT_LIMITS,
    *,
    standalone: bool = False,
    public_url: str = "",
) -> str:
    """The checkpoint page. ``standalone``: one file with its CSS inlined and no script, for
    attaching to a ticket or an email; links to rule pages then point at ``public_url``."""
    view = checkpoint_json(name, result, limits)["view"]
    if not standalone:
        return render("checkpoint.html", name=name, view=view, link_base="")
    css = (STATIC / "app.css").read_text(encoding="utf-8")
    print_css = (STATIC / "print.css").read_text(encoding="utf-8")
    inline = f"{css}\n@media print {{\n{print_css}\n}}\n"
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    return render(
        "checkpoint.html",
        name=name,
        view=view,
        link_base=public_url.rstrip("/"),
        standalone=True,
        # Our own stylesheet, not document data: the one string this page does not escape.
        inline_css=Markup(inline),
        csp=f"default-src 'none'; style-src 'sha256-{digest}'; img-src data:; base-uri 'none'; "
        "form-action 'none'",
    )
