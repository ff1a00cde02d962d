"""The page's advice (app/advice.py) on the cases where it contradicted the specification: each
test names the sentence of the spec it follows, and reads the advice a reviewer sees on a card."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime

import pytest

from app import advice
from app.analysis import lint
from app.render import build_view

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
BASE: dict = {
    "opencheckpoint": "0.1",
    "id": "urn:uuid:0195c000-0000-7000-8000-000000000001",
    "created_at": "2026-11-20T10:00:00Z",
    "source": {"producer": "example-producer 1.0"},
    "task": {"objective": "Pay the supplier invoice.", "status": "active"},
    "resources": [
        {
            "id": "r-payment",
            "kind": "record",
            "locator": {"system": "bank", "type": "payment", "key": "p-1"},
        }
    ],
    "operations": [
        {
            "id": "op-pay",
            "kind": "action",
            "status": "planned",
            "description": "Pay invoice 42.",
            "record": "r-payment",
            "effect": "non_idempotent",
            "call": {"tool": "bank.pay", "arguments": {"invoice": "42", "amount": 100}},
        }
    ],
}


def card(document: dict, op_id: str = "op-pay") -> dict:
    view = build_view(lint(json.dumps(document).encode()), now=NOW)
    for group in view["operations"]["groups"]:
        for item in group["items"]:
            if item["id"] == op_id:
                return item
    raise KeyError(op_id)


def with_op(**fields) -> dict:
    document = copy.deepcopy(BASE)
    document["operations"][0].update(fields)
    return document


def text(c: dict) -> str:
    return " ".join([c["first_step"], *c["advice"]])


def test_a_payment_past_its_expiry_is_not_told_to_be_re_requested():
    """OCP-W003 covers "An awaiting operation has not expired before created_at" (§8.2) only;
    for an uncertain, planned or failed one the deadline says nothing of whether it ran, and
    §10.3: "For an uncertain operation that is not known to be idempotent, a destination MUST
    determine its outcome in the target system before retrying"."""
    for status in ("uncertain", "planned", "failed"):
        extra = {"resume": "verify_first"} if status == "uncertain" else {}
        c = card(with_op(status=status, expires_at="2026-11-25T00:00:00Z", **extra))
        said = text(c)
        assert "re-request" not in said and "OCP-W003" not in said, (status, said)
        assert "has passed: check at its record r-payment" in said


def test_an_awaiting_input_past_its_expiry_is_re_requested_and_cites_w003_when_before_capture():
    document = with_op(
        kind="input", status="awaiting", effect="none", expires_at="2026-11-19T00:00:00Z"
    )
    document["operations"][0].pop("call")
    said = text(card(document))
    assert "re-request it" in said and "OCP-W003" in said


def stop(**fields) -> dict:
    return {"id": "stop-1", "description": "Do not pay before the controller confirms.", **fields}


def test_a_stop_condition_naming_the_operation_only_in_refs_blocks_it():
    """§6.8: "when they and the description differ, a consumer follows the more restrictive";
    OCP-W004 counts a stop condition's refs as fencing (§9.3)."""
    document = copy.deepcopy(BASE)
    document["continuation"] = {"stop_conditions": [stop(refs=["op-pay"])]}
    c = card(document)
    assert c["group"] == "blocked"
    assert "stop-1" in c["first_step"] and "more restrictive" in text(c)


def test_a_stop_condition_naming_no_operation_may_forbid_a_side_effecting_action():
    """§6.8: a stop condition "MAY name in applies_to the operations it forbids": one that names
    none is read by its description, and the more restrictive reading holds."""
    document = copy.deepcopy(BASE)
    document["continuation"] = {"stop_conditions": [stop()]}
    c = card(document)
    assert c["group"] == "blocked"
    assert any("names no operation" in a for a in c["advice"])
    # an input the source waits for is not a side effect: still waiting
    waiting = copy.deepcopy(document)
    waiting["operations"][0].update(kind="input", status="awaiting", effect="none")
    waiting["operations"][0].pop("call")
    assert card(waiting)["group"] == "waiting"


def test_a_stop_condition_without_until_applies_for_the_whole_continuation():
    """§6.8: "A stop condition without until applies for the whole continuation" — not lifted by
    a person, not lifted at all."""
    document = copy.deepcopy(BASE)
    document["continuation"] = {"stop_conditions": [stop(applies_to=["op-pay"])]}
    c = card(document)
    said = text(c)
    assert "the end of the continuation" in c["first_step"]
    assert "applies for the whole continuation" in said
    assert "a person lifts it" not in said


def test_follow_the_more_restrictive_on_every_stop_condition_and_in_the_checklist():
    """§6.8: "when they and the description differ, a consumer follows the more restrictive"."""
    document = copy.deepcopy(BASE)
    document["continuation"] = {
        "stop_conditions": [
            stop(applies_to=["op-pay"]),
            {
                "id": "stop-2",
                "description": "Wait for approval.",
                "applies_to": ["op-pay"],
                "until": [{"operation": "op-pay", "status": "completed"}],
            },
        ]
    }
    view = build_view(lint(json.dumps(document).encode()), now=NOW)
    checklist = {g["key"]: g for g in view["before_continuing"]["groups"]}
    assert "follow the more restrictive" in checklist["stop_conditions"]["guidance"]
    for item in checklist["stop_conditions"]["items"]:
        assert any("more restrictive" in n for n in item["notes"]), item["id"]


