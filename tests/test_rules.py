"""Each semantic and lineage rule: a failing and a passing case of its own, checked directly
(the rule functions) and through the registry. Documents are built from the minimal valid
checkpoint, so each case states exactly what it adds."""

import copy
import hashlib
import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.analysis import lint
from app.checkpoint import Checkpoint, Instant, parse_instant
from app.rules import RULES, Parent, check_document, check_lineage
from tests.conftest import CONFORMANCE

BASE = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
CREATED = BASE["created_at"]  # 2026-11-20T08:00:00Z


def doc(**members) -> dict:
    document = copy.deepcopy(BASE)
    for key, value in members.items():
        if key == "status":
            document["task"]["status"] = value
        else:
            document[key] = value
    return document


def codes(document: dict) -> list[tuple[str, str]]:
    return [(f.code, f.path) for f in check_document(Checkpoint(document))]


def lineage_codes(child: dict, parent: dict, parent_bytes: bytes | None = None) -> list:
    data = parent_bytes if parent_bytes is not None else json.dumps(parent).encode()
    findings = check_lineage(Checkpoint(child), Parent(Checkpoint(parent), data))
    return [(f.code, f.path) for f in findings]


RES = {"id": "r-1", "uri": "https://example.com/a"}
RES2 = {"id": "r-2", "locator": {"system": "ERP", "type": "invoice", "key": "42"}}


def statement(id_, kind="observation", **extra):
    base = {"id": id_, "kind": kind, "text": "t", "origin": {"type": "tool"}}
    base.update(extra)
    return base


def op(id_, kind="action", status="planned", **extra):
    return {"id": id_, "kind": kind, "status": status, "description": "d", **extra}


def test_every_specified_rule_is_registered_with_its_text():
    expected = {f"OCP-S00{i}" for i in range(1, 10)} | {f"OCP-W00{i}" for i in range(1, 5)}
    expected |= {"OCP-T001", "OCP-T002", "digest", "json", "version", "schema", "secret"}
    expected |= {"lineage-kind", "lineage-verification", "lineage-dropped", "lineage-compaction"}
    expected |= {"lineage-weakened", "lineage-repeat", "lineage-rewritten", "lineage-omission"}
    expected |= {"lineage-evidence"}
    assert set(RULES) == expected
    for code, rule in RULES.items():
        assert rule.summary and rule.description, code
        if rule.level in ("semantics", "lineage"):
            assert rule.check is not None and rule.check.__doc__, code


def test_valid_minimal_has_no_findings():
    assert codes(doc()) == []


# OCP-S001


def test_s001_duplicate_id_across_arrays_reports_the_later_one():
    document = doc(
        statements=[statement("x-1")],
        continuation={
            "requirements": [
                {"id": "x-1", "kind": "tool", "description": "d", "necessity": "required"}
            ]
        },
    )
    assert codes(document) == [("OCP-S001", "/continuation/requirements/0/id")]
    finding = check_document(Checkpoint(document))[0]
    assert "statement at /statements/0" in finding.message


def test_s001_document_order_follows_the_bytes_not_a_fixed_layout():
    document = {**doc(), "resources": [RES]}
    document["statements"] = [statement("r-1")]
    # resources come first in this document, so the statement is the later occurrence
    assert codes(document) == [("OCP-S001", "/statements/0/id")]


def test_s001_passes_with_distinct_ids():
    assert codes(doc(statements=[statement("s-1")], resources=[RES])) == []


# OCP-S002


def test_s002_unresolved_blocked_by():
    document = doc(progress={"next": [{"description": "d", "blocked_by": ["nope"]}]})
    assert codes(document) == [("OCP-S002", "/progress/next/0/blocked_by/0")]


def test_s002_every_reference_field_is_checked():
    document = doc(
        progress={
            "focus": {"description": "d", "refs": ["a"]},
            "completed": [{"description": "d", "evidence": ["b"]}],
        },
        statements=[statement("s-1", origin={"type": "tool", "ref": "c"})],
        application_context=[
            {
                "application": "x",
                "selections": [{"resource": "d1", "role": "open"}],
                "drafts": [{"status": "saved", "target": "e", "content_ref": "f"}],
            }
        ],
        operations=[op("o-1", target="g", record="h", depends_on=["i"])],
        continuation={
            "stop_conditions": [
                {
                    "description": "d",
                    "applies_to": ["j"],
                    "until": [{"operation": "k", "status": "completed"}],
                }
            ]
        },
        derivation={
            "method": "compacted",
            "omissions": [{"description": "d", "reason": "size", "recoverable_from": "l"}],
            "transformations": [{"description": "d", "affected": ["m"]}],
        },
    )
    found = {path for code, path in codes(document) if code == "OCP-S002"}
    assert found == {
        "/progress/focus/refs/0",
        "/progress/completed/0/evidence/0",
        "/statements/0/origin/ref",
        "/application_context/0/selections/0/resource",
        "/application_context/0/drafts/0/target",
        "/application_context/0/drafts/0/content_ref",
        "/operations/0/target",
        "/operations/0/record",
        "/operations/0/depends_on/0",
        "/continuation/stop_conditions/0/applies_to/0",
        "/continuation/stop_conditions/0/until/0/operation",
        "/derivation/omissions/0/recoverable_from",
        "/derivation/transformations/0/affected/0",
    }


