"""The page's Python fragments escape everything they are given, as the templates do."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pytest
from markupsafe import Markup, escape

from app.redaction import REDACTED
from app.web import cards, checklist, fragments, statement_overview
from tests.conftest import BLNS

HOSTILE = "<script>window.__pwned=1</script>\"'><img src=x onerror=alert(1)>&amp;"
ESCAPED = str(escape(HOSTILE))


def link(value: str) -> dict:
    return {"id": value, "anchor": value, "label": value, "status": value}


def obj(value: str) -> dict:
    return {"id": value, "pointer": value, "anchor": value, "source_anchor": "L" + value}


CALLS = {
    "txt": lambda v: fragments.txt(v),
    "when": lambda v: fragments.when(v),
    "time_field": lambda v: fragments.time_field(v, v),
    "label": lambda v: fragments.label(v),
    "since": lambda v: fragments.since(
        {
            "since_parent": {
                "state": "changed",
                "diff_anchor": v,
                "status": {"before": v, "after": v},
            }
        },
        v,
    ),
    "since, added": lambda v: fragments.since(
        {"since_parent": {"state": "added", "diff_anchor": v}}, v
    ),
    "copy": lambda v: fragments.copy(v),
    "ref": lambda v: fragments.ref(link(v)),
    "ref, unresolved": lambda v: fragments.ref({"id": v, "anchor": None}),
    "ref, not listed": lambda v: fragments.ref({**link(v), "unlisted": True}),
    "refs": lambda v: fragments.refs([link(v), link(v)]),
    "field": lambda v: fragments.field(v, v, v),
    "code_field": lambda v: fragments.code_field(v, v),
    "links_field": lambda v: fragments.links_field(v, [link(v)]),
    "link_field": lambda v: fragments.link_field(v, link(v)),
    "source_link": lambda v: fragments.source_link(obj(v)),
    "obj_head": lambda v: fragments.obj_head(obj(v), v),
    "obj_head, no id": lambda v: fragments.obj_head({**obj(v), "id": None}),
    "notes": lambda v: fragments.notes([v]),
    "json_block": lambda v: fragments.json_block(v, v),
    "section_head": lambda v: fragments.section_head({"anchor": v, "title": v}),
    "more": lambda v: fragments.more({"hidden": v}, "hidden"),
    "source_lines": lambda v: fragments.source_lines(
        [
            {
                "number": 7,
                "text": v,
                "hidden_before": 2,
                "findings": [{"severity": v, "code": v, "anchor": v}],
            }
        ]
    ),
}


def card(value: str, **more: object) -> dict:
    """A render-model item whose every text is ``value``."""
    return {
        **obj(value),
        "status": value,
        "kind": value,
        "description": value,
        "text": value,
        "title": value,
        "extensions_count": value,
        **more,
    }


def hostile_op(v: str) -> dict:
    return card(
        v,
        effect=v,
        effect_note=v,
        parent_status=v,
        first_step=v,
        advice=[v, v],
        target=link(v),
        record=link(v),
        call={"tool": v, "arguments_json": v},
        depends_on=[link(v)],
        requested_at=v,
        expires_at=v,
        expired=True,
        idempotency_key=v,
        approval={"decided_by": v, "decided_at": v, "evidence": [link(v)], "note": v},
        resume={"value": v, "label": v},
        stop_conditions=[{"anchor": v, "id": v, "forbids": True, "label": v}],
    )


def hostile_statement(v: str) -> dict:
    return card(
        v,
        external=True,
        external_note=v,
        struck=True,
        superseded_by=link(v),
        origin={"type": v, "name": v, "ref": link(v)},
        verification={"state": v, "checked_at": v, "method": v, "revalidate": v},
        evidence=[link(v)],
        rationale=v,
        resolution=v,
        recorded_at=v,
    )


def hostile_resource(v: str) -> dict:
    return card(
        v,
        sensitivity=v,
        uri=v,
        locator={"system": v, "type": v, "key": v},
        revision=v,
        digest=v,
        observed_at=v,
        availability=v,
        media_type=v,
        resolver=v,
        excerpt=v,
    )


CALLS.update(
    {
        "cards.operations": lambda v: cards.operations([hostile_op(v)], v),
        "cards.statements": lambda v: cards.statements([hostile_statement(v)], [v], v),
        "cards.statements, unreadable": lambda v: cards.statements(
            [card(v, unreadable=True)], [], v
        ),
        "cards.resources": lambda v: cards.resources([hostile_resource(v)], v),
        "cards.completed_steps": lambda v: cards.completed_steps(
            [card(v, completed_at=v, evidence=[link(v)])], v
        ),
        "cards.next_steps": lambda v: cards.next_steps(
            [card(v, blocked_by=[link(v)], requires=[link(v)], refs=[link(v)])], v
        ),
        "statement_overview.matrix": lambda v: statement_overview.matrix(hostile_matrix(v), "link"),
        "checklist.checklist": lambda v: checklist.checklist(hostile_checklist(v)),
        "statement_overview.filters": lambda v: statement_overview.filters(
            {"choices": {"kind": [v], "origin": [v, v], "status": []}, "kinds": [v]}
            | {"origins": [], "statuses": [v, v]},
            "form",
        ),
    }
)

CHECKLIST_KEYS = (
    "validity",
    "continue",
    "stop_conditions",
    "requirements",
    "resources",
    "statements",
    "operations",
    "preconditions",
    "incompatibilities",
    "report",
)


def hostile_checklist(v: str) -> list[dict]:
    """A step of every kind, each value of each item the hostile text (or a link of it)."""
    item = {
        "id": v,
        "anchor": v,
        "text": v,
        "valid": False,
        "links": [link(v)],
        "completed_steps": 2,
        "next_steps": 1,
        "notes": [v],
        "necessity": v,
        "kind": v,
        "name": v,
        "origin_type": v,
        "verification_state": v,
        "status": v,
        "blocked_by_stop": True,
        "on_failure": v,
        "applies_to": [link(v)],
        "lifted_by": v,
        "fallback": v,
        "refs": [link(v)],
        "revision": v,
        "digest": v,
        "observed_at": v,
        "availability": v,
        "dependents": [link(v)],
        "revalidate": v,
        "evidence": [link(v)],
        "first_step": v,
    }
    steps = [
        {"key": key, "anchor": v, "step": v, "title": v, "reference": v, "guidance": v}
        | {"items": [item, {**item, "unlisted": True}], "hidden": 3}
        | ({"more_anchor": v, "more_title": v} if key == "statements" else {})
        for key in CHECKLIST_KEYS
    ]
    return [
        *steps,
        {
            "key": "resources",
            "anchor": v,
            "step": v,
            "title": v,
            "reference": v,
            "guidance": v,
            "items": [],
        },
    ]


def hostile_matrix(v: str) -> dict:
    cells = [
        {"origin_type": v, "count": count, "anchor": v, "listed": listed}
        for count, listed in ((0, False), (1, True), (2, False))
    ]
    return {
        "rows": [{"kind": v, "anchor": v, "cells": cells, "total": v}],
        "columns": [{"origin_type": v, "total": v}],
        "total": v,
    }


@pytest.mark.parametrize("name", CALLS)
def test_every_value_given_to_a_fragment_is_escaped(name):
    html = CALLS[name](HOSTILE)
    assert isinstance(html, Markup)
    assert HOSTILE not in html
    assert "<script" not in html and "<img" not in html
    assert ESCAPED in html or ESCAPED.replace("&#39;", "'") in html


def test_absent_values_make_nothing():
    assert fragments.field("Outcome", None) == ""
    assert fragments.code_field("Digest", None) == ""
    assert fragments.links_field("Refs", []) == ""
    assert fragments.link_field("Target", None) == ""
    assert fragments.notes([]) == ""
    assert fragments.json_block(None, "state") == ""
    assert fragments.more({}, "hidden") == ""
    assert fragments.source_link({"source_anchor": None}) == ""


def test_a_redaction_marker_is_set_apart_and_the_rest_escaped():
    html = fragments.txt(f"<b>{REDACTED}</b>")
    assert html == f'&lt;b&gt;<span class="redacted">{REDACTED}</span>&lt;/b&gt;'


def test_a_timestamp_carries_its_instant_in_utc_and_its_text_as_recorded():
    html = str(fragments.when("2026-11-12T14:20:00.5+01:00"))
    assert html == (
        '<time class="when" datetime="2026-11-12T13:20:00.5Z">2026-11-12T14:20:00.5+01:00</time>'
    )
    assert "data-aged" in str(fragments.when("2026-11-12T13:20:00Z", aged=True))
    # not a timestamp (or none a browser can hold): text, as every other value
    assert str(fragments.when("next Tuesday <b>")) == "next Tuesday &lt;b&gt;"
    assert str(fragments.when("0000-01-01T00:00:00Z")) == "0000-01-01T00:00:00Z"
    assert fragments.time_field("Observed at", None) == ""


def test_a_long_text_is_clipped_with_a_count_of_the_rest():
    text = "<" + "a" * (fragments.TEXT_CHARS * 3)
    html = str(fragments.txt(text))
    shown = html.split('<span class="clipped">')[0]
    assert shown == "&lt;" + "a" * (fragments.TEXT_CHARS - 1)
    left = len(text) - fragments.TEXT_CHARS
    assert f"… {left:,} more characters, not shown on this page" in html
    assert str(fragments.txt("b" * fragments.TEXT_CHARS)) == "b" * fragments.TEXT_CHARS


def test_a_clip_never_halves_a_redaction_marker():
    for before in range(fragments.TEXT_CHARS - len(REDACTED) + 1, fragments.TEXT_CHARS):
        text = "x" * before + REDACTED + "y" * 100
        html = str(fragments.txt(text))
        assert html.count('<span class="redacted">') == 1, before
        assert "[redacted" not in html.replace(f'<span class="redacted">{REDACTED}', ""), before
        assert "100 more characters" in html, before


def test_a_source_line_links_to_itself_and_to_its_findings():
    html = fragments.source_lines(
        [
            {"number": 3, "text": '  "a": 1,', "hidden_before": 0, "findings": []},
            {
                "number": 9,
                "text": '  "b": 2',
                "hidden_before": 5,
                "findings": [{"severity": "error", "code": "OCP-S002", "anchor": "finding-0"}],
            },
        ]
    )
    lines = html.split("\n")
    assert lines[0] == (
        '<li id="L3"><a class="ln" href="#L3">3</a><code>  &#34;a&#34;: 1,</code></li>'
    )
    assert lines[1].startswith('<li class="gap">') and "5 lines not listed" in lines[1]
    assert lines[2].startswith('<li id="L9" class="has-finding">')
    assert '<a class="mark error" href="#finding-0">error OCP-S002</a>' in lines[2]


@pytest.mark.parametrize(
    "value",
    [
        "Refund duplicate charge\u202e",  # a right-to-left override at the end
        "\u2067isolated",  # a right-to-left isolate left open
        "\u05e9\u05dc\u05d5\u05dd",  # Hebrew letters
        "\u0645\u0631\u062d\u0628\u0627 <b>",  # Arabic letters, and markup
        "x" * (fragments.TEXT_CHARS + 10) + "\u202e",  # clipped, the override past the cut
    ],
)
def test_a_value_that_reorders_text_is_isolated_from_what_follows_it(value: str) -> None:
    """A document value holding right-to-left text or a bidirectional control is one <bdi>,
    so that it cannot reorder the viewer's words around it; its letters are unchanged, and its
    embeddings, overrides and isolates, which would reorder the value itself, are written as
    escapes ("\u202e")."""
    html = fragments.text(value)
    shown = value[: fragments.TEXT_CHARS]
    reorders = fragments._REORDERS.search(shown) is not None
    assert html.startswith("<bdi>") == reorders
    assert html.endswith("</bdi>") == reorders
    if reorders:
        escaped = str(escape(shown)).replace("\u202e", "\\u202e").replace("\u2067", "\\u2067")
        assert escaped in html
        assert "\u202e" not in html and "\u2067" not in html


@pytest.mark.parametrize("value", ["plain ascii", "caf\u00e9 \u2014 na\u00efve", "\U0001f600"])
def test_a_value_that_reorders_nothing_is_not_wrapped(value: str) -> None:
    assert fragments.text(value) == str(escape(value))


def test_a_source_line_that_reorders_text_is_isolated_and_the_others_are_not() -> None:
    lines = [
        {"number": 1, "text": '  "a": "plain",', "hidden_before": 0, "findings": []},
        {"number": 2, "text": '  "b": "evil\u202e",', "hidden_before": 0, "findings": []},
    ]
    plain, reordering = fragments.source_lines(lines).split("\n")
    assert "<bdi>" not in plain
    assert "<code><bdi>  &#34;b&#34;: &#34;evil\\u202e&#34;,</bdi></code>" in reordering


# Functions whose result is HTML built from escaped values (fragments.py and cards.py)
ALLOWED = {
    "escape",
    "txt",
    "text",
    "copy",
    "ref",
    "refs",
    "source_link",
    "_gap",
    "when",
    "since",
    "obj_head",
    "uri",
    "field",
    "code_field",
    "link_field",
    "links_field",
    "time_field",
    "_heading_id",
    "_extensions",
    "_operation_fields",
    "_statement_fields",
    "_resource_fields",
    "_excerpt",
    "_row",
    "_cell",
    "_named",
    "_badges",
    "_fields",
    "_continue",
    "_menu",
    "_item",
    "_step",
    "label",
    "notes",
    "more",
}
# Names that hold HTML built in the same function from the calls above
BUILT_HERE = {
    checklist: {
        "anchor",
        "listed",
        "verdict",
        "shown",
        "linked",
        "described",
        "noted",
        "meta",
        "badge",
        "blocked",
    },
    statement_overview: {
        "head",
        "rows",
        "totals",
        "cells",
        "kind",
        "anchor",
        "origin",
        "carried",
        "menus",
        "button",
        "options",
    },
    fragments: {"code", "shown", "anchor", "title", "head", "marks", "plural", "rest"},
    cards: {
        "id_attr",
        "heading",
        "shown_id",
        "shown",
        "tools",
        "status_class",
        "more",
        "listed",
        "args",
        "shown_tool",
        "passed",
        "before",
        "recorded",
        "who",
        "named",
        "how",
        "said",
        "badges",
        "attention",
        "text",
        "noted",
        "by",
        "refers",
        "shown_kind",
        "warn",
        "blocked",
        "cited",
        "fields",
        "shown_at",
        "described",
        "shown_status",
        "shown_effect",
        "at",
        "items",
        "checked",
        "flagged",
    },
}


@pytest.mark.parametrize(
    "module",
    [fragments, cards, statement_overview, checklist],
    ids=["fragments", "cards", "statement_overview", "checklist"],
)
def test_every_interpolation_is_escaped_or_a_number(module):
    """A static check beside the tests above: each {value} in an f-string of fragments.py
    and cards.py goes through escape(), txt() or another fragment, or is formatted as an
    integer (:d); the names that hold HTML built in the same function from those are listed
    by name, and a choice between two literals passes."""
    built_here = BUILT_HERE[module]
    tree = ast.parse(Path(inspect.getsourcefile(module)).read_text())
    unchecked = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FormattedValue):
            continue
        value = node.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) in ALLOWED:
            continue
        spec = node.format_spec
        if isinstance(spec, ast.JoinedStr) and [getattr(v, "value", None) for v in spec.values] == [
            "d"
        ]:
            continue
        if isinstance(value, ast.IfExp) and all(
            isinstance(x, ast.Constant) for x in (value.body, value.orelse)
        ):
            continue
        if isinstance(value, ast.Name) and value.id in built_here:
            continue
        unchecked.append(ast.unparse(value))
    assert unchecked == []


def test_the_page_escape_writes_what_markupsafe_writes():
    """fragments.escape is markupsafe's escape as a plain string (the same five entities), for
    every naughty string, what is already Markup kept as it is, other values as text."""
    naughty = json.loads(BLNS.read_text())
    for value in [*naughty, HOSTILE, "", "&amp;", "'\"<>&"]:
        assert fragments.escape(value) == str(escape(value)), value
        assert type(fragments.escape(value)) is str
        # the stand-in for a markupsafe whose C escape has moved
        assert fragments._replace_escape(value) == str(escape(value)), value
    assert fragments.escape(Markup("<b>kept</b>")) == "<b>kept</b>"
    assert fragments.escape(None) == "None" and fragments.escape(3) == "3"


@pytest.mark.parametrize("hidden", ["\u200b", "\u2060", "\ufeff"])
def test_a_hidden_character_is_written_as_its_escape(hidden: str) -> None:
    """A zero-width space in an id would make "ch_3Lx" that is not ch_3Lx: shown as the CLI
    shows it. The joiners an emoji or Persian needs stay as they are."""
    from app.web.fragments import text

    assert str(text(f"ch_{hidden}3Lx")) == f"ch_\\u{ord(hidden):04x}3Lx"
    assert str(text("\U0001f468\u200d\U0001f469")) == "\U0001f468\u200d\U0001f469"
    assert str(text("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645")).count("\u200c") == 1
