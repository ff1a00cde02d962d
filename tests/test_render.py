"""The render model of the checkpoint page (app/render/): plain, JSON-serializable data for
every lint result, redacted, and worded within what levels 1–2 establish (§8.1, §10)."""

import copy
import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from app.analysis import Analysis, LintResult, lint
from app.pointer import resolve
from app.redaction import REDACTED
from app.render import age_in_words, anchor, build_view
from app.report import VALIDITY_NOTE, VERDICT_INVALID, VERDICT_VALID
from tests.conftest import CONFORMANCE, ROOT, manifest

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FILES = sorted(p.name for p in CONFORMANCE.glob("*.ocp.json"))
PARENTS = {e["file"]: e["parent"] for e in manifest() if "parent" in e}
SECRET_FILES = [
    "secret-aws-pem-github.ocp.json",
    "secret-signed-url-bearer.ocp.json",
    "secret-userinfo-password.ocp.json",
]
CHECKLIST_ORDER = [
    "validity",
    "stop_conditions",
    "incompatibilities",
    "requirements",
    "resources",
    "statements",
    "preconditions",
    "operations",
    "continue",
    "report",
]
DOCUMENT_SECTIONS = [
    "before_continuing",
    "statements",
    "operations",
    "progress",
    "resources",
    "application_context",
    "continuation",
    "derivation",
    "extensions",
    "session_refs",
]
FORBIDDEN_VERDICT_WORDS = re.compile(r"\b(safe|safely|resumable|authori[sz]ed)\b", re.IGNORECASE)
FORBIDDEN_ADVICE_WORDS = re.compile(
    r"\b(safe|safely|resumable|authori[sz]ed|allowed|permitted|done)\b", re.IGNORECASE
)


def data(name: str) -> bytes:
    return (CONFORMANCE / name).read_bytes()


def doc(name: str) -> dict:
    return json.loads(data(name))


def view_of(source: str | bytes | dict, *, now: datetime = NOW, parent: bytes | None = None):
    if isinstance(source, dict):
        raw = json.dumps(source, indent=2).encode()
    elif isinstance(source, str):
        raw = data(source)
    else:
        raw = source
    return build_view(lint(raw, parent=parent), now=now)


def cards(view: dict) -> dict[str, dict]:
    """Operation cards by id, each with the group it was placed in."""
    out = {}
    for group in view["operations"]["groups"]:
        for card in group["items"]:
            assert card["group"] == group["key"]
            out[card["id"]] = card
    return out


def statements_by_id(view: dict) -> dict[str, dict]:
    return {
        item["id"]: item
        for group in view["statements"]["groups"]
        for by_origin in group["by_origin"]
        for item in by_origin["items"]
    }


