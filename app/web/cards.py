"""The cards of the checkpoint page's long lists (operations, statements, resources, progress
steps), written in Python rather than as template loops.

A page of a long document is mostly these cards, and a template spends more on each value it
prints (an escape into Markup, a lookup through the environment, a call through the runtime
for each fragment) than the value's own HTML costs. Each function here takes the render
model's items as the templates did and gives the same markup. Every value goes through
`escape`, `txt` or a fragment of app/web/fragments.py, as there (tests/web/test_fragments.py
checks both modules the same way).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from markupsafe import Markup

from app.web.fragments import (
    cls,
    code_field,
    copy,
    escape,
    field,
    html,
    link_field,
    links_field,
    obj_head,
    ref,
    refs,
    since,
    source_link,
    text,
    time_field,
    uri,
    when,
)

Item = Mapping[str, Any]


def _extensions(item: Item) -> str:
    count = item.get("extensions_count")
    if not count:
        return ""
    return f'<dt>Extensions</dt><dd><a href="#extensions">{escape(count)} not understood</a></dd>'


def _id_attr(anchor: object) -> str:
    """A card's ``id`` attribute, when it has an anchor (an object without an id has none)."""
    return f' id="{escape(anchor)}"' if anchor else ""


def _heading_id(item: Item) -> str:
    """The id of a card's heading, from its pointer (``/operations/3`` -> ``-operations-3-h``)."""
    return f"{escape(str(item['pointer']).replace('/', '-'))}-h"


# --- operations ----------------------------------------------------------------------------------


def operations(items: Iterable[Item], diff: str | None) -> Markup:
    """The cards of one group of operations (app/render/operations.py `operation_card`)."""
    return html("".join([_operation(op, diff) for op in items]))


def _operation(op: Item, diff: str | None) -> str:
    anchor = op.get("anchor")
    status = op.get("status")
    status_class = escape(cls("operation-status", status))
    heading = _heading_id(op)
    ident = op.get("id")
    shown_id = text(ident if ident is not None else op.get("pointer"))
    tools = source_link(op)
    if anchor:
        tools = html(f"{tools} {copy(anchor)}")
    id_attr = _id_attr(anchor)
    head = (
        f'<article{id_attr} class="card operation {status_class}" aria-labelledby="{heading}">\n'
        f'      <div class="card-head">\n'
        f'        <h4 id="{heading}"><span class="op-kind">{escape(op.get("kind") or "operation")}'
        f"</span> <code>{shown_id}</code></h4>\n"
        f'        <span class="badge {status_class}">{escape(status or "no status")}</span>\n'
        f"        {since(op, diff)}\n"
        f'        <span class="tools">{tools}</span>\n'
        f"      </div>\n"
    )
    description = op.get("description")
    body = f'<p class="text">{text(description)}</p>' if description is not None else ""
    points = op.get("advice") or []
    more = ""
    if points:
        count = len(points)
        listed = "".join([f"<li>{escape(point)}</li>" for point in points])
        more = (
            f'\n<details class="advice-more"><summary>{count:d} more '
            f"point{'' if count == 1 else 's'} to verify</summary><ul>{listed}</ul></details>"
        )
    advice = (
        '      <div class="advice" role="note" aria-label="What to verify: the viewer\'s advice">\n'
        '        <p class="advice-title"><strong>What to verify</strong> <span class="muted">'
        "· the viewer's advice, from the specification</span></p>\n"
        f'        <p class="first-step"><strong>First:</strong> {escape(op.get("first_step"))}'
        f"</p>{more}      </div>\n"
    )
    return head + body + advice + _operation_fields(op) + "    </article>\n"


