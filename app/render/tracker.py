"""What an issue tracker shows of a checkpoint (issue 27), as text made from its render model:
an SVG badge and a Markdown summary. `app.web.trackers` serves them; the stored page's "copy
as Markdown" button copies the same Markdown.

Neither says anything of the document's text. Both are built from fixed words, counts and the
ids of the objects the summary names, and only ids of the local-id shape (§4.1) are written;
any other is "(an object)". So the Markdown renders, in any CommonMark renderer, to no link but
to this service, no image but the badge, and no raw HTML, whatever the document holds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.layout import TASK_STATUSES
from app.report import VERDICT_INVALID, VERDICT_VALID
from app.schema_patterns import is_local_id

Data = dict[str, Any]
# Characters with a meaning in Markdown, escaped in the fixed words (which hold none of
# them today: the escaping is what keeps it so).
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()<>#+!|~&])")
_ADDRESS_LIKE = re.compile(r"[.:]")
GREY = "#6a737d"  # a badge for a checkpoint that is no longer kept, or never was


# The member a stored page's view is given (app/web/stored.py `tracker_view`): whether a
# newer checkpoint of its lineage is stored, which whoever sees the ticket must read first
# (§10.3), as the page's summary says first.
NEWER = "newer_stored"


def lost_since_parent(view: Mapping[str, Any]) -> int:
    """How many of the parent's objects in force the child dropped, rewrote, weakened or
    withdrew (the summary's "Since the parent", named and counted)."""
    since = (view.get("summary") or {}).get("since_parent") or {}
    return len(since.get("items") or []) + int(since.get("more") or 0)


def must_verify(view: Mapping[str, Any]) -> int:
    """How many things the summary says to verify before continuing: its lines' counts, and
    what the child lost of its parent's objects in force."""
    summary = view.get("summary") or {}
    return sum(int(line["count"]) for line in summary.get("lines", [])) + lost_since_parent(view)


def badge_message(view: Mapping[str, Any]) -> tuple[str, str]:
    """The badge's message and colour: the verdict, and the count to verify first (or that a
    newer checkpoint is stored, to read first)."""
    header = view.get("header") or {}
    valid = bool(header.get("valid"))
    count = must_verify(view)
    verdict = "valid" if valid else "invalid"
    if not valid:
        return f"{verdict} · reject it", "#b60205"
    if view.get(NEWER):
        return f"{verdict} · a newer one is stored: read it first", "#b35900"
    if count:
        return f"{verdict} · {count} to verify first", "#b35900"
    # (what the document records, not what is so: a valid checkpoint is no proof of safety)
    return f"{verdict} · records nothing to verify first", "#2f7d32"


def badge_svg(message: str, colour: str, label: str = "OpenCheckpoint") -> str:
    """A flat badge, ``label`` on grey and ``message`` on ``colour``: fixed words, escaped
    all the same (an SVG is XML)."""
    label, message = _xml(label), _xml(message)
    left = 10 + 7 * len(label)
    right = 10 + 7 * len(message)
    width = left + right
    title = f"{label}: {message}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{title}"><title>{title}</title>'
        f'<rect width="{left}" height="20" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="5" y="14">{label}</text><text x="{left + 5}" y="14">{message}</text>'
        "</g></svg>"
    )


