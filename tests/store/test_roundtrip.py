"""Bytes in, the same bytes out; metadata from the lint result; refusals; storage ids."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import timedelta

import pytest

from app.analysis import lint
from app.store import Created, Found, Meta, NotStorable, Store, ids
from tests.backends import START, Backend, checkpoint, conformance_files, linted

PARENT = "urn:uuid:019a7c33-1e16-7b52-84d8-1f9a2b3c4d04"
CHILD = "urn:uuid:019a7c9e-4a27-7c63-95e9-2a0b3c4d5e05"


def test_every_conformance_document_round_trips_byte_for_byte(
    store: Store, backend: Backend
) -> None:
    stored, refused = 0, 0
    for path in conformance_files():
        data, result = linted(path.name)
        document = result.document
        unstorable = (
            document is None
            or result.version_error is not None  # only checkpoints are stored
            or not {"id", "created_at", "source", "task"} <= set(document)
            or any(f.code == "secret" for f in result.findings)
        )
        if unstorable:
            with pytest.raises(NotStorable):
                store.put(data, result)
            refused += 1
            continue
        created = store.put(data, result)
        found = store.get(created.storage_id)
        assert isinstance(found, Found), path.name
        assert type(found.data) is bytes
        assert found.data == data, path.name
        assert found.meta.digest == result.digest == created.digest
        stored += 1
    assert stored >= 50 and refused >= 10  # the json-*, version-* and secret-* documents
    assert backend.count("checkpoints") == stored == backend.count("checkpoint_bytes")


def test_bytes_are_never_reserialized(store: Store) -> None:
    # Whitespace, CRLF, escapes, key order and number spelling all survive as sent.
    data = (
        b'{ "task" : {"status":"active", "objective":"caf\\u00e9 \\/ \xc3\xa9"},\r\n'
        b'\t"opencheckpoint":"0.1","id":"urn:x:1",  "created_at":"2026-11-20T08:00:00Z",'
        b'"source":{"producer":"x"}, "extensions": {"x.example": 1.50e2}}  \r\n\r\n'
    )
    created = store.put(data, lint(data))
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.data == data


def test_a_large_document_round_trips(store: Store) -> None:
    data, _ = checkpoint("urn:x:large", notes="ü" * 1000 + "x" * (4 * 1024 * 1024))
    created = store.put(data, lint(data))
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.data == data
    assert found.meta.size == len(data) > 4 * 1024 * 1024


def test_metadata_comes_from_the_lint_result(store: Store) -> None:
    data, result = linted("valid-coding-refactor-child.ocp.json")
    created = store.put(data, result)
    meta = created.meta
    assert meta == Meta(
        storage_id=created.storage_id,
        checkpoint_id=CHILD,
        parent_id=PARENT,
        created_at="2026-11-18T11:05:00Z",
        derivation_method="compacted",
        task_status="awaiting_input",
        stored_at=START,
        expires_at=START + timedelta(days=30),
        digest="sha-256:" + hashlib.sha256(data).hexdigest(),
        valid=True,
        errors=0,
        warnings=result.warnings,
        size=len(data),
        parent_digest=json.loads(data)["parent"]["digest"],
    )
    assert (created.stored_at, created.expires_at, created.digest) == (
        meta.stored_at,
        meta.expires_at,
        meta.digest,
    )
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.meta == meta
    assert meta.to_dict()["stored_at"] == "2026-12-01T12:00:00.123456Z"


def test_created_at_is_kept_as_written(store: Store) -> None:
    data, result = linted("valid-ops-scheduling.ocp.json")
    assert store.put(data, result).meta.created_at == "2026-11-20T15:45:30-05:00"


def test_invalid_documents_are_stored_with_their_verdict(store: Store) -> None:
    data, result = linted("schema-bad-task-status.ocp.json")
    assert not result.valid and result.errors >= 1
    meta = store.put(data, result).meta
    assert (meta.valid, meta.errors, meta.warnings) == (False, result.errors, result.warnings)
    assert meta.task_status == "done"


@pytest.mark.parametrize(
    "bad_id",
    [7, None, ["urn:x"], "x" * 513, "urn:x:\x00nul", "urn:x:\ud800"],
    ids=["number", "null", "list", "too-long", "nul", "lone-surrogate"],
)
def test_ids_the_databases_cannot_keep_are_not_recorded(store: Store, bad_id: object) -> None:
    import json

    doc = json.loads(linted("valid-minimal.ocp.json")[0])
    doc["id"] = bad_id
    doc["parent"] = {"id": bad_id}
    data = json.dumps(doc).encode()  # ensure_ascii: NUL and the surrogate become escapes
    result = lint(data)
    if result.document is None:  # the lone surrogate is a json error: not storable at all
        with pytest.raises(NotStorable):
            store.put(data, result)
        return
    created = store.put(data, result)
    assert (created.meta.checkpoint_id, created.meta.parent_id) == (None, None)
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.data == data


def test_secrets_are_never_stored(store: Store, backend: Backend) -> None:
    data, result = linted("secret-aws-pem-github.ocp.json")
    with pytest.raises(NotStorable) as refused:
        store.put(data, result)
    assert refused.value.paths and all(p.startswith("/") for p in refused.value.paths)
    assert backend.count("checkpoints") == 0 and backend.count("checkpoint_bytes") == 0


def test_non_json_is_never_stored(store: Store, backend: Backend) -> None:
    data = b'{"opencheckpoint": "0.1",'
    with pytest.raises(NotStorable, match="not JSON"):
        store.put(data, lint(data))
    assert backend.count("checkpoints") == 0


def test_the_lint_result_must_be_of_these_bytes(store: Store) -> None:
    data, result = linted("valid-minimal.ocp.json")
    with pytest.raises(ValueError, match="not of these bytes"):
        store.put(data + b" ", result)


def test_storage_ids_are_random_url_safe_and_at_least_128_bits() -> None:
    generated = {ids.new_storage_id() for _ in range(5000)}
    assert len(generated) == 5000
    alphabet = ids.STORAGE_ID_ALPHABET
    assert len(alphabet) ** ids.STORAGE_ID_LENGTH >= 2**144
    for storage_id in generated:
        assert len(storage_id) == ids.STORAGE_ID_LENGTH and set(storage_id) <= set(alphabet)
        assert ids.is_storage_id(storage_id)
    # Every position takes every value of the alphabet: nothing fixed, no counter.
    for position in range(ids.STORAGE_ID_LENGTH):
        assert {s[position] for s in generated} == set(alphabet)
    assert len(base64.urlsafe_b64decode(ids.new_deletion_token() + "=")) * 8 >= 256


def test_a_storage_id_has_no_look_alikes_and_reads_the_same_in_capitals() -> None:
    """Copied by eye from a screen or a printout: no 0/O, no 1/l/I to mistake (issue 27)."""
    assert not set("01ilo") & set(ids.STORAGE_ID_ALPHABET)
    storage_id = ids.new_storage_id()
    assert ids.canonical_storage_id(storage_id.upper()) == storage_id
    assert ids.canonical_storage_id(storage_id[:-1] + "l") is None
    legacy = "Ab0_-" + "x" * 19  # the ids handed out before: base64url, case-sensitive
    assert ids.canonical_storage_id(legacy) == legacy
    assert ids.canonical_storage_id(legacy.lower()) == legacy.lower()  # another id, not this


def test_an_id_handed_out_before_and_a_new_one_typed_in_capitals_still_read(
    make_store, monkeypatch
) -> None:
    data, result = linted("valid-minimal.ocp.json")
    store = make_store()
    monkeypatch.setattr(ids, "new_storage_id", lambda: "Legacy_Id-0123456789abcd")
    old = store.put(data, result)
    assert old.storage_id == "Legacy_Id-0123456789abcd"
    monkeypatch.undo()
    other = data.replace(b"}", b" }", 1)  # other bytes: stored under an id of its own
    new = make_store().put(other, lint(other))
    for asked, wanted in ((old.storage_id, old), (new.storage_id.upper(), new)):
        found = store.get(asked)
        assert isinstance(found, Found) and found.meta.storage_id == wanted.storage_id


def test_storage_ids_are_not_derived_from_content(store: Store) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = [store.put(data, result) for _ in range(5)]
    storage_ids = [c.storage_id for c in created]
    assert len(set(storage_ids)) == 5
    assert all(c.storage_id not in c.digest for c in created)
    assert sorted(storage_ids) != storage_ids or sorted(storage_ids, reverse=True) != storage_ids


def test_an_id_collision_is_retried(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    data, result = linted("valid-minimal.ocp.json")
    first = store.put(data, result)
    fresh = ids.new_storage_id()
    queue = iter([first.storage_id, first.storage_id, fresh])
    monkeypatch.setattr(ids, "new_storage_id", lambda: next(queue))
    second = store.put(data, result)
    assert second.storage_id == fresh
    assert isinstance(store.get(first.storage_id), Found)


def test_a_stuck_id_generator_fails_instead_of_looping(
    store: Store, monkeypatch: pytest.MonkeyPatch, backend: Backend
) -> None:
    data, result = linted("valid-minimal.ocp.json")
    first = store.put(data, result)
    monkeypatch.setattr(ids, "new_storage_id", lambda: first.storage_id)
    with pytest.raises(RuntimeError, match="no unused storage id"):
        store.put(data, result)
    assert backend.count("checkpoints") == 1


@pytest.mark.parametrize(
    "storage_id",
    [
        "",
        "x",
        "A" * 23,
        "A" * 25,
        "A" * 23 + "/",
        "../../etc/passwd",
        "A" * 10_000,
        "A" * 23 + "\x00",
    ],
)
def test_malformed_ids_are_unknown(store: Store, storage_id: str) -> None:
    assert store.get(storage_id) is None


def test_unknown_ids_are_unknown(store: Store) -> None:
    assert store.get(ids.new_storage_id()) is None


def test_created_carries_the_token_once(store: Store) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result)
    assert isinstance(created, Created)
    assert len(created.deletion_token) >= 43 and created.deletion_token != created.storage_id
    found = store.get(created.storage_id)
    assert isinstance(found, Found)
    assert created.deletion_token not in repr(found)
