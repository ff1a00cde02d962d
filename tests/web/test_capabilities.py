"""Capabilities that stay secret: a document id is not a secret, a storage id and a deletion
token are. The listing by document id and the lineage page name storage ids only to a caller
that proves it holds a member of that lineage, and only the members proven links reach; a
document that merely claims a relation proves nothing and learns nothing."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
FORK = (CONFORMANCE / "valid-coding-refactor-fork.ocp.json").read_bytes()
PARENT_ID = json.loads(PARENT)["id"]
JSON_TYPE = {"content-type": "application/json"}
UPLOAD_TOKEN = "upload-token-for-the-tests-0123456789"


@pytest.fixture
def client(backend, clock):
    with TestClient(create_app(Settings(database_url=backend.url), clock=clock)) as c:
        yield c


def store(client: TestClient, data: bytes, parent: str | None = None, **headers: str) -> dict:
    url = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    response = client.post(url, content=data, headers={**JSON_TYPE, **headers})
    assert response.status_code == 201, response.text
    return response.json()


def forged_child(parent_id: str, *, digest: str | None = None, compacted: bool = True) -> bytes:
    """What an attacker who knows only a document id stores: a small child naming it."""
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    doc["id"] = "urn:x:forged-child"
    doc["parent"] = {"id": parent_id, **({"digest": digest} if digest else {})}
    if compacted:
        doc["derivation"] = {
            "method": "compacted",
            "inputs": [{"kind": "checkpoint", "id": parent_id}],
        }
    return json.dumps(doc).encode()


def impostor() -> bytes:
    """Another document under the parent's id."""
    doc = json.loads(PARENT)
    doc["task"]["objective"] = "An impostor under the same id."
    return json.dumps(doc).encode()


def listing(client: TestClient, checkpoint_id: str = PARENT_ID, **options: str):
    headers = {}
    if "token" in options:
        headers["authorization"] = f"Bearer {options.pop('token')}"
    return client.get(
        "/api/v1/checkpoints", params={"checkpoint_id": checkpoint_id, **options}, headers=headers
    )


@pytest.fixture
def family(client: TestClient) -> dict[str, dict]:
    """A parent with a linked child and a linked fork (their uploaders held the parent's
    link), and what an attacker who knows the parent's id can store."""
    parent = store(client, PARENT)
    return {
        "parent": parent,
        "child": store(client, CHILD, parent["storage_id"]),
        "fork": store(client, FORK, parent["storage_id"]),
        "forged": store(client, forged_child(PARENT_ID)),
        "impostor": store(client, impostor()),
    }


def proven(family: dict[str, dict]) -> set[str]:
    return {family[k]["storage_id"] for k in ("parent", "child", "fork")}


def test_without_proof_the_listing_counts_and_names_nothing(client, family):
    response = listing(client)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["proof"] == "none" and body["entries"] == []
    # the parent and the impostor carry the id; child, fork and forged child name it
    assert body["stored"] == {"documents": 2, "naming_it_as_parent": 3, "at_least": False}
    text = response.text
    for created in family.values():
        assert created["storage_id"] not in text
        assert created["digest"].split(":")[1] not in text  # a digest opens the verified path
    assert "?holding=" in body["note"]


def test_a_forged_child_cannot_reveal_its_claimed_parents_storage_id(client, family):
    forged = family["forged"]
    hidden = proven(family) | {family["impostor"]["storage_id"]}
    answers = [
        listing(client, holding=forged["storage_id"]),
        listing(client, token=forged["deletion_token"]),
        listing(client, holding=forged["storage_id"], token=forged["deletion_token"]),
        client.get(f"/c/{forged['storage_id']}/lineage"),
        client.get(f"/c/{forged['storage_id']}/lineage.json"),
        client.get(f"/c/{forged['storage_id']}"),
        client.get(f"/c/{forged['storage_id']}.json"),
    ]
    for response in answers:
        assert response.status_code == 200
        for storage_id in hidden:
            assert storage_id not in response.text, response.request.url
    assert answers[0].json()["proof"] == "not_a_member"
    assert answers[0].json()["entries"] == []
    page = answers[4].json()
    assert page["claimed"]["parents"] == 2  # the parent and the impostor: counted
    assert {e["storage_id"] for e in page["entries"]} == {forged["storage_id"]}


