"""What every builder reads: the redacted document and its indexes, read through helpers that
never raise, links to local objects, and ages in words."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain
from typing import Any

from app import links
from app.analysis import Analysis, LintResult
from app.checkpoint import (
    TYPE_NAMES,
    Checkpoint,
    Instant,
    LocalObject,
)
from app.digests import DigestCheck
from app.json_values import text_of
from app.pointer import to_pointer
from app.render.model import FindingItem, Model, anchor, fragment_safe
from app.render.query import EVERY, PageQuery
from app.standing import Standings


@dataclass(slots=True)
class Context:
    """What every builder needs, derived once: the redacted document and its indexes."""

    result: LintResult
    now: datetime
    # redacted copy; None when intake found no document, or its version is refused
    document: Model | None
    checkpoint: Checkpoint | None  # the index of the redacted document
    created_at: Instant | None
    parent: Analysis | None
    parent_document: Model | None
    digest: DigestCheck | None  # parent.digest against the supplied parent
    # pointer of each local object -> its anchor (duplicates of an id get a "dup-" anchor)
    owners: dict[str, tuple[str, str]] = field(default_factory=dict)
    # the pointers of the object cards built, whose source lines `place_lines` finds in one
    # walk over the text once every section is built: only the cards a page shows (150 of a
    # list of 50,000) are looked for
    unplaced: set[str] = field(default_factory=set)
    # every dict of the model that links to a local object by its anchor or waits for its
    # source line (`identity`, `card`, `link_to`, `naming`): `place_lines` completes these,
    # where a walk over the whole model cost a tenth of a long page
    anchored: list[Model] = field(default_factory=list)
    # where each operation stands (app/standing.py): the stop conditions that forbid or
    # concern it, the steps it blocks; the one reading the guard and the model text share
    standings: Standings | None = None
    # the source lines the page lists; None: all of them (see SOURCE_LINE_LIMIT)
    shown_lines: set[int] | None = None
    # reference -> its link (see link_to); a document names the same objects many times over
    links: dict[str, Model] = field(default_factory=dict)
    # uri -> what the page does with it (see uri_link); the checklist and the cards share it
    uri_links: dict[str, Model] = field(default_factory=dict)
    # items built per list; None: all (see build_view)
    limit: int | None = None
    # what the page lists and where each list starts (app/render/query.py)
    query: PageQuery = EVERY
    # pointer -> what changed there since the parent (app/render/changes.py); empty alone
    since_parent: dict[str, Model] = field(default_factory=dict)
    # operation index -> its card, built once for the operations and the checklist
    op_cards: dict[int, Model] = field(default_factory=dict)
    # stop condition index -> its card, built once for the continuation and the checklist
    stop_cards: dict[int, Model] = field(default_factory=dict)
    # operation id -> its status in the supplied parent (see parent_status)
    parent_statuses: dict[str, str | None] | None = None
    # the document's `opencheckpoint` text, shown also when the version is refused
    format_version: str | None = None
    # epoch seconds after ``now`` at which a time-dependent sentence of the page changes (an
    # age in words, an operation that expires): the page is fresh until the earliest
    changes: list[int] = field(default_factory=list)

    def age(self, then: Instant | None) -> str | None:
        """`age_in_words`, noting when those words will change."""
        if then is None:
            return None
        self.changes.append(age_changes_at(then, self.now))
        return age_in_words(then, self.now)

    def cap(self, entries: list[Any], start: int = 0) -> tuple[list[Any], int]:
        """The entries to build from ``start`` on, and how many are left out after them."""
        if start:
            entries = entries[start:]
        if self.limit is None or len(entries) <= self.limit:
            return entries, 0
        return entries[: self.limit], len(entries) - self.limit

    @property
    def doc(self) -> Model:
        """The redacted document; empty for the sections that only run when there is one."""
        return self.document if self.document is not None else {}

    @property
    def by_id(self) -> dict[str, LocalObject]:
        return self.checkpoint.by_id if self.checkpoint is not None else {}

    def identity(self, path: tuple[str | int, ...]) -> Model:
        """id, anchor, pointer and source line anchor of the object at ``path``."""
        pointer = to_pointer(path)
        owner = self.owners.get(pointer)
        if owner is not None:
            self.unplaced.add(pointer)
        out = {
            "id": owner[0] if owner else None,
            "anchor": owner[1] if owner else None,
            "pointer": pointer,
            "source_anchor": UNPLACED if owner else None,
            "since_parent": self.since_parent.get(pointer),
        }
        if owner is not None:
            self.anchored.append(out)
        return out

    def card(self, path: tuple[str | int, ...], fields: Model) -> Model:
        """The card of the object at ``path``: its `identity` and ``fields`` (which come
        after it, as in ``{**identity, **fields}``), one dict that `place_lines` completes."""
        out = self.identity(path)
        out.update(fields)
        return out

    def naming(self, entry: Model) -> Model:
        """``entry``, a dict that links to a local object by its ``anchor`` (a checklist or
        summary line, an extension's holder), noted so `place_lines` marks it when the page
        does not list that object's card."""
        if entry.get("anchor") is not None:
            self.anchored.append(entry)
        return entry


def new_context(
    result: LintResult, now: datetime, list_limit: int | None = None, every_line: bool = False
) -> Context:
    """What every section reads; ``list_limit``: what a page lists of each list (build_view),
    None for the JSON twin's everything; ``every_line``: a listing of every line of a long
    text (the source page), not of those around the findings listed."""
    analysis = result.analysis
    # A version this viewer does not implement means nothing it knows (§5.1: reject it, never
    # report it valid): its sections are not built, as for bytes that are not JSON.
    document = analysis.redacted if analysis.interpretable else None
    checkpoint = analysis.shown if analysis.interpretable else None
    parent = result.parent
    ctx = Context(
        result=result,
        now=_aware(now),
        document=document,
        checkpoint=checkpoint,
        created_at=checkpoint.created_at if checkpoint is not None else None,
        parent=parent,
        parent_document=parent.redacted if parent is not None else None,
        digest=result.pair.digest if result.pair is not None else None,
    )
    ctx.limit = list_limit
    ctx.shown_lines = None if every_line else _shown_lines(result, list_limit)
    ctx.format_version = text_of(as_object(analysis.redacted).get("opencheckpoint"))
    if checkpoint is not None:
        ctx.owners = _owners(checkpoint)
        ctx.standings = Standings(checkpoint, ctx.now)
    return ctx


# Past this many lines the source listing keeps its head and the lines around findings: a
# reviewer reads those, and listing every line of a megabyte document costs seconds.
SOURCE_LINE_LIMIT = 3000
_SOURCE_HEAD = 40
_SOURCE_CONTEXT = 3


def _shown_lines(result: LintResult, listed: int | None = None) -> set[int] | None:
    """The lines a page lists of a long text: its head and those around the findings it lists
    (its first ``listed``; every one when None), and the lineage checks' (listed whole). A
    finding the page does not list has no card there to link to its line, nor its line a
    mark to link to it: a page of 3,000 findings listed the lines around each (2 MB), to
    link 150 of them. The source page lists every line."""
    if result.analysis.source.line_count <= SOURCE_LINE_LIMIT:
        return None
    shown = set(range(1, _SOURCE_HEAD + 1))
    for finding in chain(result.findings[:listed], result.lineage):
        if isinstance(finding.line, int):
            line = finding.line
            shown.update(range(max(1, line - _SOURCE_CONTEXT), line + _SOURCE_CONTEXT + 1))
    return shown


def _aware(moment: datetime) -> datetime:
    """``now`` as an aware instant; a naive one is taken as UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


class _Unplaced:
    """The source anchor of a card before `place_lines` finds its line (never shown: the
    JSON encoder refuses it)."""


UNPLACED: Any = _Unplaced()


def place_lines(
    ctx: Context, findings: Iterable[FindingItem], unlisted: frozenset[str] = frozenset()
) -> None:
    """Fill in the source anchor of every card `Context.identity` made: the lines of all of
    them found in one walk over the text. A line the page does not list gets no anchor (no
    link to nowhere). Every dict that links to an ``unlisted`` anchor (a card the page's list
    limit left out: a reference, a checklist entry, an extension's holder) gets
    ``"unlisted": True``, so the page names the object instead of linking to nothing, and so
    does each of the ``findings`` whose object is unlisted (``"object_unlisted"``)."""
    if ctx.unplaced:
        lines = ctx.result.analysis.source.lines(ctx.unplaced)
        shown = ctx.shown_lines
        for node in ctx.anchored:
            if node.get("source_anchor") is UNPLACED:
                line = lines.get(node["pointer"])
                listed = line is not None and (shown is None or line in shown)
                node["source_anchor"] = f"L{line}" if listed else None
        ctx.unplaced.clear()
    if unlisted:
        for node in ctx.anchored:
            if node["anchor"] in unlisted:
                node["unlisted"] = True
        for finding in findings:
            if finding["object_anchor"] in unlisted:
                finding["object_unlisted"] = True


def _owners(checkpoint: Checkpoint) -> dict[str, tuple[str, str]]:
    """pointer -> (id, anchor) of every local object. The first object with an id owns
    "obj-<id>"; a later duplicate (OCP-S001) gets "dup-<pointer>", so HTML ids stay unique."""
    out: dict[str, tuple[str, str]] = {}
    for obj in checkpoint.local_objects:
        first = checkpoint.by_id.get(obj.id)
        shown = anchor(obj.id) if first is obj else "dup-" + fragment_safe(obj.pointer)
        out[obj.pointer] = (obj.id, shown)
    return out


# --- small readers -------------------------------------------------------------------------


def owns(ctx: Context, object_id: str, value: object) -> bool:
    """Whether ``value`` is the object that owns ``object_id``: the first with it (a later
    duplicate is OCP-S001; references to the id resolve to the owner)."""
    owner = ctx.by_id.get(object_id)
    return owner is not None and owner.value is value


def as_object(value: object) -> Model:
    return value if isinstance(value, dict) else {}


def object_items(value: object) -> list[tuple[int, Model]]:
    """(index, object) for every object in an array; anything else yields nothing."""
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]


def string_list(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str)]


def texts_of(value: object) -> list[str]:
    if not isinstance(value, list):
        return [] if value is None else [text_of(value) or ""]
    return [text_of(item) or "" for item in value]


def json_text(value: object) -> str | None:
    """Free-form JSON (call arguments, extensions, filters, state) pretty-printed, indent 2,
    member order kept, non-ASCII kept."""
    if value is None:
        return None
    try:
        return json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def enum_value(value: object, allowed: Iterable[str]) -> str | None:
    """``value`` when it is one of the ``allowed`` strings, else None."""
    return value if isinstance(value, str) and value in allowed else None


def short_text(text: str, limit: int = 80) -> str:
    """A text cut to ``limit`` characters, an ellipsis marking the cut: how one object names
    another (a reference's label, a checklist entry that links to the card it stands for)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def label_of(value: Model) -> str | None:
    """A short name for an object: its title, name, text, description or application."""
    for key in ("title", "name", "text", "description", "application"):
        candidate = value.get(key)
        if isinstance(candidate, str) and candidate:
            return short_text(candidate)
    return None


def words_of(value: object) -> str | None:
    """An object's own words, whole: its description, text, title or name. What the summary
    puts beside an id, so a reviewer reads what is forbidden without opening its card."""
    if not isinstance(value, dict):
        return None
    for key in ("description", "text", "title", "name"):
        candidate = value.get(key)
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return None


def statement_status(value: object) -> str:
    """A statement's status; absent means active, the one defaulted field (§4.4)."""
    return "active" if value is None else text_of(value) or "active"


# --- links --------------------------------------------------------------------------------


def link_to(ctx: Context, ref: object) -> Model:
    """A reference as a link: the id, its anchor, the target's type and a short label. An
    unresolved reference keeps its text and has no anchor. One dict per reference, shared by
    every place that names it: the model is read, never changed."""
    if isinstance(ref, str):
        link = ctx.links.get(ref)
        if link is None:
            link = ctx.links[ref] = _new_link(ctx, ref)
        return link
    return _new_link(ctx, ref)


def _new_link(ctx: Context, ref: object) -> Model:
    obj = ctx.by_id.get(ref) if isinstance(ref, str) else None
    if obj is None:
        return {
            "id": text_of(ref),
            "anchor": None,
            "type": None,
            "type_name": None,
            "label": None,
            "status": None,
            "resolves": False,
        }
    status = obj.value.get("status")
    if obj.type == "statement":
        status = statement_status(status)
    return ctx.naming(
        {
            "id": obj.id,
            "anchor": anchor(obj.id),
            "type": obj.type,
            "type_name": TYPE_NAMES.get(obj.type, obj.type),
            "label": label_of(obj.value),
            "status": text_of(status) if isinstance(status, str) else None,
            "resolves": True,
        }
    )


def links_to(ctx: Context, value: object) -> list[Model]:
    """Links for a list of references; a lone value (schema-invalid) becomes one link."""
    if value is None:
        return []
    if not isinstance(value, list):
        return [link_to(ctx, value)]
    return [link_to(ctx, ref) for ref in value]


def optional_link(ctx: Context, value: object) -> Model | None:
    return None if value is None else link_to(ctx, value)


# --- time ---------------------------------------------------------------------------------

_UNITS = (
    (365 * 86400, "year"),
    (30 * 86400, "month"),
    (86400, "day"),
    (3600, "hour"),
    (60, "minute"),
)


def age_in_words(then: Instant | datetime | None, now: datetime) -> str | None:
    """How long before ``now`` an instant was, in words ("3 days ago"); "in the future" when
    it is later than ``now``; None when it is not a timestamp."""
    if then is None:
        return None
    if isinstance(then, datetime):
        then = Instant.of(then)
    seconds = Instant.of(now).seconds - then.seconds
    if seconds < 0:
        return "in the future"
    for size, unit in _UNITS:
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'' if n == 1 else 's'} ago"
    return "less than a minute ago"


def age_changes_at(then: Instant, now: datetime) -> int:
    """The epoch second at which `age_in_words` (then, now) first says something else."""
    now_seconds = Instant.of(now).seconds
    seconds = now_seconds - then.seconds
    if seconds < 0:
        return then.seconds
    larger = None
    for size, _ in _UNITS:
        if seconds >= size:
            step = (seconds // size + 1) * size
            return then.seconds + (min(step, larger) if larger else step)
        larger = size
    return then.seconds + 60


# --- lists and links out ------------------------------------------------------------------


def hidden_key(list_name: str) -> str:
    """Where a container records how many items of its list ``list_name`` the page leaves
    out: ``hidden`` beside ``items``, ``<name>_hidden`` beside any other list."""
    return "hidden" if list_name == "items" else f"{list_name}_hidden"


def paged(
    ctx: Context, entries: list[Any], start: int, address: Callable[[int], str]
) -> tuple[list[Any], int, Model | None]:
    """The entries of a list to build from ``start`` on (past the end: none), how many are
    left out after them, and its `pager`: one way for every list the page pages."""
    start = min(start, len(entries))
    shown, hidden = ctx.cap(entries, start)
    return shown, hidden, pager(ctx, len(entries), start, len(shown), address)


def pager(
    ctx: Context, total: int, start: int, shown: int, address: Callable[[int], str]
) -> Model | None:
    """Where a list cut to the page's limit stands (its items ``start`` to ``start + shown``
    of ``total``) and the addresses of the items before and after (``address(start)``: the
    query part); None when the list is whole, and in the JSON twin, which lists everything."""
    if ctx.limit is None:
        return None
    after = total - start - shown
    if not start and after <= 0:
        return None
    page = max(ctx.limit, 1)
    return {
        "start": start,
        "shown": shown,
        "count": total,
        "next": address(start + page) if after > 0 else None,
        "next_count": min(after, page) if after > 0 else 0,
        "previous": address(max(0, start - page)) if start else None,
    }


def with_hidden(container: Model, list_name: str, hidden: int) -> Model:
    """Record that ``hidden`` items of a list were not built (see build_view)."""
    if hidden:
        container[hidden_key(list_name)] = hidden
    return container


def unreadable(value: object) -> list[str]:
    """Entries of an array that are not objects (schema-invalid), shown as JSON text; a
    member that is not an array at all is shown whole."""
    if value is None:
        return []
    if not isinstance(value, list):
        return [text_of(value) or ""]
    return [text_of(item) or "" for item in value if not isinstance(item, dict)]


def uri_link(ctx: Context, uri: object) -> Model:
    """What the page and its JSON twin do with a uri (app/links.py): ``link`` and ``href``
    when it may be clicked; the host it opens as a reader reads it (``link_host``) and, when
    that differs, its ASCII form (``link_host_ascii``), and the link's text when that is the
    ASCII form (``link_text``); and, when it is shown as text only, the reason (``link_note``)."""
    if isinstance(uri, str):
        decided = ctx.uri_links.get(uri)
        if decided is None:
            decided = ctx.uri_links[uri] = _uri_link(uri)
        return decided
    return _uri_link(uri)


def _uri_link(uri: object) -> Model:
    decision = links.decide(uri)
    return {
        "link": decision.clickable,
        "href": decision.href,
        "link_host": decision.host,
        "link_host_ascii": decision.host_ascii,
        "link_note": decision.reason,
        # the link's text where it is not the uri as written: its host in ASCII (app/links.py)
        "link_text": decision.shown,
    }
