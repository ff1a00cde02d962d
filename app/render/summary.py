"""What a reviewer must verify before anyone continues, first and at a glance (issue 12).

One line per kind of thing the document records that a person has to check in the system of
record, each with how many, the first few by id, and a link to where the page shows them. It is
read from what the other builders found (the checklist, the operations' facts), never worked out
again, and it says what to verify and where: never that anything may proceed (§10.1).
"""

from __future__ import annotations

from app.json_values import text_of
from app.pointer import to_pointer
from app.render.context import (
    Context,
    as_object,
    hidden_key,
    object_items,
    statement_status,
)
from app.render.model import Model
from app.render.operations import OperationEntry

# The lines, in the order they are shown (and the class of each: app/render/classes.py).
LINE_KEYS = (
    "outcome",
    "stops",
    "forbidden",
    "approvals",
    "expired",
    "questions",
    "statements",
    "requirements",
    "drafts",
    "resources",
)
# The first few of each line are named; the rest are counted (the card list has them all).
NAMED = 4
_CLOSED_QUESTION = frozenset({"resolved", "retracted", "superseded"})


def build_summary(ctx: Context, entries: list[OperationEntry], checklist: Model | None) -> Model:
    """The summary's lines, most urgent first; none for what the document does not record."""
    groups = {g["key"]: g for g in checklist["groups"]} if checklist is not None else {}
    lines: list[Model] = []

    def items_of(step: str) -> list[Model]:
        """The objects a checklist step names: every one, but on a page only the first of
        the resources and statements to re-check (`count_of` counts them all) and of the
        operations to reconcile (counted from the operations' facts here)."""
        items: list[Model] = groups.get(step, {}).get("items", [])
        return items

    def count_of(step: str) -> int:
        group = groups.get(step, {})
        return len(group.get("items", [])) + int(group.get(hidden_key("items"), 0))

    def line(key: str, count: int, one: str, many: str, anchor: str, named: list[Model]) -> None:
        if count:
            text = one if count == 1 else many
            lines.append(
                {"key": key, "count": count, "text": text, "anchor": anchor, "items": named[:NAMED]}
            )

    def ops(chosen: list[OperationEntry]) -> list[Model]:
        return _named(ctx, [(("operations", i), facts.id) for i, _, facts, _ in chosen[:NAMED]])

    uncertain = [e for e in entries if e[2].status == "uncertain" and e[2].treated_non_idempotent]
    line(
        "outcome",
        len(uncertain),
        "operation with an unknown outcome that may repeat: find it at its record first",
        "operations with unknown outcomes that may repeat: find each at its record first",
        "check-operations",
        ops(uncertain),
    )
    stops = items_of("stop_conditions")
    line(
        "stops",
        len(stops),
        "stop condition: forbidden until what lifts it is verified",
        "stop conditions: forbidden until what lifts each is verified",
        "check-stop-conditions",
        [_item(ctx, s) for s in stops],
    )
    forbidden = [e for e in entries if e[2].forbidding and not e[2].terminal]
    line(
        "forbidden",
        len(forbidden),
        "operation forbidden by a stop condition",
        "operations forbidden by a stop condition",
        "ops-blocked",
        ops(forbidden),
    )
    approvals = [e for e in entries if e[2].kind == "approval" and e[2].status == "approved"]
    line(
        "approvals",
        len(approvals),
        "approval recorded: verify it at its record",
        "approvals recorded: verify each at its record",
        "check-operations",
        ops(approvals),
    )
    expired = [e for e in entries if e[2].status == "awaiting" and e[2].expired]
    line(
        "expired",
        len(expired),
        "awaiting operation past its expires_at: ask again",
        "awaiting operations past their expires_at: ask again",
        "check-operations",
        ops(expired),
    )
    questions = _open_questions(ctx)
    line(
        "questions",
        len(questions),
        "open question",
        "open questions",
        "statements",
        _named(ctx, questions[:NAMED]),
    )
    to_check = items_of("statements")
    line(
        "statements",
        count_of("statements"),
        "statement to re-check before relying on it",
        "statements to re-check before relying on them",
        "check-statements",
        [_item(ctx, s) for s in to_check[:NAMED]],
    )
    requirements = [
        r
        for r in items_of("requirements")
        if r.get("necessity") == "required" and r.get("fallback") is None
    ]
    line(
        "requirements",
        len(requirements),
        "required requirement without fallback: meet it or stop",
        "required requirements without fallback: meet each or stop",
        "check-requirements",
        [_item(ctx, r) for r in requirements],
    )
    drafts = _unsaved_drafts(ctx)
    line(
        "drafts",
        len(drafts),
        "unsaved draft: not sent, not saved",
        "unsaved drafts: not sent, not saved",
        "application-context",
        _named(ctx, drafts[:NAMED]),
    )
    resources = items_of("resources")
    line(
        "resources",
        count_of("resources"),
        "resource to re-check (revision, digest)",
        "resources to re-check (revision, digest)",
        "check-resources",
        [_item(ctx, r) for r in resources[:NAMED]],
    )
    result = ctx.result
    return {
        "anchor": "summary",
        "title": "Verify before continuing",
        "lines": lines,
        "errors": result.errors,
        "warnings": result.warnings,
        "valid": result.valid,
        "note": "Check each in the system of record: a checkpoint grants no authority (§10.1).",
    }


# where an object is, and its id: a line names only its first few, so only those are looked up
Spot = tuple[tuple[str | int, ...], str | None]


def _named(ctx: Context, spots: list[Spot]) -> list[Model]:
    named = []
    for path, object_id in spots:
        owner = ctx.owners.get(to_pointer(path))
        named.append(ctx.naming({"id": object_id, "anchor": owner[1] if owner else None}))
    return named


def _item(ctx: Context, card: Model) -> Model:
    return ctx.naming({"id": card.get("id"), "anchor": card.get("anchor")})


def _open_questions(ctx: Context) -> list[Spot]:
    found: list[Spot] = []
    for i, statement in object_items(ctx.doc.get("statements")):
        if statement.get("kind") != "question":
            continue
        if statement_status(statement.get("status")) not in _CLOSED_QUESTION:
            found.append((("statements", i), text_of(statement.get("id"))))
    return found


def _unsaved_drafts(ctx: Context) -> list[Spot]:
    found: list[Spot] = []
    contexts = ctx.doc.get("application_context")
    for i, entry in object_items(contexts):
        for j, draft in object_items(as_object(entry).get("drafts")):
            if draft.get("status") == "unsaved":
                path = ("application_context", i, "drafts", j)
                found.append((path, text_of(draft.get("id"))))
    return found
