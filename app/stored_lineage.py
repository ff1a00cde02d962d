"""The lineage of a stored checkpoint, resolved by evidence, never by the newest claim.

Anyone can store a document claiming any `id` or `parent.id`, so a claim proves nothing. The
parent of a stored child is, in order of evidence:

* **linked**: the stored document the uploader showed it holds, by giving its storage id (the
  read capability) when storing the child; `parent.digest` then checks it is the same bytes;
* **verified**: a stored document whose exact bytes match the child's `parent.digest`: the
  same document, but nobody proved access to it, so the child's page applies its checks and
  gives no link to it;
* **claimed**: without a digest, the one stored document (by content) whose `id` is the
  child's `parent.id`: only claimed, labelled so, and never compared: a document id is not a
  secret, so the lineage findings against a claimed parent (its statement and operation ids,
  their kinds and statuses) would read that document out to anyone who stores a child naming
  its id;
* **ambiguous**: without a digest, several different stored documents claim that id: none is
  chosen, and no lineage check is applied;
* **unmatched**: a digest is recorded and no stored document has those bytes (documents that
  claim the id are counted, as tamper evidence);
* **not stored**, or **none** (the child names no parent).

Newer checkpoints of the lineage (§10.3: a destination should check whether one exists) are the
stored documents derived from this one: linked (their uploaders proved they hold this one),
verified (their `parent.digest` is this document's digest) or claimed (their `parent.id` is this
document's id), each labelled. Only linked relations are followed to a storage id: the
**proven component** of a stored document (`proven_component`) is what its proven links reach,
up to its topmost linked ancestor and down from there, and it is all that the holder of one
member's storage id may be shown.

Plain data from the store's metadata and the exact bytes of at most a few documents; nothing
here imports a web framework.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.digests import digest_with
from app.store import LINEAGE_DEPTH, Found, Meta, Store

ParentState = Literal[
    "none", "linked", "verified", "claimed", "ambiguous", "unmatched", "not_stored"
]
# How many stored documents that claim a parent's id are read to look for the digest when it
# is not sha-256 (which the store indexes): a bound on one page view's work.
MAX_HASHED = 8
# How many newer documents of each kind a page lists.
MAX_NEWER = 20
# How many stored entries one walk of proven links visits.
MAX_COMPONENT = 64


@dataclass(frozen=True, slots=True)
class ParentResolution:
    state: ParentState
    parent: Found | None = None  # the document the child is compared with, if any
    claimants: int = 0  # distinct stored documents (by content) whose id is parent.id
    parent_id: str | None = None
    recorded_digest: str | None = None

    @property
    def linked(self) -> bool:
        return self.state == "linked"

    @property
    def compared(self) -> bool:
        """Whether the lineage checks apply against ``parent``."""
        return self.parent is not None


def resolve_parent(store: Store, child: Meta) -> ParentResolution:
    """The parent of the stored ``child`` by the evidence there is (see the module)."""
    parent_id, digest = child.parent_id, child.parent_digest
    if parent_id is None and digest is None and child.parent_storage_id is None:
        return ParentResolution("none")
    if child.parent_storage_id is not None:
        record = store.get(child.parent_storage_id)
        if isinstance(record, Found):
            return ParentResolution("linked", record, parent_id=parent_id, recorded_digest=digest)
    claimants = _claimants(store, parent_id, child)
    if digest is not None:
        found = _by_digest(store, digest, claimants)
        if found is not None:
            return ParentResolution("verified", found, len(_distinct(claimants)), parent_id, digest)
        return ParentResolution(
            "unmatched" if claimants else "not_stored",
            None,
            len(_distinct(claimants)),
            parent_id,
            digest,
        )
    distinct = _distinct(claimants)
    if not distinct:
        return ParentResolution("not_stored", parent_id=parent_id)
    if len(distinct) > 1:
        return ParentResolution("ambiguous", None, len(distinct), parent_id)
    # Claimed: named and counted, never read, so never compared (see the module).
    return ParentResolution("claimed", None, 1, parent_id)


def _claimants(store: Store, parent_id: str | None, child: Meta) -> list[Meta]:
    if parent_id is None:
        return []
    return [m for m in store.by_checkpoint_id(parent_id) if m.storage_id != child.storage_id]


def _distinct(metas: Sequence[Meta]) -> list[Meta]:
    """One entry per content: two stored copies of the same bytes are one document."""
    seen: dict[str, Meta] = {}
    for meta in metas:
        seen.setdefault(meta.digest, meta)
    return list(seen.values())


def _by_digest(store: Store, digest: str, claimants: Sequence[Meta]) -> Found | None:
    algorithm, _, _ = digest.partition(":")
    if algorithm == "sha-256":
        for meta in store.by_digest(digest):
            record = store.get(meta.storage_id)
            if isinstance(record, Found):
                return record
        return None
    for meta in _distinct(claimants)[:MAX_HASHED]:
        record = store.get(meta.storage_id)
        if isinstance(record, Found) and digest_with(algorithm, record.data) == digest:
            return record
    return None


@dataclass(slots=True)
class ProvenComponent:
    """The stored entries connected to ``focus`` by proven links, by storage id."""

    focus: Meta
    members: dict[str, Meta] = field(default_factory=dict)
    truncated: bool = False  # more entries are linked than the walk's bound


def proven_component(store: Store, focus: Meta, limit: int = MAX_COMPONENT) -> ProvenComponent:
    """Ancestors up the proven links (at most LINEAGE_DEPTH), then every entry derived from the
    topmost one down the proven links, breadth first: metadata only, at most ``limit``
    entries. Claims (parent.id, parent.digest) are never followed."""
    component = ProvenComponent(focus, {focus.storage_id: focus})
    top = focus
    for _ in range(min(LINEAGE_DEPTH, limit - 1)):
        if top.parent_storage_id is None:
            break
        parent = store.meta(top.parent_storage_id)
        if parent is None or parent.storage_id in component.members:
            break
        component.members[parent.storage_id] = parent
        top = parent
    queue = deque([top.storage_id])
    while queue and not component.truncated:
        for child in store.derived_from(queue.popleft(), limit=limit):
            if child.storage_id in component.members:
                continue
            if len(component.members) >= limit:
                component.truncated = True
                break
            component.members[child.storage_id] = child
            queue.append(child.storage_id)
    return component


NewerKind = Literal["linked", "verified", "claimed"]


@dataclass(frozen=True, slots=True)
class Newer:
    """A stored document derived from this one, and the evidence of it."""

    meta: Meta
    evidence: NewerKind


@dataclass(frozen=True, slots=True)
class Descendants:
    newer: list[Newer] = field(default_factory=list)
    truncated: bool = False

    def of(self, kind: NewerKind) -> list[Newer]:
        return [n for n in self.newer if n.evidence == kind]


def newer_checkpoints(store: Store, meta: Meta) -> Descendants:
    """The stored documents derived from ``meta``'s document, strongest evidence first, each
    document once (two copies of the same bytes are one)."""
    found: dict[str, Newer] = {}
    seen_content: set[str] = {meta.digest}
    truncated = False
    lookups: list[tuple[NewerKind, list[Meta]]] = [
        ("linked", store.derived_from(meta.storage_id, limit=MAX_NEWER + 1)),
        ("verified", store.claiming_digest(meta.digest, limit=MAX_NEWER + 1)),
    ]
    if meta.checkpoint_id is not None:
        lookups.append(("claimed", store.children(meta.checkpoint_id, limit=MAX_NEWER + 1)))
    for kind, metas in lookups:
        truncated = truncated or len(metas) > MAX_NEWER
        for other in metas[:MAX_NEWER]:
            if other.storage_id in found or other.digest in seen_content:
                continue
            seen_content.add(other.digest)
            found[other.storage_id] = Newer(other, kind)
    return Descendants(list(found.values()), truncated)


def parent_sentence(resolution: ParentResolution, digest_state: str | None) -> str | None:
    """What a page says of a stored child's parent: what is verified and what only claimed."""
    state, n = resolution.state, resolution.claimants
    checks = "the lineage checks (OCP-T001, OCP-T002, digest, §9.2) apply against it"
    if state == "none":
        return None
    if state == "linked":
        if digest_state == "match":
            return f"Stored with its parent, whose exact bytes match parent.digest; {checks}."
        if digest_state == "mismatch":
            return (
                "Stored with a parent whose bytes do not match parent.digest: the parent was "
                "changed after this checkpoint was derived, or it is another document (see the "
                f"digest finding); {checks}."
            )
        return (
            "Stored with its parent, whose link the uploader held; parent.digest is not "
            f"recorded, so nothing verifies the bytes; {checks}."
        )
    if state == "verified":
        return (
            "A stored document's exact bytes match parent.digest, so " + checks + ". It was not "
            "shared with this checkpoint, so this page does not link it: ask whoever shared "
            "this link for the parent's."
        )
    if state == "claimed":
        return (
            "One stored document claims the id parent.id names. Nothing verifies that it is the "
            "parent (there is no parent.digest), so no lineage check applies against it and this "
            "page does not link it: a claim is not evidence."
        )
    if state == "ambiguous":
        return (
            f"{n} different stored documents claim the id parent.id names, and there is no "
            "parent.digest to tell them apart: none is chosen, and no lineage check applies."
        )
    if state == "unmatched":
        return (
            f"parent.digest matches no stored document; {n} stored document"
            f"{'s' if n != 1 else ''} claim{'' if n != 1 else 's'} the id parent.id names, with "
            "other bytes. No lineage check applies; if one of them is the parent, it changed "
            "after this checkpoint was derived."
        )
    return "The parent it names is not stored here (or has expired); no lineage check applies."