def test_s002_passes_when_references_resolve():
    document = doc(
        resources=[RES], progress={"next": [{"description": "d", "blocked_by": ["r-1"]}]}
    )
    assert codes(document) == []


# OCP-S003


def test_s003_evidence_naming_an_operation():
    document = doc(operations=[op("o-1")], statements=[statement("s-1", evidence=["o-1"])])
    assert codes(document) == [("OCP-S003", "/statements/0/evidence/0")]
    message = check_document(Checkpoint(document))[0].message
    assert "must name a resource" in message and "is an operation" in message


def test_s003_requires_must_name_a_requirement_and_refs_may_name_anything():
    document = doc(
        resources=[RES],
        progress={"next": [{"description": "d", "requires": ["r-1"], "refs": ["r-1"]}]},
    )
    assert codes(document) == [("OCP-S003", "/progress/next/0/requires/0")]


def test_s003_passes_with_allowed_types():
    document = doc(
        resources=[RES],
        operations=[op("o-1")],
        statements=[statement("s-1", evidence=["r-1"])],
        progress={"next": [{"description": "d", "blocked_by": ["o-1", "s-1", "r-1"]}]},
    )
    assert codes(document) == []


# OCP-S004


def test_s004_parent_is_self():
    assert codes(doc(parent={"id": BASE["id"]})) == [("OCP-S004", "/parent/id")]


def test_s004_passes_with_another_parent():
    assert codes(doc(parent={"id": "urn:uuid:other"})) == []


# OCP-S005


def test_s005_compares_instants_not_strings():
    later_by_offset = "2026-11-20T08:30:00-01:00"  # 09:30Z, after created_at
    earlier_string_later_instant = doc(resources=[{**RES, "observed_at": later_by_offset}])
    assert codes(earlier_string_later_instant) == [("OCP-S005", "/resources/0/observed_at")]
    earlier = "2026-11-20T08:30:00+01:00"  # 07:30Z, before created_at
    assert codes(doc(resources=[{**RES, "observed_at": earlier}])) == []


def test_s005_checks_every_past_event_field_but_not_expires_at():
    late = "2026-11-21T00:00:00Z"
    document = doc(
        progress={"completed": [{"description": "d", "completed_at": late}]},
        resources=[RES],
        statements=[
            statement(
                "s-1",
                recorded_at=late,
                evidence=["r-1"],
                verification={"state": "verified", "checked_at": late},
            )
        ],
        operations=[
            op(
                "o-1",
                kind="approval",
                status="approved",
                requested_at=late,
                last_attempt_at=late,
                expires_at=late,
                approval={"decided_by": "x", "decided_at": late, "evidence": ["r-1"]},
            )
        ],
    )
    assert {p for c, p in codes(document) if c == "OCP-S005"} == {
        "/progress/completed/0/completed_at",
        "/statements/0/recorded_at",
        "/statements/0/verification/checked_at",
        "/operations/0/requested_at",
        "/operations/0/last_attempt_at",
        "/operations/0/approval/decided_at",
    }


def test_instants_with_fractions_leap_seconds_and_lowercase():
    assert parse_instant("2026-11-20t08:00:00.123456000z") == parse_instant(
        "2026-11-20T08:00:00.123456Z"
    )
    # every digit of a fraction counts, past the microseconds a datetime keeps
    assert parse_instant("2026-11-20T08:00:00.0000001Z") > parse_instant("2026-11-20T08:00:00Z")
    assert parse_instant("2026-11-20T08:00:00.1234567Z") > parse_instant(
        "2026-11-20T08:00:00.123456Z"
    )
    # a leap second follows every instant of second 59 and precedes the next minute
    assert parse_instant("2026-12-31T23:59:60Z") > parse_instant("2026-12-31T23:59:59.9999995Z")
    assert parse_instant("2026-12-31T23:59:60.5Z") < parse_instant("2027-01-01T00:00:00Z")
    assert parse_instant("2026-02-30T00:00:00Z") is None
    assert parse_instant("2026-02-01T00:00:00+24:00") is None
    assert parse_instant("2026-02-01T00:00:00+01:60") is None
    assert parse_instant("2026-02-01T00:00:00.0+01:60") is None
    assert parse_instant("2024-02-29T12:00:00Z") is not None


