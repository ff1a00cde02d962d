"""The version gate (spec §5.1, field-model.md "Version gate"): read `opencheckpoint` before
the schema, so an unimplemented version gets its own clear finding, never a buried schema
message, and is never reported valid."""

import json
import re

from app.findings import Finding
from app.parse import Document
from app.quoting import quoted

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
            # (quoted unless it may be a credential: the message reaches answers that never
            # pass a redaction, guard's, the store's refusal, an MCP tool's)
            f"opencheckpoint {quoted(version)} is not a MAJOR.MINOR version; "
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


def _finding(path: str, message: str) -> Finding:
    return Finding("version", "error", path, message)
