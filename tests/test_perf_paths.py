"""The cheaper ways of finding places (issue 11: per-object and per-finding costs) find exactly
what the plain ways did: the locator's one pass against a locator that recurses per path, the
layout's walk against a plain walk of every pattern, each rule's findings past the cap counted
and the first ones as they were."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from json.decoder import JSONDecoder, scanstring  # type: ignore[attr-defined]
from types import SimpleNamespace
from typing import Any, cast

import pytest

from app import layout
from app.analysis import LintResult, lint
from app.checkpoint import Checkpoint
from app.findings import MAX_PER_CODE, Finding
from app.pointer import parse_pointer, to_pointer
from app.positions import locate, offsets
from tests.conftest import CONFORMANCE, manifest

# --- the locator ---------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")


def _reference_offsets(text: str, pointer: str) -> int | None:
    """The offset of one pointer's value, found the plain way: read the text value by value,
    the decoder stepping over what the pointer does not lead into."""
    try:
        tokens = parse_pointer(pointer)
    except ValueError:
        return None
    if "~" in pointer and to_pointer(tokens) != pointer:
        return None
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    decoder = JSONDecoder()
    for token in tokens:
        char = text[pos]
        if char not in "{[":
            return None
        pos, index, found = pos + 1, 0, None
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if text[pos] in "}]":
                break
            if char == "{":
                key, pos = scanstring(text, pos + 1, True)
                pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]
                pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            else:
                key, index = str(index), index + 1
            if key == token:
                found = pos  # the last of a repeated name, as a parser keeps it
            pos = decoder.raw_decode(text, pos)[1]
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if text[pos] == ",":
                pos += 1
        if found is None:
            return None
        pos = found
    return pos


def _every_pointer(value: Any, path: tuple[str | int, ...] = ()) -> list[str]:
    found = [to_pointer(path)]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _every_pointer(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _every_pointer(child, (*path, index))
    return found


def _agrees(text: str, pointers: list[str]) -> dict[str, int]:
    found = offsets(text, pointers)
    expected = {p: o for p in pointers if (o := _reference_offsets(text, p)) is not None}
    assert found == expected
    return found


ODD = {
    "a/b": {"~": [1, {"x~1y": "z"}], "": "empty name"},
    'q"uo\\te': ["\u00e9\u6f22\U0001f600", {"k": None}],
    "esc\u0041ped": True,
    "*": {"0": "a member named like an index"},
    "list": [[], {}, [[["deep"]]], "str", 1.5e3, -0, False],
}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(ODD),
        json.dumps(ODD, indent=2),
        json.dumps(ODD, indent="\t").replace("\n", "\r\n"),
        json.dumps(ODD, ensure_ascii=False, separators=(",", ":")),
        # escaped member names, as the text writes them: \u escapes and an escaped solidus
        '{"\\u0061\\/b": {"\\u007e": [1, {"x~1y": "z"}]}, "t\\"": [ 1 , 2 ] }',
    ],
)
def test_the_locator_finds_every_value_as_a_plain_reading_does(text: str) -> None:
    document = json.loads(text)
    pointers = _every_pointer(document)
    found = _agrees(text, [*pointers, "/missing", "/list/9", "/list/01", "/a~1b/~2", "/x/"])
    assert set(found) == set(pointers)


def test_the_locator_places_values_in_crlf_text_by_line_and_column() -> None:
    text = '{\r\n  "statements": [\r\n    {"id": "s1",\r\n'
    text += '     "text": "\\u00e9t\\u00e9"}\r\n  ]\r\n}'
    assert locate(text, ["/statements/0/text", "/statements/0", "/statements"]) == {
        "/statements/0/text": (4, 14),
        "/statements/0": (3, 5),
        "/statements": (2, 17),
    }


def test_the_locator_reaches_the_bottom_of_the_deepest_nesting() -> None:
    depth = 256  # 512 levels: the deepest the intake's limits allow (app/parse.py Limits)
    text = '{"k": ' + '[{"k": ' * depth + '"bottom"' + "}]" * depth + "}"
    bottom = "/k" + "/0/k" * depth
    found = _agrees(text, [bottom, "/k/0/k/0", "/k" + "/0/k" * (depth + 1)])
    assert text[found[bottom] :].startswith('"bottom"')


def test_the_later_of_a_repeated_member_is_the_one_located() -> None:
    text = '{"a": {"b": 1}, "a": {"b": 2, "c": [3]}, "z": 0}'
    found = _agrees(text, ["/a", "/a/b", "/a/c/0", "/z"])
    assert text[found["/a/b"]] == "2"


def test_the_locator_agrees_on_every_conformance_document() -> None:
    for case in manifest():
        text = (CONFORMANCE / case["file"]).read_text(encoding="utf-8", errors="replace")
        try:
            document = json.loads(text)
        except ValueError:
            continue
        _agrees(text, _every_pointer(document))


# --- the layout's walk -------------------------------------------------------------------------


def _plain_walk(
    document: object, patterns: tuple[tuple[layout.Pattern, Any], ...], in_order: bool
) -> list[tuple[Any, tuple[str | int, ...], Any]]:
    """Every place each pattern names, pattern by pattern, sorted as `walk` promises: a place
    before the places inside it, items in order, members in the document's order (or, with
    ``in_order`` false, in the order the patterns first name them)."""
    rank: dict[tuple[str, ...], dict[str, int]] = {}
    for pattern, _ in patterns:
        for depth, token in enumerate(pattern):
            rank.setdefault(pattern[:depth], {}).setdefault(token, len(rank[pattern[:depth]]))
    found = []
    for number, (pattern, label) in enumerate(patterns):
        places: list[tuple[tuple[str | int, ...], Any, tuple[Any, ...]]] = [((), document, ())]
        for depth, token in enumerate(pattern):
            deeper = []
            for path, node, key in places:
                order = rank[pattern[:depth]]
                if isinstance(node, dict):
                    for position, (name, child) in enumerate(node.items()):
                        if name == token:
                            sort = position if in_order else order[token]
                            deeper.append(((*path, name), child, (*key, sort)))
                elif isinstance(node, list) and token == layout.EVERY:
                    for index, child in enumerate(node):
                        deeper.append(((*path, index), child, (*key, index)))
            places = deeper
        found += [(key, number, label, path, node) for path, node, key in places]
    found.sort(key=lambda place: (place[0], place[1]))
    return [(label, path, node) for _, _, label, path, node in found]


SHAPES: list[dict[str, Any]] = [
    json.loads((CONFORMANCE / c["file"]).read_text()) for c in manifest() if c["valid"]
] + [
    {"statements": "not a list", "operations": {"0": {"id": "x"}}, "progress": []},
    {"application_context": [{"drafts": [{"id": "d"}], "id": "a"}, [], {"drafts": {}}]},
    {"statements": [{"id": "s", "origin": {"ref": "r"}, "evidence": ["r", 3, None]}, 7]},
    {"continuation": {"stop_conditions": [{"until": [{"operation": "o"}], "refs": ["o"]}]}},
    # what a schema-invalid document may hold where the walk steps: null, "", a member named
    # "*" where an array belongs, an id or a target of another type, a repeated id
    {
        "statements": {"*": {"id": "s", "superseded_by": "", "evidence": ["", None, ["r"]]}},
        "resources": [None, {"id": 7}, {"id": "r"}, {"id": "r"}, "r"],
        "operations": [{"id": "o", "target": None, "depends_on": "o", "record": ["r"]}],
        "progress": {"next": [{"id": "n", "blocked_by": [{"id": "x"}, "o", "n"]}]},
        "application_context": {"*": {"drafts": [{"id": "d", "target": "n"}]}},
    },
]


@pytest.mark.parametrize("in_order", [True, False])
@pytest.mark.parametrize(
    "patterns",
    [
        layout.LOCAL_OBJECT_PATTERNS,
        layout.HOLDER_PATTERNS,
        layout.PAST_EVENT_PATTERNS,
        layout.REFERENCE_FIELD_PATTERNS,
    ],
)
def test_the_walk_finds_what_a_walk_of_each_pattern_finds(
    patterns: tuple[tuple[layout.Pattern, Any], ...], in_order: bool
) -> None:
    for document in SHAPES:
        assert layout.walk(document, patterns, in_order=in_order) == _plain_walk(
            document, patterns, in_order
        )


def test_reference_sites_hold_every_reference_in_the_holders_order() -> None:
    """Each holder's fields, a holder's before those of the holders inside it: the order
    every reference was found in when each holder was read field by field."""
    for document in SHAPES:
        expected = []
        for holder, path, value in layout.walk(document, layout.HOLDER_PATTERNS, in_order=False):
            if not isinstance(value, dict):
                continue
            for field in holder.fields:
                target = value.get(field.member)
                if field.many and isinstance(target, list):
                    expected += [
                        ((*path, field.member, i), t)
                        for i, t in enumerate(target)
                        if isinstance(t, str)
                    ]
                elif not field.many and isinstance(target, str):
                    expected.append(((*path, field.member), target))
        assert [(r.path, r.target) for r in Checkpoint(document).references] == expected


@pytest.mark.parametrize(
    "patterns",
    [layout.LOCAL_OBJECT_PATTERNS, layout.PAST_EVENT_PATTERNS, layout.REFERENCE_FIELD_PATTERNS],
)
def test_the_values_at_a_pattern_are_what_the_walk_finds_there(
    patterns: tuple[tuple[layout.Pattern, Any], ...],
) -> None:
    for document in SHAPES:
        checkpoint = Checkpoint(document)
        for pattern, _ in patterns:
            walked = [value for _, _, value in layout.walk(document, ((pattern, None),))]
            assert checkpoint.values_at(pattern) == walked


def test_the_id_and_target_sets_are_those_of_the_objects_and_references() -> None:
    """What the rules ask of the sets before reading objects and references one by one."""
    for document in SHAPES:
        checkpoint = Checkpoint(document)
        objects = checkpoint.local_objects
        by_type: dict[str, list[str]] = {}
        for obj in objects:
            by_type.setdefault(obj.type, []).append(obj.id)
        assert {t: ids for t, ids in checkpoint.ids_of_type.items() if ids} == by_type
        assert checkpoint.known_ids == checkpoint.by_id.keys()
        assert checkpoint.ids_unique == (len(checkpoint.by_id) == len(objects))
        targets: dict[frozenset[str], set[str]] = {}
        for reference in checkpoint.references:
            targets.setdefault(reference.allowed, set()).add(reference.target)
        found = {a: t for a, t in checkpoint.reference_targets.items() if t}
        assert found == targets


def test_the_rules_that_look_at_the_sets_first_find_what_reading_each_place_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """OCP-S001, S002, S003 and S005 ask the sets of ids, targets and timestamps whether
    anything is wrong before they read each object, reference and timestamp: on every
    document of the suite, they find what the reading alone finds."""
    from app.rules import RULES, consistency, references

    documents = [*SHAPES]
    for case in manifest():
        document = json.loads((CONFORMANCE / case["file"]).read_bytes())
        if isinstance(document, dict):
            documents.append(document)
    codes = ["OCP-S001", "OCP-S002", "OCP-S003", "OCP-S005"]

    def found() -> list[list[tuple[Any, str]]]:
        return [list(RULES[code].check(Checkpoint(d))) for d in documents for code in codes]  # type: ignore[misc]

    asked_first = found()
    assert any(asked_first), "the suite holds violations of these rules"
    monkeypatch.setattr(Checkpoint, "ids_unique", property(lambda self: False))
    monkeypatch.setattr(
        Checkpoint, "reference_targets", property(lambda self: {frozenset(): {"\x00"}})
    )
    monkeypatch.setattr(references, "_any_wrong_type", lambda checkpoint: True)
    monkeypatch.setattr(consistency, "_any_later", lambda checkpoint, created: True)
    assert found() == asked_first


def test_every_string_of_a_document_is_what_the_plain_walk_yields() -> None:
    """What a redaction withholds of a document whose scan stopped early: every string value
    and member name, read a container at a time, as the recursive walk reads them."""
    from enum import StrEnum

    from app.redaction import _every_string, _strings

    class Word(StrEnum):
        A = "a"

    odd: list[Any] = [
        {"": "", "x": [Word.A, {"": 1, "y": ["", "z", []]}], Word.A: 2, 0: "n"},
        "top",
        3,
        ["a", ["b", {"c": {}}]],
    ]
    for document in [*SHAPES, *odd]:
        assert _every_string(document) == frozenset(_strings(document))


def test_a_document_whose_scan_stopped_early_has_every_string_withheld_beside_another() -> None:
    """Its strings are read on first use (a lint never asks), and then all of them are withheld
    wherever a whole string equals one, as a diff shows them."""
    from app.redaction import REDACTED, Redaction
    from app.secrets import scan_document

    tokens = {
        f"api_key_{i}": f"ghp_{i:04d}" + "Zq9kLm2Wx7Tp4Rv8Yb3Nc6Hd1Jf5Gs0Ae2M"[:32]
        for i in range(5)
    }
    document: dict[str, Any] = {"note": "an ordinary sentence", "arguments": tokens}
    scan = scan_document(document, 2)
    assert not scan.complete
    redaction = Redaction.of(document, scan.hits, complete=False)
    assert "an ordinary sentence" in redaction.values
    assert redaction.data({"other": "an ordinary sentence"}) == {"other": REDACTED}
    assert Redaction.of(document, scan.hits[:1]).data({"other": "an ordinary sentence"}) == {
        "other": "an ordinary sentence"
    }


def test_past_a_stopped_scan_a_path_shows_only_the_schema_s_names_and_the_numbers() -> None:
    """A document whose scan stopped early (more flagged places than a report lists) has no
    member name read past the stop: a finding's path keeps the names the schema defines and
    the items' numbers, and withholds every other name, a credential's or not, without
    scanning the names again."""
    from app.findings import Finding
    from app.redaction import REDACTED, Redaction
    from app.secrets import scan_document

    document: dict[str, Any] = {
        "operations": [{"call": {"arguments": {"region": "eu-west-1", "note": "fine"}}}],
        "extensions": {
            "com.example.ops": {
                "ghp_Zq8Lm2Np6Bt9Vw3Kd7Hs1Fj5Gc0YxRe4Ua": 1,
                "ghp_Xr4Tc6Mh1Qy8Wn3Zb5Jk7Pd2Lf9Vs0GaEo": 2,
            }
        },
    }
    scan = scan_document(document, 1)
    assert not scan.complete
    redaction = Redaction.of(document, scan.hits, complete=False)
    shown = redaction.findings(
        [
            Finding("W002", "warning", "/operations/0/call/arguments/region", "checked"),
            Finding("W002", "warning", "/extensions/com.example.ops", "checked"),
        ]
    )
    assert [f.path for f in shown] == [
        f"/operations/0/call/arguments/{REDACTED}",
        f"/extensions/{REDACTED}",
    ]


# --- findings past the cap -----------------------------------------------------------------------


def _document(**members: Any) -> bytes:
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document.update(members)
    return json.dumps(document, indent=1).encode()


def _statement(i: int, evidence: list[str]) -> dict[str, Any]:
    return {
        "id": f"s{i}",
        "kind": "observation",
        "text": "seen",
        "origin": {"type": "tool", "name": "t"},
        "evidence": evidence,
    }


def _listed(findings: Sequence[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]


def test_unresolved_references_past_the_cap_are_counted_and_the_first_listed() -> None:
    extra = 7
    n = MAX_PER_CODE + extra
    # two lists of references, the cap falling inside the second
    statements = [
        _statement(0, [f"m{i}" for i in range(600)]),
        _statement(1, [f"m{i}" for i in range(600, n)]),
    ]
    result = lint(_document(statements=statements))
    listed = _listed(result.findings, "OCP-S002")
    assert len(listed) == MAX_PER_CODE
    assert [(o.code, o.count) for o in result.omitted] == [("OCP-S002", extra)]
    assert result.errors == n
    assert listed[0].path == "/statements/0/evidence/0"
    assert listed[0].message == (
        "evidence names 'm0', but no local object has that id; add the object it means or "
        "correct the id"
    )
    assert listed[-1].path == f"/statements/1/evidence/{MAX_PER_CODE - 601}"
    assert all(f.line is not None and f.column is not None for f in listed)


def test_references_of_the_wrong_type_past_the_cap_are_counted() -> None:
    extra = 3
    n = MAX_PER_CODE + extra
    statements = [_statement(i, ["s0"]) for i in range(n)]
    result = lint(_document(statements=statements))
    listed = _listed(result.findings, "OCP-S003")
    assert len(listed) == MAX_PER_CODE
    assert [(o.code, o.count) for o in result.omitted] == [("OCP-S003", extra)]
    assert listed[1].path == "/statements/1/evidence/0"
    assert listed[1].message == (
        "evidence must name a resource, but 's0' is a statement (at /statements/0); point it "
        "at the resource it means"
    )


def test_an_id_held_by_several_objects_is_of_the_wrong_type_only_when_none_fits() -> None:
    resource = {"id": "x", "kind": "file", "uri": "file:///x"}
    statements = [_statement(0, ["x"]), {**_statement(1, ["x"]), "id": "x"}]
    result = lint(_document(statements=statements, resources=[resource]))
    assert _listed(result.findings, "OCP-S003") == []  # "x" is also a resource
    result = lint(_document(statements=[_statement(0, ["s1"]), _statement(1, ["s0"])]))
    assert [f.path for f in _listed(result.findings, "OCP-S003")] == [
        "/statements/0/evidence/0",
        "/statements/1/evidence/0",
    ]


# --- the text report -----------------------------------------------------------------------------


def test_the_text_report_escapes_what_a_document_holds_and_only_that() -> None:
    from app.report import FileResult, format_text

    plain = Finding("OCP-S002", "error", "/statements/0/evidence/0", "evidence names 'm0'", 3, 9)
    hostile = Finding("schema", "error", "/task/x\n::add-mask::y", "name 'x\x1b[2J'", 1, 2)
    unplaced = Finding("secret", "warning", "", "a whole-document finding")
    listed = "f\\u202e.json:3:9: error OCP-S002 evidence names 'm0' [/statements/0/evidence/0]"
    for findings, expected in [
        ([plain, unplaced], [listed, "f\\u202e.json: warning secret a whole-document finding"]),
        (
            [plain, hostile],
            [listed, "f\\u202e.json:1:2: error schema name 'x\\e[2J' [/task/x\\n::add-mask::y]"],
        ),
    ]:
        result = SimpleNamespace(
            findings=findings,
            notes=(),
            lineage=(),
            pair=None,
            omitted=(),
            valid=False,
            errors=2,
            warnings=0,
        )
        out = format_text([FileResult("f\u202e.json", cast(LintResult, result))])
        assert out.splitlines() == [*expected, "f\\u202e.json: invalid: 2 errors, 0 warnings"]


# --- the collector while parsing -----------------------------------------------------------------


def test_parsing_leaves_the_collector_as_it_found_it() -> None:
    import gc

    from app.parse import parse

    data = _document(statements=[_statement(i, ["x"]) for i in range(50)])
    assert gc.isenabled()
    assert parse(data).ok and gc.isenabled()
    assert not parse(b'{"a": 1, "a": 2}').ok and gc.isenabled()  # the strict parser's path
    gc.disable()
    try:
        assert parse(data).ok and not gc.isenabled()
    finally:
        gc.enable()


def test_a_parse_leaves_young_garbage_young() -> None:
    """A parse pauses the collector and moves nothing: a reference cycle made before it is
    still collected by a young collection after it. (One moved into the oldest generation
    waits for a full collection, which a busy server may not run for a long time.)"""
    import gc
    import weakref

    from app.parse import parse

    class Node:
        me: object = None

    data = _document(statements=[_statement(i, ["x"]) for i in range(200)])
    gc.collect()
    cycle = Node()
    cycle.me = cycle
    gone = weakref.ref(cycle)
    del cycle
    assert parse(data).ok
    gc.collect(1)
    assert gone() is None


def test_parses_on_many_threads_leave_the_collector_running() -> None:
    import gc
    from concurrent.futures import ThreadPoolExecutor

    from app.parse import parse

    data = _document(statements=[_statement(i, ["x"]) for i in range(500)])
    with ThreadPoolExecutor(8) as pool:
        assert all(intake.ok for intake in pool.map(lambda _: parse(data), range(64)))
    assert gc.isenabled()


def test_ocp_lint_pauses_the_collector_for_its_run_and_leaves_it_running(tmp_path) -> None:
    """A run keeps every file's analysis for its report: the collector waits for the run
    rather than walk those documents after each parse (app/collector.py), and runs again
    once the run is over, having only the run's few objects of cyclic garbage to take."""
    import gc
    import io
    from contextlib import redirect_stdout

    from app import analysis, cli

    path = tmp_path / "a.ocp.json"
    path.write_bytes(_document(statements=[_statement(i, ["x"]) for i in range(50)]))
    other = tmp_path / "b.ocp.json"  # (a file named twice is linted once)
    other.write_bytes(path.read_bytes())
    seen: list[bool] = []
    check_document = analysis.check_document

    def watched(checkpoint):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return check_document(checkpoint)

    analysis.check_document = watched  # type: ignore[assignment]
    try:
        with redirect_stdout(io.StringIO()):
            cli.main(["lint", str(path), str(other)])
    finally:
        analysis.check_document = check_document
    assert seen == [False, False] and gc.isenabled()