@given(st.datetimes(timezones=st.timezones()))
@settings(max_examples=300, deadline=None)
def test_an_instant_read_from_its_text_is_the_datetime_it_was_written_from(moment):
    """The linter reads a timestamp's numbers itself (no datetime import at start-up): the
    seconds since the epoch are the ones datetime counts, whatever the date and offset."""
    offset = moment.utcoffset()
    assume(offset is not None and offset.seconds % 60 == 0 and offset.total_seconds() > -86400)
    text = moment.isoformat()
    assert parse_instant(text) == Instant.of(moment)


def test_instants_at_the_ends_of_rfc3339_years_compare_without_overflow():
    # 9999-12-31T23:59:59-05:00 is in year 10000 in UTC, past what a datetime holds
    late = parse_instant("9999-12-31T23:59:59-05:00")
    early = parse_instant("0000-01-01T00:00:00+01:00")  # in year -1 in UTC
    assert early < parse_instant("2026-11-20T08:00:00Z") < late
    assert late > parse_instant("9999-12-31T23:59:59Z")
    assert early < parse_instant("0000-01-01T00:00:00Z")


@pytest.mark.parametrize(
    "created_at", ["9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+01:00", "0000-03-01T00:00:00Z"]
)
def test_a_created_at_at_an_end_of_time_is_compared_not_a_crash(created_at):
    recorded = statement("s-1", recorded_at="2026-11-19T08:00:00Z")
    document = doc(created_at=created_at, statements=[recorded])
    later = created_at.startswith("9999")
    assert codes(document) == ([] if later else [("OCP-S005", "/statements/0/recorded_at")])
    result = lint(json.dumps(document).encode())  # and the whole pipeline reports it
    assert [f.code for f in result.findings] == ([] if later else ["OCP-S005"])


def test_an_awaiting_operation_that_never_expires_is_not_a_crash():
    waiting = op("o-1", kind="input", status="awaiting", expires_at="9999-12-31T23:59:59-05:00")
    assert codes(doc(operations=[waiting])) == []
    lapsed = op("o-2", kind="input", status="awaiting", expires_at="0001-01-01T00:00:00+01:00")
    assert codes(doc(operations=[lapsed])) == [("OCP-W003", "/operations/0/expires_at")]


def test_s005_counts_every_digit_of_a_fraction_and_leap_seconds():
    tenth_of_a_microsecond = statement("s-1", recorded_at="2026-11-20T08:00:00.0000001Z")
    assert codes(doc(statements=[tenth_of_a_microsecond])) == [
        ("OCP-S005", "/statements/0/recorded_at")
    ]
    leap = statement("s-1", recorded_at="2026-12-31T23:59:60Z")
    document = doc(created_at="2026-12-31T23:59:59.9999995Z", statements=[leap])
    assert codes(document) == [("OCP-S005", "/statements/0/recorded_at")]


def test_an_offset_past_59_minutes_is_not_an_instant_with_or_without_a_fraction():
    for created_at in ("2026-11-20T09:00:00+01:60", "2026-11-20T09:00:00.0+01:60"):
        step = {"id": "c-1", "description": "d", "completed_at": "2026-11-20T08:30:00Z"}
        assert codes(doc(created_at=created_at, progress={"completed": [step]})) == []


# OCP-S006


def test_s006_completed_task_with_awaiting_operation():
    document = doc(
        status="completed",
        operations=[op("o-1", status="completed"), op("o-2", kind="input", status="awaiting")],
    )
    assert codes(document) == [("OCP-S006", "/operations/1/status")]


def test_s006_passes_when_operations_are_settled():
    document = doc(
        status="completed", operations=[op("o-1", status="failed"), op("o-2", status="cancelled")]
    )
    assert codes(document) == []


# OCP-S007


def test_s007_decision_superseded_by_observation():
    document = doc(
        statements=[
            statement("d-1", "decision", rationale="r", status="superseded", superseded_by="o-1"),
            statement("o-1", "observation"),
        ]
    )
    assert codes(document) == [("OCP-S007", "/statements/0/superseded_by")]


def test_s007_superseded_by_itself():
    document = doc(
        statements=[
            statement("d-1", "decision", rationale="r", status="superseded", superseded_by="d-1"),
        ]
    )
    assert codes(document) == [("OCP-S007", "/statements/0/superseded_by")]


