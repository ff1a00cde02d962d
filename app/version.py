"""The version gate (spec §5.1, field-model.md "Version gate"): read `opencheckpoint` before
the schema, so an unimplemented version gets its own clear finding, never a buried schema
message, and is never reported valid."""

import json
import re

from app.findings import Finding
from app.parse import Document

IMPLEMENTED = "0.1"
_MAJOR_MINOR = r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$"  # compiled by re's cache when first used


def check_version(document: Document) -> Finding | None:
    if "opencheckpoint" not in document:
        return _finding(
            "",
            'this document has no "opencheckpoint" member, so it is not an OpenCheckpoint '
            'document this tool can check; a v0.1 checkpoint starts with "opencheckpoint": "0.1"',
        )
    version = document["opencheckpoint"]
    if not isinstance(version, str):
        if isinstance(version, dict | list):  # (never quoted: it may hold anything)
            shown = "an object" if isinstance(version, dict) else "an array"
        else:
            shown = json.dumps(version)[:40]
        return _finding(
            "/opencheckpoint",
            f'opencheckpoint must be the string "0.1", not {shown}; write the version in quotes',
        )
    if version == IMPLEMENTED:
        return None  # (the usual answer: no pattern to compile for it)
    match = re.match(_MAJOR_MINOR, version)
    if not match:
        return _finding(
            "/opencheckpoint",
            f"opencheckpoint {_quoted(version)} is not a MAJOR.MINOR version; "
            'this tool implements "0.1"',
        )
    if match.group(1) == "0":
        return _finding(
            "/opencheckpoint",
            f"version {version} is not implemented by this tool, which implements 0.1 only; "
            "before 1.0 each minor version may change the format incompatibly, so the "
            "document cannot be checked (spec §5.1): use a tool that implements it",
        )
    return _finding(
        "/opencheckpoint",
        f"major version {match.group(1)} is unknown to this tool, which implements 0.1 only; "
        "a consumer must reject an unknown major version (spec §5.1)",
    )


# A version string a message quotes: "0.1.0", "v0.1", "0.1-draft". A longer one is described, not
# quoted: the message reaches answers that never pass a redaction (guard's, the store's refusal,
# an MCP tool's failure), and a credential pasted into the member must not come back in them.
_QUOTED_UP_TO = 24


def _quoted(version: str) -> str:
    """``version`` quoted, unless it is long or the secret scanner flags it."""
    if len(version) <= _QUOTED_UP_TO:
        from app.secrets import scan_text  # (only for a malformed version: a rare answer)

        if not scan_text(version):
            return json.dumps(version)
    return f"(a string of {len(version)} characters, not quoted here)"


def _finding(path: str, message: str) -> Finding:
    return Finding("version", "error", path, message)
