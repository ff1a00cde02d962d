"""GET /api/v1/checkpoints?checkpoint_id=…: what is stored under a document id, shown by what
the caller proves it holds.

A document id is not a secret (it travels as another document's `parent.id`, in tickets and
logs, and is often guessable), while a storage id is the capability to read. So the listing
names storage ids, links and digests only to a caller who proves it holds a member of that
lineage, and then only the members of that member's proven component
(app/stored_lineage.py `proven_component`: what proven links reach, never claims):

* ``?holding=STORAGE_ID``: the storage id of a member (the caller can read it already, and
  its lineage page links the same component);
* ``Authorization: Bearer DELETION_TOKEN``: the deletion token of a stored entry with that id
  or naming it as its parent.id (a header: a token never goes in a URL, where logs, history
  and Referer keep it). Compared in constant time with each candidate's hash.

The member must be connected to an entry with that id by proven links: a forged child that
merely names the id as its parent.id is a member of its own component only.

Without proof the answer is what anyone can already learn on a deployment where anyone may
store (by storing a document naming the id and reading its own page): how many distinct
stored documents carry the id and how many name it as their parent.id. No storage id, link or
digest (a digest would let anyone store a child that names it and so be compared with that
document). Where storing needs an upload token (OCP_UPLOAD_TOKENS), only an uploader could
learn even that, so there an unproven listing needs an upload token as the bearer (else 401);
proof works without one, and an upload token proves nothing: it is a right to store, never to
read.
"""

from __future__ import annotations

import hmac
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.store import Meta, Store
from app.stored_lineage import ProvenComponent, proven_component
from app.web.parameters import refuse_unknown, storage_id_parameter
from app.web.stored import bearer_challenge, store_call
from app.web.urls import public_base
from app.web.views import BadRequest, settings_of

# Entries with the id, and entries naming it as parent.id, whose deletion tokens are compared
# with the one presented (and counted in an unproven answer): a bound on one request's work.
MAX_CANDIDATES = 256
NO_STORE = {"cache-control": "no-store", "vary": "Authorization"}
HOLDING_NOTE = (
    "Storage ids are shown only to a caller that proves it holds a member of this lineage: "
    "give its storage id as ?holding=, or its deletion token as Authorization: Bearer."
)

Data = dict[str, Any]


class Listing:
    """What one listing request found, on a store thread: counts of the stored entries that
    carry the id or name it as their parent, and the proven component of the member the
    caller holds (None without proof)."""

    def __init__(
        self, checkpoint_id: str | None, documents: int, naming: int, truncated: bool
    ) -> None:
        self.checkpoint_id = checkpoint_id  # None: the held document's id is not text
        self.documents = documents
        self.naming = naming
        self.truncated = truncated
        self.component: ProvenComponent | None = None


def gather(
    store: Store, checkpoint_id: str | None, holding: str | None, token: str | None
) -> Listing:
    """Run on a store thread: metadata only, and at most one comparison per candidate.
    Without ``checkpoint_id``, ``holding`` stands for the held checkpoint's own id (a client
    following a stored answer's links has its storage id; its document id only when that is
    text): 404 when nothing is stored there; a held document whose id is not text is listed
    with its proven component alone, under no id."""
    held = store.meta(holding) if holding is not None else None
    if checkpoint_id is None:
        if held is None:
            raise HTTPException(404, "there is no stored checkpoint with the storage id in holding")
        if held.checkpoint_id is None:
            listing = Listing(None, 0, 0, False)
            listing.component = proven_component(store, held)
            return listing
        checkpoint_id = held.checkpoint_id
    with_id = store.by_checkpoint_id(checkpoint_id, limit=MAX_CANDIDATES + 1)
    naming = store.children(checkpoint_id, limit=MAX_CANDIDATES + 1)
    listing = Listing(
        checkpoint_id,
        len({m.digest for m in with_id[:MAX_CANDIDATES]}),
        len({m.digest for m in naming[:MAX_CANDIDATES]}),
        len(with_id) > MAX_CANDIDATES or len(naming) > MAX_CANDIDATES,
    )
    listing.component = _member_of(store, held, checkpoint_id)
    if listing.component is None and token:
        candidates = [m.storage_id for m in [*with_id, *naming][: 2 * MAX_CANDIDATES]]
        holder = store.deletion_token_holder(candidates, token)
        by_token = store.meta(holder) if holder is not None else None
        listing.component = _member_of(store, by_token, checkpoint_id)
    return listing


