"""Listings by checkpoint id, children and lineage: live entries only, metadata only; and which
of the entries named holds a deletion token (compared in constant time, never looked up)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.store import LINEAGE_DEPTH, Created, Meta, Store
from tests.backends import FakeClock, checkpoint, linted

PARENT = "urn:uuid:019a7c33-1e16-7b52-84d8-1f9a2b3c4d04"
CHILD = "urn:uuid:019a7c9e-4a27-7c63-95e9-2a0b3c4d5e05"
FORK = "urn:uuid:019a7c61-0b38-7d74-a6fa-3b1c4d5e6f06"


def put(store: Store, clock: FakeClock, name: str, **options: object) -> Created:
    clock.advance(timedelta(seconds=1))  # distinct stored_at, so "newest first" is testable
    return store.put(*linted(name), **options)  # type: ignore[arg-type]


def put_doc(store: Store, clock: FakeClock, *args: object, **options: object) -> Created:
    clock.advance(timedelta(seconds=1))
    return store.put(*checkpoint(*args), **options)  # type: ignore[arg-type]


def sids(metas: list[Meta]) -> list[str]:
    return [m.storage_id for m in metas]


@pytest.fixture
def family(store: Store, clock: FakeClock) -> dict[str, Created]:
    """The conformance lineage: parent (stored twice), compacted child, fork; a grandchild."""
    return {
        "parent": put(store, clock, "valid-coding-refactor.ocp.json"),
        "child": put(store, clock, "valid-coding-refactor-child.ocp.json"),
        "fork": put(store, clock, "valid-coding-refactor-fork.ocp.json"),
        "parent2": put(store, clock, "valid-coding-refactor.ocp.json"),
        "grandchild": put_doc(store, clock, "urn:x:grandchild", CHILD, "compacted"),
        "unrelated": put(store, clock, "valid-finance-variance.ocp.json"),
    }


def test_by_checkpoint_id_newest_first(store: Store, family: dict[str, Created]) -> None:
    assert sids(store.by_checkpoint_id(PARENT)) == [
        family["parent2"].storage_id,
        family["parent"].storage_id,
    ]
    assert store.by_checkpoint_id("urn:x:none") == []
    assert sids(store.by_checkpoint_id(PARENT, limit=1)) == [family["parent2"].storage_id]


def test_children(store: Store, family: dict[str, Created]) -> None:
    assert sids(store.children(PARENT)) == [family["fork"].storage_id, family["child"].storage_id]
    assert sids(store.children(CHILD)) == [family["grandchild"].storage_id]
    assert store.children(FORK) == []


def test_lineage_of_the_root_has_every_descendant(store: Store, family: dict[str, Created]) -> None:
    expected = ["grandchild", "parent2", "fork", "child", "parent"]
    assert sids(store.list_lineage(PARENT)) == [family[k].storage_id for k in expected]


def test_lineage_of_a_child_has_ancestors_and_descendants_not_siblings(
    store: Store, family: dict[str, Created]
) -> None:
    expected = ["grandchild", "parent2", "child", "parent"]
    assert sids(store.list_lineage(CHILD)) == [family[k].storage_id for k in expected]
    assert sids(store.list_lineage("urn:x:grandchild")) == sids(store.list_lineage(CHILD))
    assert sids(store.list_lineage(FORK)) == [
        family[k].storage_id for k in ["parent2", "fork", "parent"]
    ]


def test_lineage_of_an_id_not_stored_still_finds_its_children(
    store: Store, clock: FakeClock
) -> None:
    orphan = put_doc(store, clock, "urn:x:orphan", "urn:x:never-stored", "forked")
    assert sids(store.list_lineage("urn:x:never-stored")) == [orphan.storage_id]
    assert store.list_lineage("urn:x:nothing") == []


def test_a_child_without_an_id_of_its_own_is_in_its_parents_lineage(
    store: Store, clock: FakeClock
) -> None:
    parent = put_doc(store, clock, "urn:x:p")
    nameless = put_doc(store, clock, 42, "urn:x:p", "compacted")
    assert nameless.meta.checkpoint_id is None
    assert sids(store.list_lineage("urn:x:p")) == [nameless.storage_id, parent.storage_id]
    assert sids(store.children("urn:x:p")) == [nameless.storage_id]


def test_listings_carry_metadata_only(store: Store, family: dict[str, Created]) -> None:
    for meta in store.list_lineage(PARENT):
        assert isinstance(meta, Meta) and not hasattr(meta, "data")
        assert set(meta.to_dict()) == {
            "storage_id",
            "checkpoint_id",
            "parent_id",
            "created_at",
            "derivation_method",
            "task_status",
            "stored_at",
            "expires_at",
            "digest",
            "valid",
            "errors",
            "warnings",
            "size",
            "parent_digest",
        }
        # the proven parent's storage id is a read capability: never in the metadata
        assert "parent_storage_id" not in meta.to_dict()
    child = next(m for m in store.list_lineage(PARENT) if m.checkpoint_id == CHILD)
    assert (child.parent_id, child.derivation_method, child.task_status) == (
        PARENT,
        "compacted",
        "awaiting_input",
    )


def test_nothing_expired_is_listed(store: Store, clock: FakeClock) -> None:
    parent = put(store, clock, "valid-coding-refactor.ocp.json")
    child = put(store, clock, "valid-coding-refactor-child.ocp.json", lifetime=timedelta(hours=1))
    fork = put(store, clock, "valid-coding-refactor-fork.ocp.json", lifetime=timedelta(days=1))
    assert len(store.list_lineage(PARENT)) == 3
    clock.advance(timedelta(hours=2))  # the child expired, unswept
    assert sids(store.children(PARENT)) == [fork.storage_id]
    assert store.by_checkpoint_id(CHILD) == []
    assert sids(store.list_lineage(PARENT)) == [fork.storage_id, parent.storage_id]
    assert child.storage_id not in sids(store.list_lineage(CHILD))
    store.purge_expired()
    assert sids(store.list_lineage(PARENT)) == [fork.storage_id, parent.storage_id]
    clock.advance(timedelta(days=1))  # the fork expired too
    assert store.list_lineage(FORK) == []
    assert sids(store.list_lineage(PARENT)) == [parent.storage_id]


def test_the_walk_goes_through_live_entries_only(store: Store, clock: FakeClock) -> None:
    put_doc(store, clock, "urn:x:a")
    put_doc(store, clock, "urn:x:b", "urn:x:a", lifetime=timedelta(hours=1))
    c = put_doc(store, clock, "urn:x:c", "urn:x:b")
    clock.advance(timedelta(hours=2))
    # b expired: a and c are no longer linked (the answer must not depend on the sweep).
    assert sids(store.list_lineage("urn:x:c")) == [c.storage_id]
    store.purge_expired()
    assert sids(store.list_lineage("urn:x:c")) == [c.storage_id]


def test_cycles_end(store: Store, clock: FakeClock) -> None:
    a = put_doc(store, clock, "urn:x:a", "urn:x:b")
    b = put_doc(store, clock, "urn:x:b", "urn:x:a")
    self_parent = put_doc(store, clock, "urn:x:self", "urn:x:self")
    assert sids(store.list_lineage("urn:x:a")) == [b.storage_id, a.storage_id]
    assert sids(store.list_lineage("urn:x:self")) == [self_parent.storage_id]


def test_the_walk_is_bounded(store: Store, clock: FakeClock) -> None:
    generations = LINEAGE_DEPTH + 5
    for n in range(generations):
        put_doc(store, clock, f"urn:x:{n}", f"urn:x:{n - 1}" if n else None)
    # From the root: itself and LINEAGE_DEPTH generations of descendants; same upwards.
    assert len(store.list_lineage("urn:x:0")) == LINEAGE_DEPTH + 1
    assert len(store.list_lineage(f"urn:x:{generations - 1}")) == LINEAGE_DEPTH + 1
    middle = generations // 2
    assert len(store.list_lineage(f"urn:x:{middle}")) == generations


@pytest.mark.parametrize("value", ["", "\x00", "urn:\ud800", "x" * 100_000, "%", "?", "'"])
def test_odd_query_values_match_nothing(
    store: Store, family: dict[str, Created], value: str
) -> None:
    assert store.by_checkpoint_id(value) == []
    assert store.children(value) == []
    assert store.list_lineage(value) == []


def test_a_deletion_token_names_its_own_entry_among_those_given(
    store: Store, family: dict[str, Created]
) -> None:
    among = [c.storage_id for c in family.values()]
    for created in family.values():
        assert store.deletion_token_holder(among, created.deletion_token) == created.storage_id
    child = family["child"]
    # only the entries named are compared: a token is never looked up across the store
    assert store.deletion_token_holder([family["parent"].storage_id], child.deletion_token) is None
    assert store.deletion_token_holder([], child.deletion_token) is None
    for wrong in ("", child.deletion_token[:-1], child.deletion_token + "x", "\x00", "é" * 43):
        assert store.deletion_token_holder(among, wrong) is None
    assert store.deletion_token_holder(["not a storage id", "'; --"], child.deletion_token) is None


def test_a_deletion_token_of_an_expired_or_deleted_entry_names_nothing(
    store: Store, clock: FakeClock
) -> None:
    brief = put(store, clock, "valid-coding-refactor.ocp.json", lifetime=timedelta(hours=1))
    kept = put(store, clock, "valid-coding-refactor-child.ocp.json")
    among = [brief.storage_id, kept.storage_id]
    assert store.deletion_token_holder(among, brief.deletion_token) == brief.storage_id
    clock.advance(timedelta(hours=2))
    assert store.deletion_token_holder(among, brief.deletion_token) is None
    store.delete(kept.storage_id, kept.deletion_token)
    assert store.deletion_token_holder(among, kept.deletion_token) is None