def test_the_repeat_rule_is_stated_as_the_specification_states_it():
    """§6.6: "A call to the same tool whose arguments include every recorded argument with an
    equal value is a repeat of the operation"."""
    c = card(with_op(status="uncertain", resume="verify_first"))
    assert any(
        "A call to bank.pay whose arguments include every recorded argument with an equal value"
        in a
        for a in c["advice"]
    )
    assert "same recorded arguments" not in text(c)


def test_a_planned_action_mentions_its_idempotency_key():
    """§10.3: a destination "SHOULD use idempotency_key where the target system supports it"."""
    said = text(card(with_op(idempotency_key="pay-42-2026-11")))
    assert 'use its idempotency key "pay-42-2026-11"' in said


def test_an_absent_idempotency_key_is_not_recorded_never_none():
    """§4.4: "An absent optional field means 'not recorded', not 'false' or 'none'"."""
    c = card(with_op())
    said = text(c)
    assert "No idempotency key is recorded" in said
    assert "key: none" not in said.lower() and "none is recorded" not in said.lower()


def test_the_advice_functions_alone():
    op = advice.Operation(
        id="op",
        kind="action",
        status="planned",
        effect=None,
        where="its record r",
        key=None,
        tool="t",
        unnamed=(advice.Stop("stop-x", None),),
    )
    assert op.treated_non_idempotent and op.side_effecting
    assert advice.group(op) == "blocked"
    assert advice.lift(advice.Stop("s", None)).needs_person is False
    with_record = advice.Stop("s", (advice.Until("op", "completed", None),))
    assert advice.lift(with_record).needs_person is True


def test_an_operation_names_a_few_of_a_long_until_and_counts_the_rest():
    """What lifts a stop condition is spelt out whole on its own card; an operation it forbids
    names the first NAMED_PER_OPERATION until entries and counts the rest, so a stop condition
    on every operation until all are done costs the page n, not n × n."""
    named = advice.NAMED_PER_OPERATION
    until = tuple(
        advice.Until(f"op-{i}", "completed", None if i % 2 else f"r-{i}") for i in range(50)
    )
    stop = advice.Stop("stop-all", until)
    assert stop.unrecorded == tuple(f"op-{i}" for i in range(1, 50, 2))
    whole = advice.lift(stop)
    assert all(f"op-{i} reaches completed" in whole.text for i in range(50))
    assert whole.needs_person and "op-49" in whole.text
    brief = advice.lift(stop, named)
    assert brief.needs_person  # counted, the entries left out still say a person lifts it
    assert [f"op-{i} reaches" in brief.text for i in range(50)] == [i < named for i in range(50)]
    assert f"{50 - named} more operations of its until reach theirs" in brief.text
    assert f"and {25 - named} more have no record" in brief.text
    op = advice.Operation(
        id="op-0",
        kind="action",
        status="planned",
        effect="none",
        where="its record r",
        key=None,
        tool=None,
        forbidding=(stop,),
    )
    assert f"{50 - named} more operations" in advice.first_step(op)
    assert sum("op-40 reaches" in sentence for sentence in advice.advice(op)) == 0


def test_an_action_names_a_few_of_the_stop_conditions_that_name_no_operation():
    unnamed = tuple(advice.Stop(f"stop-{i}", None) for i in range(40))
    op = advice.Operation(
        id="op",
        kind="action",
        status="planned",
        effect=None,
        where="its record r",
        key=None,
        tool=None,
        unnamed=unnamed,
    )
    said = advice.advice(op)
    listed = [s for s in said if s.startswith("Stop condition stop-")]
    assert [s.split()[2] for s in listed] == [
        f"stop-{i}" for i in range(advice.NAMED_PER_OPERATION)
    ]
    assert f"{40 - advice.NAMED_PER_OPERATION} more stop conditions name no operation" in " ".join(
        said
    )
    assert advice.group(op) == "blocked" and op.first_stop is unnamed[0]
    assert "stop-0" in advice.first_step(op)


@pytest.mark.parametrize("build", ["unnamed_stops", "long_until"])
def test_a_page_and_its_json_twin_grow_with_the_document_not_its_square(build):
    """Sizes, not times: doubling the document (stop conditions naming no operation, or one
    whose until lists every operation it forbids) about doubles the page and the JSON twin;
    spelt out on every operation, they had grown fourfold (a 300 KB document made a 25 MB
    page and a 600 MB JSON twin)."""
    from app.web.pages import checkpoint_html, checkpoint_json
    from bench import worst_cases

    sizes = []
    for n in (400, 800):
        result = lint(getattr(worst_cases, build)(n))
        assert result.valid
        page = checkpoint_html("c.ocp.json", result)
        twin = json.dumps(checkpoint_json("c.ocp.json", result))
        sizes.append((len(page), len(twin)))
    (page_n, twin_n), (page_2n, twin_2n) = sizes
    assert page_2n < 2.5 * page_n and twin_2n < 2.5 * twin_n, sizes