def strings(node: object):
    """Every string in a model, keys included."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from strings(item)


# --- every document builds --------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_every_conformance_document_builds_and_serializes(name):
    parent = data(PARENTS[name]) if name in PARENTS else None
    view = view_of(name, parent=parent)
    text = json.dumps(view, allow_nan=False)
    assert json.loads(text) == view
    assert view["header"]["verdict"] in (VERDICT_VALID, VERDICT_INVALID)
    assert [s["key"] for s in view["sections"]][0:2] == ["header", "findings"]
    assert view["sections"][-1]["key"] == "source"
    if view["has_document"]:
        assert all(view[key] is not None for key in DOCUMENT_SECTIONS)
        assert view["before_continuing"]["groups"][0]["key"] == "validity"
    else:
        assert all(view[key] is None for key in DOCUMENT_SECTIONS)
        assert view["source"]["lines"]


@pytest.mark.parametrize("name", FILES)
def test_page_order(name):
    view = view_of(name)
    keys = [k for k in view if k in ("header", "findings", *DOCUMENT_SECTIONS, "source")]
    assert keys == ["header", "findings", *DOCUMENT_SECTIONS, "source"]
    anchors = [s["anchor"] for s in view["sections"]]
    assert len(anchors) == len(set(anchors))


def test_the_module_imports_neither_starlette_nor_jinja2():
    code = (
        "import sys, app.render; "
        "assert not {'starlette', 'jinja2'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- header -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_header_never_calls_a_document_safe_resumable_or_authorized(name):
    header = dict(view_of(name)["header"])
    assert header.pop("validity_note") == VALIDITY_NOTE
    assert not FORBIDDEN_VERDICT_WORDS.search(json.dumps(header, ensure_ascii=False))
    # the note names them only to deny them
    assert "does not mean" in VALIDITY_NOTE


def test_header_of_a_valid_document():
    header = view_of("valid-support-handoff.ocp.json")["header"]
    assert header["verdict"] == "valid (levels 1–2)"
    assert header["valid"] is True
    assert (header["errors"], header["warnings"]) == (0, 0)
    assert header["levels"] == {"syntax": "pass", "semantics": "pass"}
    assert header["task_status"] == "active"
    assert header["producer"] == "Brightdesk Triage Agent 4.0"
    assert header["agent"] == "triage-bot-eu"
    assert header["model"] is None
    assert header["created_at"] == "2026-11-12T14:20:00+01:00"
    assert header["created_age"] == "18 days ago"
    assert header["objective"].startswith("Resolve customer ticket #48213")


def test_header_of_an_invalid_document():
    header = view_of("rule-S002-unresolved-blocked-by.ocp.json")["header"]
    assert header["verdict"] == "invalid"
    assert header["errors"] >= 1


def test_age_in_words():
    created = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    assert age_in_words(created, NOW) == "3 days ago"
    assert age_in_words(NOW - timedelta(days=1), NOW) == "1 day ago"
    assert age_in_words(NOW - timedelta(hours=5), NOW) == "5 hours ago"
    assert age_in_words(NOW - timedelta(seconds=5), NOW) == "less than a minute ago"
    assert age_in_words(NOW - timedelta(days=400), NOW) == "1 year ago"
    assert age_in_words(NOW + timedelta(minutes=1), NOW) == "in the future"
    assert age_in_words(None, NOW) is None


def test_a_naive_now_is_taken_as_utc():
    view = view_of("valid-support-handoff.ocp.json", now=NOW.replace(tzinfo=None))
    assert view["header"]["created_age"] == "18 days ago"


def test_lineage_with_the_parent_supplied():
    name = "valid-coding-refactor-child.ocp.json"
    view = view_of(name, parent=data(PARENTS[name]))
    lineage = view["header"]["lineage"]
    assert lineage["parent_supplied"] is True
    assert lineage["supplied"]["id_matches"] is True
    assert lineage["supplied"]["digest_matches"] is True
    assert cards(view)["op-open-pr"]["parent_status"] == "uncertain"

    mismatch = view_of("digest-parent-mismatch.ocp.json", parent=data(PARENTS[name]))
    assert mismatch["header"]["lineage"]["supplied"]["digest_matches"] is False


# --- findings and source ----------------------------------------------------------------------


def test_findings_link_their_rule_object_and_line():
    view = view_of("rule-S002-unresolved-blocked-by.ocp.json")
    finding = next(f for f in view["findings"]["items"] if f["code"] == "OCP-S002")
    assert finding["path"] == "/progress/next/0/blocked_by/0"
    assert finding["rule_url"] == "/rules/OCP-S002"
    next_id = doc("rule-S002-unresolved-blocked-by.ocp.json")["progress"]["next"][0]["id"]
    assert finding["object_id"] == next_id
    assert finding["object_anchor"] == anchor(next_id)
    assert finding["line_anchor"] == f"L{finding['line']}"
    line = view["source"]["lines"][finding["line"] - 1]
    assert line["anchor"] == finding["line_anchor"]
    assert {"index": finding["index"], "code": "OCP-S002", "severity": "error",
            "anchor": finding["anchor"], "listed": True} in line["findings"]  # fmt: skip


def test_duplicate_ids_keep_unique_anchors():
    view = view_of("rule-S001-duplicate-resource-id.ocp.json")
    finding = next(f for f in view["findings"]["items"] if f["code"] == "OCP-S001")
    assert finding["object_anchor"] == "dup-/resources/10"
    anchors = [r["anchor"] for r in view["resources"]["items"]]
    assert len(anchors) == len(set(anchors))


def test_source_lines_are_numbered_and_complete():
    raw = data("valid-minimal.ocp.json")
    view = view_of(raw)
    lines = view["source"]["lines"]
    assert [line["text"] for line in lines] == raw.decode().rstrip("\n").split("\n")
    assert [(line["number"], line["anchor"]) for line in lines[:2]] == [(1, "L1"), (2, "L2")]


def test_a_json_error_has_only_header_findings_and_source():
    view = view_of(b'{"opencheckpoint": "0.1",\n "a": NaN}')
    assert [s["key"] for s in view["sections"]] == ["header", "findings", "source"]
    assert view["header"]["verdict"] == "invalid"
    assert view["header"]["objective"] is None
    assert len(view["source"]["lines"]) == 2
    assert view["source"]["lines"][1]["findings"][0]["code"] == "json"


def test_text_that_is_not_utf8_is_shown_with_replacement_characters():
    view = view_of(b'{"a": "\xff\xfe"}\n')
    assert view["source"]["lines"][0]["text"] == '{"a": "\ufffd\ufffd"}'
    json.dumps(view)


# --- secrets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SECRET_FILES)
def test_secret_values_appear_nowhere_in_the_model(name):
    result = lint(data(name))
    flagged = [f.path for f in result.findings if f.code == "secret"]
    assert flagged
    view = build_view(result, now=NOW)
    dumped = json.dumps(view, ensure_ascii=False) + json.dumps(view)
    for path in flagged:
        value = resolve(result.document, path)
        assert isinstance(value, str)
        assert value not in dumped
        for piece in re.findall(r"[A-Za-z0-9_%+/=.-]{16,}", value):
            assert piece not in dumped, piece
    for line in view["source"]["lines"]:
        for path in flagged:
            assert resolve(result.document, path) not in line["text"]
    assert REDACTED in dumped
    assert view["source"]["redacted"] is True
    assert view["header"]["secrets_redacted"] == len(flagged)


@pytest.mark.parametrize(
    "secret",
    [
        "AKIAZ7QX4N2LMWTR5KDE",
        "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
        "ghp_R8x2Kq9ZtL4mWv7Yb3Np6Hs1Jc5Df0Ga2Ue8",
        "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
        "kH3o5fQ2v8yJmQq1t0W9x4ZsR7cN2pLdE6uYbA1sGhI",
        "Wint3r-2026",
    ],
)
def test_known_secrets_of_the_conformance_set_are_redacted(secret):
    for name in SECRET_FILES:
        assert secret not in json.dumps(view_of(name), ensure_ascii=False)


def test_secrets_in_call_arguments_and_extensions_are_redacted():
    view = view_of("secret-signed-url-bearer.ocp.json")
    arguments = json.loads(cards(view)["op-refund"]["call"]["arguments_json"])
    assert arguments["headers"]["Authorization"] == REDACTED
    aws = view_of("secret-aws-pem-github.ocp.json")
    extension = next(e for e in aws["extensions"]["items"] if e["holder"]["label"] == "document")
    assert json.loads(extension["value_json"])["github_token"] == REDACTED
    resource = next(r for r in aws["resources"]["items"] if r["id"] == "r-deploy-key")
    assert resource["excerpt"] == REDACTED


def test_a_flagged_member_name_and_a_multiline_value_are_redacted(minimal):
    minimal["extensions"] = {
        "com.example.x": {
            "AKIAZ7QX4N2LMWTR5KDE": {"a": 1, "b": [1, 2]},
            "password": "Tr0ub4dor&3xyzzy!",
        }
    }
    raw = json.dumps(minimal, indent=2).encode()
    result = lint(raw)
    assert sum(f.code == "secret" for f in result.findings) == 2
    view = build_view(result, now=NOW)
    dumped = json.dumps(view, ensure_ascii=False)
    assert "AKIAZ7QX4N2LMWTR5KDE" not in dumped
    assert "Tr0ub4dor" not in dumped
    # the flagged object spanned several lines: the line count, and so every anchor, stays
    assert len(view["source"]["lines"]) == raw.decode().count("\n") + 1
    for finding in view["findings"]["items"]:
        assert "AKIA" not in finding["path"]


# --- statements -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_matrix_counts_equal_the_statements(name):
    view = view_of(name)
    if not view["has_document"]:
        return
    statements = json.loads(data(name)).get("statements")
    count = len(statements) if isinstance(statements, list) else 0
    section = view["statements"]
    matrix = section["matrix"]
    assert matrix["total"] == count == section["count"]
    assert sum(c["total"] for c in matrix["columns"]) == count
    cells = {c["anchor"]: c["count"] for row in matrix["rows"] for c in row["cells"]}
    grouped = {g["anchor"]: len(g["items"]) for k in section["groups"] for g in k["by_origin"]}
    assert {a: n for a, n in cells.items() if n} == grouped
    assert sum(grouped.values()) == count


def test_matrix_of_the_support_handoff():
    view = view_of("valid-support-handoff.ocp.json")
    rows = {r["kind"]: {c["origin_type"]: c["count"] for c in r["cells"]}
            for r in view["statements"]["matrix"]["rows"]}  # fmt: skip
    assert list(rows) == [
        "instruction",
        "constraint",
        "decision",
        "observation",
        "hypothesis",
        "question",
        "external",
    ]
    assert rows["hypothesis"]["agent"] == 3
    assert rows["external"] == {
        "user": 0,
        "system": 0,
        "agent": 0,
        "tool": 0,
        "application": 1,
        "external": 1,
    }
    cell = view["statements"]["matrix"]["rows"][2]["cells"][2]
    assert cell["anchor"] == "kind-decision-origin-agent"


def test_statement_cards():
    by_id = statements_by_id(view_of("valid-support-handoff.ocp.json"))
    instruction = by_id["s-instr-keep-sub"]
    assert instruction["status"] == "active"
    assert instruction["status_recorded"] is False
    assert instruction["struck"] is False
    assert instruction["origin"]["type"] == "user"
    superseded = by_id["s-dec-credit"]
    assert superseded["struck"] is True
    assert superseded["superseded_by"]["anchor"] == "obj-s-dec-refund-card"
    assert by_id["s-hyp-bank"]["struck"] is True
    observation = by_id["s-obs-two-charges"]
    assert observation["verification"]["state"] == "verified"
    assert observation["origin"]["ref"]["anchor"] == "obj-r-billing-account"
    assert [e["id"] for e in observation["evidence"]] == ["r-charge-1", "r-charge-2"]
    assert by_id["s-q-refund-or-credit"]["resolution"].startswith("Original card")


def test_external_statements_are_flagged():
    view = view_of("valid-support-handoff.ocp.json")
    by_id = statements_by_id(view)
    for statement_id in ("s-ext-status-page", "s-ext-bank-msg"):
        assert by_id[statement_id]["external"] is True
        assert "no instruction authority" in by_id[statement_id]["external_note"]
    assert by_id["s-instr-keep-sub"]["external"] is False
    external_group = next(g for g in view["statements"]["groups"] if g["kind"] == "external")
    assert "third-party" in external_group["note"]


# --- operations -------------------------------------------------------------------------------


def test_uncertain_refund_is_verified_first():
    card = cards(view_of("valid-support-handoff.ocp.json"))["op-refund"]
    assert card["group"] == "verify-first"
    assert card["effect_treated_as"] == "non_idempotent"
    assert card["resume"] == {"value": "verify_first", "label": "the source's recommendation"}
    advice = " ".join(card["advice"])
    assert "Never execute it on restore" in advice
    assert "r-refund-lookup" in advice and "before anything else" in advice
    assert "never retry it blind" in advice
    assert "No idempotency key" in advice
    assert "r-refund-lookup" in card["first_step"]
    assert card["call"]["tool"] == "payments.create_refund"
    arguments = doc("valid-support-handoff.ocp.json")["operations"][1]["call"]["arguments"]
    assert card["call"]["arguments_json"] == json.dumps(arguments, indent=2, ensure_ascii=False)


def test_uncertain_pull_request_is_verified_first():
    card = cards(view_of("valid-coding-refactor.ocp.json"))["op-open-pr"]
    assert card["group"] == "verify-first"
    advice = " ".join(card["advice"])
    assert "r-pr-search" in advice and "never retry it blind" in advice
    assert "create_pull_request" in advice  # a call with the same arguments is a repeat
    assert "stop-pr" in advice


def test_the_idempotency_key_is_named_when_there_is_one():
    document = doc("valid-support-handoff.ocp.json")
    document["operations"][1]["idempotency_key"] = "refund-48213-ch_3QxL2b"
    card = cards(view_of(document))["op-refund"]
    assert card["idempotency_key"] == "refund-48213-ch_3QxL2b"
    assert any('idempotency key "refund-48213-ch_3QxL2b"' in a for a in card["advice"])


def test_an_absent_effect_is_treated_as_non_idempotent():
    document = doc("valid-support-handoff.ocp.json")
    del document["operations"][1]["effect"]
    card = cards(view_of(document))["op-refund"]
    assert card["effect"] is None
    assert card["effect_treated_as"] == "non_idempotent"
    assert "treated as non_idempotent" in card["effect_note"]
    assert "never retry it blind" in " ".join(card["advice"])


def test_an_approved_operation_is_verified_in_the_system_of_record():
    card = cards(view_of("valid-support-handoff.ocp.json"))["op-approve-refund"]
    assert card["group"] == "verify-first"
    advice = " ".join(card["advice"])
    assert "not authority" in advice
    assert "r-approval-rec" in advice and "system of record" in advice
    assert "expires_at" in advice and "scope" in advice
    assert card["approval"]["decided_by"] == "Tier 2 support supervisor"
    assert card["approval"]["evidence"][0]["anchor"] == "obj-r-approval-rec"


def test_an_awaiting_operation_past_expires_at_is_flagged():
    card = cards(view_of("rule-W003-awaiting-op-expired.ocp.json"))["op-input-ap"]
    assert card["status"] == "awaiting"
    assert card["expired"] is True
    assert card["expired_before_capture"] is True
    assert any("has passed" in a and "OCP-W003" in a for a in card["advice"])


def test_expiry_is_judged_against_now():
    document = doc("valid-finance-variance.ocp.json")
    expires = document["operations"][2]["expires_at"]
    assert document["operations"][2]["status"] == "awaiting"
    before = cards(view_of(document, now=datetime(2026, 11, 4, 16, tzinfo=UTC)))["op-input-ap"]
    after = cards(view_of(document, now=NOW))["op-input-ap"]
    assert before["expired"] is False
    assert after["expired"] is True and after["expired_before_capture"] is False
    assert any(expires in a for a in after["advice"])


def test_a_stop_condition_blocks_what_it_applies_to_and_names_what_lifts_it():
    card = cards(view_of("valid-support-handoff.ocp.json"))["op-email-customer"]
    assert card["group"] == "blocked"
    stop = card["stop_conditions"][0]
    assert (stop["id"], stop["anchor"], stop["forbids"]) == ("stop-email", "obj-stop-email", True)
    assert "op-refund" in stop["lifted_by"] and "r-refund-lookup" in stop["lifted_by"]
    assert stop["needs_person"] is False
    assert "stop-email" in card["first_step"]
    assert any("stop-email" in a and "op-refund reaches completed" in a for a in card["advice"])


def test_a_stop_condition_whose_until_has_no_record_is_lifted_by_a_person():
    """§6.8: "When a listed operation has no record, software cannot verify it, and the stop
    condition stays in force until a person lifts it"; "A stop condition without until applies
    for the whole continuation" (nobody lifts it)."""
    document = doc("valid-support-handoff.ocp.json")
    stop = document["continuation"]["stop_conditions"][1]
    stop["until"] = [{"operation": "op-wait-settlement", "status": "completed"}]
    card = cards(view_of(document))["op-email-customer"]
    assert card["group"] == "blocked"
    assert card["stop_conditions"][0]["needs_person"] is True
    assert "a person" in card["stop_conditions"][0]["lifted_by"]
    del stop["until"]
    card = cards(view_of(document))["op-email-customer"]
    lifted_by = card["stop_conditions"][0]["lifted_by"]
    assert "applies for the whole continuation" in lifted_by
    assert "person" not in lifted_by and card["stop_conditions"][0]["needs_person"] is False


