"""Shapes of document whose page, JSON twin or guard answer once grew with the square of the
document: doubling the document now about doubles each (sizes, not times; bench/worst.py
times the stages). Each shape repeats one thing many times that many others name."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.analysis import analyze, lint
from app.guard import guard, proposed_call
from app.web.pages import checkpoint_html, checkpoint_json
from bench import worst_cases
from tests.conftest import CONFORMANCE

Doc = dict[str, object]


def base() -> Doc:
    return json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())


def action(i: int, **more: object) -> Doc:
    return {
        "id": f"op-{i}",
        "kind": "action",
        "status": "planned",
        "description": "Post it.",
    } | more


def duplicate_operations_named_by_stops(n: int) -> Doc:
    """n operations sharing one id (OCP-S001), n stop conditions forbidding that id."""
    doc = base()
    doc["operations"] = [action(i, id="op-0") for i in range(n)]
    doc["continuation"] = {
        "stop_conditions": [
            {"id": f"stop-{j}", "description": "Hold.", "applies_to": ["op-0"]} for j in range(n)
        ]
    }
    return doc


def duplicate_resources_cited(n: int) -> Doc:
    """n resources with a revision sharing one id, n statements citing that id."""
    doc = base()
    doc["resources"] = [
        {"id": "r-0", "kind": "file", "uri": f"https://example.org/f/{i}", "revision": "a1"}
        for i in range(n)
    ]
    doc["statements"] = [
        {
            "id": f"s-{i}",
            "kind": "observation",
            "text": "Seen.",
            "origin": {"type": "tool", "name": "t"},
            "evidence": ["r-0"],
        }
        for i in range(n)
    ]
    return doc


def extension_required_many_times(n: int) -> Doc:
    """n statements using one extension, n requirements naming it."""
    doc = base()
    doc["statements"] = [
        {
            "id": f"s-{i}",
            "kind": "observation",
            "text": "Seen.",
            "origin": {"type": "tool", "name": "t"},
            "extensions": {"org.example/k": 1},
        }
        for i in range(n)
    ]
    doc["continuation"] = {
        "requirements": [
            {"id": f"q-{j}", "kind": "extension", "name": "org.example/k", "necessity": "optional"}
            for j in range(n)
        ]
    }
    return doc


def evidence_naming_a_shared_id(n: int) -> Doc:
    """n statements sharing one id (OCP-S001), n statements citing it as evidence (OCP-S003:
    an id held by no resource)."""
    doc = base()
    statement = {"kind": "observation", "text": "Seen.", "origin": {"type": "tool", "name": "t"}}
    doc["statements"] = [statement | {"id": "x"} for _ in range(n)] + [
        statement | {"id": f"s-{i}", "evidence": ["x"]} for i in range(n)
    ]
    return doc


def one_stop_on_every_action_until_all(n: int) -> Doc:
    """bench/worst.py's long-until: n actions (none records a call), one stop condition
    forbidding them all until all are completed."""
    document: Doc = json.loads(worst_cases.long_until(n))
    return document


def page_and_twin(doc: Doc) -> int:
    result = lint(json.dumps(doc).encode())
    return len(checkpoint_html("c.ocp.json", result)) + len(
        json.dumps(checkpoint_json("c.ocp.json", result))
    )


def guard_answer(doc: Doc) -> int:
    analysis = analyze(json.dumps(doc).encode())
    answer = guard(analysis, proposed_call({"tool": "erp.post", "arguments": {"a": 1}}))
    return len(json.dumps(answer.as_json()))


@pytest.mark.parametrize(
    ("build", "measure"),
    [
        (duplicate_operations_named_by_stops, page_and_twin),
        (duplicate_resources_cited, page_and_twin),
        (extension_required_many_times, page_and_twin),
        (one_stop_on_every_action_until_all, guard_answer),
        (evidence_naming_a_shared_id, page_and_twin),
    ],
    ids=[
        "duplicate-operations",
        "duplicate-resources",
        "extension-requirements",
        "guard-until",
        "shared-id-evidence",
    ],
)
def test_doubling_the_document_about_doubles_what_is_made_of_it(
    build: Callable[[int], Doc], measure: Callable[[Doc], int]
) -> None:
    small, large = measure(build(300)), measure(build(600))
    assert large < 2.5 * small, (small, large)


def test_the_index_of_completed_calls_finds_every_call_a_call_repeats():
    """lineage-repeat compares a child's call only with the parent's completed calls filed
    under its tool and one of its arguments: against every pair of 400 random calls, it finds
    the same repeats as comparing each with each (numbers by value, booleans apart, objects
    unordered, extra arguments allowed)."""
    import random

    from app.calls import Call, repeats
    from app.rules.compaction import _CompletedCalls

    chooser = random.Random(12)
    values: list[object] = [1, 1.0, True, False, 0, "1", None, [1, 2], [2, 1], {"a": 1}, {"a": 1.0}]

    def call() -> Call:
        names = chooser.sample(["a", "b", "c"], chooser.randint(0, 3))
        return Call(chooser.choice(["t", "u"]), {n: chooser.choice(values) for n in names})

    completed = [(i, {"id": f"done-{i}"}, call()) for i in range(400)]
    calls = _CompletedCalls(completed)
    for _ in range(400):
        proposed = call()
        indexed = [c for c in calls.candidates(proposed) if repeats(proposed, c[2])]
        assert indexed == [c for c in completed if repeats(proposed, c[2])]


def test_an_omission_names_an_id_as_a_whole_word():
    from app.rules.compaction import Omissions, Protected

    def dropped(object_id: str) -> Protected:
        return Protected(
            object_id, "statement", "active decision", ("statements", 0), {"kind": "decision"}
        )

    omissions = Omissions(["Dropped d-rename-all.", "Merged (d-9) into d-10:", 7])
    assert omissions.cover(dropped("d-rename-all")) and omissions.cover(dropped("d-9"))
    assert omissions.cover(dropped("d-10")) and not omissions.cover(dropped("d-1"))
    # a word for its kind names no decision in particular (issue 26)
    assert not Omissions(["two decisions", "Older statements not needed any more"]).cover(
        dropped("d-1")
    )


def test_an_omission_describes_an_object_in_its_own_words_in_linear_time():
    """An omission accounts for a dropped object it describes with most of the object's own
    distinctive words; the index makes n objects against n omissions linear: every omission
    shares words with every object, which compared pairwise cost their product."""
    from app.rules.compaction import Omissions, Protected

    def constraint(text: str, n: int = 0) -> Protected:
        return Protected(
            f"s-{n}", "statement", "active constraint", ("statements", n), {"text": text}
        )

    card = constraint("Never ask for card number/CVC")
    assert Omissions(["The rule never to ask for the card number"]).cover(card)
    assert not Omissions(["Older statements not needed any more"]).cover(card)
    assert not Omissions(["card details"]).cover(card)
    n = 3000
    words = " ".join(f"word{k}" for k in range(12))
    omissions = Omissions([f"{words} omission {i}" for i in range(n)])
    assert omissions.cover(constraint(words))
    assert not omissions.cover(constraint("Refunds above EUR 500 need Tier 2 approval"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(), st.text(), st.text(alphabet="aB1_ -.\x00é"))))
def test_the_words_of_many_texts_read_at_once_are_each_texts_own(texts: list[object]) -> None:
    """Dropped objects' words are read in one pass over their texts joined (ASCII by a table,
    others by the regular expression, a text holding the separator one by one): the same words,
    text by text, as reading each alone."""
    from app.rules.compaction import content_words, content_words_each

    assert content_words_each(texts) == [content_words(t) for t in texts]


def test_omissions_that_together_hold_too_few_of_its_words_cover_no_object():
    """What no omission can reach is refused before any is read: the words all omissions share
    with the object bound what any one of them shares. Omissions "in nearly its words", each
    holding two of the three it needs, cover nothing; one more word in one of them does."""
    from app.rules.compaction import Omissions, Protected

    ledger = Protected(
        "s-1",
        "statement",
        "active constraint",
        ("statements", 1),
        {"text": "Review account ledger before posting."},
    )
    near = [f"review account {j}" for j in range(2000)]
    assert not Omissions(near).cover(ledger)
    assert Omissions([*near[:5], "review the account ledger", *near[5:]]).cover(ledger)


def test_past_what_a_report_lists_dropped_objects_are_counted():
    """A compacted child dropping 1,005 instructions, with omissions naming none: 1,000 notes
    listed, the other 5 counted (the report says how many more)."""
    from app.analysis import lint
    from bench.worst_cases import omissions_unnamed, omitted_parent

    result = lint(omissions_unnamed(1005), parent=omitted_parent(1005))
    listed = [f for f in result.lineage if f.code == "lineage-omission"]
    assert len(listed) == 1000 and all(f.message and f.path for f in listed)
    [omitted] = [o for o in result.lineage_omitted if o.code == "lineage-omission"]
    assert omitted.count == 5


def test_a_json_key_is_equal_exactly_where_its_values_are():
    """json_key stands in for ``==`` (a list's ``in``) and, with booleans apart, for
    `same_value` (a call's arguments): keys equal exactly where the values are."""
    from itertools import product

    from app.calls import same_value
    from app.json_values import json_key

    values: list[object] = [
        *(0, 1, 1.0, 2, True, False, None, "1", "", [], {}),
        *([1, 2], [2, 1], [1.0, 2], [True, 2], {"a": 1}, {"a": 1.0}, {"a": True}),
        *({"a": 1, "b": [2]}, {"b": [2], "a": 1}, {"a": [1]}, [{"a": 1}], [[1]]),
    ]
    for a, b in product(values, repeat=2):
        assert (json_key(a) == json_key(b)) == (a == b), (a, b)
        apart = json_key(a, booleans_apart=True) == json_key(b, booleans_apart=True)
        assert apart == same_value(a, b), (a, b)