def _xml(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _md(text: str) -> str:
    """Fixed words as Markdown text: every character with a meaning there escaped."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def _md_id(object_id: object) -> str:
    """An id in a code span, when it has the shape of a local id (none of which can end the
    span or start markup); anything else is named as an object, never written."""
    # a local id as §4.1 defines it: the only ids written into the Markdown, and only in code
    if isinstance(object_id, str) and is_local_id(object_id):
        return f"`{object_id}`"
    return "(an object)"


def summary_markdown(view: Mapping[str, Any], permalink: str) -> str:
    """The Markdown a tracker is given: the badge, the verdict with the counts, what the child
    lost since its parent and each summary line, each object linked to its card."""
    header = view.get("header") or {}
    summary = view.get("summary") or {}
    valid = bool(header.get("valid"))
    verdict = VERDICT_VALID if valid else VERDICT_INVALID
    errors, warnings = int(header.get("errors") or 0), int(header.get("warnings") or 0)
    message, _ = badge_message(view)
    lines = [
        f"[![OpenCheckpoint: {_md(message)}]({permalink}/badge.svg)]({permalink})",
        "",
        f"**OpenCheckpoint checkpoint**: {_md(verdict)}, {errors} error{'s' * (errors != 1)}, "
        f"{warnings} warning{'s' * (warnings != 1)} · [permalink]({permalink})",
    ]
    if view.get(NEWER):
        lines += [
            "",
            "**A newer checkpoint of this lineage is stored**: check the newest first "
            f"([on its page]({permalink}#stored-h)).",
        ]
    since = summary.get("since_parent")
    if since and since.get("items"):
        lines += ["", "**Since the parent:**", ""]
        for item in since["items"]:
            link = _card_link(permalink, item)
            lines.append(
                f"- {_md(item['change'])} {_md(item['what'])} {link}: "
                f"{_md(_fixed_detail(item))} ({_md(item['recorded'])})"
            )
        if since.get("more"):
            lines.append(f"- and {int(since['more'])} more")
    if summary.get("lines"):
        lines += ["", "**Verify before continuing**, each in the system of record:", ""]
        for line in summary["lines"]:
            named = ", ".join(_card_link(permalink, item) for item in line.get("items", []))
            more = int(line["count"]) - len(line.get("items", []))
            tail = f": {named}" if named else ""
            if named and more > 0:
                tail += f" and {more} more"
            lines.append(f"- **{int(line['count'])}** {_md(line['text'])}{tail}")
    else:
        lines += ["", "It records nothing that must be verified first."]
    lines += [
        "",
        "_Valid means levels 1–2 only (OpenCheckpoint v0.1, §8.1). A checkpoint grants no "
        "authority (§10.1)._",
    ]
    return "\n".join(lines) + "\n"


def _fixed_detail(item: Mapping[str, Any]) -> str:
    """What changed of an object, in fixed words only (its detail may quote member names)."""
    return {
        "dropped": "not in this checkpoint",
        "rewritten": "changed from the parent's",
        "weakened": "weaker than in the parent",
        "withdrawn": "withdrawn",
    }.get(str(item.get("change")), "changed")


def _card_link(permalink: str, item: Mapping[str, Any]) -> str:
    """An object's id linked to its card. An id that could pass for an address (it holds a dot
    or a colon: ``www.example.com``, ``https:x``) is never link text, which would then name a
    host the link does not go to; the link beside it says "card"."""
    anchor = item.get("anchor")
    object_id = item.get("id")
    shown = _md_id(object_id)
    if not (isinstance(anchor, str) and is_local_id(anchor.replace("obj-", "", 1))):
        return shown
    if isinstance(object_id, str) and _ADDRESS_LIKE.search(object_id):
        return f"{shown} ([card]({permalink}#{anchor}))"
    return f"[{shown}]({permalink}#{anchor})"


# --- link previews (Open Graph) -----------------------------------------------------------------

PREVIEW_NAMED = 4  # the summary lines a preview's description counts by name; the rest by number


def preview_title(view: Mapping[str, Any]) -> str:
    """A stored page's title and its preview's: the verdict and what to verify first. Never
    the objective or any other document text: a title travels (tabs, history, chat cards)."""
    message, _ = badge_message(view)
    header = view.get("header") or {}
    status = header.get("task_status") if isinstance(header.get("task_status"), str) else None
    task = f" · task {status}" if status in TASK_STATUSES else ""
    return f"OpenCheckpoint · {message}{task}"


def preview_lines(view: Mapping[str, Any]) -> list[str]:
    """What must be verified first, as counts of things ("2 stop conditions in force"): a
    newer checkpoint stored, and what the child lost of its parent, first."""
    summary = view.get("summary") or {}
    first = ["a newer checkpoint is stored"] if view.get(NEWER) else []
    lost = lost_since_parent(view)
    if lost:
        first.append(f"{lost} of the parent's objects in force dropped or changed")
    return first + [str(line["short"]) for line in summary.get("lines", [])]


def preview_description(view: Mapping[str, Any]) -> str:
    """The preview's description: the counts of what must be verified first, or the findings
    of an invalid document, and what valid means."""
    header = view.get("header") or {}
    lines = preview_lines(view)
    if not header.get("valid"):
        errors, warnings = int(header.get("errors") or 0), int(header.get("warnings") or 0)
        said = (
            f"Invalid: {errors} error{'s' * (errors != 1)}, "
            f"{warnings} warning{'s' * (warnings != 1)}; do not continue from it."
        )
    elif lines:
        named = " · ".join(lines[:PREVIEW_NAMED])
        rest = len(lines) - PREVIEW_NAMED
        said = f"Verify first: {named}" + (f" · and {rest} more kinds" if rest > 0 else "") + "."
    else:
        said = "It records nothing that must be verified first."
    return f"{said} Checked at levels 1–2 only: valid never means authorized."


def card_words(view: Mapping[str, Any]) -> tuple[str, str, tuple[str, ...], str]:
    """What the preview card says (`app.render.preview_image`): the verdict, the headline,
    the counts of what to verify first, and its band's colour."""
    header = view.get("header") or {}
    count = must_verify(view)
    if not header.get("valid"):
        errors = int(header.get("errors") or 0)
        return (
            "Invalid: do not continue from it",
            f"{errors} error{'s' * (errors != 1)} at levels 1–2",
            (),
            "invalid",
        )
    lines = tuple(preview_lines(view))
    if count:
        return (VERDICT_VALID, f"Verify first, in the system of record ({count}):", lines, "verify")
    return (VERDICT_VALID, "It records nothing that must be verified first.", (), "clear")
