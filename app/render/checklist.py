"""Before continuing: the restoration procedure of §10.7 as a checklist of what to verify."""

from __future__ import annotations

from typing import Any

from app import advice
from app.json_values import text_of
from app.render.context import (
    Context,
    as_object,
    links_to,
    object_items,
    owns,
    statement_status,
    string_list,
    uri_link,
    with_hidden,
)
from app.render.model import NECESSITY_ORDER, NOTE_NEXT, STRUCK_STATUSES, Model
from app.render.operations import OperationEntry, operation_card, stop_condition_card
from app.report import VALIDITY_NOTE, VERDICT_INVALID, VERDICT_VALID, at_least

# The restoration procedure of §10.7, in its order: (key, step, title, guidance).
CHECKLIST = (
    (
        "validity",
        1,
        "Validity (levels 1–2)",
        "Validate levels 1 and 2; reject an invalid document.",
    ),
    (
        "stop_conditions",
        2,
        "Stop conditions in force",
        "Do not proceed while one holds. Where a stop condition's fields (applies_to, until) "
        "and its description differ, follow the more restrictive (§6.8).",
    ),
    ("incompatibilities", 2, "Incompatibilities", "Do not proceed if one holds."),
    (
        "requirements",
        3,
        "Requirements",
        "Compare them with your own capabilities. A required one unmet without an acceptable "
        "fallback: stop and report. A recommended one unmet: continue in a degraded mode and "
        "say so.",
    ),
    (
        "resources",
        4,
        "Resources to re-check",
        "Resolve them and check revisions and digests; mark changed or inaccessible resources, "
        "and the statements that depend on them, as stale.",
    ),
    (
        "statements",
        4,
        "Statements to re-check",
        "Re-check them before relying on them, or continue in a degraded mode that does not "
        "depend on them and say so (§10.4).",
    ),
    ("preconditions", 5, "Preconditions", "Evaluate each and follow its on_failure."),
    (
        "operations",
        6,
        "Operations to reconcile",
        "Verify uncertain ones, verify approved records, re-request approvals or input as "
        "needed. Execute nothing on the strength of the checkpoint alone.",
    ),
    (
        "continue",
        7,
        "Continue",
        "Continue from the focus and next steps without redoing completed steps unless evidence "
        "shows they must be redone.",
    ),
    (
        "report",
        8,
        "Report",
        "Tell the user what you restored, what you could not, and in what mode you are continuing.",
    ),
)


def build_before_continuing(ctx: Context, entries: list[OperationEntry]) -> Model:
    """The restoration checklist, in the order of §10.7: validity; stop conditions and
    incompatibilities; requirements; resources and the statements to re-check; preconditions;
    operations to reconcile; continuing from progress; reporting. The viewer establishes only
    the first; every other item is for the person or destination to check."""
    cont = as_object(ctx.doc.get("continuation"))
    # non-terminal operations to reconcile, in the operations section's group order
    to_reconcile = [
        e for key, _, _ in advice.GROUPS if key != "done" for e in entries if e[3] == key
    ]
    reconcile, reconcile_hidden = _named_on_page(ctx, to_reconcile)
    resources, resources_hidden = _resources_to_check(ctx)
    statements, statements_hidden = _statements_to_check(ctx)
    items = {
        "validity": [_validity_item(ctx)],
        "stop_conditions": [
            stop_condition_card(ctx, i, s) for i, s in object_items(cont.get("stop_conditions"))
        ],
        "incompatibilities": [
            incompatibility_item(ctx, i, x) for i, x in object_items(cont.get("incompatibilities"))
        ],
        "requirements": _requirements_in_order(ctx, cont),
        "resources": resources,
        "statements": statements,
        "preconditions": [
            precondition_item(ctx, i, p) for i, p in object_items(cont.get("preconditions"))
        ],
        "operations": [_reconcile_item(ctx, operation_card(ctx, e)) for e in reconcile],
        "continue": [_continue_item(ctx)],
        "report": [],
    }
    groups = [
        {
            "key": key,
            "anchor": "check-" + key.replace("_", "-"),
            "step": step,
            "title": title,
            "guidance": guidance,
            "reference": f"§10.7 step {step}",
            "items": items[key],
        }
        for key, step, title, guidance in CHECKLIST
    ]
    hidden = {
        "operations": reconcile_hidden,
        "resources": resources_hidden,
        "statements": statements_hidden,
    }
    for group in groups:
        with_hidden(group, "items", hidden.get(str(group["key"]), 0))
    return {
        "anchor": "before-continuing",
        "title": "Before continuing",
        "note": (
            "The restoration procedure of §10.7, built from this document. The viewer checks "
            "levels 1–2 only; every other item is yours to check, with your own tools, "
            "credentials and policy (§10.1)."
        ),
        "groups": groups,
    }