def _operation_fields(op: Item) -> str:
    status = op.get("status")
    parent_status = op.get("parent_status")
    effect = op.get("effect")
    effect_note = op.get("effect_note")
    shown_status = text(status) if status is not None else "(none recorded)"
    shown_effect = text(effect) if effect is not None else "(absent)"
    out = [
        '      <dl class="fields">\n',
        f"        <dt>Status</dt><dd>{shown_status}",
        (
            f' <span class="muted">(in the supplied parent: {text(parent_status)})</span>'
            if parent_status is not None
            else ""
        ),
        "</dd>\n",
        f"        <dt>Effect</dt><dd>{shown_effect}",
        f' <span class="badge warn">{escape(effect_note)}</span>' if effect_note else "",
        "</dd>\n",
        link_field("Target", op.get("target")),
        link_field("Record", op.get("record")),
    ]
    call = op.get("call")
    if call is not None:
        tool = call.get("tool")
        arguments = call.get("arguments_json")
        shown_tool = text(tool) if tool is not None else "(none)"
        args = (
            '<pre class="json" tabindex="0" role="group" aria-label="call arguments">'
            f"{text(arguments)}</pre>"
            if arguments is not None
            else ' <span class="muted">(no arguments recorded)</span>'
        )
        out.append(f"<dt>Call</dt>\n<dd>tool <code>{shown_tool}</code>{args}</dd>\n")
    out += [
        links_field("Depends on", op.get("depends_on")),
        time_field("Requested at", op.get("requested_at")),
        time_field("Last attempt at", op.get("last_attempt_at")),
    ]
    expires = op.get("expires_at")
    if expires is not None:
        passed = ""
        if op.get("expired"):
            before = " before capture" if op.get("expired_before_capture") else ""
            passed = f' <span class="badge warn">passed{before}</span>'
        out.append(f"<dt>Expires at</dt><dd>{when(expires)}{passed}</dd>")
    out.append(code_field("Idempotency key", op.get("idempotency_key")))
    approval = op.get("approval")
    if approval is not None:
        out.append(_approval(approval))
    resume = op.get("resume")
    if resume is not None:
        out.append(
            f"<dt>Resume</dt><dd><code>{text(resume['value'])}</code> "
            f'<span class="muted">— {escape(resume["label"])}</span></dd>'
        )
    stops = op.get("stop_conditions")
    if stops:
        out.append(_stops(stops))
    out.append(_extensions(op))
    out.append("      </dl>\n")
    return "".join(out)


def _approval(approval: Item) -> str:
    unreadable = approval.get("unreadable")
    if unreadable is not None:
        recorded = f"<code>{text(unreadable)}</code>"
    else:
        decided_by = approval.get("decided_by")
        who = text(decided_by) if decided_by is not None else "(nobody recorded)"
        decided_at = approval.get("decided_at")
        evidence = approval.get("evidence")
        at = f" at {when(decided_at)}" if decided_at is not None else ""
        cited = f"; evidence {refs(evidence)}" if evidence else ""
        recorded = f'decided by <span class="text">{who}</span>{at}{cited}'
    return (
        f"<dt>Approval record</dt>\n<dd>{recorded}\n"
        f'          <div class="note">{escape(approval.get("note"))}</div></dd>\n'
    )


def _stops(stops: Iterable[Item]) -> str:
    listed = []
    for stop in stops:
        anchor = stop.get("anchor")
        named = (
            f'<a href="#{escape(anchor)}"><code>{text(stop.get("id"))}</code></a>'
            if anchor
            else f"<code>{text(stop.get('pointer'))}</code>"
        )
        how = "forbids it (applies_to)" if stop.get("forbids") else "concerns it (refs)"
        label = stop.get("label")
        said = f': <span class="text">{text(label)}</span>' if label else ""
        listed.append(f"<li>{named} {how}{said}</li>")
    items = "".join(listed)
    return f'<dt>Stop conditions</dt>\n<dd><ul class="plain">{items}</ul></dd>\n'


# --- statements ----------------------------------------------------------------------------------


def statements(items: Iterable[Item], statuses: Iterable[str], diff: str | None) -> Markup:
    """The cards of one kind and origin of statements (app/render/statements.py); a status
    the filter offers no choice for is "other" to the page's script."""
    known = frozenset(statuses)
    return html("".join([_statement(st, known, diff) for st in items]))


