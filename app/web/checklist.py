"""The "Before continuing" checklist (§10.7) as HTML: its steps in order, each with what the
document records for it (app/render/checklist.py builds its model).

Written in Python rather than as a template for the reason of app/web/cards.py: every page
has all its steps, and as a template the checklist cost more than the rest of a short
checkpoint's page. Every value goes through `escape`, `text` or a fragment of
app/web/fragments.py, as there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from app.web.fragments import (
    cls,
    code_field,
    copy,
    escape,
    field,
    html,
    label,
    links_field,
    more,
    notes,
    refs,
    text,
    time_field,
)

Model = Mapping[str, Any]


# The checklist steps whose entries show their whole text: what forbids, stops or must hold.
WHOLE_TEXT_STEPS = frozenset({"stop_conditions", "incompatibilities", "preconditions"})


def checklist(groups: list[Model]) -> Markup:
    """The ordered list of the checklist's steps."""
    return html('<ol class="checklist">\n' + "".join([_step(g) for g in groups]) + "  </ol>")


def _step(group: Model) -> str:
    anchor = escape(group["anchor"])
    key = group["key"]
    items = group.get("items") or []
    out = [
        f'    <li id="{anchor}" class="check {escape(cls("checklist-step", key))}">\n'
        f'      <div class="head"><h3 id="{anchor}-h"><span class="step">{escape(group["step"])}'
        f'</span> {escape(group["title"])}</h3> <span class="muted ref-spec">'
        f"{escape(group['reference'])}</span>{copy(group['anchor'])}</div>\n"
        f'      <p class="guidance">{escape(group["guidance"])}</p>\n'
    ]
    if items:
        listed = "".join([f"        <li>{_item(key, item)}</li>\n" for item in items])
        out.append(f'      <ul class="check-items">\n{listed}      </ul>\n')
        if "more_anchor" in group:
            out.append(
                f'      <p class="note to-cards">{escape(group["hidden"])} more, each in its card '
                f'under <a href="#{escape(group["more_anchor"])}">{escape(group["more_title"])}'
                "</a> (the JSON view lists every one here).</p>\n"
            )
        else:
            out.append(f"      {more(group, 'hidden')}\n")
    elif key != "report":
        out.append('      <p class="muted">Nothing recorded for this step.</p>\n')
    out.append("    </li>\n")
    return "".join(out)


def _item(key: str, item: Model) -> str:
    if key == "validity":
        verdict = "valid" if item["valid"] else "invalid"
        return (
            f'<span class="verdict-inline {verdict}">{escape(item["text"])}</span> '
            f'<a href="#{escape(item["anchor"])}">see findings</a>'
        )
    if key == "continue":
        return _continue(item)
    shown = item.get("text")
    # What forbids or stops is read whole where it is checked (issue 27: a stop condition cut
    # at 80 characters hid what it forbids); the other entries name a card shown whole below.
    whole = key in WHOLE_TEXT_STEPS
    if shown is None:
        described = ""
    elif whole:
        described = f'<div class="text">{text(shown)}</div>'
    else:
        described = f'<div class="text">{label(shown)}</div>'
    noted = notes(item["notes"]) if key != "stop_conditions" and "notes" in item else ""
    meta = f'<div class="meta">{_named(item)}{_badges(key, item)}</div>'
    return f"{meta}{described}{_fields(key, item)}{noted}"


def _continue(item: Model) -> str:
    focus = item.get("text")
    shown = (
        f'<span class="muted">focus:</span> <span class="text">{text(focus)}</span>'
        if focus is not None
        else '<span class="muted">No focus is recorded.</span>'
    )
    linked = refs(item["links"]) if item.get("links") else ""
    completed, upcoming = int(item["completed_steps"]), int(item["next_steps"])
    return (
        f"{shown} {linked}"
        f'<div class="meta">{completed:d} completed step{"" if completed == 1 else "s"}, '
        f"{upcoming:d} next step{'' if upcoming == 1 else 's'}: "
        f'<a href="#{escape(item["anchor"])}">see progress</a></div>{notes(item.get("notes"))}'
    )


def _named(item: Model) -> str:
    """The object's id, linking to its card when the page lists it."""
    anchor, ident = item.get("anchor"), item.get("id")
    if anchor and "unlisted" not in item:
        shown = text(ident) if ident is not None else "(no id)"
        return f'<a href="#{escape(anchor)}"><code>{shown}</code></a>'
    if ident is None:
        return ""
    badge = ' <span class="badge">not listed on this page</span>' if "unlisted" in item else ""
    return f"<code>{text(ident)}</code>{badge}"


def _badges(key: str, item: Model) -> str:
    if key == "requirements":
        necessity = item.get("necessity")
        kind, name = item.get("kind"), item.get("name")
        return (
            f' <span class="badge {escape(cls("necessity", necessity))}">'
            f"{escape(necessity or 'no necessity')}</span>"
            + (f' <span class="badge">{escape(kind)}</span>' if kind is not None else "")
            + (f" <code>{text(name)}</code>" if name is not None else "")
        )
    if key == "statements":
        state = item.get("verification_state")
        return (
            f' <span class="badge">{escape(item["kind"])}</span> '
            f'<span class="badge">from {escape(item["origin_type"])}</span>'
            + (f' <span class="badge">{escape(state)}</span>' if state is not None else "")
        )
    if key == "operations":
        status = item["status"]
        blocked = (
            ' <span class="badge warn">forbidden by a stop condition</span>'
            if item["blocked_by_stop"]
            else ""
        )
        return (
            f' <span class="badge">{escape(item["kind"])}</span> '
            f'<span class="badge {escape(cls("operation-status", status))}">{escape(status)}'
            f"</span>{blocked}"
        )
    if key == "preconditions" and item.get("on_failure") is not None:
        return f' <span class="badge">on failure: {escape(item["on_failure"])}</span>'
    return ""


def _fields(key: str, item: Model) -> str:
    if key == "stop_conditions":
        # what lifts it, naming the first few of a long until: its card names every one
        lifted = item.get("lifted_by_brief") or item["lifted_by"]
        return (
            f'<dl class="fields">{links_field("Forbids", item["applies_to"])}'
            f"<dt>Lifted</dt><dd>{escape(lifted)}</dd></dl>"
        )
    if key == "requirements":
        return (
            f'<dl class="fields">{field("Fallback", item.get("fallback"))}'
            f"{links_field('Refs', item.get('refs'))}</dl>"
        )
    if key == "resources":
        return (
            f'<dl class="fields">{code_field("Revision", item.get("revision"))}'
            f"{code_field('Digest', item.get('digest'))}"
            f"{time_field('Observed at', item.get('observed_at'))}"
            f"{field('Availability', item.get('availability'))}"
            f"{links_field('Statements relying on it', item.get('dependents'))}</dl>"
        )
    if key == "statements":
        return (
            f'<dl class="fields">{field("Revalidate", item.get("revalidate"))}'
            f"{links_field('Evidence', item.get('evidence'))}</dl>"
        )
    if key == "operations":
        return f'<p class="first-step"><strong>First:</strong> {escape(item["first_step"])}</p>'
    if key == "preconditions" and item.get("refs"):
        return f'<dl class="fields">{links_field("Refs", item["refs"])}</dl>'
    return ""
