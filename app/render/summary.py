"""What a reviewer must verify before anyone continues, first and at a glance (issue 12).

One line per kind of thing the document records that a person has to check in the system of
record, each with how many, the first few by id, and a link to where the page shows them. It is
read from what the other builders found (the checklist, the operations' facts), never worked out
again, and it says what to verify and where: never that anything may proceed (§10.1).
"""

from __future__ import annotations

from app.json_values import text_of
from app.pointer import resolve, to_pointer
from app.redaction import REDACTED
from app.render.context import (
    Context,
    as_object,
    hidden_key,
    object_items,
    statement_status,
    words_of,
)
from app.render.model import Model
from app.render.operations import OperationEntry

# The lines, in the order they are shown (and the class of each: app/render/classes.py).
LINE_KEYS = (
    "outcome",
    "failed",
    "unrecognised",
    "stops",
    "incompatibilities",
    "forbidden",
    "approvals",
    "expired-approvals",
    "awaited-approvals",
    "expired",
    "preconditions",
    "questions",
    "statements",
    "requirements",
    "fallbacks",
    "extensions",
    "omissions",
    "drafts",
    "resources",
)
# Each line as a count of things, with no advice: what a link preview, a badge's picture and
# a page's title say (one, many). Fixed words only: a preview never carries document text.
SHORT: dict[str, tuple[str, str]] = {
    "outcome": ("operation with an unknown outcome", "operations with an unknown outcome"),
    "failed": ("failed operation", "failed operations"),
    "unrecognised": (
        "operation with a status not recognised",
        "operations with a status not recognised",
    ),
    "stops": ("stop condition in force", "stop conditions in force"),
    "incompatibilities": ("incompatibility to rule out", "incompatibilities to rule out"),
    "forbidden": ("operation forbidden", "operations forbidden"),
    "approvals": ("approval to verify", "approvals to verify"),
    "expired-approvals": ("expired approval", "expired approvals"),
    "awaited-approvals": ("approval awaited", "approvals awaited"),
    "expired": ("request past its expiry", "requests past their expiry"),
    "preconditions": ("precondition to evaluate", "preconditions to evaluate"),
    "questions": ("open question", "open questions"),
    "statements": ("statement to re-check", "statements to re-check"),
    "requirements": ("requirement with no fallback", "requirements with no fallback"),
    "fallbacks": ("requirement with a fallback", "requirements with a fallback"),
    "extensions": ("extension not understood", "extensions not understood"),
    "omissions": ("omission to recover", "omissions to recover"),
    "drafts": ("unsaved draft", "unsaved drafts"),
    "resources": ("resource to re-check", "resources to re-check"),
}
assert set(SHORT) == set(LINE_KEYS)
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
            # an object with neither an id nor a card is counted, not named: nothing to show
            items = [i for i in named if i.get("id") is not None or i.get("anchor")][:NAMED]
            one_short, many_short = SHORT[key]
            lines.append(
                {
                    "key": key,
                    "count": count,
                    "text": text,
                    "short": f"{count} {one_short if count == 1 else many_short}",
                    "anchor": anchor,
                    "items": items,
                }
            )

    def ops(chosen: list[OperationEntry]) -> list[Model]:
        return _named(ctx, [(("operations", i), facts.id) for i, _, facts, _ in chosen[:NAMED]])

    # §10.7 step 6 reconciles every uncertain operation first, whatever its effect
    uncertain = [e for e in entries if e[2].status == "uncertain"]
    line(
        "outcome",
        len(uncertain),
        "unknown outcome: determine it at its record first",
        "unknown outcomes: determine each at its record first",
        "check-operations",
        ops(uncertain),
    )
    failed = [e for e in entries if e[2].status == "failed"]
    line(
        "failed",
        len(failed),
        "failed: check at its record what took effect",
        "failed: check at each record what took effect",
        "check-operations",
        ops(failed),
    )
    unrecognised = [e for e in entries if e[2].status is None]
    line(
        "unrecognised",
        len(unrecognised),
        "status not recognised: find its state at its record",
        "statuses not recognised: find each state at its record",
        "check-operations",
        ops(unrecognised),
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
    incompatibilities = items_of("incompatibilities")
    line(
        "incompatibilities",
        len(incompatibilities),
        "incompatibility: stop if it holds",
        "incompatibilities: stop if one holds",
        "check-incompatibilities",
        [_item(ctx, x) for x in incompatibilities],
    )
    forbidden = [e for e in entries if e[2].forbidding and not e[2].terminal]
    line(
        "forbidden",
        len(forbidden),
        "operation forbidden by a stop condition",
        "operations forbidden by a stop condition",
        "ops-forbidden",
        ops(forbidden),
    )
    approved = [e for e in entries if e[2].kind == "approval" and e[2].status == "approved"]
    live = [e for e in approved if not e[2].expired]
    line(
        "approvals",
        len(live),
        "approval recorded: verify it at its evidence, with its scope and expiry",
        "approvals recorded: verify each at its evidence, with its scope and expiry",
        "check-operations",
        ops(live),
    )
    lapsed = [e for e in approved if e[2].expired]
    line(
        "expired-approvals",
        len(lapsed),
        "approval expired: do not rely on it; obtain a new one",
        "approvals expired: do not rely on them; obtain new ones",
        "check-operations",
        ops(lapsed),
    )
    awaited = [
        e
        for e in entries
        if e[2].kind == "approval" and e[2].status == "awaiting" and not e[2].expired
    ]
    line(
        "awaited-approvals",
        len(awaited),
        "approval awaited, not given: check its status at its record",
        "approvals awaited, not given: check each status at its record",
        "check-operations",
        ops(awaited),
    )
    expired = [e for e in entries if e[2].status == "awaiting" and e[2].expired]
    line(
        "expired",
        len(expired),
        "awaiting past its expiry: check its status at its record, then re-request it",
        "awaiting past their expiry: check each status at its record, then re-request",
        "check-operations",
        ops(expired),
    )
    preconditions = items_of("preconditions")
    line(
        "preconditions",
        len(preconditions),
        "precondition to evaluate before resuming",
        "preconditions to evaluate before resuming",
        "check-preconditions",
        [_item(ctx, x) for x in preconditions],
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
    required = [r for r in items_of("requirements") if r.get("necessity") == "required"]
    extensions = [r for r in required if r.get("kind") == "extension"]
    others = [r for r in required if r.get("kind") != "extension"]
    without = [r for r in others if r.get("fallback") is None]
    line(
        "requirements",
        len(without),
        "requirement you must meet, no fallback: meet it or stop",
        "requirements you must meet, no fallback: meet each or stop",
        "check-requirements",
        [_item(ctx, r) for r in without],
    )
    fallbacks = [r for r in others if r.get("fallback") is not None]
    line(
        "fallbacks",
        len(fallbacks),
        "requirement you must meet, or accept its fallback and say so",
        "requirements you must meet, or accept their fallbacks and say so",
        "check-requirements",
        [_item(ctx, r) for r in fallbacks],
    )
    line(
        "extensions",
        len(extensions),
        "extension needed that this viewer does not understand (§7)",
        "extensions needed that this viewer does not understand (§7)",
        "check-requirements",
        [_item(ctx, r) for r in extensions],
    )
    omissions = _omissions(ctx)
    line(
        "omissions",
        len(omissions),
        "omission: left out by the source; recover it before relying on it",
        "omissions: left out by the source; recover them before relying on them",
        "derivation",
        _named(ctx, omissions[:NAMED]),
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
        "since_parent": _since_parent(ctx),
        "lines": lines,
        "errors": result.errors,
        "warnings": result.warnings,
        "valid": result.valid,
        "note": "Check each in the system of record: a checkpoint grants no authority (§10.1).",
    }


# How many of the parent's objects in force the summary names as dropped, rewritten, weakened
# or withdrawn; the rest are counted (the lineage checks and the diff have them all).
SINCE_PARENT_NAMED = 12
_CHANGED = {
    "dropped": "dropped",
    "rewritten": "rewritten",
    "weakened": "weakened",
    "withdrawn": "withdrawn",
}


def _since_parent(ctx: Context) -> Model | None:
    """With a parent: what the child dropped, rewrote, weakened or withdrew of what the parent
    holds in force (§9.2), first, each linked to where the page shows its change: its card
    (whose mark links the field-level change) or, for what is gone, the lineage checks."""
    pair = ctx.result.pair
    if pair is None:
        return None
    found = pair.losses
    items = []
    for loss in found[:SINCE_PARENT_NAMED]:
        owner = ctx.owners.get(loss.child_pointer) if loss.child_pointer else None
        items.append(
            {
                "change": _CHANGED[loss.change],
                "what": loss.what,
                "id": loss.id,
                "detail": loss.detail,
                "accounted": loss.accounted,
                "recorded": loss.recorded,
                "parent_pointer": loss.parent_pointer,
                "child_pointer": loss.child_pointer,
                "anchor": owner[1] if owner else "lineage-checks",
            }
        )
    return {
        "count": len(found),
        "items": items,
        "more": max(0, len(found) - SINCE_PARENT_NAMED),
        "compared": pair.skipped is None,
        "note": (
            "What the parent holds in force (§9.2: active instructions, constraints and "
            "decisions, open questions, non-terminal operations, stop conditions) that this "
            "checkpoint no longer holds as it was. Compare each with the parent before relying "
            "on this one."
        ),
    }


# where an object is, and its id: a line names only its first few, so only those are looked up
Spot = tuple[tuple[str | int, ...], str | None]


def _named(ctx: Context, spots: list[Spot]) -> list[Model]:
    named = []
    for path, object_id in spots:
        pointer = to_pointer(path)
        owner = ctx.owners.get(pointer)
        named.append(
            ctx.naming(
                {
                    "id": object_id,
                    "anchor": owner[1] if owner else None,
                    "words": _words(ctx, pointer),
                }
            )
        )
    return named


def _item(ctx: Context, card: Model) -> Model:
    pointer = card.get("pointer")
    words = _words(ctx, pointer) if isinstance(pointer, str) else None
    return ctx.naming({"id": card.get("id"), "anchor": card.get("anchor"), "words": words})


# The most characters of an object's own words the summary shows: it must fit the first
# screen, and the object's card, which its id links, shows them whole (one operation's
# description of 7,000 characters pushed the stop conditions six screens down on a phone).
SUMMARY_WORDS = 280


def _words(ctx: Context, pointer: str) -> str | None:
    """The own words of the object at ``pointer`` in the (redacted) document, at most
    `SUMMARY_WORDS` characters of them (cut before a redaction marker it would split)."""
    try:
        words = words_of(resolve(ctx.doc, pointer))
    except LookupError:
        return None
    return None if words is None else clipped_words(words)


def clipped_words(words: str) -> str:
    """``words``, past `SUMMARY_WORDS` characters cut there and ended with "…" (before a
    redaction marker the cut would split)."""
    if len(words) <= SUMMARY_WORDS:
        return words
    cut = SUMMARY_WORDS
    marker = words.rfind(REDACTED[0], max(0, cut - len(REDACTED)), cut)
    if marker != -1 and words.startswith(REDACTED, marker) and marker + len(REDACTED) > cut:
        cut = marker
    return words[:cut].rstrip() + "…"


def _open_questions(ctx: Context) -> list[Spot]:
    found: list[Spot] = []
    for i, statement in object_items(ctx.doc.get("statements")):
        if statement.get("kind") != "question":
            continue
        if statement_status(statement.get("status")) not in _CLOSED_QUESTION:
            found.append((("statements", i), text_of(statement.get("id"))))
    return found


def _omissions(ctx: Context) -> list[Spot]:
    derivation = as_object(ctx.doc.get("derivation"))
    return [
        (("derivation", "omissions", i), text_of(omission.get("id")))
        for i, omission in object_items(derivation.get("omissions"))
    ]


def _unsaved_drafts(ctx: Context) -> list[Spot]:
    found: list[Spot] = []
    contexts = ctx.doc.get("application_context")
    for i, entry in object_items(contexts):
        for j, draft in object_items(as_object(entry).get("drafts")):
            if draft.get("status") == "unsaved":
                path = ("application_context", i, "drafts", j)
                found.append((path, text_of(draft.get("id"))))
    return found