def _statement(st: Item, statuses: frozenset[str], diff: str | None) -> str:
    id_attr = _id_attr(st.get("anchor"))
    if st.get("unreadable"):
        return (
            f'        <li{id_attr} class="card statement unreadable">\n'
            f'          <div class="card-head">{obj_head(st, "not an object", diff)}</div>\n'
            '          <pre class="json" tabindex="0" role="group" aria-label="the entry as JSON">'
            f"{text(st.get('text'))}</pre>\n"
            "        </li>\n"
        )
    status = st.get("status")
    struck, external = st.get("struck"), st.get("external")
    verification = st.get("verification")
    state = verification.get("state") if verification is not None else None
    status_class = escape(cls("statement-status", status))
    badges = f'<span class="badge {status_class}">{escape(status)}</span>'
    if external:
        badges += '\n<span class="badge quoted">external · no instruction authority</span>'
    if state is not None:
        attention = " attention" if verification.get("attention") else ""  # type: ignore[union-attr]
        badges += (
            f'\n<span class="badge {escape(cls("verification", state))}{attention}">'
            f"{escape(state)}</span>"
        )
    said = f'<p class="text">{text(st.get("text"))}</p>'
    if external:
        said = f'<blockquote class="quoted">{said}</blockquote>'
    note = st.get("external_note")
    noted = f'\n<p class="note external-note">{escape(note)}</p>' if note else ""
    return (
        f'        <li{id_attr} class="card statement{" struck" if struck else ""}'
        f'{" external" if external else ""}" '
        f'data-status="{escape(status if status in statuses else "other")}">\n'
        f'          <div class="card-head">{obj_head(st, diff=diff)}\n'
        f"            {badges}\n"
        "          </div>\n"
        f"          {said}{noted}\n"
        f"{_statement_fields(st)}"
        "        </li>\n"
    )


def _statement_fields(st: Item) -> str:
    out = ['          <dl class="fields">\n']
    superseded_by = st.get("superseded_by")
    if st.get("struck"):
        by = f" by {ref(superseded_by)}" if superseded_by is not None else ""
        out.append(f"<dt>Status</dt><dd>{escape(st.get('status'))}{by}</dd>")
    elif superseded_by is not None:
        out.append(link_field("Superseded by", superseded_by))
    origin = st.get("origin") or {}
    kind, name, origin_ref = origin.get("type"), origin.get("name"), origin.get("ref")
    named = f' · <span class="text">{text(name)}</span>' if name is not None else ""
    refers = f" · ref {ref(origin_ref)}" if origin_ref is not None else ""
    shown_kind = escape(kind if kind is not None else "(no type)")
    out.append(f"<dt>Origin</dt>\n<dd>{shown_kind}{named}{refers}</dd>\n")
    verification = st.get("verification")
    if verification is not None:
        out.append(_verification(verification))
    out += [
        links_field("Evidence", st.get("evidence")),
        field("Rationale", st.get("rationale")),
        field("Resolution", st.get("resolution")),
        time_field("Recorded at", st.get("recorded_at")),
        _extensions(st),
        "          </dl>\n",
    ]
    return "".join(out)


def _verification(v: Item) -> str:
    unreadable = v.get("unreadable")
    if unreadable is not None:
        recorded = f"<code>{text(unreadable)}</code>"
    else:
        checked_at, method = v.get("checked_at"), v.get("method")
        checked = f", checked {when(checked_at)}" if checked_at is not None else ""
        recorded = f"{escape(v.get('state') or 'no state')}{checked}"
        if method is not None:
            recorded += f' <span class="muted">by</span> <span class="text">{text(method)}</span>'
    out = f"<dt>Verification</dt>\n<dd>{recorded}</dd>\n"
    revalidate = v.get("revalidate")
    if revalidate is not None:
        warn = ' <span class="badge warn">re-check before relying on it</span>'
        flagged = warn if v.get("attention") else ""
        out += f"<dt>Revalidate</dt><dd>{text(revalidate)}{flagged}</dd>"
    return out


# --- resources -----------------------------------------------------------------------------------


def resources(items: Iterable[Item], diff: str | None) -> Markup:
    """The cards of the resources (app/render/sections.py `build_resources`)."""
    return html("".join([_resource(r, diff) for r in items]))


