"""Redaction: how a value that looks like a credential is withheld, in one place (§10.5).

The secret scan (app/secrets.py) says where credentials are; this module withholds them from
everything that is shown or emitted: the document a page renders, and the findings every
report carries (a message quoting a value, a pointer through a member name). Findings say
where a credential is, never what it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.findings import Finding
from app.pointer import parse_pointer, to_pointer
from app.secrets import redact

REDACTED = "[redacted: looks like a credential]"


def redact_text(text: str) -> str:
    """``text`` with each apparent credential replaced by REDACTED; on a scanner failure the
    whole text goes."""
    try:
        return redact(text, REDACTED)
    except Exception:
        return REDACTED


def looks_secret(text: str) -> bool:
    try:
        return redact(text, REDACTED) != text
    except Exception:  # a heuristic that fails must not break the page; assume the worst
        return True


def redact_pointer(pointer: str) -> str:
    """A pointer with each token redacted on its own, so an escaped "/" in a flagged member
    name cannot split a credential into parts the scanner would miss."""
    try:
        tokens = parse_pointer(pointer)
    except ValueError:
        return redact_text(pointer)
    return to_pointer(redact_text(token) for token in tokens)


def redact_findings(findings: Sequence[Finding]) -> list[Finding]:
    """Every finding's message and path with apparent credentials withheld. Run once, by the
    lint, after positions are found (they need the real path)."""
    out = []
    for finding in findings:
        message = redact_text(finding.message)
        path = redact_pointer(finding.path)
        related = tuple(redact_text(text) for text in finding.related)
        if message != finding.message or path != finding.path or related != finding.related:
            finding = replace(finding, message=message, path=path, related=related)
        out.append(finding)
    return out


def redacted_document(document: object, flagged: Iterable[str]) -> dict | None:
    """The document with every value at or under a flagged pointer replaced by REDACTED, and a
    flagged member name that itself looks like a credential renamed to REDACTED. Only the
    containers on a flagged path are copied; the rest is shared. None when there is no
    document object."""
    if not isinstance(document, dict):
        return None
    trie = _trie(flagged)
    if trie is None:
        return {}
    if not trie:
        return document
    redacted = _redact_node(document, trie)
    return redacted if isinstance(redacted, dict) else {}


def _trie(pointers: Iterable[str]) -> dict | None:
    """A trie of pointer tokens; a None child marks a flagged path (it covers all below).
    Returns None when the whole document is flagged."""
    root: dict = {}
    for pointer in pointers:
        try:
            tokens = parse_pointer(pointer)
        except ValueError:
            continue
        if not tokens:
            return None
        node: dict | None = root
        for token in tokens[:-1]:
            assert node is not None
            child = node.setdefault(token, {})
            if child is None:  # an ancestor is already flagged
                node = None
                break
            node = child
        if node is not None:
            node[tokens[-1]] = None
    return root


def _redact_node(node: object, trie: dict | None) -> object:
    if trie is None:
        return REDACTED
    if isinstance(node, dict):
        out = dict(node)
        renamed = set()
        for key, sub in trie.items():
            if key in out:
                out[key] = _redact_node(out[key], sub)
                if sub is None and looks_secret(key):
                    renamed.add(key)
        return _rename_keys(out, renamed) if renamed else out
    if isinstance(node, list):
        items = list(node)
        for token, sub in trie.items():
            if token.isdigit() and int(token) < len(items):
                items[int(token)] = _redact_node(items[int(token)], sub)
        return items
    return node


def _rename_keys(obj: dict, renamed: set[str]) -> dict:
    """Rename flagged member names to REDACTED, keeping member order; numbered on a clash
    ("… (2)", "… (3)"). Linear: the numbering never restarts."""
    out: dict = {}
    n = 1
    for key, value in obj.items():
        if key in renamed:
            name = REDACTED if n == 1 else f"{REDACTED} ({n})"
            while name in out or name in obj:
                n += 1
                name = f"{REDACTED} ({n})"
            n += 1
            key = name
        out[key] = value
    return out