def test_grouping_of_the_support_handoff():
    groups = {
        g["key"]: [c["id"] for c in g["items"]]
        for g in view_of("valid-support-handoff.ocp.json")["operations"]["groups"]
    }
    assert groups == {
        "verify-first": ["op-approve-refund", "op-refund"],
        "waiting": ["op-wait-settlement"],
        "blocked": ["op-email-customer"],
        "done": ["op-tag", "op-escalate-eng", "op-input-confirm"],
    }


def test_a_completed_call_repeats_with_the_same_arguments():
    """§6.6: "A call to the same tool whose arguments include every recorded argument with an
    equal value is a repeat of the operation"."""
    card = cards(view_of("valid-support-handoff.ocp.json"))["op-tag"]
    assert card["group"] == "done"
    assert any(
        "A call to brightdesk.add_tags whose arguments include every recorded argument with an "
        "equal value repeats it (§6.6)" in a
        for a in card["advice"]
    )


@pytest.mark.parametrize("name", FILES)
def test_advice_never_says_an_action_is_safe_allowed_or_done(name):
    view = view_of(name)
    if not view["has_document"]:
        return
    for card in cards(view).values():
        for sentence in [*card["advice"], card["first_step"]]:
            assert not FORBIDDEN_ADVICE_WORDS.search(sentence), sentence


