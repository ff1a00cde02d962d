"""The semantic diff (app/diff.py), RFC 6902 JSON Patch, and the compaction rules
(app/rules/compaction.py): the conformance lineage pairs, small inline documents for each
kind of change, secrets, broken documents, and each new rule failing and passing (directly, on
its page's examples, and against the public conformance set)."""

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.analysis import analyze, lint
from app.analysis import pair as analysed_pair
from app.checkpoint import Checkpoint
from app.diff import apply_patch, diff_checkpoints, json_equal, json_patch
from app.redaction import REDACTED
from app.rules import RULES, Parent, check_lineage
from tests.conftest import CONFORMANCE, manifest

# --- registration -------------------------------------------------------------------------------
# Until app/rules/__init__.py imports app.rules.compaction, importing it (here, or through a diff)
# registers the four codes as a side effect. Other test modules assert the exact set of
# registered codes, so this module takes them out again at import and registers them only while
# its own tests run; once the package imports the module itself, nothing is taken out.

NEW_CODES = (
    "lineage-kind",
    "lineage-verification",
    "lineage-dropped",
    "lineage-compaction",
    "lineage-weakened",
    "lineage-repeat",
    "lineage-rewritten",
    "lineage-omission",
    "lineage-evidence",
)
# What each is: certain and able to mislead a destination (errors), resting on what the linter
# reads with less than certainty (notes), the rest warnings.
SEVERITIES = {
    "lineage-kind": "error",
    "lineage-weakened": "error",
    "lineage-repeat": "error",
    "lineage-rewritten": "note",
    "lineage-omission": "note",
    "lineage-evidence": "note",
}
# --- helpers ------------------------------------------------------------------------------------

PARENT_FILE = CONFORMANCE / "valid-coding-refactor.ocp.json"
PARENT_BYTES = PARENT_FILE.read_bytes()
BASE = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())


def compare(parent_bytes: bytes, child_bytes: bytes, *, words: bool = False) -> dict:
    """The diff from the parent's bytes to the child's, each analysed once. Without
    ``words``, the runs of words of each rewritten string are left out, so the field-level
    changes compare as recorded (test_words_* look at the runs)."""
    diff = diff_checkpoints(analysed_pair(analyze(child_bytes), analyze(parent_bytes)))
    if not words:
        for section in diff.get("sections", []):
            for entry in section.get("changed", []):
                for change in entry.get("changes", []):
                    change.pop("words", None)
    return diff


def fixture_diff(child_file: str, parent_bytes: bytes = PARENT_BYTES) -> dict:
    return compare(parent_bytes, (CONFORMANCE / child_file).read_bytes())


def encode(document: object) -> bytes:
    return json.dumps(document, indent=2).encode()


def pair(parent: dict, child: dict) -> dict:
    return compare(encode(parent), encode(child))


def doc(**members) -> dict:
    document = copy.deepcopy(BASE)
    document.update(members)
    return document


def child_of(parent: dict, **members) -> dict:
    document = copy.deepcopy(parent)
    document["id"] = "urn:uuid:0195a000-0000-7000-8000-00000000c0de"
    document["parent"] = {"id": parent["id"]}
    document.update(members)
    return document


def section(diff: dict, key: str) -> dict:
    return next(s for s in diff["sections"] if s["key"] == key)


def ids(entries: list[dict]) -> list:
    return [e["id"] for e in entries]


def field(diff: dict, pointer: str) -> dict | None:
    return next((f for f in diff["fields"]["changed"] if f["pointer"] == pointer), None)


def statement(id_, kind="observation", origin="tool", **extra) -> dict:
    return {"id": id_, "kind": kind, "text": f"text of {id_}", "origin": {"type": origin}, **extra}


def op(id_, kind="action", status="planned", **extra) -> dict:
    return {"id": id_, "kind": kind, "status": status, "description": f"do {id_}", **extra}


def lineage(child: dict, parent: dict) -> list[tuple[str, str]]:
    found = check_lineage(Checkpoint(child), Parent(Checkpoint(parent), encode(parent)))
    return [(f.code, f.path) for f in found]


# --- the conformance lineage pairs -------------------------------------------------------------


