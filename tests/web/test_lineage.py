"""Stored lineage on both stores, resolved by evidence: the tree of proven links, the parent by
link, by digest or by claim, what a claim can and cannot do, sibling forks, and a stored
child's permalink checked against its parent (§8.2: with both documents, OCP-T001/T002)."""

import copy
import hashlib
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

import app.web.analyses
import app.web.lineage
from app.config import Settings
from app.web import create_app
from app.web.analyses import AnalysisCache
from app.web.lineage import LINEAGE_ANALYSES, MAX_CHECKED
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
FORK = (CONFORMANCE / "valid-coding-refactor-fork.ocp.json").read_bytes()
MISMATCH = (CONFORMANCE / "digest-parent-mismatch.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(backend, clock):
    with TestClient(create_app(Settings(database_url=backend.url), clock=clock)) as c:
        yield c


def store(client, data, parent=None):
    url = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    response = client.post(url, content=data, headers=JSON_TYPE)
    assert response.status_code == 201, response.text
    return response.json()["storage_id"]


def lineage(client, storage_id):
    return client.get(f"/c/{storage_id}/lineage.json").json()


def stored(client, storage_id):
    return client.get(f"/c/{storage_id}.json").json()


def test_tree_of_proven_links(client):
    parent = store(client, PARENT)
    child, fork = store(client, CHILD, parent), store(client, FORK, parent)
    page = client.get(f"/c/{child}/lineage")
    assert page.status_code == 200
    html = page.text
    assert "<svg" in html and "<script" not in html.split("</head>")[1]
    for storage_id in (parent, child, fork):
        assert f'href="/c/{storage_id}"' in html
    model = lineage(client, child)
    relations = {e["storage_id"]: e["relation"] for e in model["entries"]}
    assert relations == {parent: "parent", child: "this checkpoint", fork: "fork"}
    assert len(model["drawing"]["edges"]) == 2
    assert model["parent"]["state"] == "linked" and model["parent"]["digest"] == "match"
    assert model["parent"]["link"] == f"/c/{parent}"


def test_the_parent_named_at_upload_must_be_the_one_the_child_names(client):
    other = store(client, (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())
    refused = client.post(f"/api/v1/checkpoints?parent={other}", content=CHILD, headers=JSON_TYPE)
    assert refused.status_code == 409  # another document than the one the child names
    assert "not the one this checkpoint names" in refused.json()["error"]
    missing = client.post(
        "/api/v1/checkpoints?parent=AAAAAAAAAAAAAAAAAAAAAAAA", content=CHILD, headers=JSON_TYPE
    )
    assert missing.status_code == 404  # nothing is stored there
    parent = store(client, PARENT)
    tampered = client.post(
        f"/api/v1/checkpoints?parent={parent}", content=MISMATCH, headers=JSON_TYPE
    )
    assert tampered.status_code == 409 and "parent.digest" in tampered.json()["error"]


def test_a_parent_found_by_digest_is_checked_but_not_linked(client):
    parent = store(client, PARENT)  # stored by someone else, its storage id never given
    child = store(client, CHILD)
    model = stored(client, child)
    assert model["stored"]["parent"]["state"] == "verified"
    assert model["stored"]["parent"]["link"] is None and model["stored"]["diff"] is None
    assert parent not in json.dumps(model)
    assert parent not in client.get(f"/c/{child}").text
    assert parent not in json.dumps(lineage(client, child))
    # the diff shows the parent's content: only for a parent stored with the child
    assert client.get(f"/c/{child}/diff").status_code == 404


def test_no_parent_stored_and_digest_matching_nothing(client):
    lonely = store(client, CHILD)
    assert stored(client, lonely)["stored"]["parent"]["state"] == "not_stored"
    store(client, PARENT)
    mismatch = store(client, MISMATCH)
    parent = stored(client, mismatch)["stored"]["parent"]
    assert parent["state"] == "unmatched" and parent["claimants"] == 1
    assert "changed after this checkpoint was derived" in parent["sentence"]


def reopening_child(parent_bytes: bytes, *, digest: bool) -> bytes:
    """A child that reopens an operation its parent records as completed, and is dated before
    its parent: OCP-T001 and OCP-T002 with both documents at hand."""
    parent = json.loads(parent_bytes)
    child = copy.deepcopy(parent)
    child["id"] = "urn:uuid:019a7c61-0b38-7d74-a6fa-3b1c4d5e6fff"
    child["parent"] = {"id": parent["id"]}
    if digest:
        child["parent"]["digest"] = "sha-256:" + hashlib.sha256(parent_bytes).hexdigest()
    child["created_at"] = "2026-11-01T00:00:00Z"
    completed = next(op for op in child["operations"] if op["status"] == "completed")
    completed["status"] = "planned"
    for field in ("requested_at", "last_attempt_at"):
        completed.pop(field, None)
    return json.dumps(child, indent=2).encode()


@pytest.mark.parametrize("linked", [True, False])
def test_a_stored_child_is_checked_against_its_stored_parent(client, linked):
    parent = store(client, PARENT)
    child = store(client, reopening_child(PARENT, digest=True), parent if linked else None)
    twin = stored(client, child)
    codes = {f["code"] for f in twin["report"]["findings"]}
    assert {"OCP-T001", "OCP-T002"} <= codes
    assert twin["report"]["valid"] is False
    page = client.get(f"/c/{child}").text
    assert "<strong>invalid</strong>" in page
    assert '<meta property="og:title" content="OpenCheckpoint · invalid' in page
    focus = next(e for e in lineage(client, child)["entries"] if e["storage_id"] == child)
    if linked:
        assert focus["valid"] is False


def test_an_anonymous_upload_claiming_the_id_cannot_hide_a_reopened_operation(client):
    parent_doc = json.loads(PARENT)
    store(client, PARENT)
    child = store(client, reopening_child(PARENT, digest=True))
    impostor = copy.deepcopy(parent_doc)
    for op in impostor["operations"]:
        op["status"] = "planned" if op["status"] == "completed" else op["status"]
    store(client, json.dumps(impostor).encode())  # same id, other bytes
    twin = stored(client, child)
    assert "OCP-T001" in {f["code"] for f in twin["report"]["findings"]}
    assert twin["stored"]["parent"]["state"] == "verified"


def test_without_a_digest_two_different_claimants_are_ambiguous(client):
    parent_doc = json.loads(PARENT)
    store(client, PARENT)
    child = store(client, reopening_child(PARENT, digest=False))
    twin = stored(client, child)
    assert twin["stored"]["parent"]["state"] == "claimed"
    # A claim is not evidence: the claimed parent is not compared, so its content (here, the
    # completed operation the child reopens) is not read out to whoever names its id.
    assert not {"OCP-T001", "OCP-T002"} & {f["code"] for f in twin["report"]["findings"]}
    assert twin["stored"]["parent"]["compared"] is False
    assert "no lineage check applies" in twin["stored"]["parent"]["sentence"]
    impostor = copy.deepcopy(parent_doc)
    impostor["task"]["objective"] = "Another document under the same id."
    store(client, json.dumps(impostor).encode())
    client.app.state.page_cache = type(client.app.state.page_cache)()
    twin = stored(client, child)
    assert twin["stored"]["parent"]["state"] == "ambiguous"
    assert "none is chosen" in twin["stored"]["parent"]["sentence"]
    # two copies of the same bytes are one document, not two claimants
    store(client, PARENT)
    client.app.state.page_cache = type(client.app.state.page_cache)()
    assert stored(client, child)["stored"]["parent"]["claimants"] == 2


def test_a_stored_checkpoint_says_a_newer_one_is_stored(client):
    parent = store(client, PARENT)
    child = store(client, CHILD, parent)
    newer = stored(client, parent)["stored"]["newer"]
    assert newer["any"] and newer["linked"][0]["link"] == f"/c/{child}"
    page = client.get(f"/c/{parent}").text
    assert "A newer checkpoint of this lineage is stored here" in page
    assert f'href="/c/{child}"' in page
    # … and the summary at the top says so first
    summary = page[
        page.index('id="summary"') : page.index("</section>", page.index('id="summary"'))
    ]
    assert "A newer checkpoint</strong> of this lineage is stored here" in summary
    assert "newer checkpoint" not in client.get(f"/c/{child}").text.split('id="summary"')[1][:3000]


def test_a_newer_checkpoint_found_by_digest_is_named_not_linked(client):
    parent = store(client, PARENT)
    child = store(client, CHILD)  # records the parent's digest, not its link
    newer = stored(client, parent)["stored"]["newer"]
    assert newer["verified"] == 1 and newer["linked"] == []
    assert child not in client.get(f"/c/{parent}").text


def test_claims_are_counted_never_linked(client):
    parent = store(client, PARENT)
    child = store(client, CHILD, parent)
    claimant = store(client, FORK)  # names the same parent id, no proof
    model = lineage(client, child)
    assert claimant not in json.dumps(model)
    assert model["claimed"]["children"] == 0
    assert lineage(client, parent)["claimed"]["children"] == 1


def test_forks_that_leave_the_same_action_open_are_reported(client):
    parent = json.loads(PARENT)
    parent_id = store(client, PARENT)
    ids = []
    for n in range(2):
        fork = copy.deepcopy(parent)
        fork["id"] = f"urn:uuid:019a7c61-0b38-7d74-a6fa-3b1c4d5e6f1{n}"
        fork["created_at"] = "2026-11-18T09:45:00Z"
        fork["parent"] = {"id": parent["id"]}
        fork["derivation"] = {
            "method": "forked",
            "inputs": [{"kind": "checkpoint", "id": parent["id"]}],
        }
        fork["continuation"].pop("stop_conditions")
        ids.append(store(client, json.dumps(fork).encode(), parent_id))
    # a second copy of the first fork's bytes is the same fork, not a third
    first = client.get(f"/c/{ids[0]}/raw").content
    store(client, first, parent_id)
    model = lineage(client, ids[0])
    conflicts = {c["operation"]: c for c in model["forks"]["conflicts"]}
    assert "op-open-pr" in conflicts
    assert sorted(conflicts["op-open-pr"]["actionable_in"]) == sorted(ids)
    assert len(model["forks"]["compared"]) == 2
    assert "actionable in more than one fork" in client.get(f"/c/{ids[0]}/lineage").text


def test_expired_checkpoints_leave_the_tree(client, clock):
    from datetime import timedelta

    response = client.post("/api/v1/checkpoints?lifetime=1h", content=PARENT, headers=JSON_TYPE)
    parent = response.json()["storage_id"]
    child = store(client, CHILD, parent)
    clock.advance(timedelta(hours=2))
    model = lineage(client, child)
    assert parent not in {e["storage_id"] for e in model["entries"]}
    assert client.get(f"/c/{parent}/lineage").status_code == 410


def forks_of(client, parent_bytes: bytes, parent: str, count: int) -> list[str]:
    """``count`` distinct forks of the stored parent, each stored with its link."""
    doc = json.loads(parent_bytes)
    stored_ids = []
    for n in range(count):
        fork = copy.deepcopy(doc)
        fork["id"] = f"urn:x:fork-{n}"
        fork["parent"] = {"id": doc["id"]}
        fork["derivation"] = {
            "method": "forked",
            "inputs": [{"kind": "checkpoint", "id": doc["id"]}],
        }
        stored_ids.append(store(client, json.dumps(fork).encode(), parent))
    return stored_ids


class Counted:
    """Counts calls of a function replaced in a module for one test."""

    def __init__(self, monkeypatch, module, name: str) -> None:
        self.calls = 0
        original = getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


def test_a_second_view_of_the_same_lineage_analyses_nothing(client, monkeypatch):
    parent = store(client, PARENT)
    child = store(client, CHILD, parent)
    forks = forks_of(client, PARENT, parent, 3)
    client.app.state.analyses = AnalysisCache(client.app.state.settings.limits)  # none kept
    analyses = Counted(monkeypatch, app.web.analyses, "analyze")
    pairs = Counted(monkeypatch, app.web.lineage, "pair")
    comparisons = Counted(monkeypatch, app.web.lineage, "fork_conflicts")
    first = lineage(client, forks[0])
    assert analyses.calls == 5 and pairs.calls == 4 and comparisons.calls == 1
    assert len(first["forks"]["compared"]) == 3
    verdicts = {e["storage_id"]: e["valid"] for e in first["entries"]}
    reads = Counted(monkeypatch, client.app.state.store, "get")
    for focus in (forks[0], forks[1], child, parent):  # the same lineage, seen from anywhere
        again = lineage(client, focus)
        assert {e["storage_id"]: e["valid"] for e in again["entries"]} == verdicts
    # forks[1]'s view compares the same three forks; the child's and parent's have none
    assert analyses.calls == 5 and pairs.calls == 4 and comparisons.calls == 1
    # the analyses kept by digest do not even need to be there: the verdicts are kept apart
    client.app.state.analyses = AnalysisCache(client.app.state.settings.limits)
    again = lineage(client, forks[2])
    assert {e["storage_id"]: e["valid"] for e in again["entries"]} == verdicts
    assert again["forks"] == first["forks"]
    assert analyses.calls == 5
    assert reads.calls == 5  # each view read its own document's bytes, and no other


def test_a_view_reads_a_bounded_number_of_documents(client, monkeypatch):
    parent = store(client, PARENT)
    forks = forks_of(client, PARENT, parent, MAX_CHECKED + 4)
    reads = Counted(monkeypatch, client.app.state.store, "get")
    model = lineage(client, forks[0])
    assert reads.calls <= MAX_CHECKED
    assert len(model["entries"]) == MAX_CHECKED + 5  # every member is listed from metadata
    unread = [e for e in model["entries"] if e["checked_with_parent"] is None]
    assert len(unread) == model["unjudged"] == 5
    page = client.get(f"/c/{forks[0]}/lineage").text
    assert "5 of these stored checkpoints were not checked against their parents" in page


class HeldAnalyses(AnalysisCache):
    """Analyses that wait until the test lets them go, and count how many wait at once."""

    def __init__(self, limits) -> None:
        super().__init__(limits)
        self.release = threading.Event()
        self.entered = threading.Semaphore(0)
        self.inside = self.most = 0
        self._count = threading.Lock()

    def get(self, digest, data):
        with self._count:
            self.inside += 1
            self.most = max(self.most, self.inside)
        self.entered.release()
        try:
            self.release.wait(30)
            return super().get(digest, data)
        finally:
            with self._count:
                self.inside -= 1


def test_concurrent_lineage_views_leave_the_store_and_other_routes_free(backend, clock):
    """With two store slots, eight lineage views at once, their analyses held: every store
    route and the linter still answer, and no more than LINEAGE_ANALYSES views analyse."""
    settings = Settings(database_url=backend.url, store_pool_size=2, store_timeout=5.0)
    with TestClient(create_app(settings, clock=clock)) as client:
        parent = store(client, PARENT)
        child = store(client, CHILD, parent)
        forks = forks_of(client, PARENT, parent, 2)
        held = client.app.state.analyses = HeldAnalyses(settings.limits)
        try:
            with ThreadPoolExecutor(max_workers=8) as pool:
                views = [
                    pool.submit(client.get, f"/c/{sid}/lineage.json")
                    for sid in [parent, child, *forks] * 2
                ]
                for _ in range(LINEAGE_ANALYSES):
                    assert held.entered.acquire(timeout=10)  # analysing, off the store
                listing = f"/api/v1/checkpoints?checkpoint_id=urn:x:fork-0&holding={forks[0]}"
                for path in (f"/c/{child}/raw", f"/c/{forks[0]}/delete", listing, "/readyz"):
                    assert client.get(path).status_code == 200, path
                another = store(client, FORK)  # a write (with ?parent= it would analyse)
                assert client.get(f"/c/{another}/raw").status_code == 200
                lint = client.post("/api/v1/lint", content=CHILD, headers=JSON_TYPE)
                assert lint.status_code == 200
                assert not any(v.done() for v in views)
                held.release.set()
                assert [v.result(timeout=60).status_code for v in views] == [200] * 8
        finally:
            held.release.set()
        assert held.most == LINEAGE_ANALYSES


def test_past_the_waiting_bound_a_lineage_view_is_503_and_nothing_else_is(client, monkeypatch):
    monkeypatch.setattr(app.web.lineage, "MAX_WAITING", 1)
    parent = store(client, PARENT)
    child = store(client, CHILD, parent)
    held = client.app.state.analyses = HeldAnalyses(client.app.state.settings.limits)
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            views = [pool.submit(client.get, f"/c/{sid}/lineage.json") for sid in (parent, child)]
            for _ in range(LINEAGE_ANALYSES):
                assert held.entered.acquire(timeout=10)
            views.append(pool.submit(client.get, f"/c/{child}/lineage"))
            lanes = client.app.state.lineage_lanes
            for _ in range(1000):  # until the third view waits for a lane
                if lanes.views.statistics().tasks_waiting == 1:
                    break
                threading.Event().wait(0.01)
            refused = client.get(f"/c/{parent}/lineage")
            assert refused.status_code == 503 and refused.headers["retry-after"] == "5"
            assert "lineage pages" in refused.text
            assert client.get(f"/c/{child}/raw").status_code == 200
            held.release.set()
            assert [v.result(timeout=60).status_code for v in views] == [200] * 3
    finally:
        held.release.set()


def test_the_lineage_page_names_its_json_twin(client):
    """The page links its twin, visibly and as an alternate: a crawl of the pages reaches it
    (a review as a new user found it only through the OpenAPI document)."""
    storage_id = store(client, PARENT)
    page = client.get(f"/c/{storage_id}/lineage").text
    twin = f"/c/{storage_id}/lineage.json"
    assert f'<link rel="alternate" type="application/json" href="{twin}">' in page
    assert f'<a href="{twin}" type="application/json">as JSON</a>' in page
    assert client.get(twin).status_code == 200
