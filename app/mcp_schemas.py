"""The output schema of each MCP tool (issue 28: no tool declared one).

Each tool's ``structuredContent`` validates against its schema, a failure too: every schema
is "the tool's answer, or a tool failure" (``{"error": {"message": …}}`` with ``isError``), so
a client that validates every result, as the SDK's does for the successful ones, never rejects
one. Each schema stands alone (its ``$ref``s resolve inside it: a client resolves no other
document). The lint report's is the project's own (schema/lint-report.schema.json); the
others name the members a tool always answers with and their types, and let members be added.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

Schema = dict[str, Any]

_STRING = {"type": "string"}
_STRINGS = {"type": "array", "items": _STRING}
_OBJECT = {"type": "object"}
_ARRAY = {"type": "array"}
_TIME = {"type": "string", "description": "An RFC 3339 date-time (UTC)."}
# Each nullable member as branches of one type each: a client mapping tool schemas onto a
# one-type dialect (the OpenAPI subset of function declarations) reads those (the Inspector's
# --strict says so of a type array).
_INTEGER_OR_NULL = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
_STRING_OR_NULL = {"anyOf": [{"type": "string"}, {"type": "null"}]}
_NO_LINKS = {
    "type": "string",
    "description": "Present when no address serves the store: why the answer has no links.",
}

FAILURE: Schema = {
    "type": "object",
    "description": "A tool failure (isError): what went wrong, where and what to do.",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["message"],
            "properties": {
                "message": {"type": "string", "minLength": 1},
                "status": {"type": "integer", "description": "The service's HTTP status."},
                "field": _STRING,
                "path": {"type": "string", "description": "A JSON Pointer."},
                "line": _INTEGER_OR_NULL,
                "column": _INTEGER_OR_NULL,
                "arguments": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["argument", "problem"],
                        "properties": {"argument": _STRING, "problem": _STRING},
                    },
                },
                "findings": _ARRAY,
                "secret_paths": _STRINGS,
                "advice": _STRING,
                "gone_at": _TIME,
            },
        }
    },
}


def _answer(required: dict[str, Any], optional: dict[str, Any] | None = None) -> Schema:
    return {
        "type": "object",
        "required": list(required),
        "properties": {**required, **(optional or {})},
    }


_READING = _answer(
    {
        "digest": {"type": "string", "pattern": "^sha-256:[0-9a-f]{64}$"},
        "verify_first": {
            "type": "array",
            "items": _answer({"what": _STRING, "count": {"type": "integer"}, "ids": _STRINGS}),
        },
        "restoration_steps": _STRINGS,
        "no_instruction_authority": {
            "type": "array",
            "description": "The statements of this page with no instruction authority (§10.2).",
            "items": _answer({"path": _STRING, "kind": _STRING_OR_NULL, "origin": _STRING_OR_NULL}),
        },
        "newer_checkpoints": _STRINGS,
        "page": _answer(
            {
                "number": {"type": "integer", "minimum": 1},
                "pages": {"type": "integer", "minimum": 1},
                "next_page": {"anyOf": [{"type": "integer", "minimum": 2}, {"type": "null"}]},
                "max_tokens": {"type": "integer"},
                "estimated_tokens": {"type": "integer"},
            }
        ),
        "parts": {
            "type": "array",
            "description": 'The JSON Pointers of the parts in the text\'s data block ("": the '
            "whole document).",
            "items": _STRING,
        },
        "left_out": {
            "type": "object",
            "description": "By top-level member: how many of its parts are not on this page.",
            "additionalProperties": {"type": "integer", "minimum": 1},
        },
    }
)

_DIFF = _answer(
    {
        "comparable": {"type": "boolean"},
        "parent": _OBJECT,
        "child": _OBJECT,
        "summary": _OBJECT,
        "sections": _ARRAY,
        "lineage_findings": _ARRAY,
        "patch": {
            "anyOf": [{"type": "array"}, {"type": "null"}],
            "description": "RFC 6902, parent to child; null when withheld.",
        },
        "patch_withheld": _STRING_OR_NULL,
    }
)

_GUARD = _answer(
    {
        "outcome": {"enum": ["refuse", "determine_first", "nothing_against"]},
        "summary": _STRING,
        "reasons": {"type": "array", "items": _answer({"code": _STRING})},
        "uncompared_operations": _ARRAY,
        "stop_conditions_in_force": _ARRAY,
        "checkpoint": _OBJECT,
        "note": _STRING,
    },
    {"newer_checkpoints": _OBJECT},
)

_STORED = _answer(
    {
        "storage_id": _STRING,
        "expires_at": _TIME,
        "stored_at": _TIME,
        "digest": _STRING,
        "valid": {"type": "boolean"},
        "deletion_token": {"type": "string", "description": "Returned this once."},
        "resource": {"type": "string", "description": "opencheckpoint://stored/{storage_id}"},
    },
    {"permalink": _STRING, "raw": _STRING, "no_links": _NO_LINKS},
)

_GOT = _answer(
    {"report": _OBJECT, "stored": _OBJECT, "document": _STRING},
    {"no_links": _NO_LINKS},
)

_LINEAGE = _answer(
    {"entries": _ARRAY, "truncated": {"type": "boolean"}},
    {"no_links": _NO_LINKS},
)

_DELETED = _answer({"storage_id": _STRING, "deleted": {"type": "boolean"}})


def output_schema(tool: str) -> Schema:
    """The tool's output schema: its answer or a failure, self-contained."""
    if tool == "lint_checkpoint":
        report = _lint_report_schema()
        answer: Schema = {"$ref": "#/$defs/LintReport"}
        defs = report["$defs"]
    else:
        answer = _ANSWERS[tool]
        defs = {}
    schema: Schema = {
        "type": "object",
        "anyOf": [answer, {"$ref": "#/$defs/ToolFailure"}],
        "$defs": {**defs, "ToolFailure": FAILURE},
    }
    return copy.deepcopy(schema)


_ANSWERS: dict[str, Schema] = {
    "read_checkpoint_for_model": _READING,
    "diff_checkpoints": _DIFF,
    "check_call": _GUARD,
    "store_checkpoint": _STORED,
    "get_checkpoint": _GOT,
    "checkpoint_lineage": _LINEAGE,
    "delete_checkpoint": _DELETED,
}


@functools.cache
def _lint_report_schema() -> Schema:
    from app.resources import report_schema_bytes

    schema: Schema = json.loads(report_schema_bytes())
    return schema