def test_a_claimed_parent_is_not_read_out_through_the_claimants_findings(client, family):
    """Compared with the document it claims, a forged child would list that document's
    statement and operation ids as dropped (lineage-dropped): reading it by its id alone."""
    twin = client.get(f"/c/{family['forged']['storage_id']}.json")
    assert twin.json()["stored"]["parent"]["state"] == "ambiguous"
    gone = family["impostor"]
    client.delete(
        f"/api/v1/checkpoints/{gone['storage_id']}",
        headers={"authorization": f"Bearer {gone['deletion_token']}"},
    )
    client.app.state.page_cache = type(client.app.state.page_cache)()
    twin = client.get(f"/c/{family['forged']['storage_id']}.json")
    assert twin.json()["stored"]["parent"]["state"] == "claimed"
    codes = {f["code"] for f in twin.json()["report"]["findings"]}
    assert not codes & {"lineage-dropped", "OCP-T001", "OCP-T002"}
    for parent_object in ("s-instr-behaviour", "op-open-pr", "stop-pr"):
        assert parent_object in PARENT.decode()
        assert parent_object not in twin.text
        assert parent_object not in client.get(f"/c/{family['forged']['storage_id']}").text


def test_a_forged_child_with_the_parents_digest_gets_no_link_either(client, family):
    forged = store(client, forged_child(PARENT_ID, digest=family["parent"]["digest"]))
    for path in ("", ".json", "/lineage", "/lineage.json"):
        text = client.get(f"/c/{forged['storage_id']}{path}").text
        for storage_id in proven(family):
            assert storage_id not in text
    assert listing(client, holding=forged["storage_id"]).json()["entries"] == []
    assert client.get(f"/c/{forged['storage_id']}/diff").status_code == 404


def test_an_impostor_under_the_id_sees_only_its_own_component(client, family):
    """It carries the id, so it is a member of a lineage with that id: its own."""
    mine = family["impostor"]
    body = listing(client, holding=mine["storage_id"]).json()
    assert body["proof"] == "member"
    assert [e["storage_id"] for e in body["entries"]] == [mine["storage_id"]]
    response = listing(client, token=mine["deletion_token"])
    assert [e["storage_id"] for e in response.json()["entries"]] == [mine["storage_id"]]
    for storage_id in proven(family):
        assert storage_id not in response.text


@pytest.mark.parametrize("held", ["parent", "child", "fork"])
def test_a_holder_of_a_proven_member_sees_the_component(client, family, held):
    response = listing(client, holding=family[held]["storage_id"])
    body = response.json()
    assert body["proof"] == "member"
    assert {e["storage_id"] for e in body["entries"]} == proven(family)
    for entry in body["entries"]:
        assert entry["permalink"].endswith(f"/c/{entry['storage_id']}")
        assert "deletion_token" not in entry and "parent_storage_id" not in entry
    for other in ("forged", "impostor"):
        assert family[other]["storage_id"] not in response.text
    assert body["stored"]["documents"] == 2  # the impostor is still counted


@pytest.mark.parametrize("held", ["parent", "child", "fork"])
def test_a_deletion_token_proves_membership(client, family, held):
    response = listing(client, token=family[held]["deletion_token"])
    assert response.json()["proof"] == "member"
    assert {e["storage_id"] for e in response.json()["entries"]} == proven(family)
    assert "Authorization" in response.headers["vary"]


def test_the_listing_of_another_id_in_the_component_needs_its_own_member(client, family):
    child_id = json.loads(CHILD)["id"]
    body = listing(client, child_id, holding=family["parent"]["storage_id"]).json()
    assert body["proof"] == "member"  # the parent's component holds the child's id
    assert {e["storage_id"] for e in body["entries"]} == proven(family)
    unrelated = store(client, (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())
    body = listing(client, holding=unrelated["storage_id"]).json()
    assert body["proof"] == "not_a_member" and body["entries"] == []


def test_wrong_or_misplaced_proof(client, family):
    token = family["child"]["deletion_token"]
    # a deletion token never goes in a URL: as ?holding= it is refused, not tried
    misplaced = listing(client, holding=token)
    assert misplaced.status_code == 400 and "storage id" in misplaced.json()["error"]
    assert token not in misplaced.text
    for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), "x", "Bearer"):
        body = listing(client, token=wrong).json()
        assert body["proof"] == "not_a_member" and body["entries"] == []
    assert listing(client, holding="A" * 24).json()["proof"] == "not_a_member"
    assert client.get("/api/v1/checkpoints").status_code == 400
    deleted = family["fork"]
    client.delete(
        f"/api/v1/checkpoints/{deleted['storage_id']}",
        headers={"authorization": f"Bearer {deleted['deletion_token']}"},
    )
    assert listing(client, holding=deleted["storage_id"]).json()["proof"] == "not_a_member"
    assert listing(client, token=deleted["deletion_token"]).json()["proof"] == "not_a_member"