def test_the_collector_waits_no_longer_than_the_parse_that_paused_it() -> None:
    import gc

    from app import collector

    with collector.CollectionPaused():
        assert not gc.isenabled()
        with collector.CollectionPaused():  # another thread's parse, under way meanwhile
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    outer = collector.CollectionPaused()
    outer.__enter__()
    inner = collector.CollectionPaused()
    inner.__enter__()
    outer.__exit__(None, None, None)  # the first parse ends before the other one
    assert gc.isenabled()
    later = collector.CollectionPaused()
    later.__enter__()  # a parse that starts while another is under way pauses nothing
    assert gc.isenabled()
    later.__exit__(None, None, None)
    inner.__exit__(None, None, None)
    assert gc.isenabled() and collector.paused() == 0


def test_userinfo_needs_an_at_sign_in_every_reading() -> None:
    """OCP-S008 asks the URL parsers only about a uri with an '@' in it."""
    from app import links
    from app.rules.consistency import has_userinfo
    from tests.test_links import CASES

    uris = [case[0] for case in CASES] + [
        "https://user\uff20evil.example/",  # a fullwidth commercial at is not one
        "https://user%40evil.example/",
        "https:user\ufe6bevil.example/",
        "https://user\u0040evil.example/",
        "https:\\\\user@evil.example/",
    ]
    for uri in uris:
        assert has_userinfo(uri) == links.has_userinfo(uri), uri
        if links.has_userinfo(uri):
            assert "@" in uri, uri
