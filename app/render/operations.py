"""Operation cards and stop conditions, from the advice policy in app.advice."""

from __future__ import annotations

from functools import partial

from app import advice
from app.checkpoint import (
    parse_instant,
)
from app.json_values import text_of
from app.pointer import to_pointer
from app.render.context import (
    Context,
    as_object,
    json_text,
    label_of,
    link_to,
    links_to,
    object_items,
    optional_link,
    owns,
    paged,
    unreadable,
    with_hidden,
)
from app.render.model import NOTE_RESUME, Model
from app.render.query import ListWindow
from app.standing import Standings
from app.stops import record_of

OperationEntry = tuple[int, Model, advice.Operation, str]  # index, operation, facts, group


def operation_entries(ctx: Context) -> list[OperationEntry]:
    """Every operation with its facts and group, in document order: cheap next to a card."""
    entries = []
    for i, op in object_items(ctx.doc.get("operations")):
        facts = _op_facts(ctx, op)
        entries.append((i, op, facts, advice.group(facts)))
    return entries


def build_operations(ctx: Context, entries: list[OperationEntry]) -> Model:
    """One card per operation, grouped by what a person must do (see app/advice.py GROUPS
    and `group`)."""
    groups = []
    for key, title, rule in advice.GROUPS:
        name = f"ops-{key}"
        shown, hidden, position = paged(
            ctx,
            [e for e in entries if e[3] == key],
            ctx.query.window.start_of(name),
            partial(ListWindow.search, name),
        )
        group = {
            "key": key,
            "anchor": name,
            "title": title,
            "rule": rule,
            "items": [operation_card(ctx, entry) for entry in shown],
            "pager": position,
        }
        groups.append(with_hidden(group, "items", hidden))
    return {
        "anchor": "operations",
        "title": "Operations",
        "present": "operations" in ctx.doc,
        "count": len(entries),
        "note": (
            "Operations are never executed on restore (§10.3). The viewer's advice says what "
            "to verify and where; the source's own resume is shown as its recommendation."
        ),
        "groups": groups,
        "forbidden": _forbidden(ctx, entries),
        "unreadable": unreadable(ctx.doc.get("operations")),
    }


def _forbidden(ctx: Context, entries: list[OperationEntry]) -> list[Model]:
    """Every operation a stop condition forbids that has not settled, whichever group it is
    in: what the summary's "operations forbidden" line counts and links to (ops-forbidden), so
    the list it lands on has as many as it said."""
    titles = {key: title for key, title, _ in advice.GROUPS}
    out = []
    for index, _, facts, group in entries:
        if facts.forbidding and not facts.terminal:
            owner = ctx.owners.get(to_pointer(("operations", index)))
            out.append(
                ctx.naming(
                    {
                        "id": facts.id,
                        "anchor": owner[1] if owner else None,
                        "group": titles.get(group),
                        "group_anchor": f"ops-{group}",
                    }
                )
            )
    return out


def operation_card(ctx: Context, entry: OperationEntry) -> Model:
    index, op, facts, _ = entry
    card = ctx.op_cards.get(index)
    if card is None:
        card = ctx.op_cards[index] = _operation(ctx, index, op, facts)
    return card


def _operation(ctx: Context, index: int, op: Model, facts: advice.Operation) -> Model:
    approval = op.get("approval")
    card = ctx.card(
        ("operations", index),
        {
            "kind": text_of(op.get("kind")),
            "status": text_of(op.get("status")),
            "description": text_of(op.get("description")),
            "group": advice.group(facts),
            "effect": text_of(op.get("effect")),
            "effect_treated_as": "non_idempotent" if facts.treated_non_idempotent else facts.effect,
            "effect_note": _effect_note(facts),
            "target": optional_link(ctx, op.get("target")),
            "record": optional_link(ctx, op.get("record")),
            "call": _call(op),
            "depends_on": links_to(ctx, op.get("depends_on")),
            "requested_at": text_of(op.get("requested_at")),
            "last_attempt_at": text_of(op.get("last_attempt_at")),
            "expires_at": text_of(op.get("expires_at")),
            "expired": facts.expired,
            "expired_before_capture": facts.expired_before_capture,
            "idempotency_key": text_of(op.get("idempotency_key")),
            "approval": None if approval is None else _approval(ctx, approval),
            "resume": _resume(op),
            "stop_conditions": _op_stops(ctx, facts, op),
            "parent_status": _parent_status(ctx, facts.id),
            "extensions_count": len(as_object(op.get("extensions"))),
        },
    )
    card["first_step"] = advice.first_step(facts)
    card["advice"] = advice.advice(facts)
    return card


def _effect_note(facts: advice.Operation) -> str | None:
    """§6.6: a consumer treats an absent or unknown effect as non_idempotent."""
    return "treated as non_idempotent (§6.6)" if facts.effect in (None, "unknown") else None


def _call(op: Model) -> Model | None:
    """The recorded call: the tool, and its arguments as JSON text (indent 2)."""
    if "call" not in op:
        return None
    call = as_object(op["call"])
    return {"tool": text_of(call.get("tool")), "arguments_json": json_text(call.get("arguments"))}