def test_s007_passes_for_same_kind_and_confirmed_hypothesis():
    document = doc(
        statements=[
            statement("d-1", "decision", rationale="r", status="superseded", superseded_by="d-2"),
            statement("d-2", "decision", rationale="r"),
            statement("h-1", "hypothesis", status="superseded", superseded_by="o-1"),
            statement("o-1", "observation"),
        ]
    )
    assert codes(document) == []


# OCP-S008


@pytest.mark.parametrize(
    "uri", ["https://bob@example.com/x", "postgres://u:p@db:5432/x", "ftp://a%40b:c@h/"]
)
def test_s008_userinfo_in_resource_uri(uri):
    assert codes(doc(resources=[{"id": "r-1", "uri": uri}])) == [("OCP-S008", "/resources/0/uri")]


@pytest.mark.parametrize(
    "uri",
    [
        "https://example.com/a@b",
        "mailto:bob@example.com",
        "mid:123@mail.example",
        "https://example.com/?to=a@b",
        "https://example.com#x@y",
        "urn:x:y@z",
    ],
)
def test_s008_passes_without_userinfo(uri):
    assert codes(doc(resources=[{"id": "r-1", "uri": uri}])) == []


# OCP-S009


def test_s009_until_approved_names_an_action():
    document = doc(
        operations=[op("o-1")],
        continuation={
            "stop_conditions": [
                {"description": "d", "until": [{"operation": "o-1", "status": "approved"}]}
            ]
        },
    )
    assert codes(document) == [("OCP-S009", "/continuation/stop_conditions/0/until/0")]


def test_s009_passes_for_an_approval_or_another_status():
    document = doc(
        operations=[op("o-1"), op("a-1", kind="approval", status="awaiting")],
        continuation={
            "stop_conditions": [
                {
                    "description": "d",
                    "until": [
                        {"operation": "a-1", "status": "rejected"},
                        {"operation": "o-1", "status": "completed"},
                    ],
                }
            ]
        },
    )
    assert codes(document) == []


# OCP-W001


def test_w001_blocked_without_blocker():
    assert codes(doc(status="blocked")) == [("OCP-W001", "/task/status")]


def test_w001_passes_with_blocked_by_or_awaiting_operation():
    document = doc(
        status="blocked",
        resources=[RES],
        progress={"next": [{"description": "d", "blocked_by": ["r-1"]}]},
    )
    assert codes(document) == []
    assert (
        codes(doc(status="blocked", operations=[op("o-1", kind="wait", status="awaiting")])) == []
    )


# OCP-W002


def test_w002_agent_observation_without_evidence():
    document = doc(statements=[statement("s-1", origin={"type": "agent"})])
    assert codes(document) == [("OCP-W002", "/statements/0")]
    assert all(f.severity == "warning" for f in check_document(Checkpoint(document)))


def test_w002_passes_with_evidence_or_another_origin():
    document = doc(
        resources=[RES],
        statements=[
            statement("s-1", origin={"type": "agent"}, evidence=["r-1"]),
            statement("s-2", origin={"type": "tool"}),
            statement("s-3", "hypothesis", origin={"type": "agent"}),
        ],
    )
    assert codes(document) == []


# OCP-W003


def test_w003_awaiting_operation_expired_before_capture():
    document = doc(
        operations=[op("o-1", kind="input", status="awaiting", expires_at="2026-11-20T07:40:00Z")]
    )
    assert codes(document) == [("OCP-W003", "/operations/0/expires_at")]


def test_w003_passes_when_not_expired_or_not_awaiting():
    document = doc(
        operations=[
            op("o-1", kind="input", status="awaiting", expires_at="2026-11-21T00:00:00Z"),
            op("o-2", kind="input", status="planned", expires_at="2026-11-19T00:00:00Z"),
        ]
    )
    assert codes(document) == []


# OCP-W004


def fork(**members):
    return doc(derivation={"method": "forked"}, **members)


def test_w004_fork_with_unfenced_side_effecting_action():
    document = fork(
        operations=[op("o-1", status="uncertain", effect="non_idempotent", resume="verify_first")]
    )
    assert codes(document) == [("OCP-W004", "/operations/0")]
    # an absent effect counts as not none
    assert codes(fork(operations=[op("o-1")])) == [("OCP-W004", "/operations/0")]


def test_w004_passes_when_fenced_terminal_effectless_or_not_a_fork():
    fenced = fork(
        operations=[op("o-1"), op("o-2")],
        continuation={
            "stop_conditions": [
                {"description": "d", "applies_to": ["o-1"]},
                {"description": "d", "refs": ["o-2"]},
            ]
        },
    )
    assert codes(fenced) == []
    assert (
        codes(
            fork(
                operations=[
                    op("o-1", status="completed"),
                    op("o-2", effect="none"),
                    op("o-3", kind="wait"),
                ]
            )
        )
        == []
    )
    assert codes(doc(operations=[op("o-1")])) == []