def _member_of(store: Store, held: Meta | None, checkpoint_id: str) -> ProvenComponent | None:
    """The proven component of ``held`` when it holds an entry with ``checkpoint_id``."""
    if held is None:
        return None
    component = proven_component(store, held)
    if any(m.checkpoint_id == checkpoint_id for m in component.members.values()):
        return component
    return None


async def api_list(request: Request) -> Response:
    """GET /api/v1/checkpoints?checkpoint_id=…[&holding=STORAGE_ID] (see the module). Without
    a checkpoint id there is no listing: nothing here is enumerable. ``holding`` alone stands
    for the held checkpoint's own id (a storage id is already the capability to read it)."""
    refuse_unknown(request, ("checkpoint_id", "holding"))
    checkpoint_id = request.query_params.get("checkpoint_id", "") or None
    holding = storage_id_parameter(request.query_params.getlist, "holding")
    if checkpoint_id is None and holding is None:
        raise BadRequest('give checkpoint_id: the id inside the checkpoint (its "id" member)')
    token = _bearer(request)
    listing: Listing = await store_call(request, gather, checkpoint_id, holding, token)
    checkpoint_id = listing.checkpoint_id
    upload_tokens = settings_of(request).upload_tokens
    if listing.component is None and upload_tokens and not _one_of(token, upload_tokens):
        raise HTTPException(
            401,
            "this deployment shows what is stored under a checkpoint id only to a caller that "
            "holds one of its lineage (give its storage id as ?holding=, or its deletion token "
            "as Authorization: Bearer) or an upload token",
            headers=bearer_challenge("lineage"),
        )
    presented = holding is not None or token is not None
    body = _answer(request, checkpoint_id, listing, presented)
    return JSONResponse(body, headers=NO_STORE)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else ""
    return token or None


def _one_of(token: str | None, tokens: frozenset[str]) -> bool:
    """Whether ``token`` is one of ``tokens``, each compared in constant time (all of them,
    so the time tells nothing of which one, or of a near miss)."""
    offered = (token or "").encode()
    matched = False
    for candidate in tokens:
        matched |= hmac.compare_digest(offered, candidate.encode())
    return matched


def _answer(request: Request, checkpoint_id: str | None, listing: Listing, presented: bool) -> Data:
    component = listing.component
    members = component.members.values() if component is not None else []
    base = public_base(request)
    entries = [
        {
            **meta.to_dict(),
            "permalink": f"{base}/c/{meta.storage_id}",
            "lineage": f"/c/{meta.storage_id}/lineage",
        }
        for meta in sorted(members, key=lambda m: (m.stored_at, m.storage_id), reverse=True)
    ]
    proof = "member" if component is not None else "not_a_member" if presented else "none"
    return {
        "checkpoint_id": checkpoint_id,
        "proof": proof,
        "entries": entries,
        "truncated": component.truncated if component is not None else False,
        "stored": {
            "documents": listing.documents,
            "naming_it_as_parent": listing.naming,
            "at_least": listing.truncated,
        },
        "note": _note(proof),
    }


def _note(proof: str) -> str:
    if proof == "member":
        return (
            "The stored checkpoints linked by proof to the one you hold: each was stored with "
            "the storage id of its parent. Documents that only claim this id are counted, "
            "not listed."
        )
    if proof == "not_a_member":
        return (
            "What you presented is not a stored checkpoint linked by proof to one with this "
            "id (a document that only names the id as its parent.id is not), so only the "
            "counts are shown. " + HOLDING_NOTE
        )
    return "Only the counts are shown. " + HOLDING_NOTE
