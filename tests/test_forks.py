"""Sibling forks (§9.3): a side-effecting action left actionable in more than one fork."""

import copy
import json

from app.analysis import analyze, lint
from app.forks import fenced_operations, fork_conflicts, side_effecting_actions
from app.redaction import REDACTED
from tests.conftest import CONFORMANCE

PARENT = json.loads((CONFORMANCE / "valid-coding-refactor.ocp.json").read_text())
FORK = json.loads((CONFORMANCE / "valid-coding-refactor-fork.ocp.json").read_text())


def unfenced(fork: dict) -> dict:
    """The fork without its stop conditions: op-open-pr becomes actionable."""
    document = copy.deepcopy(fork)
    document["id"] = document["id"][:-2] + "99"
    del document["continuation"]["stop_conditions"]
    if not document["continuation"]:
        del document["continuation"]
    for transformation in document["derivation"]["transformations"]:
        transformation["affected"] = [
            i for i in transformation["affected"] if not i.startswith("stop-")
        ]
    return document


def test_the_fixture_fork_fences_the_pull_request():
    assert "op-open-pr" in side_effecting_actions(FORK)
    assert "op-open-pr" in fenced_operations(FORK)
    assert fork_conflicts(PARENT, [("a", FORK), ("b", FORK)]) == []


def test_one_actionable_fork_is_allowed():
    assert fork_conflicts(PARENT, [("fenced", FORK), ("acting", unfenced(FORK))]) == []


def test_two_actionable_forks_conflict():
    forks = [("fenced", FORK), ("b", unfenced(FORK)), ("c", unfenced(FORK))]
    (conflict,) = fork_conflicts(PARENT, forks)
    assert conflict["operation"] == "op-open-pr"
    assert conflict["actionable_in"] == ["b", "c"]
    assert conflict["fenced_in"] == ["fenced"]
    assert conflict["absent_from"] == []
    assert conflict["effect"] == "non_idempotent"
    assert conflict["status_by_fork"] == {"fenced": "uncertain", "b": "uncertain", "c": "uncertain"}
    # the parent's description: the operation as the forks inherited it
    assert conflict["description"].startswith("Open a draft pull request")
    assert "connection reset" in conflict["description"]
    json.dumps(conflict)
    # both unfenced forks are valid documents: each alone only gets OCP-W004
    codes = {f.code for f in lint(json.dumps(unfenced(FORK)).encode()).findings}
    assert codes == {"OCP-W004"}


def base_fork(label: str, operations: list[dict], stops: list[dict] | None = None) -> dict:
    document = {
        "opencheckpoint": "0.1",
        "id": f"urn:uuid:fork-{label}",
        "created_at": "2026-11-20T08:00:00Z",
        "parent": {"id": "urn:uuid:parent"},
        "source": {"producer": "test"},
        "task": {"objective": "x", "status": "active"},
        "operations": operations,
        "derivation": {"method": "forked"},
    }
    if stops:
        document["continuation"] = {"stop_conditions": stops}
    return document


def action(id_, **extra):
    return {"id": id_, "kind": "action", "status": "planned", "description": f"do {id_}", **extra}


def test_what_counts_as_a_side_effecting_action():
    operations = [
        action("op-absent-effect"),  # absent effect counts as not none
        action("op-unknown", effect="unknown"),
        action("op-none", effect="none"),
        action("op-done", status="completed", effect="non_idempotent"),
        action("op-cancelled", status="cancelled"),
        action("op-failed", status="failed", effect="idempotent"),
        {"id": "op-approval", "kind": "approval", "status": "awaiting", "description": "a"},
    ]
    forks = [(label, base_fork(label, copy.deepcopy(operations))) for label in ("a", "b")]
    conflicts = fork_conflicts(None, forks)
    assert [c["operation"] for c in conflicts] == ["op-absent-effect", "op-unknown", "op-failed"]
    assert all(c["actionable_in"] == ["a", "b"] for c in conflicts)


def test_fences_by_refs_and_applies_to_but_not_until():
    ops = [action("op-1"), action("op-2"), action("op-3")]
    a = base_fork(
        "a",
        copy.deepcopy(ops),
        [
            {"description": "x", "applies_to": ["op-1"]},
            {"description": "y", "refs": ["op-2"]},
            {"description": "z", "until": [{"operation": "op-3", "status": "completed"}]},
        ],
    )
    b = base_fork("b", copy.deepcopy(ops))
    c = base_fork("c", copy.deepcopy(ops))
    conflicts = {x["operation"]: x for x in fork_conflicts(None, [("a", a), ("b", b), ("c", c)])}
    assert conflicts["op-1"]["fenced_in"] == ["a"] and conflicts["op-1"]["actionable_in"] == [
        "b",
        "c",
    ]
    assert conflicts["op-2"]["fenced_in"] == ["a"]
    assert conflicts["op-3"]["actionable_in"] == ["a", "b", "c"]  # until alone fences nothing


def test_removed_or_terminal_in_a_fork_is_absent_from_it():
    a = base_fork("a", [action("op-1")])
    b = base_fork("b", [action("op-1")])
    c = base_fork("c", [])
    d = base_fork("d", [action("op-1", status="completed")])
    (conflict,) = fork_conflicts(None, [("a", a), ("b", b), ("c", c), ("d", d)])
    assert conflict["absent_from"] == ["c", "d"]


def test_with_a_parent_only_inherited_operations_count():
    parent = base_fork("p", [action("op-inherited")])
    forks = [
        (label, base_fork(label, [action("op-inherited"), action("op-new-in-each")]))
        for label in ("a", "b")
    ]
    assert [c["operation"] for c in fork_conflicts(parent, forks)] == ["op-inherited"]
    assert {c["operation"] for c in fork_conflicts(None, forks)} == {
        "op-inherited",
        "op-new-in-each",
    }


def test_a_flagged_description_is_redacted():
    """The lineage page gives the forks' redacted documents (Analysis.redacted)."""
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2
    described = action("op-1", description=f"Push with the token {token} to the remote")
    forks = [
        (label, analyze(json.dumps(base_fork(label, [copy.deepcopy(described)])).encode()).redacted)
        for label in ("a", "b")
    ]
    (conflict,) = fork_conflicts(None, forks)
    assert token not in json.dumps(conflict)
    assert REDACTED in conflict["description"]


def test_documents_of_any_shape_do_not_raise():
    weird = [
        ("a", {"operations": "none"}),
        ("b", {"operations": [1, None, {"id": ["x"]}, {"id": "op", "status": ["planned"]}]}),
        ("c", {"continuation": {"stop_conditions": [{"refs": "op"}]}, "operations": {}}),
        ("d", None),
        ("e", []),
    ]
    assert fork_conflicts(None, weird) == []  # type: ignore[arg-type]
    assert fork_conflicts({"operations": 3}, weird) == []  # type: ignore[arg-type]
    assert fork_conflicts(None, []) == []
    # an unhashable status is not terminal, and an action with it still counts
    odd = [(x, {"operations": [{"id": "op", "kind": "action", "status": [1]}]}) for x in "ab"]
    assert [c["operation"] for c in fork_conflicts(None, odd)] == ["op"]
