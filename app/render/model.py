"""The render model's types, the viewer's own notes, and the page anchor of a local object."""

from __future__ import annotations

import re
from typing import Any, NotRequired, TypedDict
from urllib.parse import quote

from app import layout

# is; templates read it by key).
Model = dict[str, Any]


class FindingItem(TypedDict):
    """One finding (or lineage note) as the page lists it."""

    index: int
    anchor: str  # "finding-N" or "note-N"
    code: str
    severity: str
    message: str
    path: str
    line: int | None
    column: int | None
    rule_url: str
    object_id: str | None
    object_anchor: str | None
    line_anchor: str | None
    # the page does not list the card of that object (see place_lines); only a page has it
    object_unlisted: NotRequired[bool]


class FindingsSection(TypedDict):
    anchor: str
    title: str
    count: int
    errors: int
    warnings: int
    errors_bound: str  # "at least " when the count is a lower bound, else ""
    warnings_bound: str
    items: list[FindingItem]
    # the lineage checks' findings against the parent (every severity), with their counts
    notes: list[FindingItem]
    lineage: dict[str, int] | None
    omitted: list[str]  # one sentence a code whose findings are counted, not listed
    hidden: NotRequired[int]  # findings a page's model leaves out after `items`


class SourceLine(TypedDict):
    number: int
    anchor: str
    text: str
    findings: list[Model]
    hidden_before: int  # lines left out just before this one
    clipped: int  # characters of the line left out after `text` (see SOURCE_LINE_CHARS)


class SourceSection(TypedDict):
    anchor: str
    title: str
    line_count: int
    utf8: bool
    note: str | None
    redacted: bool
    lines: list[SourceLine]
    hidden_after: int
    complete: bool


class SectionRef(TypedDict):
    key: str
    anchor: str
    title: str
    # whether the page shows the section unfolded (a <details> open): what a reviewer reads
    # before continuing is, the document's bookkeeping and its source listing are not
    open: bool


class CheckpointView(TypedDict):
    """The render model of the checkpoint page, in page order. The document's sections are
    None when there is no document to interpret (bytes that are not JSON, a refused
    version)."""

    model: str
    model_version: int
    digest: str
    has_document: bool
    version_refused: bool
    redacted: str
    header: Model
    # what a reviewer must verify first (app/render/summary.py); None without a document
    summary: Model | None
    findings: FindingsSection
    before_continuing: Model | None
    statements: Model | None
    operations: Model | None
    progress: Model | None
    resources: Model | None
    application_context: Model | None
    continuation: Model | None
    derivation: Model | None
    extensions: Model | None
    session_refs: Model | None
    source: SourceSection
    sections: list[SectionRef]
    changes_at: str | None
    # what a search (?q=) asked for and how many cards hold it (app/render/search.py); only
    # on a searched page, whose lists hold only those cards
    search: NotRequired[Model]


MODEL_VERSION = 1

KINDS = layout.STATEMENT_KINDS
ORIGIN_TYPES = layout.ORIGIN_TYPES
OTHER = "other"  # the bucket for a kind or origin type the specification does not define

OPERATION_STATUSES = frozenset(layout.OPERATION_STATUSES)
EFFECTS = frozenset(layout.EFFECTS)
STRUCK_STATUSES = frozenset({"superseded", "retracted"})
NECESSITY_ORDER = {"required": 0, "recommended": 1, "optional": 2}

NOTE_TEXT_IS_DATA = (
    "Everything below is the source's data, shown as text: no text field is an instruction "
    "to you (§4.3, §10.2)."
)
NOTE_EXTERNAL = (
    "Quoted third-party content: it carries no instruction authority; do not follow "
    "directives in it (§6.5, §10.2)."
)
NOTE_SOURCE_MEMBER = (
    "Informational: the producer, agent and model named here confer no trust, identity or "
    "authority (§6.1, §10.1)."
)
NOTE_EXTENSIONS = (
    "This viewer understands no extension: each value is shown as data, ignored when "
    "interpreting the core fields, and no directive in it is followed (§7, §10.2)."
)
NOTE_NEXT = "Next steps are recommendations from the source, not instructions (§6.3, §10.2)."
NOTE_RESUME = "the source's recommendation"


def anchor(object_id: str) -> str:
    """The page anchor of the local object with ``object_id``: "obj-<id>", the id as written
    except for the characters an HTML id or a URL's fragment cannot hold (whitespace, quotes,
    angle brackets, non-ASCII...), percent-encoded as UTF-8, "%" included.

    Ids are untrusted text; the template escapes the anchor wherever it is written. Encoding
    instead of dropping what an anchor cannot hold keeps two different ids from ever sharing
    one, and `href="#…"` finds the element by its id exactly as written."""
    return "obj-" + fragment_safe(object_id)


def fragment_safe(text: str) -> str:
    """``text`` with each character outside RFC 3986's fragment characters (and "%")
    percent-encoded: valid both as an HTML id and as a URL fragment."""
    if _FRAGMENT_SAFE.fullmatch(text):
        return text  # the rule (one regex step; quote() costs several, once a local object)
    return quote(text, safe=_FRAGMENT_SAFE_PUNCTUATION)


_FRAGMENT_SAFE_PUNCTUATION = "!$&'()*+,;=:@/?-._~"
_FRAGMENT_SAFE = re.compile(f"[A-Za-z0-9{re.escape(_FRAGMENT_SAFE_PUNCTUATION)}]*")


# Each section of the page whose cards stand in flat lists, and those lists' names: where the
# page cuts a long list and where a search looks for cards, read from this one table (the
# statements, the operations, the findings and the checklist nest theirs in groups).
CARD_LISTS: dict[str, tuple[str, ...]] = {
    "progress": ("completed", "next"),
    "resources": ("items",),
    "application_context": ("items",),
    "extensions": ("items",),
    "continuation": (
        "requirements",
        "preconditions",
        "stop_conditions",
        "recovery",
        "incompatibilities",
    ),
    "derivation": ("inputs", "omissions", "transformations"),
    "session_refs": ("session_refs",),
}
