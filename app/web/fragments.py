"""Small pieces of HTML that the checkpoint page repeats hundreds of times.

The templates call them as ``frag.field(...)``, ``frag.ref(...)`` and so on. They are Python
functions rather than Jinja2 macros because a macro call costs about ten times a function
call, and a long checkpoint page makes thousands of them. Each one escapes every value it is
given, labels included, and returns Markup only of what it built itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from markupsafe import Markup
from markupsafe import escape as markup_escape

from app.checkpoint import parse_instant
from app.redaction import REDACTED
from app.render.classes import css_class
from app.render.context import short_text
from app.visible import escaped, visible

Link = Mapping[str, Any]


_new_str = str.__new__


def html(built: str) -> Markup:
    """HTML this module built from escaped parts, as Markup for the templates, made as a
    string: Markup's own constructor is a Python function that first asks its value for
    ``__html__``, twice the cost, and a long page makes thousands."""
    return _new_str(Markup, built)


def _replace_escape(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


# markupsafe's own escaping of a str into a str, in C: what its `escape` calls before making
# a Markup. It is not public, so the same replacements in Python stand in where a release
# moves it (tests/web/test_fragments.py checks both against markupsafe's `escape`).
try:
    from markupsafe._speedups import _escape_inner as _escape_str
except ImportError:  # pragma: no cover - a markupsafe without its C speedups
    _escape_str = _replace_escape


def escape(value: object) -> str:
    """``value`` as HTML text: markupsafe's `escape` to the character (the same five
    entities), as a plain string. A page escapes thousands of short values, and markupsafe
    makes a Markup of each in Python, three times the cost of the escaping itself; what is
    already Markup (a fragment) is kept as it is, as there."""
    if type(value) is str:
        return _escape_str(value)
    return str(markup_escape(value))


_REDACTED_HTML = f'<span class="redacted">{escape(REDACTED)}</span>'


# A page shows at most this many characters of one text value (a few pages of prose); the JSON
# view keeps every value whole. A 4 MB statement was otherwise shown whole in its card, the
# largest part of its page, and a document with a 20,000-character run in every field took
# Chromium most of a minute to lay out (issue 12).
TEXT_CHARS = 5000


# What reorders the text around it (Unicode's bidirectional algorithm, UAX #9): a letter written
# right to left, and the marks, embeddings, overrides and isolates. A document value holding one
# is set in a <bdi>, so that a U+202E at the end of a label cannot turn the viewer's own words
# after it around, nor move a badge (static/app.css isolates the rest of the document's text).
_REORDERS = re.compile(
    "[\u0590-\u08ff\u061c\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefe"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)


# The bidirectional embeddings, overrides and isolates: invisible, they reorder what follows
# them (an objective "…\u202egnp.exe" reads "exe.png", as in Trojan Source, CVE-2021-42574). A
# <bdi> keeps them from reordering the page around the value, not the value itself: each is
# written as the escape the CLI writes (app/visible.py), so a reviewer reads the text in the
# order it is stored. (The marks, U+200E, U+200F and U+061C, are right-to-left text's own.)
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


# The characters that stand in a text unseen and join nothing (a zero-width space, a word
# joiner, a byte-order mark): "ch_\u200b3Lx" reads as the charge id "ch_3Lx" and is not it.
# Written as escapes, as the CLI writes them. (The zero-width joiner and non-joiner stay: an
# emoji's sequence and Persian's words are made with them.)
_HIDDEN = re.compile("[\u200b\u2060\ufeff]")
# Both sets, for a page whose values are not each passed through here (app/web/templating.py)
REORDERING_OR_HIDDEN = re.compile(_BIDI_CONTROLS.pattern + "|" + _HIDDEN.pattern)


def _isolated(shown: str, value: str) -> str:
    """``shown``, the HTML of ``value``, in a <bdi> when ``value`` holds what reorders text, its
    bidirectional controls written as escapes; its hidden characters (above) written so too."""
    if value.isascii():
        return shown
    if _HIDDEN.search(value) is not None:
        shown = _HIDDEN.sub(escaped, shown)
    if _REORDERS.search(value) is None:
        return shown
    if _BIDI_CONTROLS.search(value) is not None:
        shown = _BIDI_CONTROLS.sub(escaped, shown)
    return f"<bdi>{shown}</bdi>"


def text(value: object) -> str:
    """A document text value as HTML: escaped, with each redaction marker set apart so a
    reader sees that a value was withheld; past `TEXT_CHARS`, clipped with a count of the
    characters left out; isolated where it holds right-to-left text or bidirectional
    controls. (`txt` is the same as the templates' filter.)"""
    if type(value) is str and len(value) <= TEXT_CHARS and REDACTED not in value:
        # the rule, a page's most frequent call: in one step
        return _escape_str(value) if value.isascii() else _isolated(_escape_str(value), value)
    if value is None:
        return ""
    shown = str(value)
    if len(shown) > TEXT_CHARS:
        head, rest = _clip(shown)
        # (Markup's + would escape the left side)
        return _isolated(_marked(head) + str(rest), head)
    return _isolated(_marked(shown), shown)


def txt(value: object) -> Markup:
    """The `txt` filter: `text` for a template."""
    return html(text(value))


def _marked(shown: str) -> str:
    """``shown`` escaped, each redaction marker set apart."""
    if REDACTED not in shown:
        return escape(shown)
    return _REDACTED_HTML.join([escape(part) for part in shown.split(REDACTED)])


def label(value: object) -> Markup:
    """The `label` filter: a document text cut short (`short_text`), for an entry that names
    an object shown whole in its card and links there."""
    if value is None:
        return html("")
    whole = str(value)
    shown = short_text(whole)
    if len(shown) == len(whole):
        return txt(shown)
    # a clipped value says how much is left out, and that its card has it all
    return html(str(txt(shown[:-1])) + str(_more_characters(len(whole) - len(shown) + 1, "")))


def _clip(shown: str) -> tuple[str, Markup]:
    """The first `TEXT_CHARS` characters of ``shown`` (a redaction marker the cut would halve
    is kept whole) and the note that counts the rest."""
    end = TEXT_CHARS
    marker = shown.find(REDACTED, end - len(REDACTED) + 1, end + len(REDACTED) - 1)
    if 0 <= marker < end:
        end = marker + len(REDACTED)
    left = len(shown) - end
    if left <= 0:
        return shown, html("")
    return shown[:end], _more_characters(
        left, ", not shown on this page; the JSON view has the whole text"
    )


def _more_characters(count: int, where: str) -> Markup:
    """The note after a clipped text: " … 1,234 more characters" and ``where`` they are."""
    return html(
        f'<span class="clipped"> … {escape(format(count, ","))} more '
        f"character{'' if count == 1 else 's'}{escape(where)}</span>"
    )


def when(value: object, aged: bool = False, readable: bool = False) -> Markup:
    """The `when` filter: a document's timestamp as recorded, in a ``<time>`` whose datetime
    is the same instant in UTC, so a reader's browser can show it in local time with the UTC
    value beside it and its age (static/app.js); ``aged``: the page states the age already.
    ``readable``: a time of this service's own (not a document's) shown as UTC to the
    second, ``2026-12-03 15:24:05 UTC``, rather than as recorded.
    Text that is no RFC 3339 timestamp is shown as text, as every other value."""
    if value is None:
        return html("")
    utc = utc_text(value)
    if utc is None:
        return txt(value)
    # the date and the time to the second, in UTC: "2026-12-03 15:24:05 UTC"
    shown = escape(utc[:10] + " " + utc[11:19] + " UTC") if readable else text(value)
    return html(
        f'<time class="when" datetime="{escape(utc)}"{" data-aged" if aged else ""}>{shown}</time>'
    )


def utc_text(value: object) -> str | None:
    """An RFC 3339 timestamp as the same instant in UTC (``2026-11-12T13:20:00Z``); None for
    anything else, or an instant no browser date holds (before year 1)."""
    return _utc_text(value) if isinstance(value, str) and len(value) <= 64 else None


# A document repeats its timestamps (a batch of statements recorded at one time), and a page
# shows hundreds: the same text is written in UTC once, as parse_instant reads it once.
@lru_cache(maxsize=4096)
def _utc_text(value: str) -> str | None:
    instant = parse_instant(value)
    if instant is None:
        return None
    try:
        moment = datetime.fromtimestamp(instant.seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None
    fraction = "." + instant.fraction[:3] if instant.fraction else ""
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def time_field(label: str, value: object) -> Markup:
    """A ``<dt>``/``<dd>`` pair for a document timestamp (`when`); nothing when absent."""
    if value is None:
        return html("")
    return html(f"<dt>{escape(label)}</dt><dd>{when(value)}</dd>")


def cls(family: str, value: object) -> str:
    """The class name of a value the page styles, from the fixed mapping of
    app/render/classes.py: ``frag.cls("operation-status", op.status)``. Never the value's text."""
    return css_class(family, value)


def copy(anchor: str) -> Markup:
    """The "copy link" control of a linkable element (static/app.js handles the click)."""
    return html(
        f'<button type="button" class="link" data-copy-link="#{escape(anchor)}">copy link</button>'
    )


def ref(link: Link) -> Markup:
    """A reference to another object: a link to its anchor when it resolves, marked when not."""
    anchor = link.get("anchor")
    code = f"<code>{text(link.get('id'))}</code>"
    if not anchor:
        return html(f'{code} <span class="badge warn">does not resolve</span>')
    if link.get("unlisted"):  # its card is past the page's list limit
        out = f'{code} <span class="badge">not listed on this page</span>'
    else:
        out = f'<a class="ref" href="#{escape(anchor)}">{code}</a>'
    label = link.get("label")
    if label:
        out += f' <span class="ref-label">{text(label)}</span>'
    status = link.get("status")
    if status:
        out += f' <span class="badge">{escape(status)}</span>'
    return html(out)


def uri(item: Mapping[str, Any]) -> Markup:
    """A document's uri, as the render model decided (app/render/context.py uri_link): a link
    only when it may be one, with the host it opens beside it (and that host's ASCII form when
    it differs), so the host a reader sees is the host the link opens; otherwise its text, with
    every invisible character written as an escape (``\\t``, ``\\u202e``), and the reason."""
    written = item.get("uri")
    if written is None:
        return html("")
    href = item.get("href")
    if not item.get("link") or not href:
        note = item.get("link_note") or "it is not a web address"
        return html(
            f"<code>{text(visible(str(written)))}</code> "
            f'<span class="muted link-note">Not a link because {escape(note)}.</span>'
        )
    ascii_text = item.get("link_text")
    shown = text(ascii_text if ascii_text else written)
    out = f'<a href="{escape(href)}" rel="noopener noreferrer nofollow">{shown}</a>'
    host = item.get("link_host")
    ascii_host = item.get("link_host_ascii")
    if host and ascii_text and ascii_host:
        # a host that could pass for another name: its ASCII form first, as the link shows it
        out += (
            f' <span class="muted link-host">host <code>{escape(ascii_host)}</code>, written '
            f"<bdi><code>{escape(host)}</code></bdi></span>"
        )
    elif host:
        out += f' <span class="muted link-host">host <bdi><code>{escape(host)}</code></bdi>'
        if ascii_host:
            out += f" (<code>{escape(ascii_host)}</code>)"
        out += "</span>"
    return html(out)


# References one field of one object lists on a page; the JSON view lists every one. A field
# may hold any number (an attacker's 160,000 unresolved ids made a 45 MB page).
REFS_SHOWN = 50


def refs(links: Iterable[Link]) -> Markup:
    items = list(links)
    shown = "".join(f"<li>{ref(x)}</li>" for x in items[:REFS_SHOWN])
    rest = len(items) - REFS_SHOWN
    if rest > 0:
        shown += (
            f'<li class="more">and {escape(format(rest, ","))} more, not shown on this page; '
            "the JSON view lists every one</li>"
        )
    return html(f'<ul class="refs">{shown}</ul>')


def field(label: str, value: object, cls: str = "text") -> Markup:
    """A ``<dt>``/``<dd>`` pair for a document text value; nothing when it is absent."""
    if value is None:
        return html("")
    return html(f'<dt>{escape(label)}</dt><dd class="{escape(cls)}">{text(value)}</dd>')


def code_field(label: str, value: object) -> Markup:
    if value is None:
        return html("")
    return html(f"<dt>{escape(label)}</dt><dd><code>{text(value)}</code></dd>")


def links_field(label: str, links: Iterable[Link] | None) -> Markup:
    if not links:
        return html("")
    return html(f"<dt>{escape(label)}</dt><dd>{refs(links)}</dd>")


def link_field(label: str, link: Link | None) -> Markup:
    if link is None:
        return html("")
    return html(f"<dt>{escape(label)}</dt><dd>{ref(link)}</dd>")


def source_link(obj: Mapping[str, Any]) -> Markup:
    """A link to the line of the source listing where the object starts."""
    anchor = obj.get("source_anchor")
    if not anchor:
        return html("")
    return html(f'<a class="src" href="#{escape(anchor)}">line {escape(anchor[1:])}</a>')


def since(obj: Mapping[str, Any], diff: str | None = None) -> Markup:
    """What changed in an object since the parent (app/render/changes.py), as a badge linking
    to the field-level change on the diff page at ``diff`` (a stored child's; an unsaved page
    has no address for one: the badge alone)."""
    mark = obj.get("since_parent")
    if not mark:
        return html("")
    added = mark.get("state") == "added"
    status = mark.get("status")
    if added:
        words = html("added since the parent")
    elif status:
        # Markup.format escapes what it is given: the statuses are the document's text
        words = Markup("status {} → {} since the parent").format(
            status.get("before") or "(none)", status.get("after") or "(none)"
        )
    else:
        words = html("changed since the parent")
    if diff:
        words = html(
            f'<a href="{escape(diff)}#{escape(mark.get("diff_anchor", ""))}">{escape(words)}</a>'
        )
    return html(
        f'<span class="badge since {"since-added" if added else "since-changed"}">'
        f"{escape(words)}</span>"
    )


def obj_head(obj: Mapping[str, Any], label: str = "", diff: str | None = None) -> Markup:
    """An object's id (or its pointer when it has none), a badge, what changed since the
    parent, its source line and a copy link."""
    ident = obj.get("id")
    shown = text(ident if ident is not None else obj.get("pointer"))
    out = f'<span class="obj-id"><code>{shown}</code></span>'
    if label:
        out += f' <span class="badge">{escape(label)}</span>'
    if obj.get("since_parent"):
        out += f" {since(obj, diff)}"
    out += f' <span class="tools">{source_link(obj)}'
    if obj.get("anchor"):
        out += f" {copy(obj['anchor'])}"
    return html(out + "</span>")


def notes(items: Iterable[str] | None) -> Markup:
    """The viewer's own notes on an object (advice text, never document data)."""
    if not items:
        return html("")
    return html('<ul class="notes">' + "".join(f"<li>{escape(n)}</li>" for n in items) + "</ul>")


def json_block(value: object, label: str) -> Markup:
    if value is None:
        return html("")
    return html(
        '<pre class="json" tabindex="0" role="group" '
        f'aria-label="{escape(label)}">{text(value)}</pre>'
    )


def section_head(section: Mapping[str, Any], opened: bool = True) -> Markup:
    """A section's heading as the summary of the ``<details>`` that holds the section (the
    template closes it): a reader folds what they have read, with or without JavaScript.
    The copy link sits beside the summary, never in it (a summary holds no control)."""
    anchor, title = escape(section["anchor"]), escape(section["title"])
    return html(
        f'<details class="fold"{" open" if opened else ""}>'
        f'<summary class="head section-head"><h2 id="{anchor}-h">{title}</h2></summary>'
        f'<div class="section-tools">{copy(section["anchor"])}</div>'
    )


def pager(position: Mapping[str, Any] | None, noun: str, anchor: str, nav: str | None) -> Markup:
    """Where a list cut to the page's limit stands, and its previous and next items
    (app/render/context.py `pager`): links on a page with an address of its own (``nav``
    "link"), buttons that send the page's Share form back to /view ("form"); with neither,
    only where it stands (a `more` note says where the rest is)."""
    if not position:
        return html("")
    first, last = int(position["start"]) + 1, int(position["start"]) + int(position["shown"])
    out = (
        f'<p class="pager">{escape(noun)} {escape(format(first, ","))}–'
        f"{escape(format(last, ','))} of {escape(format(int(position['count']), ','))}"
    )
    steps = (("previous", position.get("previous")), ("next", position.get("next")))
    for word, target in steps:
        if not target:
            continue
        label = f"next {int(position['next_count']):d}" if word == "next" else word
        if nav == "link":
            out += f' · <a href="{escape(str(target) + "#" + anchor)}">{escape(label)}</a>'
        elif nav == "form":
            out += (
                ' · <button type="submit" class="link" form="carry" '
                f'formaction="/view{escape(str(target) + "#" + anchor)}">{escape(label)}</button>'
            )
    return html(out + "</p>")


def more(container: Mapping[str, Any], key: str) -> Markup:
    """The note under a list cut short on the page (see app/web/pages.py, for_page)."""
    count = container.get(key)
    if not count:
        return html("")
    return html(
        f'<p class="note more">{escape(count)} more not shown on this page; the JSON view of '
        "this page (the same request to its .json address) lists every one.</p>"
    )


def source_lines(lines: Sequence[Mapping[str, Any]], findings_at: str = "") -> Markup:
    """The numbered lines of the source listing, each anchored and linking to itself; a line
    where findings start is marked and links to each of them; a run of lines left out is
    counted. One function for the whole listing: it is the longest part of most pages.
    ``findings_at``: the page that lists the findings, when it is another (a source page)."""
    out = []
    for line, shown in zip(lines, _line_texts(lines), strict=True):
        number = line["number"]
        if not (line["findings"] or line["hidden_before"] or line.get("clipped")):
            # most lines: no gap before, nothing clipped, no finding (a line's anchor is made
            # here from its number alone, as below)
            out.append(
                f'<li id="L{number:d}"><a class="ln" href="#L{number:d}">{number:d}</a>'
                f"<code>{shown}</code></li>"
            )
            continue
        hidden = line["hidden_before"]
        if hidden:
            out.append(_gap(hidden))
        anchor = f"L{number:d}"  # the model's line anchor, made here from the number alone
        clipped = int(line.get("clipped", 0))
        rest = _more_characters(clipped, " on this line") if clipped else ""
        head = f'<a class="ln" href="#{anchor}">{number:d}</a><code>{shown}{rest}</code>'
        findings = line["findings"]
        if not findings:
            out.append(f'<li id="{anchor}">{head}</li>')
            continue
        # a mark links to its finding where the page lists it (the first PAGE_LIST_LIMIT)
        marks = "".join(
            f'<a class="mark {"error" if f["severity"] == "error" else "warning"}" '
            f'href="{escape(findings_at)}#{escape(f["anchor"])}">{escape(f["severity"])} '
            f"{escape(f['code'])}</a> "
            if f.get("listed", True)
            else f'<span class="mark {"error" if f["severity"] == "error" else "warning"}">'
            f"{escape(f['severity'])} {escape(f['code'])}</span> "
            for f in findings
        )
        out.append(
            f'<li id="{anchor}" class="has-finding">{head}<span class="marks">{marks}</span></li>'
        )
    return html("\n".join(out))


def _line_texts(lines: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each line's text as HTML (`text`), the whole listing escaped and marked at once: a
    listing is hundreds of short lines, and escaping each costs more than its characters.
    A line's text never holds a newline (the model splits the text at them); one that did
    is shown by `text` alone, as is every line of a listing holding one, or one too long
    for `text` to show whole."""
    if not lines:
        return []
    texts = [str(line["text"]) for line in lines]
    joined = "\n".join(texts)
    if max(map(len, texts)) > TEXT_CHARS or joined.count("\n") != len(texts) - 1:
        return [text(t) for t in texts]
    shown = _marked(joined).split("\n")
    if joined.isascii() or _REORDERS.search(joined) is None:
        return shown
    return [_isolated(line, value) for line, value in zip(shown, texts, strict=True)]


def source_gap(hidden: int) -> Markup:
    return html(_gap(hidden))


def _gap(hidden: int) -> str:
    plural = "" if hidden == 1 else "s"
    return (
        f'<li class="gap"><span class="ln">…</span>'
        f'<span class="muted">{hidden:d} line{plural} not listed</span></li>'
    )
