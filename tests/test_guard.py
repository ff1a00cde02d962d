"""The call guard's truth table (issue 14), each row citing the sentence of the specification
it follows, through the three ways to ask: `ocp guard`, POST /api/v1/guard and the library.
All three must give the same answer, byte for byte as JSON."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
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
        "completed-other-tool",
        checkpoint(op("completed", effect="non_idempotent")),
        {"tool": "payments.create_charge", "arguments": REFUND["arguments"]},
        "nothing_against",
        [],
        "A call to the same tool",
    ),
    (
        "uncertain-non-idempotent",
        checkpoint(op("uncertain", effect="non_idempotent", resume="verify_first")),
        REFUND,
        "determine_first",
        ["repeat-of-uncertain"],
        "For an uncertain operation that is not known to be idempotent, a destination MUST "
        "determine its outcome in the target system before retrying, or ask a person.",
    ),
    (
        "uncertain-absent-effect",
        checkpoint(op("uncertain", resume="verify_first", idempotency_key="refund-ch_1")),
        REFUND,
        "determine_first",
        ["repeat-of-uncertain"],
        "A consumer MUST treat an absent or unknown effect as non_idempotent.",
    ),
    (
        "uncertain-idempotent",
        checkpoint(op("uncertain", effect="idempotent", resume="retry")),
        REFUND,
        "nothing_against",
        ["repeat-of-uncertain-idempotent"],
        "For an uncertain operation that is not known to be idempotent",
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
    (reason,) = library_answer(doc, REFUND)["reasons"]
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
        ({"call": {"tool": "x"}, "checkpoint_id": 7}, "/checkpoint_id"),
    ):
        answer = client.post("/api/v1/guard", json=body)
        assert answer.status_code == 400, body
        assert answer.json()["findings"][0]["path"] == pointer
    unknown = client.post("/api/v1/guard", json={"call": {"tool": "x"}, "checkpoint_id": "nope"})
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
    answer = client.post("/api/v1/guard", json={"call": REFUND, "checkpoint_id": storage_id})
    assert answer.status_code == 200
    assert answer.json() == library_answer(doc, REFUND)


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
