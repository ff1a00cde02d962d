"""Capabilities against a real `ocp serve`: an attacker who knows a document id (not a secret)
stores a forged child naming it, then asks the listing and the lineage pages for its storage
id with everything the forged child gives it. Nothing answers with a storage id of the real
lineage; a holder of a proven member (its storage id, or its deletion token in a header) sees
the component; the access log keeps neither the storage id given as ?holding= nor a token."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE
from tests.serve import Reply, Server, request

# `make check` leaves this out: it starts real `ocp serve` processes.
pytestmark = pytest.mark.slow

PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
CHILD = (CONFORMANCE / "valid-coding-refactor-child.ocp.json").read_bytes()
FORK = (CONFORMANCE / "valid-coding-refactor-fork.ocp.json").read_bytes()
PARENT_ID = json.loads(PARENT)["id"]
JSON = {"content-type": "application/json"}
UPLOAD_TOKEN = "served-upload-token-0123456789abcdef"


def forged_child(digest: str | None = None) -> bytes:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    doc["id"] = "urn:x:forged-child"
    doc["parent"] = {"id": PARENT_ID, **({"digest": digest} if digest else {})}
    doc["derivation"] = {"method": "compacted", "inputs": [{"kind": "checkpoint", "id": PARENT_ID}]}
    return json.dumps(doc).encode()


def store(served: Server, data: bytes, parent: str | None = None, **headers: str) -> dict:
    path = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    reply = request(served.port, "POST", path, data, {**JSON, **headers})
    assert reply.status == 201, reply.body[:300]
    body = reply.json()
    assert isinstance(body, dict)
    return body


def listing(served: Server, checkpoint_id: str = PARENT_ID, **options: str) -> Reply:
    headers = {}
    if "token" in options:
        headers["authorization"] = f"Bearer {options.pop('token')}"
    query = urllib.parse.urlencode({"checkpoint_id": checkpoint_id, **options})
    return request(served.port, "GET", f"/api/v1/checkpoints?{query}", headers=headers)


def body_of(reply: Reply) -> dict:
    body = reply.json()
    assert isinstance(body, dict)
    return body


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("capabilities")
    with Server(workdir, {"OCP_DATABASE_URL": str(workdir / "ocp.sqlite3")}) as server:
        yield server


@pytest.fixture(scope="module")
def family(served: Server) -> dict[str, dict]:
    parent = store(served, PARENT)
    return {
        "parent": parent,
        "child": store(served, CHILD, parent["storage_id"]),
        "fork": store(served, FORK, parent["storage_id"]),
        "forged": store(served, forged_child()),
        "forged_digest": store(served, forged_child(parent["digest"])),
    }


def proven(family: dict[str, dict]) -> set[str]:
    return {family[k]["storage_id"] for k in ("parent", "child", "fork")}


def test_a_forged_child_learns_no_storage_id_of_the_lineage(
    served: Server, family: dict[str, dict]
) -> None:
    for name in ("forged", "forged_digest"):
        forged = family[name]
        sid, token = forged["storage_id"], forged["deletion_token"]
        answers = {
            "listing": listing(served),
            "listing holding": listing(served, holding=sid),
            "listing token": listing(served, token=token),
            "lineage": request(served.port, "GET", f"/c/{sid}/lineage"),
            "lineage.json": request(served.port, "GET", f"/c/{sid}/lineage.json"),
            "permalink": request(served.port, "GET", f"/c/{sid}"),
            "twin": request(served.port, "GET", f"/c/{sid}.json"),
        }
        for what, reply in answers.items():
            assert reply.status == 200, (name, what, reply.status)
            text = reply.body.decode()
            leaked = [s for s in proven(family) if s in text]
            assert not leaked, (name, what)
        assert body_of(answers["listing holding"])["proof"] == "not_a_member"
        assert body_of(answers["listing token"])["entries"] == []
        assert request(served.port, "GET", f"/c/{sid}/diff").status == 404


def test_a_holder_of_a_proven_member_sees_the_component(
    served: Server, family: dict[str, dict]
) -> None:
    for held in ("parent", "child", "fork"):
        for proof in (
            listing(served, holding=family[held]["storage_id"]),
            listing(served, token=family[held]["deletion_token"]),
        ):
            assert proof.status == 200
            assert proof.headers["cache-control"] == "no-store"
            body = body_of(proof)
            assert body["proof"] == "member"
            assert {e["storage_id"] for e in body["entries"]} == proven(family)
            for other in ("forged", "forged_digest"):
                assert family[other]["storage_id"] not in proof.body.decode()
    page = request(served.port, "GET", f"/c/{family['child']['storage_id']}/lineage").body.decode()
    for storage_id in proven(family):
        assert f'href="/c/{storage_id}"' in page


def test_the_log_keeps_no_capability(served: Server, family: dict[str, dict]) -> None:
    listing(served, holding=family["child"]["storage_id"])
    listing(served, token=family["child"]["deletion_token"])
    log = Path(served.log).read_text(errors="replace")
    assert "GET /api/v1/checkpoints?…" in log, "the access log is on and filtered"
    for created in family.values():
        assert created["storage_id"] not in log
        assert created["deletion_token"] not in log


def test_a_private_deployment_lists_only_to_holders_and_uploaders(
    tmp_path: Path,
) -> None:
    env = {"OCP_DATABASE_URL": str(tmp_path / "ocp.sqlite3"), "OCP_UPLOAD_TOKENS": UPLOAD_TOKEN}
    with Server(tmp_path, env) as served:
        auth = {"authorization": f"Bearer {UPLOAD_TOKEN}"}
        parent = store(served, PARENT, **auth)
        child = store(served, CHILD, parent["storage_id"], **auth)
        for anonymous in (listing(served), listing(served, token="a-guess")):
            assert anonymous.status == 401
            assert anonymous.headers["www-authenticate"].startswith("Bearer")
        uploader = listing(served, token=UPLOAD_TOKEN)
        assert uploader.status == 200 and body_of(uploader)["entries"] == []
        assert body_of(uploader)["stored"]["documents"] == 1
        assert parent["storage_id"] not in uploader.body.decode()
        for proof in (
            listing(served, holding=child["storage_id"]),
            listing(served, token=child["deletion_token"]),
        ):
            assert proof.status == 200
            entries = {e["storage_id"] for e in body_of(proof)["entries"]}
            assert entries == {parent["storage_id"], child["storage_id"]}