# --- before continuing ------------------------------------------------------------------------


def test_checklist_follows_the_restoration_procedure():
    checklist = view_of("valid-support-handoff.ocp.json")["before_continuing"]
    groups = checklist["groups"]
    assert [g["key"] for g in groups] == CHECKLIST_ORDER
    steps = [g["step"] for g in groups]
    assert steps == sorted(steps) and steps[0] == 1 and steps[-1] == 8
    validity = groups[0]["items"][0]
    assert validity["valid"] is True and validity["verdict"] == VERDICT_VALID
    by_key = {g["key"]: g for g in groups}
    assert [i["id"] for i in by_key["stop_conditions"]["items"]] == ["stop-refund", "stop-email"]
    assert any("system of record" in n for n in by_key["stop_conditions"]["items"][0]["notes"])
    assert [i["id"] for i in by_key["requirements"]["items"]] == ["req-billing", "req-refund-tool"]
    assert [i["id"] for i in by_key["preconditions"]["items"]] == ["pre-ticket-open"]
    reconcile = {i["id"]: i for i in by_key["operations"]["items"]}
    assert set(reconcile) == {
        "op-approve-refund",
        "op-refund",
        "op-email-customer",
        "op-wait-settlement",
    }
    assert "r-refund-lookup" in reconcile["op-refund"]["first_step"]
    rechecks = [i["id"] for i in by_key["statements"]["items"]]
    assert "s-ext-status-page" in rechecks and "s-hyp-others" in rechecks
    assert "s-hyp-bank" not in rechecks  # retracted: nothing to rely on
    resources = [i["id"] for i in by_key["resources"]["items"]]
    assert resources == ["r-ticket", "r-renewal-log"]


