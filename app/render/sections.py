"""The other sections of the document: progress, resources, application context,
continuation, derivation, extensions and the source member."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from app.advice import NAMED_PER_OPERATION
from app.json_values import text_of
from app.pointer import to_pointer
from app.render.checklist import incompatibility_item, precondition_item, requirement_item
from app.render.context import (
    Context,
    as_object,
    json_text,
    link_to,
    links_to,
    object_items,
    optional_link,
    paged,
    unreadable,
    uri_link,
    with_hidden,
)
from app.render.model import NOTE_EXTENSIONS, NOTE_NEXT, NOTE_SOURCE_MEMBER, Model
from app.render.operations import stop_condition_card
from app.render.query import ListWindow


def build_progress(ctx: Context) -> Model:
    """Completed steps as a timeline, the focus, and the next steps with what blocks them."""
    progress = as_object(ctx.doc.get("progress"))
    focus = progress.get("focus")
    completed, completed_hidden, completed_pager = _paged(
        ctx, object_items(progress.get("completed")), "progress-completed"
    )
    upcoming, next_hidden, next_pager = _paged(
        ctx, object_items(progress.get("next")), "progress-next"
    )
    section = {
        "anchor": "progress",
        "title": "Progress",
        "present": "progress" in ctx.doc,
        "completed": [
            ctx.card(
                ("progress", "completed", i),
                {
                    "description": text_of(step.get("description")),
                    "completed_at": text_of(step.get("completed_at")),
                    "evidence": links_to(ctx, step.get("evidence")),
                },
            )
            for i, step in completed
        ],
        "focus": None if focus is None else _focus(ctx, focus),
        "next": [
            ctx.card(
                ("progress", "next", i),
                {
                    "description": text_of(step.get("description")),
                    "blocked_by": links_to(ctx, step.get("blocked_by")),
                    "requires": links_to(ctx, step.get("requires")),
                    "refs": links_to(ctx, step.get("refs")),
                },
            )
            for i, step in upcoming
        ],
        "note": NOTE_NEXT,
        "extensions_count": len(as_object(progress.get("extensions"))),
        "completed_pager": completed_pager,
        "next_pager": next_pager,
    }
    with_hidden(section, "completed", completed_hidden)
    return with_hidden(section, "next", next_hidden)


def _paged(ctx: Context, entries: list[Any], name: str) -> tuple[list[Any], int, Model | None]:
    """`paged` for the list an address names ``name`` (`ListWindow`)."""
    return paged(ctx, entries, ctx.query.window.start_of(name), partial(ListWindow.search, name))


def _focus(ctx: Context, focus: object) -> Model:
    return {
        "description": text_of(as_object(focus).get("description")),
        "refs": links_to(ctx, as_object(focus).get("refs")),
        "unreadable": None if isinstance(focus, dict) else text_of(focus),
    }


# --- resources ----------------------------------------------------------------------------


def build_resources(ctx: Context) -> Model:
    raw = ctx.doc.get("resources")
    shown, hidden, position = _paged(ctx, object_items(raw), "resources")
    section = {
        "anchor": "resources",
        "title": "Resources",
        "present": "resources" in ctx.doc,
        "items": [_resource(ctx, i, res) for i, res in shown],
        "pager": position,
        "unreadable": unreadable(raw),
        "note": (
            "A uri is a link only when it is http or https, browsers and RFC 3986 read the same "
            "host in it, it names no user, and nothing in its text hides where it goes; the "
            "host it opens is shown beside it. Excerpts are quoted content, not instructions "
            "(§10.2)."
        ),
    }
    return with_hidden(section, "items", hidden)


def _resource(ctx: Context, index: int, res: Model) -> Model:
    uri = res.get("uri")
    locator = res.get("locator")
    return ctx.card(
        ("resources", index),
        {
            "kind": text_of(res.get("kind")),
            "title": text_of(res.get("title")),
            "description": text_of(res.get("description")),
            "uri": text_of(uri),
            **uri_link(ctx, uri),
            "locator": None if locator is None else _locator(locator),
            "media_type": text_of(res.get("media_type")),
            "revision": text_of(res.get("revision")),
            "digest": text_of(res.get("digest")),
            "observed_at": text_of(res.get("observed_at")),
            "availability": text_of(res.get("availability")),
            "sensitivity": text_of(res.get("sensitivity")),
            "resolver": text_of(res.get("resolver")),
            "excerpt": text_of(res.get("excerpt")),
            "extensions_count": len(as_object(res.get("extensions"))),
        },
    )


def _locator(value: object) -> Model:
    locator = as_object(value)
    return {
        "system": text_of(locator.get("system")),
        "type": text_of(locator.get("type")),
        "key": text_of(locator.get("key")),
        "unreadable": None if isinstance(value, dict) else text_of(value),
    }


# --- application context -----------------------------------------------------------------


def build_application_context(ctx: Context) -> Model:
    raw = ctx.doc.get("application_context")
    return {
        "anchor": "application-context",
        "title": "Application context",
        "present": "application_context" in ctx.doc,
        "items": [_app_entry(ctx, i, entry) for i, entry in object_items(raw)],
        "unreadable": unreadable(raw),
        "note": (
            "Application state and drafts are the source's data, not instructions; a draft "
            "is not sent or saved by being shown here (§6.7, §10.2)."
        ),
    }


def _app_entry(ctx: Context, index: int, entry: Model) -> Model:
    path = ("application_context", index)
    return ctx.card(
        path,
        {
            "application": text_of(entry.get("application")),
            "view": text_of(entry.get("view")),
            "selections": [
                {
                    "resource": link_to(ctx, sel.get("resource")),
                    "role": text_of(sel.get("role")),
                    "detail_json": json_text(sel.get("detail")),
                }
                for _, sel in object_items(entry.get("selections"))
            ],
            "filters_json": json_text(entry.get("filters")),
            "drafts": [
                ctx.card(
                    (*path, "drafts", j),
                    {
                        "status": text_of(draft.get("status")),
                        "description": text_of(draft.get("description")),
                        "target": optional_link(ctx, draft.get("target")),
                        "content": text_of(draft.get("content")),
                        "content_ref": optional_link(ctx, draft.get("content_ref")),
                    },
                )
                for j, draft in object_items(entry.get("drafts"))
            ],
            "state_json": json_text(entry.get("state")),
            "state_schema": text_of(entry.get("state_schema")),
            "extensions_count": len(as_object(entry.get("extensions"))),
        },
    )


# --- continuation -------------------------------------------------------------------------


def build_continuation(ctx: Context) -> Model:
    cont = as_object(ctx.doc.get("continuation"))
    return {
        "anchor": "continuation",
        "title": "Continuation",
        "present": "continuation" in ctx.doc,
        "requirements": [
            requirement_item(ctx, i, r) for i, r in object_items(cont.get("requirements"))
        ],
        "preconditions": [
            precondition_item(ctx, i, p) for i, p in object_items(cont.get("preconditions"))
        ],
        "stop_conditions": [
            stop_condition_card(ctx, i, s) for i, s in object_items(cont.get("stop_conditions"))
        ],
        "recovery": [
            ctx.card(
                ("continuation", "recovery", i),
                {
                    "description": text_of(step.get("description")),
                    "refs": links_to(ctx, step.get("refs")),
                },
            )
            for i, step in object_items(cont.get("recovery"))
        ],
        "incompatibilities": [
            incompatibility_item(ctx, i, x) for i, x in object_items(cont.get("incompatibilities"))
        ],
        "recovery_note": "The source's recommended first actions, in order: recommendations, "
        "not instructions (§6.8, §10.2).",
        "extensions_count": len(as_object(cont.get("extensions"))),
    }


# --- derivation -----------------------------------------------------------------------------


def build_derivation(ctx: Context) -> Model:
    derivation = as_object(ctx.doc.get("derivation"))
    return {
        "anchor": "derivation",
        "title": "Derivation",
        "present": "derivation" in ctx.doc,
        "method": text_of(derivation.get("method")),
        "inputs": [
            {
                "kind": text_of(item.get("kind")),
                "id": text_of(item.get("id")),
                "protocol": text_of(item.get("protocol")),
                "digest": text_of(item.get("digest")),
            }
            for _, item in object_items(derivation.get("inputs"))
        ],
        "omissions": [
            ctx.card(
                ("derivation", "omissions", i),
                {
                    "description": text_of(item.get("description")),
                    "reason": text_of(item.get("reason")),
                    "recoverable_from": optional_link(ctx, item.get("recoverable_from")),
                },
            )
            for i, item in object_items(derivation.get("omissions"))
        ],
        "transformations": [
            ctx.card(
                ("derivation", "transformations", i),
                {
                    "description": text_of(item.get("description")),
                    "affected": links_to(ctx, item.get("affected")),
                },
            )
            for i, item in object_items(derivation.get("transformations"))
        ],
    }


# --- extensions -----------------------------------------------------------------------------

_EXTENSION_MEMBERS = ("source", "task", "progress", "continuation")
_EXTENSION_ARRAYS = ("statements", "resources", "application_context", "operations")


def _extension_holders(document: Model) -> Iterator[tuple[tuple[str | int, ...], object]]:
    """(path of the holder, its extensions value) for every object that may carry
    extensions (§7), in page order: the document, then source, task, progress, statements,
    resources, application context entries, operations and continuation."""
    if "extensions" in document:
        yield (), document["extensions"]
    for member in _EXTENSION_MEMBERS[:3]:
        holder = document.get(member)
        if isinstance(holder, dict) and "extensions" in holder:
            yield (member,), holder["extensions"]
    for member in _EXTENSION_ARRAYS:
        for i, item in object_items(document.get(member)):
            if "extensions" in item:
                yield (member, i), item["extensions"]
    holder = document.get("continuation")
    if isinstance(holder, dict) and "extensions" in holder:
        yield ("continuation",), holder["extensions"]


def build_extensions(ctx: Context) -> Model:
    """Every extension value with its path, pretty-printed, marked as not understood, and
    linked to the continuation requirement of kind extension that names its key, if any."""
    required = _extension_requirements(ctx)
    items: list[Model] = []
    # a page builds the first ctx.limit and counts the rest, as every long list (one extensions
    # object of 160,000 members took 4.9 s to show 150)
    room = ctx.limit if ctx.limit is not None else -1
    hidden = 0
    for path, value in _extension_holders(ctx.doc):
        entries = list(value.items()) if isinstance(value, dict) else [(None, value)]
        if room == 0:
            hidden += len(entries)
            continue
        if room > 0:
            hidden += max(0, len(entries) - room)
            entries = entries[:room]
            room -= len(entries)
        holder = ctx.identity(path) if path else {"id": None, "anchor": "header", "pointer": ""}
        for key, member in entries:
            naming = required.get(key, []) if key else []
            ext_path = (*path, "extensions") if key is None else (*path, "extensions", key)
            items.append(
                {
                    "key": key,
                    "pointer": to_pointer(ext_path),
                    "holder": ctx.naming(
                        {
                            "pointer": holder["pointer"],
                            "id": holder["id"],
                            "anchor": holder["anchor"],
                            "label": _holder_label(path),
                        }
                    ),
                    "value_json": "null" if member is None else json_text(member),
                    "understood": False,
                    # the first few, and how many: n requirements naming a key that n
                    # extension values use listed n × n in the JSON twin
                    "requirements": links_to(ctx, naming[:NAMED_PER_OPERATION]),
                    "requirements_count": len(naming),
                }
            )
    section = {
        "anchor": "extensions",
        "title": "Extensions",
        "present": bool(items),
        "note": NOTE_EXTENSIONS,
        "items": items,
    }
    return with_hidden(section, "items", hidden)


def _holder_label(path: tuple[str | int, ...]) -> str:
    if not path:
        return "document"
    if len(path) == 1:
        return str(path[0])
    return f"{path[0]}[{path[1]}]"


def _extension_requirements(ctx: Context) -> dict[str, list[str]]:
    """extension key -> ids of the requirements of kind extension naming it."""
    out: dict[str, list[str]] = {}
    cont = as_object(ctx.doc.get("continuation"))
    for _, req in object_items(cont.get("requirements")):
        name, req_id = req.get("name"), req.get("id")
        if req.get("kind") == "extension" and isinstance(name, str) and isinstance(req_id, str):
            out.setdefault(name, []).append(req_id)
    return out


# --- the document's source member ----------------------------------------------------------


def build_session_refs(ctx: Context) -> Model:
    """The document's `source` member: producer, agent, model and session references. It is
    informational and confers nothing (§6.1); the references point into history kept
    elsewhere, which a reader never needs to understand the checkpoint (§5.2)."""
    source = as_object(ctx.doc.get("source"))
    return {
        "anchor": "session-refs",
        "title": "Source and session references",
        "present": "source" in ctx.doc,
        "producer": text_of(source.get("producer")),
        "agent": text_of(source.get("agent")),
        "model": text_of(source.get("model")),
        "session_refs": [
            {
                "protocol": text_of(ref.get("protocol")),
                "id": text_of(ref.get("id")),
                "event": text_of(ref.get("event")),
            }
            for _, ref in object_items(source.get("session_refs"))
        ],
        "note": NOTE_SOURCE_MEMBER,
        "extensions_count": len(as_object(source.get("extensions"))),
    }
