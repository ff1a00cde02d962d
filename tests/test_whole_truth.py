"""Issue 26: the whole truth before continuing, through the CLI, the HTTP API and the MCP tools.

A compacted child of valid-support-handoff that raises "Refunds above EUR 500" to EUR 5000,
drops "Never ask for card number/CVC" and stop condition stop-email, and records one generic
omission, is valid at levels 1–2 (§8.1) and says so, with a lineage verdict line, and opens
every view with what it dropped, rewrote and weakened. A stored parent with a linked child
that completed the refund answers the refund with the newer checkpoint's word (§10.3). The
summary and the model text name what a destination verifies first (§10.7)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.analysis import lint
from app.cli import main
from app.config import Settings
from app.model_text import for_model
from app.web import create_app
from tests.conftest import CONFORMANCE, assert_report

HANDOFF = json.loads((CONFORMANCE / "valid-support-handoff.ocp.json").read_text())
REFUND_CALL = {"tool": "payments.create_refund", "arguments": {"charge": "ch_3QxL2b"}}


def compacted_child() -> dict:
    child = copy.deepcopy(HANDOFF)
    child["id"] = "urn:uuid:019a6b22-9d05-7a41-b3c7-0e8f1a2b3c99"
    child["created_at"] = "2026-11-13T09:00:00Z"
    child["parent"] = {"id": HANDOFF["id"]}
    statements = [s for s in child["statements"] if s["id"] != "s-constr-card"]
    for s in statements:
        if s["id"] == "s-constr-refund-limit":
            s["text"] = s["text"].replace("EUR 500", "EUR 5000")
    child["statements"] = statements
    stops = child["continuation"]["stop_conditions"]
    child["continuation"]["stop_conditions"] = [s for s in stops if s["id"] != "stop-email"]
    child["derivation"] = {
        "method": "compacted",
        "inputs": [{"kind": "checkpoint", "id": HANDOFF["id"]}],
        "omissions": [{"description": "Older statements not needed any more", "reason": "size"}],
        "transformations": [
            {"description": "Condensed the case.", "affected": ["s-instr-keep-sub"]}
        ],
    }
    return child


def test_the_library_reads_what_the_child_lost():
    result = lint(json.dumps(compacted_child()).encode(), parent=json.dumps(HANDOFF).encode())
    assert result.valid and result.errors == 0  # levels 1–2: the lineage checks are apart
    losses = {(loss.change, loss.id): loss for loss in result.pair.losses}
    assert ("dropped", "s-constr-card") in losses
    assert not losses[("dropped", "s-constr-card")].accounted  # "statements" names nothing
    assert ("dropped", "stop-email") in losses
    assert ("rewritten", "s-constr-refund-limit") in losses
    codes = {f.code for f in result.lineage}
    assert {"lineage-omission", "lineage-rewritten"} <= codes


def test_the_cli_says_valid_then_the_lineage_verdict_and_what_was_lost(tmp_path, capsys):
    parent, child = tmp_path / "parent.ocp.json", tmp_path / "child.ocp.json"
    parent.write_text(json.dumps(HANDOFF))
    child.write_text(json.dumps(compacted_child()))
    assert main(["lint", "--parent", str(parent), str(child)]) == 0
    out = capsys.readouterr().out
    assert "valid (levels 1–2): 0 errors, 0 warnings" in out
    assert "lineage against its parent (the project's checks, not levels 1–2):" in out
    assert "since the parent: dropped active constraint 's-constr-card'" in out
    assert "since the parent: dropped stop condition 'stop-email'" in out
    assert "since the parent: rewritten active constraint 's-constr-refund-limit'" in out
    assert main(["lint", "--fail-on", "lineage", "--parent", str(parent), str(child)]) == 1
    capsys.readouterr()
    assert main(["lint", "--format", "json", "--parent", str(parent), str(child)]) == 0
    report = assert_report(capsys.readouterr().out)["results"][-1]
    assert report["valid"] is True and report["lineage"]["counts"]["notes"] >= 3


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"), write_rate=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_the_api_and_the_page_model_open_with_since_the_parent(client):
    data = {"checkpoint": json.dumps(compacted_child()), "parent": json.dumps(HANDOFF)}
    parts = {name: (None, text) for name, text in data.items()}
    report = client.post("/api/v1/lint", files=parts).json()
    (result,) = assert_report(report)["results"]
    assert result["valid"] is True
    assert {f["code"] for f in result["lineage"]["findings"]} >= {"lineage-omission"}
    view = client.post("/view.json", data=data).json()["view"]
    since = view["summary"]["since_parent"]
    changes = {(item["change"], item["id"]) for item in since["items"]}
    assert {("dropped", "s-constr-card"), ("dropped", "stop-email")} <= changes
    assert ("rewritten", "s-constr-refund-limit") in changes
    card = next(i for i in since["items"] if i["id"] == "s-constr-refund-limit")
    assert card["anchor"] == "obj-s-constr-refund-limit"  # the card, whose mark links the diff
    page = client.post("/view", data=data, headers={"accept": "text/html"}).text
    assert "Since the parent" in page and "no omission names it" in page
    assert "lineage against the parent:" in page


@pytest.mark.parametrize("parent", ["{oops", "[1, 2", "\ufeff{}"])
def test_the_api_reports_a_parent_that_is_no_json_as_the_cli_does(client, parent):
    """A report with no lineage check run would read as a clean lineage (its counts 0)."""
    parts = {"checkpoint": (None, json.dumps(compacted_child())), "parent": (None, parent)}
    response = client.post("/api/v1/lint", files=parts)
    assert response.status_code == 200
    report = assert_report(response.json())
    [error] = report["errors"]  # the run's own error, as `ocp lint --parent` reports it
    assert error.startswith("parent:1:")
    assert "the parent is not a JSON checkpoint, so lineage rules cannot run" in error
    assert report["failure"].startswith("ocp lint fails: ")


def test_the_model_text_says_what_the_child_lost_and_what_lifts_each_stop():
    result = lint(json.dumps(compacted_child()).encode(), parent=json.dumps(HANDOFF).encode())
    from datetime import UTC, datetime

    text = for_model(result, now=datetime.now(UTC)).text
    assert 'dropped active constraint "s-constr-card"' in text
    assert 'dropped stop condition "stop-email"' in text
    assert "A status recorded in this checkpoint never lifts one" in text
    assert '- "stop-refund": It is lifted only when op-refund reaches completed' in text


def test_a_stored_parent_answers_with_its_newer_linked_child(client):
    parent_doc = copy.deepcopy(HANDOFF)
    parent = client.post(
        "/api/v1/checkpoints",
        content=json.dumps(parent_doc),
        headers={"content-type": "application/json"},
    )
    assert parent.status_code == 201, parent.text
    parent_id = parent.json()["storage_id"]
    child = copy.deepcopy(HANDOFF)
    child["id"] = "urn:uuid:019a6b22-9d05-7a41-b3c7-0e8f1a2b3c98"
    child["created_at"] = "2026-11-13T09:00:00Z"
    child["parent"] = {"id": HANDOFF["id"]}
    for op in child["operations"]:
        if op["id"] == "op-refund":
            op["status"] = "completed"
            op["call"] = REFUND_CALL
    child["task"]["status"] = "active"
    stored = client.post(
        f"/api/v1/checkpoints?parent={parent_id}",
        content=json.dumps(child),
        headers={"content-type": "application/json"},
    )
    assert stored.status_code == 201, stored.text
    child_id = stored.json()["storage_id"]
    answer = client.post(
        "/api/v1/guard", json={"call": REFUND_CALL, "checkpoint_id": parent_id}
    ).json()
    assert answer["newer_checkpoints"]["linked"] == [f"/c/{child_id}"]
    codes = [r["code"] for r in answer["reasons"]]
    assert "newer-checkpoint" in codes and "newer-repeat-of-completed" in codes
    assert answer["outcome"] == "refuse"  # the newer checkpoint records it done
    alone = client.post("/api/v1/guard", json={"call": REFUND_CALL, "checkpoint_id": child_id})
    assert alone.json()["newer_checkpoints"]["linked"] == []


MINIMAL = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())


def with_operations(*operations: dict, **members: object) -> bytes:
    doc = copy.deepcopy(MINIMAL)
    doc["resources"] = [{"id": "r-pay", "kind": "record", "uri": "https://pay.example.test/p/1"}]
    doc["operations"] = list(operations)
    doc.update(members)
    return json.dumps(doc).encode()


CHARGE = {
    "id": "op-charge",
    "kind": "action",
    "description": "Charge the card.",
    "record": "r-pay",
    "call": {"tool": "payments.charge", "arguments": {"amount": 100}},
}


@pytest.mark.parametrize(
    ("operation", "key"),
    [
        ({**CHARGE, "status": "failed", "effect": "non_idempotent"}, "failed"),
        ({**CHARGE, "status": "uncertain", "effect": "idempotent", "resume": "retry"}, "outcome"),
    ],
    ids=["failed-non-idempotent", "uncertain-idempotent"],
)
def test_the_summary_and_the_model_never_say_nothing_to_verify_when_one_is_open(operation, key):
    """§10.7 step 6 reconciles every open operation first: a failed charge that may have
    taken effect, an uncertain one whatever its effect."""
    from datetime import UTC, datetime

    from app.render.view import build_view

    result = lint(with_operations(operation))
    view = build_view(result, now=datetime.now(UTC))
    lines = {line["key"]: line for line in view["summary"]["lines"]}
    assert [i["id"] for i in lines[key]["items"]] == ["op-charge"]
    text = for_model(result, now=datetime.now(UTC)).text
    assert "nothing the checkpoint records needs it" not in text
    assert '"op-charge"' in text.split("Restoration steps")[0]


def test_the_summary_names_what_section_10_7_asks_to_check_before_continuing():
    from datetime import UTC, datetime

    from app.render.view import build_view

    approval = {
        "id": "op-approve",
        "kind": "approval",
        "status": "awaiting",
        "description": "Tier 2 approves.",
        "record": "r-pay",
    }
    expired = {
        "id": "op-approved",
        "kind": "approval",
        "status": "approved",
        "description": "Finance approved.",
        "record": "r-pay",
        "expires_at": "2026-01-01T00:00:00Z",
        "approval": {
            "decided_by": "finance",
            "decided_at": "2025-12-01T00:00:00Z",
            "evidence": ["r-pay"],
        },
    }
    continuation = {
        "incompatibilities": [{"id": "inc-1", "description": "Not on the legacy cluster."}],
        "preconditions": [
            {"id": "pre-1", "description": "The ticket is open.", "on_failure": "halt"}
        ],
        "requirements": [
            {
                "id": "req-fb",
                "kind": "tool",
                "name": "crm",
                "description": "The CRM's ticket API.",
                "necessity": "required",
                "fallback": "Read the ticket by hand.",
            },
            {
                "id": "req-ext",
                "kind": "extension",
                "name": "com.example.crm",
                "description": "The CRM extension's data.",
                "necessity": "required",
                "fallback": "Ignore it.",
            },
        ],
    }
    derivation = {
        "method": "captured",
        "omissions": [{"id": "om-1", "description": "Attachments.", "reason": "size"}],
    }
    data = with_operations(approval, expired, continuation=continuation, derivation=derivation)
    result = lint(data)
    assert result.valid, [f.message for f in result.findings]
    view = build_view(result, now=datetime.now(UTC))
    lines = {line["key"]: [i["id"] for i in line["items"]] for line in view["summary"]["lines"]}
    assert lines["incompatibilities"] == ["inc-1"]
    assert lines["preconditions"] == ["pre-1"]
    assert lines["fallbacks"] == ["req-fb"]
    assert lines["extensions"] == ["req-ext"]
    assert lines["omissions"] == ["om-1"]
    assert lines["awaited-approvals"] == ["op-approve"]
    assert lines["expired-approvals"] == ["op-approved"]
    assert "approvals" not in lines  # an expired approval is not one to rely on


def test_the_diff_marks_the_words_that_changed_inside_a_rewritten_constraint(client):
    data = {"checkpoint": json.dumps(compacted_child()), "parent": json.dumps(HANDOFF)}
    diff = client.post("/diff.json", data=data).json()
    changes = [
        change
        for section in diff["sections"]
        for entry in section["changed"]
        if entry.get("id") == "s-constr-refund-limit"
        for change in entry["changes"]
        if change["pointer"] == "/text"
    ]
    (change,) = changes
    assert {"op": "delete", "text": "500"} in change["words"]
    assert {"op": "insert", "text": "5000"} in change["words"]
    page = client.post("/diff", data=data, headers={"accept": "text/html"}).text
    assert "<del>500</del>" in page and "<ins>5000</ins>" in page
    assert '<details class="card removed"' in page  # removed objects are folded


def test_the_project_s_own_pair_says_it_dropped_never_force_push():
    """valid-coding-refactor-child drops the constraint "Never force-push to shared branches"
    and records no omission that names it: its page says so first."""
    from datetime import UTC, datetime

    from app.render.view import build_view

    child = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
    parent = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
    result = lint(child, parent=parent)
    since = build_view(result, now=datetime.now(UTC))["summary"]["since_parent"]
    dropped = [i for i in since["items"] if i["id"] == "s-constr-no-force"]
    assert dropped and dropped[0]["change"] == "dropped" and not dropped[0]["accounted"]
    assert result.valid  # a level-2 verdict of its own


def test_an_expired_awaiting_action_is_checked_at_its_record_before_it_is_asked_again():
    from datetime import UTC, datetime

    from app.render.view import build_view

    waiting = {
        **CHARGE,
        "status": "awaiting",
        "effect": "non_idempotent",
        "expires_at": "2026-01-01T00:00:00Z",
    }
    view = build_view(lint(with_operations(waiting)), now=datetime.now(UTC))
    (line,) = [line for line in view["summary"]["lines"] if line["key"] == "expired"]
    assert line["text"].startswith("awaiting past its expiry: check its status at its record")
    assert "ask again" not in line["text"]


@pytest.mark.parametrize("max_tokens", [100_000, 2_000])
def test_the_model_reading_says_it_withholds_credentials_on_every_page(max_tokens):
    """Its data block shows [redacted…] markers; without a sentence a model reads a document
    holding credentials as any other, where §10.5 asks it to reject or redact and not
    forward it."""
    from datetime import UTC, datetime

    from app.model_text import credentials_sentence

    result = lint((CONFORMANCE / "secret-aws-pem-github.ocp.json").read_bytes())
    first = for_model(result, now=datetime.now(UTC), max_tokens=max_tokens)
    assert credentials_sentence(3) in first.text and "§10.5" in first.text
    pages = first.page["pages"] if isinstance(first.page, dict) else 1
    for number in range(2, pages + 1):
        page = for_model(result, now=datetime.now(UTC), max_tokens=max_tokens, page=number)
        assert credentials_sentence(3) in page.text
    clean = for_model(
        lint((CONFORMANCE / "valid-minimal.ocp.json").read_bytes()), now=datetime.now(UTC)
    )
    assert "Apparent credentials" not in clean.text