def test_compacted_child_what_was_dropped_and_what_was_kept():
    diff = fixture_diff("valid-coding-refactor-child.ocp.json")
    assert diff["comparable"] and diff["notes"] == []
    assert diff["parent_link"] == {
        "child_names_parent": True,
        "digest": "match",
        "digest_matched": "exact",
    }
    assert diff["lineage_findings"] == []
    assert diff["findings"]["new"] == [] and diff["findings"]["fixed"] == []

    statements = section(diff, "statements")
    assert "s-constr-no-force" in ids(statements["removed"])
    assert "s-dec-float" in ids(statements["removed"])
    assert ids(statements["added"]) == ["s-obs-pr"]
    assert all(e["matched_by"] == "id" for e in statements["removed"])

    compacted = diff["compaction"]
    assert compacted["method"] == "compacted"
    assert compacted["omissions_recorded"] and compacted["transformations_recorded"]
    dropped = {(d["id"], d["what"]) for d in compacted["dropped"]}
    assert ("s-constr-no-force", "active constraint") in dropped
    assert ("s-dec-dataclass", "active decision") in dropped
    assert ("op-wait-ci", "non-terminal operation") in dropped
    assert ("stop-pr", "stop condition") in dropped
    assert ("s-dec-float", "active decision") not in dropped  # superseded: not preserved
    assert compacted["dropped_reported"] is False  # omissions are recorded: no finding
    assert compacted["note"]

    # the uncertain PR became completed; terminal operations kept their status
    transitions = {t["id"]: t for t in diff["operation_transitions"]}
    assert transitions["op-open-pr"]["from"] == "uncertain"
    assert transitions["op-open-pr"]["to"] == "completed"
    assert transitions["op-open-pr"]["leaves_terminal"] is False
    assert "op-push" not in transitions and "op-migrate-reports" not in transitions
    operations = section(diff, "operations")
    assert "op-push" not in ids(operations["removed"])
    assert "op-migrate-reports" not in ids(operations["removed"])
    assert set(ids(operations["removed"])) == {"op-wait-ci", "op-mutation"}
    changed = {c["id"]: c for c in operations["changed"]}
    status_change = next(c for c in changed["op-open-pr"]["changes"] if c["pointer"] == "/status")
    assert status_change == {
        "pointer": "/status",
        "op": "replace",
        "before": "uncertain",
        "after": "completed",
    }
    assert changed["op-open-pr"]["parent_pointer"] == "/operations/2"

    verification = {v["id"]: v for v in diff["verification_changes"]}
    rounding = verification["s-obs-rounding"]
    assert rounding["before"]["state"] == "verified" and rounding["after"]["state"] == "stale"
    assert rounding["raised"] is False and rounding["evidence_changed"] is True
    assert rounding["evidence_removed"] == ["r-calc-py"]
    assert diff["statement_identity_changes"] == []

    assert field(diff, "/derivation/method")["after"] == "compacted"
    assert field(diff, "/task/status")["before"] == "active"
    assert field(diff, "/parent")["change"] == "added"
    assert section(diff, "drafts")["removed"][0]["id"] == "d-fix"