def test_with_upload_tokens_an_unproven_listing_needs_one_and_it_proves_nothing(backend, clock):
    settings = Settings(database_url=backend.url, upload_tokens=frozenset({UPLOAD_TOKEN}))
    with TestClient(create_app(settings, clock=clock)) as client:
        auth = {"authorization": f"Bearer {UPLOAD_TOKEN}"}
        parent = store(client, PARENT, **auth)
        child = store(client, CHILD, parent["storage_id"], **auth)
        for anonymous in (listing(client), listing(client, token="guess")):
            assert anonymous.status_code == 401
            assert anonymous.headers["www-authenticate"].startswith("Bearer")
            assert "holding=" in anonymous.json()["error"]
        uploader = listing(client, token=UPLOAD_TOKEN)
        assert uploader.status_code == 200
        assert uploader.json()["proof"] == "not_a_member" and uploader.json()["entries"] == []
        assert parent["storage_id"] not in uploader.text
        for proof in (
            listing(client, holding=child["storage_id"]),
            listing(client, token=child["deletion_token"]),
        ):
            assert proof.status_code == 200
            assert {e["storage_id"] for e in proof.json()["entries"]} == {
                parent["storage_id"],
                child["storage_id"],
            }


def test_the_lineage_page_links_only_proven_members(client, family):
    child = family["child"]["storage_id"]
    html = client.get(f"/c/{child}/lineage").text
    twin = client.get(f"/c/{child}/lineage.json").json()
    for storage_id in proven(family):
        assert f'href="/c/{storage_id}"' in html
    for other in ("forged", "impostor"):
        assert family[other]["storage_id"] not in html
        assert family[other]["storage_id"] not in json.dumps(twin)
    assert twin["claimed"]["parents"] == 1  # the impostor, counted
    parent_page = client.get(f"/c/{family['parent']['storage_id']}/lineage.json").json()
    assert parent_page["claimed"]["children"] == 1  # the forged child, counted


def test_a_listing_body_names_no_storage_id_of_a_stranger(client, family):
    """Every kind of caller without proof of a lineage, and every answer it gets."""
    everything = {c["storage_id"] for c in family.values()}
    stranger = store(client, (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())
    stranger_id = json.loads((CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())["id"]
    ids = [PARENT_ID, json.loads(CHILD)["id"], json.loads(FORK)["id"], "urn:x:forged-child"]
    for checkpoint_id in ids:
        for options in ({}, {"holding": stranger["storage_id"]}, {"token": "not-a-token"}):
            response = listing(client, checkpoint_id, **options)
            assert response.status_code == 200
            leaked = {s for s in everything if s in response.text}
            assert not leaked, (checkpoint_id, options)
    assert listing(client, stranger_id).json()["entries"] == []


def test_copies_of_the_same_bytes_are_one_document_in_the_counts(client, family):
    store(client, PARENT)
    assert listing(client).json()["stored"]["documents"] == 2


def test_holding_alone_lists_under_the_held_checkpoints_own_id(client, family):
    """A client following a stored answer's links has the storage id; the document id it
    may not have (an id that is not text is null in the answer). ?holding= alone asks about
    the held checkpoint's own id, with the same proof as when both are given."""
    alone = client.get("/api/v1/checkpoints", params={"holding": family["child"]["storage_id"]})
    assert alone.status_code == 200, alone.text
    body = alone.json()
    assert body["checkpoint_id"] == json.loads(CHILD)["id"]
    assert body["proof"] == "member"
    assert {e["storage_id"] for e in body["entries"]} == proven(family)
    # nothing stored there: 404, and nothing named
    missing = client.get("/api/v1/checkpoints", params={"holding": "A" * 24})
    assert missing.status_code == 404 and "A" * 24 not in missing.text
    # a stored document whose id is not text: its proven lineage (itself), under no id
    odd = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    odd["id"] = []
    stored = client.post("/api/v1/checkpoints", content=json.dumps(odd), headers=JSON_TYPE)
    assert stored.status_code == 201, stored.text  # stored as it is, with its findings
    held = client.get(
        "/api/v1/checkpoints", params={"checkpoint_id": "", "holding": stored.json()["storage_id"]}
    )
    assert held.status_code == 200, held.text
    body = held.json()
    assert body["checkpoint_id"] is None and body["proof"] == "member"
    assert [e["storage_id"] for e in body["entries"]] == [stored.json()["storage_id"]]
    # neither: nothing is listed
    assert client.get("/api/v1/checkpoints", params={"checkpoint_id": ""}).status_code == 400