def test_checklist_marks_optional_requirements_and_an_invalid_document():
    checklist = view_of("valid-finance-variance.ocp.json")["before_continuing"]
    requirements = next(g for g in checklist["groups"] if g["key"] == "requirements")["items"]
    assert [r["necessity"] for r in requirements] == ["required", "recommended", "optional"]
    assert [r["optional"] for r in requirements] == [False, False, True]
    assert requirements[0]["fallback"]
    invalid = view_of("rule-S002-unresolved-blocked-by.ocp.json")["before_continuing"]
    item = invalid["groups"][0]["items"][0]
    assert item["valid"] is False and "rejects an invalid document" in item["text"]


# --- progress, resources, the rest ------------------------------------------------------------


def test_progress_links_blockers_with_their_type_and_label():
    progress = view_of("valid-support-handoff.ocp.json")["progress"]
    assert [s["id"] for s in progress["completed"]] == ["step-verify-identity", "step-find-charges"]
    assert progress["focus"]["refs"][0]["anchor"] == "obj-op-refund"
    blocker = progress["next"][1]["blocked_by"][0]
    assert blocker["id"] == "op-refund"
    assert blocker["type"] == "operation"
    assert blocker["status"] == "uncertain"
    assert blocker["label"].startswith("Refund duplicate charge")
    question = progress["next"][0]["blocked_by"][0]
    assert (question["type"], question["status"]) == ("statement", "active")
    assert progress["next"][0]["requires"][0]["anchor"] == "obj-req-billing"