def test_compacted_child_patch_rebuilds_the_child_exactly():
    diff = fixture_diff("valid-coding-refactor-child.ocp.json")
    parent = json.loads(PARENT_BYTES)
    child = json.loads((CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes())
    assert json_equal(apply_patch(parent, diff["patch"]), child)
    json.dumps(diff)  # plain data


def test_fork_pair():
    diff = fixture_diff("valid-coding-refactor-fork.ocp.json")
    assert diff["lineage_findings"] == []
    assert diff["child"]["derivation_method"] == "forked"
    assert ids(section(diff, "statements")["added"]) == ["s-constr-fork"]
    assert ids(section(diff, "stop_conditions")["added"]) == ["stop-fork-pr"]
    assert diff["operation_transitions"] == []
    op_open_pr = next(c for c in section(diff, "operations")["changed"] if c["id"] == "op-open-pr")
    resume = {"pointer": "/resume", "op": "replace", "before": "verify_first"}
    assert resume | {"after": "do_not_resume"} in op_open_pr["changes"]
    assert field(diff, "/task/objective")["after"].startswith("Explore an alternative")
    assert diff["compaction"]["dropped_reported"] is False  # the fork records an omission


def test_terminal_operation_back_to_planned():
    diff = fixture_diff("rule-T001-cancelled-op-reopened.ocp.json")
    transition = next(t for t in diff["operation_transitions"] if t["id"] == "op-migrate-reports")
    assert transition["from"] == "cancelled" and transition["to"] == "planned"
    assert transition["leaves_terminal"] is True and transition["rule"] == "OCP-T001"
    codes = [(f["code"], f["path"], f["object_id"]) for f in diff["lineage_findings"]]
    assert codes == [("OCP-T001", "/operations/3/status", "op-migrate-reports")]
    assert diff["lineage_findings"][0]["line"] is not None  # positioned in the child's text
    assert diff["child"]["valid"] is False


def test_digest_mismatch():
    diff = fixture_diff("digest-parent-mismatch.ocp.json")
    assert diff["parent_link"]["digest"] == "mismatch"
    assert [(f["code"], f["path"]) for f in diff["lineage_findings"]] == [
        ("digest", "/parent/digest")
    ]


def test_parent_id_mismatch():
    diff = fixture_diff("rule-T002-parent-id-mismatch.ocp.json")
    assert diff["parent_link"]["child_names_parent"] is False
    assert [f["code"] for f in diff["lineage_findings"]] == ["OCP-T002"]


def test_lineage_findings_run_when_the_child_was_linted_without_its_parent():
    child_bytes = (CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json").read_bytes()
    diff = compare(PARENT_BYTES, child_bytes)
    assert [f["code"] for f in diff["lineage_findings"]] == ["OCP-T001"]


# --- field-level changes on small documents ----------------------------------------------------


def test_added_removed_changed_at_field_level():
    parent = doc(
        statements=[
            statement("s-keep"),
            statement("s-gone"),
            statement("s-edit", evidence=["r-1"], extensions={"com.example/x": {"a": 1}}),
        ],
        resources=[{"id": "r-1", "uri": "https://example.com/a"}],
    )
    child = child_of(
        parent,
        statements=[
            statement("s-edit", text="new text", extensions={"com.example/x": {"a": 2}}),
            statement("s-keep"),
            statement("s-new"),
        ],
    )
    diff = pair(parent, child)
    statements = section(diff, "statements")
    assert ids(statements["added"]) == ["s-new"]
    assert statements["added"][0]["pointer"] == "/statements/2"
    assert ids(statements["removed"]) == ["s-gone"]
    assert statements["removed"][0]["pointer"] == "/statements/1"
    assert statements["removed"][0]["value"]["text"] == "text of s-gone"
    assert statements["unchanged"] == 1  # s-keep moved, unchanged
    (edit,) = statements["changed"]
    assert edit["id"] == "s-edit"
    assert (edit["parent_pointer"], edit["child_pointer"]) == ("/statements/2", "/statements/0")
    assert edit["changes"] == [
        {"pointer": "/text", "op": "replace", "before": "text of s-edit", "after": "new text"},
        {"pointer": "/evidence", "op": "remove", "before": ["r-1"]},
        {"pointer": "/extensions/com.example~1x/a", "op": "replace", "before": 1, "after": 2},
    ]
    assert statements["counts"] == {
        "added": 1,
        "removed": 1,
        "changed": 1,
        "unchanged": 1,
        "moved": 0,
    }


def test_singleton_fields_and_extensions_by_key():
    parent = doc(
        progress={"focus": {"description": "A"}},
        extensions={"com.example.a": 1, "com.example.b/v~1": {"x": True}},
    )
    child = child_of(
        parent,
        progress={"focus": {"description": "B"}},
        extensions={"com.example.b/v~1": {"x": 1}, "com.example.c": "new"},
    )
    child["task"]["objective"] = "Another objective."
    child["derivation"] = {"method": "authored"}
    diff = pair(parent, child)
    assert field(diff, "/task/objective")["before"] == BASE["task"]["objective"]
    assert field(diff, "/progress/focus")["changes"] == [
        {"pointer": "/progress/focus/description", "op": "replace", "before": "A", "after": "B"}
    ]
    assert field(diff, "/extensions/com.example.a")["change"] == "removed"
    assert field(diff, "/extensions/com.example.c")["change"] == "added"
    # true is not 1: a JSON value changed type
    changed = field(diff, "/extensions/com.example.b~1v~01")
    assert changed["changes"][0]["before"] is True and changed["changes"][0]["after"] == 1
    assert field(diff, "/derivation/method")["change"] == "added"
    assert field(diff, "/opencheckpoint") is None
    assert diff["fields"]["unchanged"] >= 3  # opencheckpoint, created_at, source, task/status


def test_objects_without_an_id_are_matched_by_position():
    parent = doc(
        progress={
            "completed": [
                {"description": "first"},
                {"id": "step-x", "description": "with id"},
                {"description": "second"},
            ]
        }
    )
    child = child_of(
        parent,
        progress={"completed": [{"description": "first"}, {"description": "second, edited"}]},
    )
    diff = pair(parent, child)
    completed = section(diff, "completed")
    assert ids(completed["removed"]) == ["step-x"]
    (changed,) = completed["changed"]
    assert changed["id"] is None and changed["matched_by"] == "position"
    assert changed["position"] == 1
    assert (changed["parent_pointer"], changed["child_pointer"]) == (
        "/progress/completed/2",
        "/progress/completed/1",
    )
    assert completed["unchanged"] == 1


def test_drafts_are_diffed_within_their_entry():
    entry = {
        "id": "ac-1",
        "application": "Editor",
        "drafts": [{"status": "unsaved", "content": "a"}, {"id": "d-1", "status": "saved"}],
    }
    parent = doc(application_context=[entry])
    child_entry = copy.deepcopy(entry)
    child_entry["drafts"][0]["content"] = "b"
    child_entry["view"] = "Split"
    diff = pair(parent, child_of(parent, application_context=[child_entry]))
    drafts = section(diff, "drafts")
    (changed,) = drafts["changed"]
    assert changed["matched_by"] == "position"
    content = {"pointer": "/content", "op": "replace", "before": "a", "after": "b"}
    assert changed["changes"] == [content]
    assert drafts["unchanged"] == 1
    (entry_change,) = section(diff, "application_context")["changed"]
    assert entry_change["changes"] == [{"pointer": "/view", "op": "add", "after": "Split"}]


def test_statement_kind_and_origin_changes_are_listed():
    parent = doc(statements=[statement("s-1", "hypothesis", "agent")])
    child = child_of(parent, statements=[statement("s-1", "observation", "user")])
    (change,) = pair(parent, child)["statement_identity_changes"]
    assert change["kind"] == {"before": "hypothesis", "after": "observation"}
    assert change["origin_type"] == {"before": "agent", "after": "user"}


def test_verification_raised_is_listed_with_its_evidence():
    parent = doc(
        statements=[statement("s-1", verification={"state": "unverified"}, evidence=["r-1"])],
        resources=[{"id": "r-1", "uri": "https://example.com/1"}],
    )
    child = child_of(
        parent,
        statements=[
            statement(
                "s-1",
                verification={"state": "verified", "checked_at": "2026-11-20T08:00:00Z"},
                evidence=["r-1", "r-2"],
            )
        ],
        resources=[
            {"id": "r-1", "uri": "https://example.com/1"},
            {"id": "r-2", "uri": "https://example.com/2"},
        ],
    )
    (change,) = pair(parent, child)["verification_changes"]
    assert change["before"] == {"state": "unverified", "checked_at": None}
    assert change["after"] == {"state": "verified", "checked_at": "2026-11-20T08:00:00Z"}
    assert change["raised"] and change["new_evidence"]
    assert change["evidence_added"] == ["r-2"] and change["evidence_changed"]


# --- new and fixed findings --------------------------------------------------------------------


def test_new_and_fixed_findings_follow_their_object():
    parent = doc(
        statements=[
            statement("s-moves", origin="agent"),  # OCP-W002 in both, at another index
            statement("s-fixed", origin="agent"),  # OCP-W002 fixed in the child
        ],
        resources=[{"id": "r-1", "uri": "https://example.com/1"}],
    )
    child = child_of(
        parent,
        statements=[
            statement("s-first"),
            statement("s-fixed", origin="agent", evidence=["r-1"]),
            statement("s-moves", origin="agent"),
        ],
        progress={"next": [{"id": "n-1", "description": "x", "blocked_by": ["nowhere"]}]},
    )
    diff = pair(parent, child)
    new = [(f["code"], f["object_id"], f["path"]) for f in diff["findings"]["new"]]
    fixed = [(f["code"], f["object_id"], f["path"]) for f in diff["findings"]["fixed"]]
    assert new == [("OCP-S002", "n-1", "/progress/next/0/blocked_by/0")]
    assert fixed == [("OCP-W002", "s-fixed", "/statements/1")]
    assert diff["findings"]["persisting"] == 1


def test_findings_outside_any_object_match_by_path():
    parent = doc()
    parent["task"]["status"] = "blocked"  # OCP-W001 at /task/status
    child = child_of(parent)
    child["task"] = {"objective": "x", "status": "active"}
    diff = pair(parent, child)
    assert [(f["code"], f["object_id"]) for f in diff["findings"]["fixed"]] == [("OCP-W001", None)]
    assert diff["findings"]["new"] == []


# --- secrets -----------------------------------------------------------------------------------

PASSWORD = "Tr0ub4dor-S3cret-99"


def test_secret_values_never_appear():
    parent = doc(resources=[{"id": "r-1", "uri": "https://example.com/a"}])
    child = child_of(
        parent,
        resources=[
            {"id": "r-1", "uri": "https://example.com/a"},
            {"id": "r-2", "uri": f"https://deploy:{PASSWORD}@git.example.com/repo.git"},
        ],
        statements=[statement("s-1", text=f"The wiki gives the deploy password as {PASSWORD}.")],
        extensions={"com.example.ci": {"api_token": "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2}},
    )
    child_result = lint(encode(child), parent=encode(parent))
    assert any(f.code == "secret" for f in child_result.findings)
    diff = compare(encode(parent), encode(child))
    text = json.dumps(diff)
    assert PASSWORD not in text
    assert "A1b2C3d4E5f6G7h8I9j0" not in text
    added = section(diff, "resources")["added"][0]
    assert added["value"]["uri"] == REDACTED
    # no patch: with the credential it would repeat it, redacted it would not produce the child
    assert diff["patch"] is None
    assert "apparent credential" in diff["patch_withheld"]
    assert any("No JSON Patch" in note for note in diff["notes"])


def test_a_secret_member_name_is_redacted_in_pointers_too():
    key = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0" * 2
    parent = doc(extensions={"com.example.a": {"x": 1}})
    child = child_of(parent, extensions={"com.example.a": {"x": 1, key: "v"}})
    diff = compare(encode(parent), encode(child))
    assert "Z9y8X7w6V5u4T3s2R1q0" not in json.dumps(diff)


def test_changed_secret_shows_a_change_but_no_value():
    parent = doc(resources=[{"id": "r-1", "uri": f"https://u:{PASSWORD}@example.com/"}])
    child = child_of(
        parent, resources=[{"id": "r-1", "uri": "https://u:An0ther-Pa55word@example.com/"}]
    )
    diff = pair(parent, child)
    text = json.dumps(diff)
    assert PASSWORD not in text and "An0ther-Pa55word" not in text
    (changed,) = section(diff, "resources")["changed"]
    assert changed["changes"] == [
        {"pointer": "/uri", "op": "replace", "before": REDACTED, "after": REDACTED}
    ]


# --- broken documents --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "parent_bytes, child_bytes",
    [
        (b"{not json", encode(BASE)),
        (encode(BASE), b"\xef\xbb\xbf{}"),
        (b"[]", b"null"),
        (b"", b""),
        (encode(BASE), b'{"opencheckpoint": "0.2", "id": 1}'),
    ],
)
def test_unparseable_documents_do_not_raise(parent_bytes, child_bytes):
    diff = compare(parent_bytes, child_bytes)
    json.dumps(diff)
    assert diff["notes"]


WEIRD = {
    "opencheckpoint": "0.1",
    "id": ["not", "text"],
    "task": "a string where an object belongs",
    "progress": {"completed": "no", "next": [1, None, {"id": 5}], "focus": []},
    "statements": [
        "text",
        {"id": "s-1", "kind": ["observation"], "origin": "user", "verification": "yes"},
        {"id": "s-1", "kind": "question", "status": {"x": 1}},
    ],
    "operations": {"op-1": {"status": "planned"}},
    "application_context": [{"drafts": "none"}, {"id": "ac", "drafts": [3, {"id": []}]}],
    "continuation": [],
    "derivation": {"method": ["compacted"], "omissions": {}},
    "extensions": [1, 2],
    "unknown": {"a": "b"},
}


@pytest.mark.parametrize("flip", [False, True])
def test_schema_invalid_documents_of_any_shape_do_not_raise(flip):
    weird, valid = encode(WEIRD), PARENT_BYTES
    parent_bytes, child_bytes = (valid, weird) if flip else (weird, valid)
    diff = compare(parent_bytes, child_bytes)
    json.dumps(diff)
    assert any("level 1" in note for note in diff["notes"])
    assert field(diff, "/operations")["change"] == "changed"  # not an array: a field
    # and against itself, with small changes
    weird_child = copy.deepcopy(WEIRD)
    weird_child["statements"].append({"id": "s-2"})
    diff = compare(encode(WEIRD), encode(weird_child))
    assert json_equal(apply_patch(WEIRD, diff["patch"]), weird_child)
    assert any(e["id"] == "s-2" for e in section(diff, "statements")["added"])


# --- JSON Patch ---------------------------------------------------------------------------------

keys = st.one_of(st.text(max_size=6), st.sampled_from(["", "~", "/", "~1", "a/b", "~0~", "-", "0"]))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6), st.dictionaries(keys, children, max_size=6)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_patch_round_trip(a, b):
    before = copy.deepcopy(a)
    patch = json_patch(a, b)
    assert json_equal(apply_patch(a, patch), b)
    assert json_equal(a, before)  # neither json_patch nor apply_patch changes its input
    assert json_patch(a, a) == []
    for op in patch:
        assert op["op"] in ("add", "remove", "replace")
        assert op["path"] == "" or op["path"].startswith("/")


@settings(max_examples=200, deadline=None)
@given(st.lists(json_values, max_size=8), st.data())
def test_patch_round_trip_on_edited_arrays(items, data):
    edited = list(items)
    for _ in range(data.draw(st.integers(0, 3))):
        if edited and data.draw(st.booleans()):
            del edited[data.draw(st.integers(0, len(edited) - 1))]
        else:
            edited.insert(data.draw(st.integers(0, len(edited))), data.draw(json_values))
    assert json_equal(apply_patch(items, json_patch(items, edited)), edited)


objects_with_ids = st.lists(
    st.fixed_dictionaries(
        {"id": st.sampled_from([f"s-{i}" for i in range(8)])},
        optional={"v": st.integers(0, 3), "w": json_values},
    ),
    max_size=10,
)


@settings(max_examples=300, deadline=None)
@given(objects_with_ids, objects_with_ids, st.randoms(use_true_random=False))
def test_patch_round_trip_on_arrays_of_objects_with_ids(a, b, rng):
    shuffled = list(a)
    rng.shuffle(shuffled)
    for target in (b, shuffled, shuffled[1:] + b[:2]):
        assert json_equal(apply_patch(a, json_patch(a, target)), target)


def test_patch_removes_and_edits_objects_in_place():
    parent = [{"id": f"s-{i}", "text": "t"} for i in range(6)]
    child = [parent[0], parent[2], {"id": "s-3", "text": "edited"}, parent[5], parent[4]]
    patch = json_patch(parent, child)
    assert json_equal(apply_patch(parent, patch), child)
    assert {"op": "replace", "path": "/2/text", "value": "edited"} in patch
    assert [op for op in patch if op["op"] == "remove"][:2] == [
        {"op": "remove", "path": "/1"},
        {"op": "remove", "path": "/3"},
    ]
    assert len(patch) <= 5


def test_patch_escapes_and_array_indices():
    a = {"a/b": 1, "m~n": [1, 2, 3, 4], "": {"x": True}}
    b = {"a/b": 2, "m~n": [1, 3, 4, 5], "": {"x": 1}}
    patch = json_patch(a, b)
    assert {"op": "replace", "path": "/a~1b", "value": 2} in patch
    assert {"op": "replace", "path": "//x", "value": 1} in patch
    assert all(op["path"].startswith(("/a~1b", "/m~0n", "//")) for op in patch)
    assert json_equal(apply_patch(a, patch), b)
    # one insertion in the middle of an array is one add
    assert json_patch([1, 2, 3], [1, 9, 2, 3]) == [{"op": "add", "path": "/1", "value": 9}]
    assert json_patch([1, 2, 3], [1, 3]) == [{"op": "remove", "path": "/1"}]
    assert json_patch(1, "x") == [{"op": "replace", "path": "", "value": "x"}]


def test_apply_patch_refuses_what_does_not_apply():
    for patch in (
        [{"op": "remove", "path": "/missing"}],
        [{"op": "add", "path": "/a/5", "value": 1}],
        [{"op": "move", "from": "/a", "path": "/b"}],
        [{"op": "remove", "path": ""}],
        [{"op": "replace", "path": "/a/01", "value": 1}],
    ):
        with pytest.raises(ValueError):
            apply_patch({"a": [1, 2]}, patch)
    assert apply_patch({"a": [1]}, [{"op": "add", "path": "/a/-", "value": 2}]) == {"a": [1, 2]}


# --- the compaction rules ------------------------------------------------------------------------

PARENT = doc(
    id="urn:uuid:0195a000-0000-7000-8000-0000000000aa",
    statements=[
        statement("s-instr", "instruction", "user"),
        statement("s-con", "constraint", "system"),
        statement("s-dec", "decision", "agent", rationale="r"),
        statement("s-q", "question", "agent"),
        statement("s-q-done", "question", "agent", status="resolved", resolution="yes"),
        statement("s-hyp", "hypothesis", "agent", verification={"state": "unverified"}),
        statement("s-ext", "external", "external"),
    ],
    operations=[op("op-open", status="awaiting"), op("op-done", status="completed")],
    continuation={"stop_conditions": [{"id": "stop-1", "description": "x"}, {"description": "y"}]},
)
PARENT["created_at"] = "2026-11-20T08:00:00Z"


def derived(method: str | None, *, omissions=None, transformations=None, **members) -> dict:
    child = child_of(PARENT, **members)
    child["created_at"] = "2026-11-21T08:00:00Z"
    if method is not None:
        child["derivation"] = {"method": method}
        if omissions:
            child["derivation"]["omissions"] = omissions
        if transformations:
            child["derivation"]["transformations"] = transformations
    return child


OMISSION = [{"description": "something", "reason": "size"}]
TRANSFORMATION = [{"description": "condensed"}]


def test_the_lineage_codes_have_their_severities_and_rule_text():
    for code in NEW_CODES:
        rule = RULES[code]
        assert rule.severity == SEVERITIES.get(code, "warning") and rule.level == "lineage"
        assert rule.check is not None and "§" in (rule.check.__doc__ or "")


def test_lineage_kind():
    statements = copy.deepcopy(PARENT["statements"])
    statements[5] = statement("s-hyp", "observation", "agent")
    statements[6]["origin"] = {"type": "user"}
    statements[6]["kind"] = "instruction"
    child = derived(None, statements=statements)
    found = [c for c in lineage(child, PARENT) if c[0] == "lineage-kind"]
    assert found == [
        ("lineage-kind", "/statements/5/kind"),
        ("lineage-kind", "/statements/6/kind"),
        ("lineage-kind", "/statements/6/origin/type"),
    ]
    assert not [c for c in lineage(derived(None), PARENT) if c[0] == "lineage-kind"]


def test_lineage_kind_ignores_a_child_of_another_parent():
    child = derived(None, statements=[statement("s-instr", "constraint", "user")])
    child["parent"]["id"] = "urn:uuid:someone-else"
    assert [c[0] for c in lineage(child, PARENT)] == ["OCP-T002"]


@pytest.mark.parametrize(
    "verification, evidence, reported",
    [
        ({"state": "verified"}, [], True),  # unverified -> verified, nothing new
        ({"state": "verified", "checked_at": "2026-11-20T08:00:00Z"}, [], True),  # not later
        ({"state": "verified", "checked_at": "2026-11-20T09:00:00+02:00"}, [], True),  # 07:00Z
        ({"state": "verified", "checked_at": "2026-11-20T09:00:00Z"}, [], False),
        ({"state": "verified"}, ["r-new"], False),
        ({"state": "stale"}, [], False),
    ],
)
def test_lineage_verification(verification, evidence, reported):
    parent = doc(
        id="urn:uuid:0195a000-0000-7000-8000-0000000000ab",
        statements=[statement("s-1", verification={"state": "unverified"})],
    )
    parent["created_at"] = "2026-11-20T08:00:00Z"
    child = child_of(
        parent,
        statements=[
            statement(
                "s-1", verification=verification, **({"evidence": evidence} if evidence else {})
            )
        ],
        resources=[{"id": "r-new", "uri": "https://example.com/new"}],
    )
    child["created_at"] = "2026-11-21T08:00:00Z"
    expected = [("lineage-verification", "/statements/0/verification/state")] if reported else []
    assert [c for c in lineage(child, parent) if c[0] == "lineage-verification"] == expected


def test_lineage_verification_from_no_verification_at_all():
    parent = doc(id="urn:uuid:0195a000-0000-7000-8000-0000000000ac", statements=[statement("s-1")])
    child = child_of(parent, statements=[statement("s-1", verification={"state": "verified"})])
    assert ("lineage-verification", "/statements/0/verification/state") in lineage(child, parent)
    # already verified in the parent: not raised
    parent["statements"][0]["verification"] = {"state": "verified"}
    assert not [c for c in lineage(child, parent) if c[0] == "lineage-verification"]


def test_lineage_dropped_without_any_omission():
    child = derived(
        "compacted",
        transformations=TRANSFORMATION,
        statements=[PARENT["statements"][0], PARENT["statements"][4]],
        operations=[PARENT["operations"][1]],
        continuation={"stop_conditions": [{"description": "y, reworded"}]},
    )
    found = [c for c in lineage(child, PARENT) if c[0] == "lineage-dropped"]
    assert found == [
        ("lineage-dropped", "/statements"),  # s-con
        ("lineage-dropped", "/statements"),  # s-dec
        ("lineage-dropped", "/statements"),  # s-q (open); s-q-done, s-hyp, s-ext are not kept
        ("lineage-dropped", "/operations"),  # op-open
        ("lineage-dropped", "/continuation/stop_conditions"),  # stop-1; the id-less one reworded
    ]
    messages = [
        f.message
        for f in check_lineage(Checkpoint(child), Parent(Checkpoint(PARENT), encode(PARENT)))
        if f.code == "lineage-dropped"
    ]
    assert "'s-con' (at /statements/1)" in messages[0]


def test_lineage_dropped_points_at_the_document_when_the_array_is_gone():
    child = derived("forked", transformations=TRANSFORMATION)
    for member in ("statements", "operations", "continuation"):
        del child[member]
    found = [c for c in lineage(child, PARENT) if c[0] == "lineage-dropped"]
    assert found and all(path == "" for _, path in found)
    assert len(found) == 4 + 1 + 2  # four statements, one operation, two stop conditions


def test_lineage_dropped_is_quiet_with_omissions_or_another_method():
    dropped = {"statements": [], "operations": [], "continuation": {}}
    dropped["statements"] = [PARENT["statements"][0]]
    with_omissions = derived(
        "compacted", omissions=OMISSION, transformations=TRANSFORMATION, **dropped
    )
    captured = derived("captured", **dropped)
    kept_superseded = copy.deepcopy(PARENT["statements"])
    kept_superseded[1]["status"] = "superseded"
    kept_superseded[1]["superseded_by"] = "s-con-2"
    kept_superseded.append(statement("s-con-2", "constraint", "system"))
    carried = derived("forked", transformations=TRANSFORMATION, statements=kept_superseded)
    for child in (with_omissions, captured, carried):
        assert not [c for c in lineage(child, PARENT) if c[0] == "lineage-dropped"]


@pytest.mark.parametrize(
    "omissions, transformations, missing",
    [
        (None, None, ["derivation.omissions", "derivation.transformations"]),
        (OMISSION, None, ["derivation.transformations"]),
        (None, TRANSFORMATION, ["derivation.omissions"]),
        (OMISSION, TRANSFORMATION, []),
    ],
)
def test_lineage_compaction(omissions, transformations, missing):
    """A compaction that dropped a statement and rewrote another records both (§9.2)."""
    statements = copy.deepcopy(PARENT["statements"][1:])
    statements[0]["text"] = "Condensed: " + statements[0]["text"]
    child = derived(
        "compacted", omissions=omissions, transformations=transformations, statements=statements
    )
    result = lint(encode(child), parent=encode(PARENT))
    found = [f for f in result.lineage if f.code == "lineage-compaction"]
    assert [f.path for f in found] == (["/derivation"] if missing else [])
    for name in missing:
        assert f"records no {name}" in found[0].message or f"and no {name}" in found[0].message
    assert not [c for c in lineage(derived("forked"), PARENT) if c[0] == "lineage-compaction"]


def test_a_compaction_that_dropped_and_condensed_nothing_records_neither():
    """§9.2 asks a compaction to record what it dropped and what it condensed: one that did
    neither (the same statements, steps and operations) is not reported."""
    assert not [c for c in lineage(derived("compacted"), PARENT) if c[0] == "lineage-compaction"]


def test_diff_reports_the_new_rules_and_marks_dropped_objects_reported():
    child = derived("compacted", statements=PARENT["statements"][:1])
    diff = pair(PARENT, child)
    codes = {f["code"] for f in diff["lineage_findings"]}
    assert {"lineage-dropped", "lineage-compaction"} <= codes
    assert diff["compaction"]["dropped_reported"] is True


# --- the rule pages and the public conformance set, with the rules registered -------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
BLOCK = re.compile(r"^```json (failing|passing|parent)\n(.*?)^```", re.M | re.S)


@pytest.mark.parametrize("code", NEW_CODES)
def test_rule_page_examples_in_the_diff(code):
    """The failing example of each lineage check's page is reported (by `ocp lint --parent`
    and the diff alike), and is its only lineage finding; the passing one is clean."""
    text = (DOCS / f"{code}.md").read_text()
    blocks = {kind: body.encode() for kind, body in BLOCK.findall(text)}
    parent = lint(blocks["parent"])
    assert parent.valid
    failing = lint(blocks["failing"], parent=blocks["parent"])
    assert {f.code for f in (*failing.findings, *failing.lineage)} == {code}
    noted = lineage(failing.document, parent.document)
    assert noted and {c for c, _ in noted} == {code}, noted
    diff = compare(blocks["parent"], blocks["failing"])
    assert {f["code"] for f in diff["lineage_findings"] + diff["lineage_notes"]} == {code}
    passing = lint(blocks["passing"], parent=blocks["parent"])
    assert passing.findings == [] and passing.lineage == ()
    assert lineage(passing.document, parent.document) == []


@pytest.mark.parametrize("case", manifest(), ids=lambda c: c["file"])
def test_conformance_cases_get_no_new_finding(case):
    data = (CONFORMANCE / case["file"]).read_bytes()
    parent = (CONFORMANCE / case["parent"]).read_bytes() if case.get("parent") else None
    result = lint(data, parent=parent)
    checked = [*result.findings, *(f for f in result.lineage if f.severity != "note")]
    assert not [f.to_dict() for f in checked if f.code in NEW_CODES]
    assert result.valid == case["valid"]


# --- ordered lists ----------------------------------------------------------------------------


def test_reordering_an_ordered_list_is_a_change():
    """§6.3: next steps are "in suggested order", completed steps "oldest first"; §6.8: recovery
    actions "in order". Reordering them changes what a destination does first."""
    parent = doc(
        progress={
            "next": [
                {"id": "n-1", "description": "Verify the refund."},
                {"id": "n-2", "description": "Email the customer."},
                {"id": "n-3", "description": "Close the case."},
            ]
        },
        continuation={
            "recovery": [
                {"id": "rec-1", "description": "Check the payment record."},
                {"id": "rec-2", "description": "Re-read the thread."},
            ]
        },
    )
    child = copy.deepcopy(parent)
    child["progress"]["next"] = [
        child["progress"]["next"][1],
        child["progress"]["next"][0],
        child["progress"]["next"][2],
    ]
    child["continuation"]["recovery"].reverse()
    diff = pair(parent, child)
    nexts = section(diff, "next")
    assert nexts["ordered"] and nexts["counts"]["moved"] == 1
    (moved,) = nexts["moved"]
    assert moved["id"] in ("n-1", "n-2")
    assert section(diff, "recovery")["counts"]["moved"] == 1
    assert diff["summary"]["moved"] == 2
    # an unordered list: the same shuffle is no change
    statements = [statement("s-a"), statement("s-b")]
    unordered = pair(doc(statements=statements), doc(statements=statements[::-1]))
    assert section(unordered, "statements")["moved"] == []
    assert unordered["summary"]["moved"] == 0


def test_one_object_moved_to_the_front_is_one_move():
    steps = [{"id": f"n-{i}", "description": f"Step {i}."} for i in range(6)]
    parent = doc(progress={"next": steps})
    child = doc(progress={"next": [steps[5], *steps[:5]]})
    moved = section(pair(parent, child), "next")["moved"]
    assert [m["id"] for m in moved] == ["n-5"]
    assert moved[0] == {"id": "n-5", "matched_by": "id", "parent_position": 5, "child_position": 0}


# --- the words of a rewritten string ------------------------------------------------------------


def test_words_a_rewritten_statement_shows_the_words_removed_and_added():
    parent = doc(statements=[statement("s-limit", "constraint", "user")])
    parent["statements"][0]["text"] = "Refunds above EUR 500 need Tier 2 approval."
    child = child_of(parent)
    child["statements"][0]["text"] = "Refunds above EUR 5000 need Tier 2 approval."
    diff = compare(encode(parent), encode(child), words=True)
    (entry,) = [e for sec in diff["sections"] for e in sec["changed"]]
    (change,) = entry["changes"]
    assert change["words"] == [
        {"op": "equal", "text": "Refunds above EUR "},
        {"op": "delete", "text": "500"},
        {"op": "insert", "text": "5000"},
        {"op": "equal", "text": " need Tier 2 approval."},
    ]


def test_words_are_left_out_past_the_limit_and_cost_linear_time():
    from app.diff import WORDS_COMPARED, changed_words

    long_a = " ".join(f"a{i}" for i in range(WORDS_COMPARED))
    long_b = " ".join(f"b{i}" for i in range(WORDS_COMPARED))
    assert changed_words(long_a, long_b) is None  # 2x the words on a side: shown whole
    short = " ".join("w" for _ in range(WORDS_COMPARED // 2 - 1))
    runs = changed_words(short, short + " x")
    assert runs is not None and runs[-1] == {"op": "insert", "text": " x"}