def _resume(op: Model) -> Model | None:
    """The source's own resume, labelled as its recommendation (§6.6)."""
    if op.get("resume") is None:
        return None
    return {"value": text_of(op["resume"]), "label": NOTE_RESUME}


def _standings(ctx: Context) -> Standings:
    assert ctx.standings is not None, "a page of an interpretable checkpoint"
    return ctx.standings


def _stop(ctx: Context, index: int, stop: Model) -> advice.Stop:
    """The facts of stop condition ``index``, read once however many operations it names."""
    return _standings(ctx).stop(index, stop)


def _op_facts(ctx: Context, op: Model) -> advice.Operation:
    """What the advice about an operation depends on (app/standing.py: the guard reads the
    same), and when a sentence about it changes (its expiry)."""
    op_id = op.get("id") if isinstance(op.get("id"), str) else None
    facts = _standings(ctx).operation(op, owner=op_id is not None and owns(ctx, op_id, op))
    expires = parse_instant(op.get("expires_at"))
    if expires is not None and not facts.expired:
        ctx.changes.append(expires.seconds + 1)  # it reads "expired" from then on
    return facts


def _approval(ctx: Context, approval: object) -> Model:
    record = as_object(approval)
    return {
        "decided_by": text_of(record.get("decided_by")),
        "decided_at": text_of(record.get("decided_at")),
        "evidence": links_to(ctx, record.get("evidence")),
        "note": (
            "An approval record documents a decision and grants no authority; verify it in "
            "the system of record named by its evidence (§6.6, §10.1, §10.3)."
        ),
        "unreadable": None if isinstance(approval, dict) else text_of(approval),
    }


def _parent_status(ctx: Context, op_id: str | None) -> str | None:
    """The operation's status in the supplied parent, when there is one (its operations read
    once, the first with each id, as the loop over them per operation found it)."""
    if op_id is None or ctx.parent_document is None:
        return None
    if ctx.parent_statuses is None:
        statuses: dict[str, str | None] = {}
        for _, op in object_items(ctx.parent_document.get("operations")):
            parent_id = op.get("id")
            if isinstance(parent_id, str) and parent_id not in statuses:
                statuses[parent_id] = text_of(op.get("status"))
        ctx.parent_statuses = statuses
    return ctx.parent_statuses.get(op_id)


def _op_stops(ctx: Context, facts: advice.Operation, op: Model) -> list[Model]:
    """The stop conditions that name this operation, and what lifts each (none for a later
    duplicate of its id, as in `_op_facts`)."""
    if facts.id is None or not owns(ctx, facts.id, op):
        return []
    out = []
    standings = _standings(ctx)
    for member, index in (("applies_to", standings.fences), ("refs", standings.concerns)):
        for i, stop in index.get(facts.id, []):
            lift = advice.lift(_stop(ctx, i, stop), advice.NAMED_PER_OPERATION)
            out.append(
                ctx.card(
                    ("continuation", "stop_conditions", i),
                    {
                        "label": label_of(stop),
                        "field": member,
                        "forbids": member == "applies_to",
                        "lifted_by": lift.text,
                        "needs_person": lift.needs_person,
                    },
                )
            )
    return out


# --- stop conditions ------------------------------------------------------------------------


def stop_condition_card(ctx: Context, index: int, stop: Model) -> Model:
    """The card of a stop condition, made once: the checklist names it and the continuation
    section shows it, one dict for both (as `operation_card`)."""
    card = ctx.stop_cards.get(index)
    if card is None:
        card = ctx.stop_cards[index] = _stop_condition(ctx, index, stop)
    return card


def _stop_condition(ctx: Context, index: int, stop: Model) -> Model:
    facts = _stop(ctx, index, stop)
    lift = advice.lift(facts)
    # The checklist names a stop condition and links to its card, which spells out its until
    # whole: there, at most NAMED_PER_OPERATION entries of a long until are named.
    named = advice.NAMED_PER_OPERATION
    brief = (
        advice.lift(facts, named).text
        if len(facts.until or ()) > named or len(facts.unrecorded) > named
        else None
    )
    return ctx.card(
        ("continuation", "stop_conditions", index),
        {
            "text": text_of(stop.get("description")),
            "applies_to": links_to(ctx, stop.get("applies_to")),
            "until": [_until(ctx, entry) for _, entry in object_items(stop.get("until"))],
            "refs": links_to(ctx, stop.get("refs")),
            "lifted_by": lift.text,
            # lifted_by naming only the first few, where its until is longer (else None)
            "lifted_by_brief": brief,
            "needs_person": lift.needs_person,
            "notes": advice.stop_notes(facts),
        },
    )


def _until(ctx: Context, entry: Model) -> Model:
    record = record_of(ctx.by_id, entry.get("operation"))
    return {
        "operation": link_to(ctx, entry.get("operation")),
        "status": text_of(entry.get("status")),
        "record": link_to(ctx, record) if record else None,
        "verifiable": record is not None,
        "text": (
            "Check the status at its record in the system of record."
            if record
            else "No record: software cannot verify it; a person lifts this stop condition."
        ),
    }
