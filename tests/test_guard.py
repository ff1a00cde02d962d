"""The call guard's truth table (issue 14), each row citing the sentence of the specification
it follows, through the three ways to ask: `ocp guard`, POST /api/v1/guard and the library.
All three must give the same answer, byte for byte as JSON."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.analysis import analyze
from app.guard import guard, proposed_call
from app.web import create_app
from tests.conftest import CONFORMANCE, SPEC_TEXT

OCP = Path(sys.executable).parent / "ocp"
SPEC = " ".join(SPEC_TEXT.read_text(encoding="utf-8").split())

BASE: dict[str, Any] = {
    "opencheckpoint": "0.1",
    "id": "urn:uuid:019a8000-0000-7000-8000-000000000014",
    "created_at": "2026-11-20T08:00:00Z",
    "source": {"producer": "hand-written"},
    "task": {"objective": "Refund a duplicate charge.", "status": "active"},
    "resources": [
        {"id": "r-refund", "kind": "record", "uri": "https://payments.example.test/refunds/re_1"},
        {"id": "r-charge", "kind": "record", "uri": "https://payments.example.test/charges/ch_1"},
    ],
}
REFUND = {"tool": "payments.create_refund", "arguments": {"charge": "ch_1", "amount": 5880}}


def op(status: str, **more: Any) -> dict[str, Any]:
    return {
        "id": "op-refund",
        "kind": "action",
        "status": status,
        "description": "Refund the duplicate charge.",
        "target": "r-charge",
        "record": "r-refund",
        "call": REFUND,
        **more,
    }


def checkpoint(*operations: dict[str, Any], stops: list[dict[str, Any]] | None = None) -> dict:
    doc = copy.deepcopy(BASE)
    if operations:
        doc["operations"] = list(operations)
    if stops:
        doc["continuation"] = {"stop_conditions": stops}
    return doc


STOP_REFUND = {
    "id": "stop-refund",
    "description": "Do not refund again until the processor shows the first refund.",
    "applies_to": ["op-refund"],
    "until": [{"operation": "op-refund", "status": "completed"}],
}
STOP_ALL = {"id": "stop-all", "description": "Stop if the customer disputes the charge."}
OTHER = {
    "id": "op-mail",
    "kind": "action",
    "status": "planned",
    "description": "Tell the customer.",
    "effect": "non_idempotent",
    "call": {"tool": "mail.send", "arguments": {"to": "customer"}},
}

APPROVAL = {
    "id": "op-approve",
    "kind": "approval",
    "status": "awaiting",
    "description": "Tier 2 approves the refund.",
    "record": "r-refund",
}
APPROVAL_RECORD = {
    "decided_by": "tier 2 lead",
    "decided_at": "2026-11-20T07:00:00Z",
    "evidence": ["r-refund"],
}


def forked(*operations: dict[str, Any], stops: list[dict[str, Any]] | None = None) -> dict:
    parent = "urn:uuid:019a8000-0000-7000-8000-000000000013"
    doc = checkpoint(*operations, stops=stops)
    doc["parent"] = {"id": parent}
    doc["derivation"] = {"method": "forked", "inputs": [{"kind": "checkpoint", "id": parent}]}
    return doc


def with_next(doc: dict, *steps: dict[str, Any]) -> dict:
    doc["progress"] = {"next": list(steps)}
    return doc


def with_preconditions(doc: dict, *preconditions: dict[str, Any]) -> dict:
    doc.setdefault("continuation", {})["preconditions"] = list(preconditions)
    return doc


# (id, checkpoint, call, outcome, reason codes, the sentence of the specification)
TABLE = [
    (
        "completed-repeat",
        checkpoint(op("completed", effect="non_idempotent")),
        REFUND,
        "refuse",
        ["repeat-of-completed"],
        "so a consumer can refuse to repeat a completed operation",
    ),
    (
        "completed-repeat-extra-arguments-and-equal-numbers",
        checkpoint(op("completed", effect="non_idempotent")),
        {
            "tool": "payments.create_refund",
            "arguments": {"amount": 5880.0, "charge": "ch_1", "note": "again"},
        },
        "refuse",
        ["repeat-of-completed"],
        "A call to the same tool whose arguments include every recorded argument with an equal "
        "value is a repeat of the operation",
    ),
    (
        "completed-other-argument-value",
        checkpoint(op("completed", effect="non_idempotent")),
        {"tool": "payments.create_refund", "arguments": {"charge": "ch_2", "amount": 5880}},
        "nothing_against",
        [],
        "whose arguments include every recorded argument with an equal value",
    ),
    (
        "completed-missing-recorded-argument",
        checkpoint(op("completed", effect="non_idempotent")),
        {"tool": "payments.create_refund", "arguments": {"charge": "ch_1"}},
        "nothing_against",
        [],
        "whose arguments include every recorded argument with an equal value",
    ),
    (
        "completed-true-is-not-1",
        checkpoint(
            op(
                "completed",
                effect="non_idempotent",
                call={"tool": "flags.set", "arguments": {"on": True}},
            )
        ),
        {"tool": "flags.set", "arguments": {"on": 1}},
        "nothing_against",
        [],
        "include every recorded argument with an equal value",
    ),
    (
        "completed-other-tool-same-arguments",
        checkpoint(op("completed", effect="non_idempotent")),
        {"tool": "payments.refund_charge", "arguments": REFUND["arguments"]},
        "determine_first",
        ["same-arguments-other-tool"],
        "tool names the tool or API operation as the interface declares it",
    ),
    (
        "completed-other-tool-other-arguments",
        checkpoint(op("completed", effect="non_idempotent")),
        {"tool": "payments.create_charge", "arguments": {"charge": "ch_1"}},
        "nothing_against",
        [],
        "A call to the same tool",
    ),
    (
        "uncertain-non-idempotent",
        checkpoint(op("uncertain", effect="non_idempotent", resume="verify_first")),
        REFUND,
        "determine_first",
        ["repeat-of-uncertain", "source-recommends-verify_first"],
        "For an uncertain operation that is not known to be idempotent, a destination MUST "
        "determine its outcome in the target system before retrying, or ask a person.",
    ),
    (
        "uncertain-absent-effect",
        checkpoint(op("uncertain", resume="verify_first", idempotency_key="refund-ch_1")),
        REFUND,
        "determine_first",
        ["repeat-of-uncertain", "source-recommends-verify_first"],
        "A consumer MUST treat an absent or unknown effect as non_idempotent.",
    ),
    (
        "uncertain-idempotent",
        checkpoint(op("uncertain", effect="idempotent", resume="retry")),
        REFUND,
        "determine_first",
        ["repeat-of-uncertain-idempotent"],
        "Reconcile non-terminal operations: verify uncertain ones",
    ),
    (
        "cancelled-repeat",
        checkpoint(op("cancelled", effect="non_idempotent")),
        REFUND,
        "refuse",
        ["repeat-of-cancelled"],
        "`cancelled` Will not happen. Terminal.",
    ),
    (
        "rejected-repeat",
        checkpoint(
            op(
                "rejected",
                kind="approval",
                approval={
                    "decided_by": "finance lead",
                    "decided_at": "2026-11-20T07:00:00Z",
                    "evidence": ["r-refund"],
                },
            )
        ),
        REFUND,
        "refuse",
        ["repeat-of-rejected"],
        "completed, cancelled, and rejected are terminal",
    ),
    (
        "stop-condition-forbids",
        checkpoint(
            op("planned", effect="non_idempotent"),
            stops=[STOP_REFUND],
        ),
        REFUND,
        "refuse",
        ["repeat-of-planned", "forbidden-by-stop-condition"],
        "A stop condition MAY name in applies_to the operations it forbids, and in until the "
        "operations and statuses that lift it",
    ),
    (
        "stop-condition-other-operation",
        checkpoint(op("planned", effect="non_idempotent"), OTHER, stops=[STOP_REFUND]),
        OTHER["call"],
        "nothing_against",
        ["repeat-of-planned"],
        "A stop condition MAY name in applies_to the operations it forbids",
    ),
    (
        "stop-condition-names-no-operation",
        checkpoint(op("planned", effect="non_idempotent"), stops=[STOP_ALL]),
        {"tool": "anything.at_all"},
        "determine_first",
        ["stop-condition-names-no-operation"],
        "These fields let software enforce a stop condition without reading its description; "
        "when they and the description differ, a consumer follows the more restrictive.",
    ),
    (
        "stop-condition-forbids-an-action-without-call",
        checkpoint(
            {k: v for k, v in op("planned", effect="non_idempotent").items() if k != "call"},
            stops=[STOP_REFUND],
        ),
        REFUND,
        "determine_first",
        ["stop-condition-forbids-an-action-without-call"],
        "A producer SHOULD record call on an action operation whose effect is non_idempotent or "
        "unknown when it knows the call.",
    ),
    (
        "stop-condition-forbids-the-same-tool-with-other-arguments",
        checkpoint(op("planned", effect="non_idempotent"), stops=[STOP_REFUND]),
        {"tool": "payments.create_refund", "arguments": {"charge": "ch_1", "amount": 100}},
        "determine_first",
        ["stop-condition-forbids-this-tool"],
        "when they and the description differ, a consumer follows the more restrictive.",
    ),
    (
        "planned-repeat",
        checkpoint(op("planned", effect="non_idempotent")),
        REFUND,
        "nothing_against",
        ["repeat-of-planned"],
        "A destination MUST NOT automatically execute pending operations on restore.",
    ),
    (
        "awaiting-non-idempotent",
        checkpoint(op("awaiting", effect="non_idempotent")),
        REFUND,
        "determine_first",
        ["repeat-of-awaiting"],
        "`awaiting` Requested; waiting for the person or system.",
    ),
    (
        "prefixed-tool-name-repeats-a-completed-call",
        checkpoint(
            op(
                "completed",
                effect="non_idempotent",
                call={"tool": "create_refund", "arguments": REFUND["arguments"]},
            )
        ),
        {"tool": "mcp__payments__create_refund", "arguments": REFUND["arguments"]},
        "refuse",
        ["repeat-of-completed"],
        "for MCP, the tool name the server declares, without a client’s prefix",
    ),
    (
        "stop-condition-names-the-operation-in-refs",
        checkpoint(
            op("planned", effect="non_idempotent"),
            OTHER,
            stops=[{**STOP_ALL, "applies_to": ["op-mail"], "refs": ["op-refund"]}],
        ),
        REFUND,
        "determine_first",
        ["repeat-of-planned", "stop-condition-names-this-operation"],
        "when they and the description differ, a consumer follows the more restrictive.",
    ),
    (
        "stop-condition-forbids-an-approval",
        checkpoint(APPROVAL, stops=[{**STOP_ALL, "applies_to": ["op-approve"]}]),
        REFUND,
        "determine_first",
        ["stop-condition-forbids-an-operation-without-call"],
        "A stop condition MAY name in applies_to the operations it forbids",
    ),
    (
        "cancelled-action-without-call",
        checkpoint({k: v for k, v in op("cancelled").items() if k != "call"}),
        REFUND,
        "determine_first",
        ["cancelled-without-call"],
        "`cancelled` Will not happen. Terminal.",
    ),
    (
        "source-recommends-do-not-resume",
        checkpoint(op("planned", effect="non_idempotent", resume="do_not_resume")),
        REFUND,
        "determine_first",
        ["repeat-of-planned", "source-recommends-do_not_resume"],
        "resume is the source’s recommendation: retry, verify_first (check the target system "
        "for the outcome before anything else), ask, or do_not_resume.",
    ),
    (
        "source-recommends-ask",
        checkpoint(op("awaiting", effect="idempotent", resume="ask")),
        REFUND,
        "determine_first",
        ["repeat-of-awaiting", "source-recommends-ask"],
        "resume is the source’s recommendation",
    ),
    (
        "fork-leaves-an-action-unfenced",
        forked(op("planned", effect="non_idempotent")),
        REFUND,
        "determine_first",
        ["repeat-of-planned", "unfenced-in-a-fork"],
        "SHOULD instead confirm that the pending operations it intends to act on are actionable "
        "in its own fork.",
    ),
    (
        "fork-fences-the-action",
        forked(op("planned", effect="non_idempotent"), stops=[STOP_REFUND]),
        REFUND,
        "refuse",
        ["repeat-of-planned", "forbidden-by-stop-condition"],
        "or add a stop condition that references it",
    ),
    (
        "depends-on-an-awaiting-approval",
        checkpoint(op("planned", effect="non_idempotent", depends_on=["op-approve"]), APPROVAL),
        REFUND,
        "determine_first",
        ["repeat-of-planned", "depends-on-unsettled"],
        "A step blocked by an operation stays blocked until the operation is completed or, for "
        "an approval, approved",
    ),
    (
        "depends-on-an-approved-approval",
        checkpoint(
            op("planned", effect="non_idempotent", depends_on=["op-approve"]),
            {**APPROVAL, "status": "approved", "approval": APPROVAL_RECORD},
        ),
        REFUND,
        "nothing_against",
        ["repeat-of-planned"],
        "A step blocked by an operation stays blocked until the operation is completed or, for "
        "an approval, approved",
    ),
    (
        "a-next-step-is-blocked-by-the-approval",
        with_next(
            checkpoint(op("planned", effect="non_idempotent"), APPROVAL),
            {"description": "Refund it.", "refs": ["op-refund"], "blocked_by": ["op-approve"]},
        ),
        REFUND,
        "determine_first",
        ["repeat-of-planned", "blocked-next-step"],
        "blocked_by names what prevents a step",
    ),
    (
        "a-halt-precondition",
        with_preconditions(
            checkpoint(op("planned", effect="non_idempotent")),
            {
                "id": "pre-balance",
                "description": "The merchant balance covers the refund.",
                "on_failure": "halt",
            },
        ),
        REFUND,
        "determine_first",
        ["repeat-of-planned", "precondition-halt"],
        "preconditions lists conditions to check before resuming, each with an on_failure of "
        "halt, ask, or degrade.",
    ),
    (
        "a-degrade-precondition",
        with_preconditions(
            checkpoint(op("planned", effect="non_idempotent")),
            {"id": "pre-cache", "description": "The cache is warm.", "on_failure": "degrade"},
        ),
        REFUND,
        "nothing_against",
        ["repeat-of-planned"],
        "each with an on_failure of halt, ask, or degrade.",
    ),
    (
        "planned-past-its-expires-at",
        checkpoint(op("planned", effect="non_idempotent", expires_at="2026-11-20T07:30:00Z")),
        REFUND,
        "determine_first",
        ["repeat-of-expired-planned"],
        "A destination MUST NOT automatically execute pending operations on restore.",
    ),
    (
        "nothing-recorded",
        checkpoint(),
        REFUND,
        "nothing_against",
        [],
        "A checkpoint MUST NOT grant a destination any capability, permission, credential, or "
        "authority it does not already possess.",
    ),
]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as test_client:
        yield test_client


def library_answer(doc: dict, call: dict) -> dict:
    data = json.dumps(doc).encode()
    return guard(analyze(data), proposed_call(call)).as_json()


@pytest.mark.parametrize(
    ("doc", "call", "outcome", "codes", "sentence"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_truth_table(tmp_path, client, doc, call, outcome, codes, sentence):
    assert sentence.replace("`", "") in SPEC.replace("`", ""), "cite the specification's words"
    expected = library_answer(doc, call)
    assert expected["outcome"] == outcome
    assert [r["code"] for r in expected["reasons"]] == codes
    assert "allowed" not in json.dumps(expected) and "authorized" not in json.dumps(expected)

    path = tmp_path / "case.ocp.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run(
        [str(OCP), "guard", str(path), "--call", json.dumps(call), "--format", "json"],
        capture_output=True,
        check=False,
    )
    assert json.loads(done.stdout) == expected
    assert done.returncode == {"nothing_against": 0, "refuse": 1, "determine_first": 3}[outcome]

    served = client.post("/api/v1/guard", json={"call": call, "checkpoint": json.dumps(doc)})
    assert served.status_code == 200
    assert served.json() == expected


def test_the_answer_names_what_lifts_the_stop_condition_and_where():
    answer = library_answer(checkpoint(op("planned"), stops=[STOP_REFUND]), REFUND)
    (stop,) = [r for r in answer["reasons"] if r["code"] == "forbidden-by-stop-condition"]
    assert stop["path"] == "/continuation/stop_conditions/0"
    assert "op-refund reaches completed (check at its record r-refund)" in stop["lifted_by"]
    assert "never as recorded in this checkpoint" in stop["lifted_by"]


def test_a_stop_condition_whose_operation_has_no_record_is_lifted_by_a_person():
    no_record = op("planned")
    del no_record["record"]
    answer = library_answer(checkpoint(no_record, stops=[STOP_REFUND]), REFUND)
    (stop,) = [r for r in answer["reasons"] if r["code"] == "forbidden-by-stop-condition"]
    assert "software cannot verify it" in stop["lifted_by"]
    assert "until a person lifts it" in stop["lifted_by"]


def test_an_uncertain_operation_names_its_record_and_idempotency_key():
    doc = checkpoint(op("uncertain", resume="verify_first", idempotency_key="refund-ch_1"))
    reason, resume = library_answer(doc, REFUND)["reasons"]
    assert resume["code"] == "source-recommends-verify_first"
    assert reason["record"] == "r-refund"
    assert "its record r-refund" in reason["message"]
    assert "idempotency key is refund-ch_1" in reason["message"]


def test_an_action_without_a_call_is_listed_as_not_compared():
    no_call = op("completed")
    del no_call["call"]
    answer = library_answer(checkpoint(no_call), REFUND)
    assert answer["outcome"] == "nothing_against"
    assert answer["uncompared_operations"] == ["/operations/0"]


def test_an_invalid_checkpoint_is_not_relied_on(client):
    doc = checkpoint(op("completed"))
    doc["operations"][0]["status"] = "done"  # not a status: level 1 fails
    answer = library_answer(doc, {"tool": "other.tool"})
    assert answer["outcome"] == "determine_first"
    assert answer["reasons"][0]["code"] == "checkpoint-invalid"
    assert answer["checkpoint"]["levels"]["syntax"] == "fail"


def test_unreadable_input_is_a_clear_error_from_every_front(tmp_path, client):
    path = tmp_path / "case.ocp.json"
    path.write_text(json.dumps(checkpoint()))
    bad = subprocess.run(
        [str(OCP), "guard", str(path), "--call", '{"tool": "x",}'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "line 1, column 14" in bad.stderr
    # "" (the whole call) is not written "/", a member named ""; and it is a call, not a
    # checkpoint, that must be one JSON object
    listed = subprocess.run(
        [str(OCP), "guard", str(path), "--call", "[]"], capture_output=True, text=True
    )
    assert listed.returncode == 2
    assert "the call, line 1, column 1: the call is not JSON" in listed.stderr
    assert listed.stderr.rstrip().endswith("not an object; a call is one JSON object")

    not_json = tmp_path / "broken.ocp.json"
    not_json.write_text('{"opencheckpoint": "0.1",')
    broken = subprocess.run(
        [str(OCP), "guard", str(not_json), "--call", '{"tool": "x"}', "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert broken.returncode == 2
    assert json.loads(broken.stdout)["error"]["subject"] == "checkpoint"

    for body, pointer in (
        ({"call": {"tool": ""}, "checkpoint": "{}"}, "/call/tool"),
        ({"call": {"tool": "x", "arguments": []}, "checkpoint": "{}"}, "/call/arguments"),
        ({"call": {"tool": "x"}}, ""),
        ({"call": {"tool": "x"}, "storage_id": 7}, "/storage_id"),
        ({"call": {"tool": "x"}, "checkpoint_id": 7}, "/checkpoint_id"),
        ({"call": {"tool": "x"}, "storage_id": "a", "checkpoint_id": "a"}, "/checkpoint_id"),
        ({"call": {"tool": "x"}, "checkpoint": "{}", "storage_id": "a"}, ""),  # both
    ):
        answer = client.post("/api/v1/guard", json=body)
        assert answer.status_code == 400, body
        assert answer.json()["findings"][0]["path"] == pointer
    both = client.post(
        "/api/v1/guard", json={"call": {"tool": "x"}, "storage_id": "a", "checkpoint_id": "b"}
    )
    assert '"storage_id" only' in both.json()["detail"] and "checkpoint_id" in both.json()["detail"]
    twice = client.post(
        "/api/v1/guard", json={"call": {"tool": "x"}, "checkpoint": "{}", "storage_id": "a"}
    )
    assert "once, not both" in twice.json()["detail"]
    unknown = client.post("/api/v1/guard", json={"call": {"tool": "x"}, "storage_id": "nope"})
    assert unknown.status_code == 404
    wrong_type = client.post("/api/v1/guard", content=b"tool=x")
    assert wrong_type.status_code == 415


def test_a_stored_checkpoint_is_guarded_by_its_storage_id(client):
    doc = checkpoint(op("completed", effect="non_idempotent"))
    stored = client.post(
        "/api/v1/checkpoints",
        content=json.dumps(doc).encode(),
        headers={"content-type": "application/json"},
    )
    assert stored.status_code == 201, stored.text
    storage_id = stored.json()["storage_id"]
    answer = client.post("/api/v1/guard", json={"call": REFUND, "storage_id": storage_id})
    assert answer.status_code == 200
    served = answer.json()
    # the old name of the member, deprecated, still answers the same for a release
    old_name = client.post("/api/v1/guard", json={"call": REFUND, "checkpoint_id": storage_id})
    assert old_name.status_code == 200 and old_name.json() == served
    # a stored one also says which newer checkpoints of its lineage were looked for (§10.3)
    assert served.pop("newer_checkpoints") == {
        "linked": [],
        "verified": 0,
        "claimed": 0,
        "truncated": False,
    }
    assert served == library_answer(doc, REFUND)


def test_no_argument_of_the_call_is_repeated_back(tmp_path):
    secret = "hunter2-very-private-value"
    call = {"tool": "payments.create_refund", "arguments": {**REFUND["arguments"], "pin": secret}}
    answer = library_answer(checkpoint(op("completed")), call)
    assert answer["outcome"] == "refuse"
    assert secret not in json.dumps(answer)


def test_a_call_with_a_member_it_cannot_have_is_refused_as_unreadable(tmp_path, client):
    """A misspelt "arguments" would be compared as a call without arguments, and a repeat
    of a completed operation answered as nothing recorded: an error, from every front."""
    doc = checkpoint(op("completed", effect="non_idempotent"))
    misspelt = {"tool": REFUND["tool"], "args": REFUND["arguments"]}
    path = tmp_path / "case.ocp.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run(
        [str(OCP), "guard", str(path), "--call", json.dumps(misspelt)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and '"args"' in done.stderr and "Traceback" not in done.stderr
    served = client.post("/api/v1/guard", json={"call": misspelt, "checkpoint": json.dumps(doc)})
    assert served.status_code == 400 and served.json()["findings"][0]["path"] == "/call/args"


def test_a_checkpoint_holding_credentials_is_not_relied_on():
    secrets = json.loads((CONFORMANCE / "secret-aws-pem-github.ocp.json").read_text())
    answer = library_answer(secrets, {"tool": "anything"})
    assert answer["outcome"] == "determine_first"
    (reason,) = [r for r in answer["reasons"] if r["code"] == "checkpoint-holds-credentials"]
    assert reason["section"] == "§10.5" and "AKIA" not in json.dumps(answer)


def test_an_answer_that_cannot_be_written_is_an_error_not_a_verdict(tmp_path):
    path = tmp_path / "case.ocp.json"
    path.write_text(json.dumps(checkpoint()))
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [str(OCP), "guard", str(path), "--call", '{"tool": "x"}'],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_every_answer_lists_the_stop_conditions_in_force_and_what_lifts_each(tmp_path):
    """Nothing a checkpoint records lifts a stop condition (§6.8), so every answer, whatever
    the call, lists each one with what lifts it: the system of record, a person, or nothing."""
    unrecorded = {
        "id": "stop-review",
        "description": "Wait for the review.",
        "applies_to": ["op-mail"],
        "until": [{"operation": "op-mail", "status": "completed"}],
    }
    doc = checkpoint(op("planned"), OTHER, stops=[STOP_REFUND, STOP_ALL, unrecorded])
    answer = library_answer(doc, {"tool": "calendar.read", "arguments": {}})
    listed = {s["id"]: s for s in answer["stop_conditions_in_force"]}
    assert list(listed) == ["stop-refund", "stop-all", "stop-review"]
    assert listed["stop-refund"]["lifted_when"] == "system_of_record"
    assert listed["stop-refund"]["applies_to"] == ["op-refund"]
    assert "check at its record r-refund" in listed["stop-refund"]["lifted_by"]
    assert listed["stop-all"]["lifted_when"] == "nothing"
    assert "whole continuation" in listed["stop-all"]["lifted_by"]
    assert listed["stop-review"]["lifted_when"] == "person"
    assert "until a person lifts it" in listed["stop-review"]["lifted_by"]
    path = tmp_path / "case.ocp.json"
    path.write_text(json.dumps(doc))
    done = subprocess.run(
        [str(OCP), "guard", str(path), "--call", '{"tool": "calendar.read"}'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Stop conditions in force" in done.stdout
    assert "stop-review: " in done.stdout and "until a person lifts it" in done.stdout


def test_a_stop_condition_on_many_operations_is_listed_with_a_count():
    ops = [{**OTHER, "id": f"op-{n}"} for n in range(100)]
    stop = {**STOP_ALL, "applies_to": [o["id"] for o in ops]}
    answer = library_answer(checkpoint(*ops, stops=[stop]), {"tool": "calendar.read"})
    (listed,) = answer["stop_conditions_in_force"]
    assert len(listed["applies_to"]) == 30 and listed["applies_to_more"] == 70


def test_the_page_and_the_guard_read_an_operation_alike():
    """One evaluation (app/standing.py): whatever group the page files an operation under, a
    call repeating it gets the matching answer, for every status, effect and stop condition:
    recorded as terminal → refuse; verify first → determine first; blocked by a stop condition
    that forbids it → refuse, or, by one that may forbid it, determine first; waiting →
    nothing against, unless something else the checkpoint records holds it."""
    from app.advice import group
    from app.checkpoint import Checkpoint
    from app.standing import Standings

    expected = {
        "done": {"refuse"},
        "verify-first": {"determine_first"},
        "blocked": {"refuse", "determine_first"},
    }
    statuses = ("planned", "awaiting", "uncertain", "failed", "completed", "cancelled")
    for status in statuses:
        for effect in ("none", "idempotent", "non_idempotent", None):
            for stops in (None, [STOP_REFUND], [STOP_ALL]):
                one = op(status, **({"effect": effect} if effect else {}))
                doc = checkpoint(one, stops=stops)
                facts = Standings(Checkpoint(doc), datetime.now(UTC)).operation(one)
                filed = group(facts)
                answer = library_answer(doc, REFUND)["outcome"]
                wanted = expected.get(filed, {"nothing_against", "determine_first"})
                if facts.forbidding and not facts.terminal:
                    # looking it up comes first on the page; making the call is forbidden
                    wanted = {"refuse"}
                assert answer in wanted, (status, effect, stops, filed, answer)


def test_a_body_larger_than_a_checkpoint_and_a_call_is_413_with_the_limit(client):
    """As the lint's raw body is: 413 with the limit and what to do, never a 400 about the
    call (issue 28: a 6 MiB body was 400 on the guard)."""
    padded = b'{"call": {"tool": "x"}, "notes": "' + b"x" * (6 << 20) + b'"}'
    for body in (
        padded,
        json.dumps({"call": {"tool": "x"}, "checkpoint": "x" * (6 << 20)}).encode(),
        json.dumps({"call": {"tool": "x"}, "checkpoint": {"a": "x" * (6 << 20)}}).encode(),
        b"not json " * (700 << 10),
    ):
        answer = client.post(
            "/api/v1/guard", content=body, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 413, answer.text[:200]
        problem = answer.json()
        assert answer.headers["content-type"] == "application/problem+json"
        assert "5,242,880" in problem["detail"] or "5,308,416" in problem["detail"]
        assert "OCP_MAX_BYTES" in problem["advice"]
    # a checkpoint at the limit, escaped as a JSON string, is larger than the limit as a body
    # and still read: it is its own bytes that the limit holds
    doc = checkpoint()
    text = json.dumps(doc, indent=1, ensure_ascii=True)
    text = text[:-1] + ', "x-pad": "' + '\\"' * ((4 << 20) // 2) + '"}'
    body = json.dumps({"call": {"tool": "x"}, "checkpoint": text}).encode()
    assert len(body) > 5 << 20 >= len(text.encode())
    answer = client.post(
        "/api/v1/guard", content=body, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 200, answer.text[:300]


def test_an_operation_s_id_is_quoted_as_written_at_a_sentence_s_start():
    """A reason that starts with an operation's name capitalizes its first letter only: the id
    stays as the document writes it, so it can be searched for there (str.capitalize lowered
    "Op-ESCALATE-Eng" to "op-escalate-eng")."""
    cancelled = {k: v for k, v in op("cancelled").items() if k != "call"}
    cancelled["id"] = "op-ESCALATE-Eng"
    answer = library_answer(checkpoint(cancelled), REFUND)
    [reason] = answer["reasons"]
    assert reason["message"].startswith("Operation op-ESCALATE-Eng is recorded as cancelled")
