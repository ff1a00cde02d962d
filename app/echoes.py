"""A child checkpoint that repeats its parent's credential: each value or member name of the child
holding a credential text the parent's scan flagged, where the child's own scan flagged nothing
(§9.1: a checkpoint never carries secrets, and a derived one no more than its parent).

The scan reads a text by its shape and its context: a password is one beside its name
(``"db_password": "Zq9-…"``), and the same characters in a compacted child's summary ("the
deploy used Zq9-… for the database") are plain text to it. Beside its parent the child is read
for the texts the parent's scan flagged (`Redaction.credentials`): each one looked for in all of
the child's strings at once, joined, by `str.find` (the longest MAX_QUOTED texts, each a pass in
C: linear in the child). What is found is withheld from the child as the scan's own finds are
(`app.analysis.pair`), and reported as a `secret` warning at its place.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from itertools import accumulate

from app.findings import Finding
from app.pointer import escape_token
from app.redaction import MAX_QUOTED, MAX_QUOTED_LENGTH, MIN_QUOTED
from app.secrets import SecretHit, scan_text

# What a place repeating the parent's credential is called where a kind is named (a withheld
# value's note on a page).
ECHO_KIND = "a credential its parent holds"
# Between two strings in the joined text: no credential looked for holds it.
_SEPARATOR = "\x00"


def unparsed_credentials(text: str) -> list[str]:
    """The credential texts the scan finds in a parent's text that does not parse (it has no
    places to name), as long as those a parsed parent's give (`Redaction.credentials`)."""
    return list(
        dict.fromkeys(
            text[start:end][:MAX_QUOTED_LENGTH]
            for start, end, _ in scan_text(text)
            if end - start >= MIN_QUOTED
        )
    )


def echoed_secrets(
    child: object, credentials: Mapping[str, str | None], flagged: Iterable[str]
) -> tuple[list[SecretHit], list[Finding]]:
    """The places of ``child`` that hold one of ``credentials`` (text -> the pointer of the
    parent's place that holds it, None when the parent does not parse), but for those in
    ``flagged`` (the child's own secret findings): a hit for each (the first such text in it,
    to withhold) and a `secret` warning for each place, in document order."""
    # the longest MAX_QUOTED texts, as the redaction looks for them elsewhere: past as many, a
    # parent is a dump of credentials, and each text costs a pass over the child
    kept = sorted((t for t in credentials if t and _SEPARATOR not in t), key=lambda t: (-len(t), t))
    texts = {text: credentials[text] for text in kept[:MAX_QUOTED]}
    if not texts:
        return [], []
    strings, places = _strings(child)
    if not strings:
        return [], []
    joined = _SEPARATOR.join(strings)
    starts = list(accumulate((len(s) + 1 for s in strings[:-1]), initial=0))
    # the string's index -> (where in it, the text, the parent's place of the text)
    found: dict[int, tuple[int, str, str | None]] = {}
    for text, parent_path in texts.items():
        at = joined.find(text)
        while at != -1:
            index = bisect_right(starts, at) - 1
            found.setdefault(index, (at - starts[index], text, parent_path))
            # past this string: a place is withheld whole and reported once, so a string
            # holding the text a thousand times costs one step
            at = joined.find(text, starts[index] + len(strings[index]))
    skip = set(flagged)
    hits: list[SecretHit] = []
    findings: list[Finding] = []
    for index in sorted(found):
        container, token, in_key = places.owners[index]
        tokens = places.tokens(container, token)
        path = "".join(["/" + escape_token(t) for t in tokens])
        if path in skip and not in_key:
            continue  # the child's own scan flagged it: withheld and reported already
        start, text, parent_path = found[index]
        hits.append(
            SecretHit(path, ECHO_KIND, start, start + len(text), in_key, tokens, strings[index])
        )
        if path in skip:
            continue  # (a name and its value hold it: one finding at the member)
        skip.add(path)
        what = "this member name" if in_key else "this value"
        where = "in its text" if parent_path is None else f"at {parent_path or '/'} in the parent"
        findings.append(
            Finding(
                "secret",
                "warning",
                path,
                f"{what} holds a credential the parent's scan found ({where}); remove the "
                "credential from the checkpoint (never store secrets in it, §9.1) and rotate "
                "it if it is real",
            )
        )
    return hits, findings


class _Places:
    """Where each string of a document is: its container and its token there (None: the
    document itself is the string), and each container's own; tokens are listed only for a
    string that holds a credential (a pointer for each value would cost a document nested
    to the depth limit the square of its depth)."""

    def __init__(self) -> None:
        self.owners: list[tuple[int, str | int | None, bool]] = []
        self.containers: list[tuple[int, str | int]] = [(-1, "")]  # (parent, token there)

    def tokens(self, container: int, token: str | int | None) -> tuple[str, ...]:
        tokens = [] if token is None else [str(token)]
        while container > 0:
            container, above = self.containers[container]
            tokens.append(str(above))
        return tuple(reversed(tokens))


def _strings(document: object) -> tuple[list[str], _Places]:
    """Every string of ``document`` (values and member names) and where it is (a member name's
    place is its member's)."""
    strings: list[str] = []
    places = _Places()
    owners, containers = places.owners, places.containers
    if isinstance(document, str):
        strings.append(document)
        owners.append((0, None, False))
        return strings, places
    stack: list[tuple[int, object]] = [(0, document)]
    while stack:
        index, node = stack.pop()
        items: Iterable[tuple[str | int, object]]
        if isinstance(node, dict):
            items = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            continue  # a number, a boolean, null: no string
        for token, value in items:
            if isinstance(token, str) and token:
                strings.append(token)
                owners.append((index, token, True))
            if isinstance(value, str):
                strings.append(value)
                owners.append((index, token, False))
            elif isinstance(value, (dict, list)):
                containers.append((index, token))
                stack.append((len(containers) - 1, value))
    return strings, places
