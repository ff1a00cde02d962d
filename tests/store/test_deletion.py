"""Deleting with the token shown once; the token itself is never kept."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from app.store import DeleteOutcome, Found, Gone, Store, ids
from tests.backends import START, Backend, FakeClock, linted


def test_the_right_token_deletes_and_leaves_a_tombstone(
    store: Store, backend: Backend, clock: FakeClock
) -> None:
    data, result = linted("valid-coding-refactor.ocp.json")
    created = store.put(data, result)
    clock.advance(timedelta(minutes=5))
    assert store.delete(created.storage_id, created.deletion_token) is DeleteOutcome.DELETED
    assert store.get(created.storage_id) == Gone(created.storage_id, "deleted", clock.now)
    assert backend.count("checkpoint_bytes") == 0
    # The tombstone keeps no checkpoint metadata: only id, instants and reason.
    [row] = backend.rows(
        "SELECT checkpoint_id, parent_id, created_at, derivation_method, task_status, digest, "
        "valid, errors, warnings, size, deletion_token_hash, gone_reason FROM checkpoints"
    )
    assert row == (None,) * 11 + ("deleted",)
    assert store.by_checkpoint_id(created.meta.checkpoint_id or "") == []
    # A second delete, even with the right token, finds it gone.
    assert store.delete(created.storage_id, created.deletion_token) is DeleteOutcome.GONE


def test_a_wrong_token_deletes_nothing(store: Store) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result)
    other = store.put(data, result)
    wrong = [
        "",
        "x",
        ids.new_deletion_token(),
        other.deletion_token,
        created.deletion_token[:-1],
        created.deletion_token + "A",
        created.deletion_token.upper(),
        created.storage_id,
        None,
        b"bytes",
    ]
    for token in wrong:
        outcome = store.delete(created.storage_id, token)  # type: ignore[arg-type]
        assert outcome is DeleteOutcome.WRONG_TOKEN, token
    found = store.get(created.storage_id)
    assert isinstance(found, Found) and found.data == data
    assert store.delete(other.storage_id, other.deletion_token) is DeleteOutcome.DELETED
    assert isinstance(store.get(created.storage_id), Found)


def test_unknown_and_malformed_ids_are_not_found(store: Store) -> None:
    token = ids.new_deletion_token()
    assert store.delete(ids.new_storage_id(), token) is DeleteOutcome.NOT_FOUND
    assert store.delete("../x", token) is DeleteOutcome.NOT_FOUND
    assert store.delete("", token) is DeleteOutcome.NOT_FOUND


def test_the_token_is_never_stored_in_clear(store: Store, backend: Backend) -> None:
    data, result = linted("valid-support-handoff.ocp.json")
    created = store.put(data, result)
    token = created.deletion_token
    values = [
        value
        for table in ("checkpoints", "checkpoint_bytes", "schema_version")
        for row in backend.rows(f"SELECT * FROM {table}")
        for value in row
    ]
    for value in values:
        if isinstance(value, str):
            assert token not in value
        if isinstance(value, bytes | memoryview):
            assert token.encode() not in bytes(value)
    assert hashlib.sha256(token.encode()).digest() in [
        bytes(v) for v in values if isinstance(v, bytes | memoryview)
    ]


def test_an_expired_record_cannot_be_deleted_but_answers_gone(
    store: Store, clock: FakeClock
) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result, lifetime=timedelta(hours=1))
    clock.advance(timedelta(hours=1))
    assert store.delete(created.storage_id, created.deletion_token) is DeleteOutcome.GONE
    assert store.get(created.storage_id) == Gone(
        created.storage_id, "expired", START + timedelta(hours=1)
    )


def test_a_deleted_record_is_forgotten_after_the_tombstone_ttl(
    store: Store, backend: Backend, clock: FakeClock
) -> None:
    data, result = linted("valid-minimal.ocp.json")
    created = store.put(data, result)
    assert store.delete(created.storage_id, created.deletion_token) is DeleteOutcome.DELETED
    clock.advance(store.tombstone_ttl - timedelta(seconds=1))
    assert isinstance(store.get(created.storage_id), Gone)
    clock.advance(timedelta(seconds=1))
    assert store.get(created.storage_id) is None
    assert store.delete(created.storage_id, created.deletion_token) is DeleteOutcome.NOT_FOUND
    store.purge_expired()
    assert backend.count("checkpoints") == 0