def _validity_item(ctx: Context) -> Model:
    result = ctx.result
    if result.valid:
        text = (
            f"{VERDICT_VALID}: well-formed and internally consistent. Levels 3–5 (resources, "
            "authorization, continuation) are yours to establish."
        )
    else:
        text = (
            f"{VERDICT_INVALID}: {at_least(result.omitted, 'error')}{result.errors} "
            f"error{'' if result.errors == 1 else 's'}. A "
            "destination rejects an invalid "
            "document (§10.7)."
        )
    return {
        "id": None,
        "anchor": "findings",
        "text": text,
        "valid": result.valid,
        "verdict": VERDICT_VALID if result.valid else VERDICT_INVALID,
        "notes": [VALIDITY_NOTE],
    }


def incompatibility_item(ctx: Context, index: int, item: Model) -> Model:
    return ctx.card(
        ("continuation", "incompatibilities", index),
        {
            "text": text_of(item.get("description")),
        },
    )


def requirement_item(ctx: Context, index: int, item: Model) -> Model:
    necessity = text_of(item.get("necessity"))
    kind = text_of(item.get("kind"))
    notes = []
    if necessity == "required":
        notes.append(
            "Required: if you do not meet it and no fallback is acceptable, stop and report "
            "(§10.7)."
        )
    elif necessity == "recommended":
        notes.append("Recommended: if you do not meet it, continue in a degraded mode and say so.")
    elif necessity == "optional":
        notes.append("Optional.")
    if kind == "access":
        notes.append("It describes access you must already hold; it conveys none (§6.8, §10.1).")
    if kind == "extension":
        notes.append(
            "It names a checkpoint extension; this viewer implements none, so it shows that "
            "extension's data without understanding it (§7)."
        )
    return ctx.card(
        ("continuation", "requirements", index),
        {
            "kind": kind,
            "name": text_of(item.get("name")),
            "text": text_of(item.get("description")),
            "necessity": necessity,
            "optional": necessity == "optional",
            "fallback": text_of(item.get("fallback")),
            "refs": links_to(ctx, item.get("refs")),
            "notes": notes,
        },
    )


def _requirements_in_order(ctx: Context, cont: Model) -> list[Model]:
    """Required first, then recommended, then optional (marked), each in document order."""
    items = [requirement_item(ctx, i, r) for i, r in object_items(cont.get("requirements"))]
    return sorted(items, key=lambda r: NECESSITY_ORDER.get(r["necessity"] or "", 3))


def _dependents(ctx: Context, wanted: set[str]) -> dict[str, list[str]]:
    """resource id -> ids of statements citing it as evidence or origin.ref, in order, for the
    ``wanted`` resource ids."""
    out: dict[str, list[str]] = {}
    for _, statement in object_items(ctx.doc.get("statements")):
        statement_id = statement.get("id")
        if not isinstance(statement_id, str):
            continue
        cited = [
            *string_list(statement.get("evidence")),
            as_object(statement.get("origin")).get("ref"),
        ]
        for resource_id in dict.fromkeys(r for r in cited if isinstance(r, str) and r in wanted):
            out.setdefault(resource_id, []).append(statement_id)
    return out


def _resources_to_check(ctx: Context) -> tuple[list[Model], int]:
    """Resources with a recorded revision or digest: re-check them before relying on them
    (§10.4), with the statements that depend on them; on a page the first `CHECKLIST_NAMED`,
    and how many more."""
    found = [
        (i, res)
        for i, res in object_items(ctx.doc.get("resources"))
        if res.get("revision") is not None or res.get("digest") is not None
    ]
    if not found:  # the statements are not walked for nothing
        return [], 0
    checked, hidden = _named_on_page(ctx, found)
    dependents = _dependents(ctx, {r["id"] for _, r in checked if isinstance(r.get("id"), str)})
    out = []
    for i, res in checked:
        res_id = res.get("id")
        uri = res.get("uri")
        out.append(
            ctx.card(
                ("resources", i),
                {
                    "text": text_of(res.get("title")) or text_of(uri),
                    "uri": text_of(uri),
                    "link": uri_link(ctx, uri)["link"],
                    "revision": text_of(res.get("revision")),
                    "digest": text_of(res.get("digest")),
                    "observed_at": text_of(res.get("observed_at")),
                    "availability": text_of(res.get("availability")),
                    # (the statements citing an id rely on the object that owns it, not on a
                    # later duplicate: n resources sharing one id that n statements cite
                    # listed n × n)
                    "dependents": links_to(ctx, dependents.get(res_id, []))
                    if isinstance(res_id, str) and owns(ctx, res_id, res)
                    else [],
                    "notes": [
                        "Re-check its revision or digest before relying on it; if it changed or is "
                        "inaccessible, treat it and the statements that depend on it as stale "
                        "(§10.4)."
                    ],
                },
            )
        )
    return out, hidden