# OCP-T001, OCP-T002, digest


PARENT = doc(operations=[op("o-1", status="cancelled"), op("o-2", status="completed")])
PARENT["id"] = "urn:uuid:parent"
PARENT["created_at"] = "2026-11-19T08:00:00Z"


def child(**members):
    document = doc(parent={"id": "urn:uuid:parent"}, **members)
    return document


def test_t001_terminal_operation_reopened():
    document = child(operations=[op("o-1", status="planned"), op("o-2", status="completed")])
    assert lineage_codes(document, PARENT) == [("OCP-T001", "/operations/0/status")]


def test_t001_passes_when_terminal_status_is_kept_or_the_operation_is_gone():
    assert lineage_codes(child(operations=[op("o-1", status="cancelled")]), PARENT) == []
    assert lineage_codes(child(), PARENT) == []


def test_t002_parent_id_mismatch_and_created_before_parent():
    document = doc(parent={"id": "urn:uuid:someone-else"})
    document["created_at"] = "2026-11-18T08:00:00Z"
    assert lineage_codes(document, PARENT) == [
        ("OCP-T002", "/parent/id"),
        ("OCP-T002", "/created_at"),
    ]


def test_t002_without_a_parent_member_reports_the_document():
    assert lineage_codes(doc(), PARENT) == [("OCP-T002", "")]


def test_t002_passes_for_the_right_parent():
    assert lineage_codes(child(), PARENT) == []


def test_digest_mismatch_is_a_warning_at_parent_digest():
    parent_bytes = json.dumps(PARENT, indent=2).encode()
    wrong = "sha-256:" + hashlib.sha256(json.dumps(PARENT).encode()).hexdigest()
    document = doc(parent={"id": "urn:uuid:parent", "digest": wrong})
    findings = check_lineage(Checkpoint(document), Parent(Checkpoint(PARENT), parent_bytes))
    assert [(f.code, f.severity, f.path) for f in findings] == [
        ("digest", "warning", "/parent/digest")
    ]


@pytest.mark.parametrize("algorithm", ["sha256", "sha384", "sha512"])
def test_digest_passes_over_the_exact_bytes(algorithm):
    parent_bytes = json.dumps(PARENT, indent=2).encode()
    name = algorithm.replace("sha", "sha-")
    digest = f"{name}:{hashlib.new(algorithm, parent_bytes).hexdigest()}"
    document = doc(parent={"id": "urn:uuid:parent", "digest": digest})
    assert lineage_codes(document, PARENT, parent_bytes) == []


def test_lineage_rules_tolerate_a_malformed_parent():
    parent = doc(operations=[{"id": "o-1", "status": ["completed"]}, {"id": ["x"]}, 7])
    lineage_codes(child(operations=[op("o-1")]), parent)


def test_rules_tolerate_malformed_documents():
    """Rules may see documents that failed the schema (the render model reuses them)."""
    weird = doc(
        statements=[1, "x", {"kind": "decision"}, {"superseded_by": 5}],
        operations={"not": "a list"},
        continuation=[],
        progress={"next": "x"},
        derivation={"method": "forked"},
        resources=[{"uri": 7}],
    )
    weird["task"] = "x"
    codes(weird)
    lineage_codes(weird, weird)


def test_s003_an_id_held_by_several_objects_is_wrong_only_when_none_is_allowed():
    """OCP-S001 reports the duplicate; OCP-S003 must not also report a reference that one of
    the holders satisfies, and names every holder when none does."""
    requirement = {"id": "dup", "kind": "tool", "description": "d", "necessity": "required"}
    resource = {"id": "dup", "uri": "https://example.com/x"}
    step = {"description": "Use it.", "requires": ["dup"]}
    satisfied = doc(
        resources=[resource],
        continuation={"requirements": [requirement]},
        progress={"next": [step]},
    )
    found = {code for code, _ in codes(satisfied)}
    assert "OCP-S003" not in found and "OCP-S001" in found
    statement_dup = statement("dup")
    unsatisfied = doc(resources=[resource], statements=[statement_dup], progress={"next": [step]})
    result = lint(json.dumps(unsatisfied).encode())
    (s003,) = [f for f in result.findings if f.code == "OCP-S003"]
    assert "held by 2 objects" in s003.message
    assert "/resources/0" in s003.message and "/statements/0" in s003.message
