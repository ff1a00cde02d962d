"""Digests of exact bytes (field-model "digest": an RFC 6920 hash name and lowercase hex), and
the one check of a recorded `parent.digest` against a parent's bytes (§10.6 tamper evidence).

Every consumer (the `digest` rule, the page's lineage line, the diff, the stored lineage) asks
`check_digest`, so they never disagree about what matched."""

from __future__ import annotations

from typing import Final, Literal

from app.record import Record

ALGORITHMS = {"sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512"}

DigestState = Literal["match", "mismatch", "not_recorded", "unsupported"]


def sha256_digest(data: bytes) -> str:
    """``sha-256:<hex>`` of ``data``: how this tool names the bytes it checked and stored."""
    import hashlib  # here: its import loads OpenSSL, which a run that hashes nothing skips

    return "sha-256:" + hashlib.sha256(data).hexdigest()


def digest_with(algorithm: str, data: bytes) -> str | None:
    """``<algorithm>:<hex>`` of ``data``; None for an algorithm the field model does not name."""
    import hashlib

    name = ALGORITHMS.get(algorithm)
    return f"{algorithm}:{hashlib.new(name, data).hexdigest()}" if name else None


# Which rendering of the parent matched: its exact bytes (a file, the store), or, for a parent
# pasted into a browser's text box, the bytes as the browser sent them (CRLF line ends) or
# with those line ends made LF (as the viewer reads pasted text).
Rendering = Literal["exact", "as_sent", "lf"]


class DigestCheck(Record):
    """A recorded digest against the bytes at hand.

    ``state``: ``match``, ``mismatch``, ``not_recorded`` (no digest, or not a string) or
    ``unsupported`` (an algorithm other than sha-256/384/512). ``matched``: which rendering
    matched; None unless one did."""

    __slots__ = ("actual", "matched", "recorded", "state")

    state: Final[DigestState]
    recorded: Final[str | None]
    actual: Final[str | None]  # the first rendering's digest, with the recorded algorithm
    matched: Final[Rendering | None]

    def __init__(
        self,
        state: DigestState,
        recorded: str | None = None,
        actual: str | None = None,
        matched: Rendering | None = None,
    ) -> None:
        self.state = state
        self.recorded = recorded
        self.actual = actual
        self.matched = matched

    @property
    def comparable(self) -> bool:
        return self.state in ("match", "mismatch")


def check_digest(recorded: object, renderings: list[tuple[Rendering, bytes]]) -> DigestCheck:
    """``recorded`` (a child's `parent.digest`) against each rendering of the parent's bytes,
    in order; the first that matches is named."""
    if not isinstance(recorded, str):
        return DigestCheck("not_recorded")
    algorithm, _, _ = recorded.partition(":")
    if algorithm not in ALGORITHMS or not renderings:
        return DigestCheck("unsupported", recorded)
    actual = None
    for label, data in renderings:
        digest = digest_with(algorithm, data)
        actual = actual or digest
        if digest == recorded:
            return DigestCheck("match", recorded, actual, label)
    return DigestCheck("mismatch", recorded, actual)