# A page's checklist names the first few objects of a step whose objects have cards of their
# own, and counts the rest, each in its card (app/web/pages.py); the JSON view names every one.
# The operations to reconcile and the resources and statements to re-check are cut here,
# before their entries are built: a document of thousands of resources with digests built an
# entry, a link and the statements citing it for each, to show ten.
CHECKLIST_NAMED = 10


def _named_on_page(ctx: Context, found: list[Any]) -> tuple[list[Any], int]:
    if ctx.limit is None or len(found) <= CHECKLIST_NAMED:
        return found, 0
    return found[:CHECKLIST_NAMED], len(found) - CHECKLIST_NAMED


def _statements_to_check(ctx: Context) -> tuple[list[Model], int]:
    """Statements still in force (not superseded or retracted) that must be re-checked:
    revalidate before_use or before_action, or verification stale or disputed; on a page
    the first `CHECKLIST_NAMED`, and how many more."""
    found = []
    for i, st in object_items(ctx.doc.get("statements")):
        if "verification" not in st or statement_status(st.get("status")) in STRUCK_STATUSES:
            continue
        verification = as_object(st.get("verification"))
        reasons = _recheck_reasons(verification)
        if reasons:
            found.append((i, st, verification, reasons))
    named, hidden = _named_on_page(ctx, found)
    out = [
        ctx.card(
            ("statements", i),
            {
                "kind": text_of(st.get("kind")),
                "text": text_of(st.get("text")),
                "origin_type": text_of(as_object(st.get("origin")).get("type")),
                "verification_state": text_of(verification.get("state")),
                "revalidate": text_of(verification.get("revalidate")),
                "evidence": links_to(ctx, st.get("evidence")),
                "notes": reasons,
            },
        )
        for i, st, verification, reasons in named
    ]
    return out, hidden


def _recheck_reasons(verification: Model) -> list[str]:
    reasons = []
    revalidate = verification.get("revalidate")
    if revalidate == "before_use":
        reasons.append("revalidate: before_use — re-check it before using it (§10.4).")
    elif revalidate == "before_action":
        reasons.append("revalidate: before_action — re-check it before any action relying on it.")
    state = verification.get("state")
    if state == "stale":
        reasons.append("Recorded as stale: verified once, and the evidence may have changed.")
    elif state == "disputed":
        reasons.append("Recorded as disputed: its evidence conflicts.")
    return reasons


def precondition_item(ctx: Context, index: int, item: Model) -> Model:
    on_failure = text_of(item.get("on_failure"))
    follow = {
        "halt": "If it does not hold: halt.",
        "ask": "If it does not hold: ask a person.",
        "degrade": "If it does not hold: continue in a degraded mode and say so.",
    }
    return ctx.card(
        ("continuation", "preconditions", index),
        {
            "text": text_of(item.get("description")),
            "on_failure": on_failure,
            "refs": links_to(ctx, item.get("refs")),
            "notes": [follow[on_failure]] if on_failure in follow else [],
        },
    )


def _reconcile_item(ctx: Context, card: Model) -> Model:
    return ctx.naming(
        {
            "id": card["id"],
            "anchor": card["anchor"],
            "kind": card["kind"],
            "status": card["status"],
            "text": card["description"],
            "group": card["group"],
            "first_step": card["first_step"],
            "record": card["record"],
            "blocked_by_stop": any(s["forbids"] for s in card["stop_conditions"]),
        }
    )


def _continue_item(ctx: Context) -> Model:
    progress = as_object(ctx.doc.get("progress"))
    focus = as_object(progress.get("focus"))
    return {
        "id": None,
        "anchor": "progress",
        "text": text_of(focus.get("description")),
        "links": links_to(ctx, focus.get("refs")),
        "next_steps": len(object_items(progress.get("next"))),
        "completed_steps": len(object_items(progress.get("completed"))),
        "notes": [NOTE_NEXT],
    }