@pytest.mark.parametrize(
    ("uri", "link"),
    [
        ("https://example.com/a", True),
        ("http://example.com/a", True),
        ("HTTPS://EXAMPLE.COM/A", True),
        ("HtTp://example.com/", True),
        ("javascript:alert(1)", False),
        ("JavaScript:alert(1)", False),
        (" https://example.com/", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ("file:///etc/passwd", False),
        ("mailto:someone@example.com", False),
        ("ftp://example.com/", False),
        ("//example.com/", False),
        ("https", False),
        ("urn:isbn:0451450523", False),
    ],
)
def test_resource_links_only_for_http_and_https(minimal, uri, link):
    minimal["resources"] = [{"id": "r-1", "kind": "web_page", "uri": uri}]
    resource = view_of(minimal)["resources"]["items"][0]
    assert resource["link"] is link
    assert resource["uri"] == uri
    assert resource["href"] == (uri if link else None)


def test_resource_fields():
    view = view_of("valid-support-handoff.ocp.json")
    resource = next(r for r in view["resources"]["items"] if r["id"] == "r-renewal-log")
    assert resource["anchor"] == "obj-r-renewal-log"
    assert resource["digest"].startswith("sha-256:")
    assert resource["excerpt"].startswith("06:14:02Z WARN")
    ticket = next(r for r in view["resources"]["items"] if r["id"] == "r-ticket")
    assert ticket["locator"] == {
        "system": "Brightdesk",
        "type": "ticket",
        "key": "48213",
        "unreadable": None,
    }
    assert ticket["sensitivity"] == "confidential"


def test_extensions_everywhere_with_their_paths():
    items = view_of("valid-support-handoff.ocp.json")["extensions"]["items"]
    pointers = [e["pointer"] for e in items]
    assert pointers == [
        "/extensions/com.brightdesk.handoff",
        "/application_context/0/extensions/com.brightdesk.workspace",
        "/operations/1/extensions/com.brightdesk.workspace",
    ]
    assert all(e["understood"] is False for e in items)
    assert json.loads(items[2]["value_json"]) == {"http_status": 504}
    assert items[2]["holder"]["anchor"] == "obj-op-refund"
    assert items[0]["holder"]["label"] == "document"
    finance = view_of("valid-finance-variance.ocp.json")["extensions"]["items"]
    top = next(e for e in finance if e["key"] == "com.northwind.fpa/variance-v2")
    assert top["pointer"] == "/extensions/com.northwind.fpa~1variance-v2"
    assert top["requirements"][0]["anchor"] == "obj-req-ext-fpa"
    assert any(e["pointer"].startswith("/continuation/extensions/") for e in finance)


def test_application_context_continuation_derivation_and_session_refs():
    view = view_of("valid-support-handoff.ocp.json")
    entry = view["application_context"]["items"][0]
    assert entry["selections"][0]["resource"]["anchor"] == "obj-r-ticket"
    assert json.loads(entry["filters_json"]) == {
        "queue": "billing-eu",
        "priority": ["high", "urgent"],
    }
    assert entry["drafts"][0]["anchor"] == "obj-d-reply"
    assert view["continuation"]["stop_conditions"][0]["applies_to"][0]["id"] == "op-refund"
    coding = view_of("valid-coding-refactor.ocp.json")
    assert coding["derivation"]["method"] == "captured"
    assert coding["derivation"]["transformations"][0]["affected"][0]["anchor"] == "obj-s-hyp-fx"
    assert coding["derivation"]["omissions"][0]["recoverable_from"]["id"] == "r-test-run"
    assert coding["session_refs"]["session_refs"] == [
        {"protocol": "agent-session-protocol", "id": "asp-session-5d2c", "event": "evt-318"}
    ]


def test_text_is_kept_verbatim_for_the_template_to_escape():
    view = view_of("escape-coding-basic.ocp.json")
    objective = doc("escape-coding-basic.ocp.json")["task"]["objective"]
    assert view["header"]["objective"] == objective
    assert "<img" in objective
    assert all("&lt;" not in s for s in strings(view))


def test_anchor_keeps_the_id_and_encodes_only_what_an_html_id_cannot_hold():
    assert anchor("op-refund") == "obj-op-refund"
    assert anchor("step template") == "obj-step%20template"
    assert anchor('a"b<c>') == "obj-a%22b%3Cc%3E"
    assert anchor("café") == "obj-caf%C3%A9"
    # injective: "%" is encoded too, and nothing is dropped
    assert anchor("a%20b") != anchor("a b")
    assert anchor("a.b") != anchor("a-b")
    ids = ["a b", "a\tb", "a\u00a0b", "a%20b", "a+b", "ünï", "x/y", "x~y", "#x"]
    anchors = [anchor(i) for i in ids]
    assert len(set(anchors)) == len(ids)
    assert not any(c.isspace() for a in anchors for c in a)


# --- documents of any shape -------------------------------------------------------------------

GARBAGE = [
    {"opencheckpoint": "0.1", "statements": [1, "x", {"kind": 5}], "operations": {"a": 1},
     "task": "x"},
    {"opencheckpoint": "0.1", "statements": {"a": []}, "resources": [7, {"id": "r", "uri": 5}],
     "operations": [1, {"id": [], "status": {}, "effect": [1], "call": 5, "approval": "x",
                        "depends_on": "op", "expires_at": 5, "resume": []},
                    {"id": "o", "status": "awaiting", "expires_at": "2000-01-01T00:00:00Z"}],
     "continuation": {"stop_conditions": [{"id": "s", "applies_to": "o", "until": "x"},
                                          {"applies_to": ["o", 3], "until": [5, {"operation": 1}]}],
                      "requirements": [{"necessity": [], "kind": {}}], "extensions": [1]},
     "progress": {"focus": "x", "next": [{"blocked_by": "r"}], "completed": "x"},
     "application_context": [{"selections": [1, {"resource": []}], "drafts": "x"}],
     "derivation": {"inputs": [1], "omissions": {}}, "extensions": "x", "source": [],
     "created_at": "2100-01-01T00:00:00Z", "parent": "x",
     "task": {"success_criteria": [1, {"evidence": 5}], "scope": []}},
    {"opencheckpoint": "0.1", "statements": [{"id": "a", "kind": "decision", "status": [],
     "origin": "user", "superseded_by": {}, "verification": "x", "evidence": "r"}]},
    {"opencheckpoint": 1, "id": {}, "created_at": [], "source": "s", "task": None},
    {},
]  # fmt: skip


@pytest.mark.parametrize("document", GARBAGE)
def test_documents_of_any_shape_do_not_raise(document):
    view = view_of(document)
    json.dumps(view, allow_nan=False)
    assert view["header"]["verdict"] == "invalid"
    statements = document.get("statements")
    if isinstance(statements, list):
        assert view["statements"]["matrix"]["total"] == len(statements)


def test_the_garbage_of_the_brief():
    view = view_of(GARBAGE[0])
    section = view["statements"]
    assert section["count"] == 3
    assert "other" in section["kinds"] and "other" in section["origin_types"]
    assert view["operations"]["unreadable"] == ['{"a": 1}']
    assert view["header"]["objective"] is None


@pytest.mark.parametrize(
    "raw",
    [b"", b"\n\n", b"[]", b'"x"', b"\xef\xbb\xbf{}", b"\xff\xfe{}", b"{" * 5000, b'{"a":\n1'],
)
def test_bytes_that_are_not_a_checkpoint_do_not_raise(raw):
    view = view_of(raw)
    json.dumps(view)
    assert view["has_document"] is False
    assert view["source"]["lines"]


def test_crlf_line_ends_are_not_shown():
    view = view_of(b'{"a": 1,\r\n "b": 2}\r\n')
    assert [line["text"] for line in view["source"]["lines"]] == ['{"a": 1,', ' "b": 2}']


def test_a_result_without_findings_positions_still_builds(minimal):
    result = lint(json.dumps(minimal).encode())
    a = result.analysis
    bare = LintResult(
        Analysis(
            a.data,
            a.intake,
            (),
            a.secrets,
            a.syntax,
            a.semantics,
            a.version_error,
            a.checkpoint,
            a.source,
            a.redaction,
            a.timings,
            a.omitted,
        )
    )
    view = build_view(bare, now=NOW)
    assert view["header"]["verdict"] == VERDICT_VALID
    assert copy.deepcopy(view) == view


def test_each_card_links_to_the_line_its_object_starts_on():
    raw = (CONFORMANCE / "valid-support-handoff.ocp.json").read_text()
    view = view_of(raw.encode())
    lines = raw.split("\n")
    cards = [s for g in view["statements"]["groups"] for o in g["by_origin"] for s in o["items"]]
    cards += [c for g in view["operations"]["groups"] for c in g["items"]]
    assert len(cards) > 5
    for card in cards:
        anchor = card["source_anchor"]
        assert anchor is not None and anchor.startswith("L"), card["pointer"]
        # the object's line holds its opening brace, and the id follows within a few lines
        start = int(anchor[1:]) - 1
        assert lines[start].strip().startswith("{"), (card["pointer"], lines[start])
        assert any(f'"id": "{card["id"]}"' in line for line in lines[start : start + 4])


def test_the_summary_names_what_to_verify_first_in_the_support_handoff():
    view = view_of((CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())
    lines = {line["key"]: line for line in view["summary"]["lines"]}
    assert list(lines) == [
        "outcome", "stops", "incompatibilities", "forbidden", "approvals", "preconditions",
        "questions", "statements", "requirements", "omissions", "drafts", "resources",
    ]  # fmt: skip
    assert [i["id"] for i in lines["incompatibilities"]["items"]] == ["inc-channel"]
    assert [i["id"] for i in lines["preconditions"]["items"]] == ["pre-ticket-open"]
    assert [i["id"] for i in lines["omissions"]["items"]] == ["om-pii", "om-greeting"]
    assert "at its evidence" in lines["approvals"]["text"]
    assert [i["id"] for i in lines["outcome"]["items"]] == ["op-refund"]
    assert lines["outcome"]["items"][0]["anchor"] == "obj-op-refund"
    assert [i["id"] for i in lines["stops"]["items"]] == ["stop-refund", "stop-email"]
    assert [i["id"] for i in lines["drafts"]["items"]] == ["d-reply"]
    assert [i["id"] for i in lines["questions"]["items"]] == ["s-q-refund-status"]
    assert (view["summary"]["errors"], view["summary"]["warnings"]) == (0, 0)
    words = " ".join(line["text"] for line in lines.values()) + view["summary"]["note"]
    for word in ("safe", "authorized", "resumable", "allowed", "may proceed"):
        assert word not in words.lower()


def test_the_summary_counts_past_what_it_names_and_is_empty_for_a_bare_document():
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    assert view_of(document)["summary"]["lines"] == []
    document["statements"] = [
        {"id": f"q-{i}", "kind": "question", "text": "Which one?", "origin": {"type": "agent"}}
        for i in range(7)
    ] + [
        {"id": "q-done", "kind": "question", "text": "Which?", "origin": {"type": "agent"},
         "status": "resolved", "resolution": "The first."}
    ]  # fmt: skip
    (questions,) = view_of(document)["summary"]["lines"]
    assert (questions["key"], questions["count"]) == ("questions", 7)
    assert [i["id"] for i in questions["items"]] == ["q-0", "q-1", "q-2", "q-3"]


def test_a_document_that_is_not_json_has_no_summary():
    assert view_of(b'{"opencheckpoint": "0.1",')["summary"] is None


def test_a_page_clips_a_long_line_of_the_source_and_the_json_twin_keeps_it():
    from app.render.source import SOURCE_LINE_CHARS
    from app.web.pages import PAGE_LIST_LIMIT, checkpoint_html

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["statements"] = [
        {"id": f"s-{i}", "kind": "observation", "text": "Seen " * 20, "origin": {"type": "agent"}}
        for i in range(100)
    ]
    data = json.dumps(document).encode()  # one line
    result = lint(data)
    page_view = build_view(result, now=NOW, list_limit=PAGE_LIST_LIMIT)
    (line,) = page_view["source"]["lines"]
    assert len(line["text"]) == SOURCE_LINE_CHARS
    assert line["clipped"] == len(data) - SOURCE_LINE_CHARS
    (whole,) = build_view(result, now=NOW)["source"]["lines"]
    assert whole["text"] == data.decode() and whole["clipped"] == 0
    html = checkpoint_html("one-line.ocp.json", result)
    assert f"{len(data) - SOURCE_LINE_CHARS:,} more characters on this line" in html
    assert data.decode()[SOURCE_LINE_CHARS:][:200] not in html.replace("&#34;", '"')


def test_a_page_clips_a_long_text_of_a_card_and_the_json_twin_keeps_it():
    from app.web.fragments import TEXT_CHARS
    from app.web.pages import checkpoint_html

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    long_text = "".join(f"word{i} " for i in range(TEXT_CHARS))  # 6-7 characters each
    document["statements"] = [
        {"id": "s-long", "kind": "observation", "text": long_text, "origin": {"type": "agent"}}
    ]
    result = lint(json.dumps(document, indent=2).encode())
    html = checkpoint_html("long.ocp.json", result)
    assert long_text[:TEXT_CHARS] in html
    assert long_text[TEXT_CHARS : TEXT_CHARS + 40] not in html
    left = len(long_text) - TEXT_CHARS
    assert f"… {left:,} more characters, not shown on this page" in html
    assert statements_by_id(build_view(result, now=NOW))["s-long"]["text"] == long_text


def test_what_a_reviewer_reads_starts_unfolded_and_the_bookkeeping_folded():
    opened = {
        s["key"]: s["open"] for s in view_of(data("valid-support-handoff.ocp.json"))["sections"]
    }
    assert opened["statements"] and opened["operations"] and opened["before_continuing"]
    assert not opened["source"] and not opened["derivation"] and not opened["extensions"]
    assert not opened["findings"]  # none to read
    invalid = {
        s["key"]: s["open"]
        for s in view_of(data("rule-S002-unresolved-blocked-by.ocp.json"))["sections"]
    }
    assert invalid["findings"]
    # no document could be read: its text is all there is, unfolded
    broken = {s["key"]: s["open"] for s in view_of(b'{"opencheckpoint": "0.1",')["sections"]}
    assert broken["source"] and broken["findings"]


def test_the_summary_clips_an_object_s_long_words_and_keeps_a_marker_whole():
    """The summary must fit the first screen: an operation's description of 7,000 characters
    is clipped there (its card, which the id links, shows it whole), and never inside a
    redaction marker."""
    from app.redaction import REDACTED
    from app.render.summary import SUMMARY_WORDS, clipped_words

    document = json.loads((CONFORMANCE / "valid-support-handoff.ocp.json").read_text())
    outcome = next(o for o in document["operations"] if o["id"] == "op-refund")
    outcome["description"] = "Refund the order. " * 400
    lines = {line["key"]: line for line in view_of(document)["summary"]["lines"]}
    [refund] = lines["outcome"]["items"]
    assert len(refund["words"]) <= SUMMARY_WORDS + 1 and refund["words"].endswith("…")
    for before in range(SUMMARY_WORDS - len(REDACTED), SUMMARY_WORDS + 1):
        words = "w" * before + REDACTED + " and more words after it" * 20
        clipped = clipped_words(words)
        assert clipped.endswith("…") and len(clipped) <= SUMMARY_WORDS + 1
        # the marker whole or not at all
        assert REDACTED in clipped or "[" not in clipped, before


def test_an_invalid_document_s_summary_opens_with_rejecting_it():
    from starlette.testclient import TestClient

    from app.config import Settings
    from app.web import create_app

    invalid = (CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json").read_text()
    valid = (CONFORMANCE / "valid-support-handoff.ocp.json").read_text()
    with TestClient(create_app(Settings())) as client:
        page = client.post("/view", data={"checkpoint": invalid}).text
        clean = client.post("/view", data={"checkpoint": valid}).text
    summary = page[page.index('id="summary-h"') :]
    assert summary.index("a destination rejects it (§10.7 step 1)") < summary.index("</section>")
    assert "a destination rejects it" not in clean