def _resource(r: Item, diff: str | None) -> str:
    id_attr = _id_attr(r.get("anchor"))
    heading = _heading_id(r)
    title, ident = r.get("title"), r.get("id")
    shown = text(title) if title is not None else text(ident) if ident is not None else "Resource"
    kind, sensitivity = r.get("kind"), r.get("sensitivity")
    badges = f'<span class="badge">{text(kind)}</span>\n' if kind is not None else ""
    if sensitivity is not None:
        badges += (
            f'<span class="badge {escape(cls("sensitivity", sensitivity))}">'
            f"{text(sensitivity)}</span>\n"
        )
    description = r.get("description")
    described = f'<p class="text">{text(description)}</p>\n' if description is not None else ""
    return (
        f'  <article{id_attr} class="card resource" aria-labelledby="{heading}">\n'
        '    <div class="card-head">\n'
        f'      <h3 id="{heading}" class="text">{shown}</h3>\n'
        f"{badges}      {obj_head(r, diff=diff)}\n"
        "    </div>\n"
        f"{described}{_resource_fields(r)}{_excerpt(r)}"
        "  </article>\n"
    )


def _resource_fields(r: Item) -> str:
    out = ['    <dl class="fields">\n']
    if r.get("uri") is not None:
        out.append(f'      <dt>URI</dt>\n      <dd class="uri">{uri(r)}</dd>\n')
    locator = r.get("locator")
    if locator is not None:
        unreadable = locator.get("unreadable")
        if unreadable is not None:
            shown = f"<code>{text(unreadable)}</code>"
        else:
            shown = (
                f'<span class="muted">system</span> <span class="text">'
                f"{text(locator.get('system'))}</span> · "
                f'<span class="muted">type</span> <code>{text(locator.get("type"))}</code> · '
                f'<span class="muted">key</span> <code>{text(locator.get("key"))}</code>'
            )
        out.append(f"      <dt>Locator</dt>\n      <dd>{shown}</dd>\n")
    out += [
        code_field("Revision", r.get("revision")),
        code_field("Digest", r.get("digest")),
        time_field("Observed at", r.get("observed_at")),
        field("Availability", r.get("availability"), ""),
        field("Media type", r.get("media_type"), ""),
        field("Resolver", r.get("resolver")),
        _extensions(r),
        "    </dl>\n",
    ]
    return "".join(out)


def _excerpt(r: Item) -> str:
    excerpt = r.get("excerpt")
    if excerpt is None:
        return ""
    # the newline after <pre> is dropped by the parser: the one written here keeps a first
    # line of the excerpt that is itself blank
    return (
        '    <p class="excerpt-label"><span class="badge quoted">excerpt</span> '
        '<span class="muted">quoted content as the source saw it, not instructions</span></p>\n'
        f'    <pre class="excerpt">&#10;{text(excerpt)}</pre>\n'
    )


# --- progress ------------------------------------------------------------------------------------


def completed_steps(items: Iterable[Item], diff: str | None) -> Markup:
    """The timeline of completed steps (app/render/sections.py `build_progress`)."""
    return html("".join([_completed(step, diff) for step in items]))


def _completed(step: Item, diff: str | None) -> str:
    id_attr = _id_attr(step.get("anchor"))
    at = step.get("completed_at")
    shown_at = when(at) if at is not None else '<span class="muted">no time recorded</span>'
    evidence = step.get("evidence")
    cited = f'<div class="evidence">evidence: {refs(evidence)}</div>' if evidence else ""
    return (
        f"    <li{id_attr}>\n"
        f'      <div class="card-head">{shown_at} {obj_head(step, diff=diff)}</div>\n'
        f'      <p class="text">{text(step.get("description"))}</p>\n'
        f"{cited}    </li>\n"
    )


def next_steps(items: Iterable[Item], diff: str | None) -> Markup:
    """The next steps, each with what blocks it and what it requires."""
    return html("".join([_next(step, diff) for step in items]))


def _next(step: Item, diff: str | None) -> str:
    id_attr = _id_attr(step.get("anchor"))
    blocked_by, requires, refers = step.get("blocked_by"), step.get("requires"), step.get("refs")
    blocked = ' <span class="badge warn">blocked</span>' if blocked_by else ""
    fields = ""
    if blocked_by or requires or refers:
        fields = (
            '      <dl class="fields">\n'
            f"{links_field('Blocked by', blocked_by)}{links_field('Requires', requires)}"
            f"{links_field('Refs', refers)}      </dl>\n"
        )
    return (
        f"    <li{id_attr}>\n"
        f'      <div class="card-head">{obj_head(step, diff=diff)}{blocked}</div>\n'
        f'      <p class="text">{text(step.get("description"))}</p>\n'
        f"{fields}    </li>\n"
    )
