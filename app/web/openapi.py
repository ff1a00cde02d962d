"""GET /api/v1/openapi.json: an OpenAPI 3.1 description of the API and the JSON twins it links.

Built as plain data by `openapi_document` for the base URL the request came to (`public_base`:
OCP_PUBLIC_URL, or the request's own scheme, host and port), so its one server is the address
a client used. The schemas are JSON Schema 2020-12 (``jsonSchemaDialect``); a checkpoint is
referenced by the schema's ``$id``, which this service serves at that same path. Enumerations
are read from the code that answers (lifetimes, statuses, outcomes, the page's list names),
so the description cannot name a value the service does not know.

Errors are RFC 9457 problem documents (app/web/errors.py); each operation lists the statuses
it can answer with, and ``default`` stands for the rest (500)."""

from __future__ import annotations

import copy
import json
from typing import Any, get_args
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app import SPEC_VERSION, __version__
from app.findings import Severity
from app.guard import Outcome
from app.render.query import KIND_KEYS, ORIGIN_KEYS, PAGED_LISTS, STATUS_KEYS
from app.resources import report_schema_bytes
from app.schema import SCHEMA_ID as CHECKPOINT_SCHEMA_ID
from app.store.base import GoneReason
from app.store.ids import STORAGE_ID_PATTERN
from app.store.storable import REQUIRED_MEMBERS
from app.stored_lineage import ParentState
from app.web.errors import PROBLEM_TYPE
from app.web.stored import LIFETIMES, OCP_MEDIA_TYPE
from app.web.urls import public_base

OPENAPI_VERSION = "3.1.1"
DIALECT = "https://json-schema.org/draft/2020-12/schema"
# The service serves the schema at the path of its $id (SCHEMA_ROUTE in app/web/__init__.py).
SCHEMA_PATH = urlsplit(CHECKPOINT_SCHEMA_ID).path
SCHEMA_MEDIA_TYPE = "application/schema+json"
JSON = "application/json"

Data = dict[str, Any]


def openapi_document(base_url: str) -> Data:
    """The description, with ``base_url`` (no trailing slash) as its one server."""
    # A copy: the parts below share the module's schema constants, which no caller may change.
    return copy.deepcopy(_document(base_url))


def _document(base_url: str) -> Data:
    return {
        "openapi": OPENAPI_VERSION,
        "jsonSchemaDialect": DIALECT,
        "info": {
            "title": "ocp-viewer",
            "version": __version__,
            "summary": f"Lint, store and read OpenCheckpoint {SPEC_VERSION} documents.",
            "description": (
                "Checks OpenCheckpoint documents at levels 1 (the schema) and 2 (the semantic "
                "rules) only: valid never means authorized. Stored checkpoints are unlisted, "
                "not private: a storage id is the capability to read one, a deletion token "
                "the capability to delete it. Errors are RFC 9457 problem documents "
                f"({PROBLEM_TYPE}) that keep this service's own members (ok, error, advice)."
            ),
        },
        "servers": [{"url": base_url, "description": "the address this description was read at"}],
        "tags": [
            {
                "name": "check",
                "description": "Lint a document or a proposed call; nothing is stored.",
            },
            {"name": "store", "description": "Store and delete checkpoints."},
            {"name": "read", "description": "Stored checkpoints and what they link to."},
            {"name": "reference", "description": "The rules, the schema, this description."},
        ],
        "paths": _paths(),
        "components": {
            "schemas": _schemas(base_url),
            "parameters": _parameters(),
            "headers": _headers(),
            "responses": _responses(),
            "securitySchemes": {
                "uploadToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "An upload token of a private deployment (OCP_UPLOAD_TOKENS); a public "
                        "deployment asks for none. A right to store, never to read."
                    ),
                },
                "deletionToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "The deletion token the upload answer gave, once. Never put it in a URL."
                    ),
                },
            },
        },
    }


async def openapi_json(request: Request) -> Response:
    """GET /api/v1/openapi.json."""
    return JSONResponse(openapi_document(public_base(request)))


# --- helpers --------------------------------------------------------------------------------


def _ref(name: str) -> Data:
    return {"$ref": f"#/components/schemas/{name}"}


def _response(name: str) -> Data:
    return {"$ref": f"#/components/responses/{name}"}


def _json(schema: Data, media_type: str = JSON) -> Data:
    return {media_type: {"schema": schema}}


def _nullable(schema: Data) -> Data:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(required: dict[str, Data], optional: dict[str, Data] | None = None) -> Data:
    """An object with these members; others may be added later, so they are allowed."""
    return {
        "type": "object",
        "required": list(required),
        "properties": {**required, **(optional or {})},
    }


STRING: Data = {"type": "string"}
INTEGER: Data = {"type": "integer", "minimum": 0}
BOOLEAN: Data = {"type": "boolean"}
TIMESTAMP: Data = {"type": "string", "format": "date-time"}
URL: Data = {"type": "string", "format": "uri"}
PATH: Data = {"type": "string", "pattern": "^/"}  # a path of this service, from its base URL
DIGEST: Data = {"type": "string", "pattern": "^sha-256:[0-9a-f]{64}$"}
STORAGE_ID: Data = {
    "type": "string",
    "pattern": STORAGE_ID_PATTERN,
    "description": "A stored checkpoint's storage id: the part after /c/ of its permalink.",
}

# --- paths ----------------------------------------------------------------------------------

_BODY_ERRORS = {
    "408": _response("RequestTimeout"),
    "413": _response("ContentTooLarge"),
    "415": _response("UnsupportedMediaType"),
}
_STORED_ERROR_NAMES = {"404": "NotFound", "410": "Gone", "503": "Unavailable"}
_STORED_ERRORS = {status: _response(name) for status, name in _STORED_ERROR_NAMES.items()}
_DEFAULT = {"default": _response("Error")}


def _paths() -> Data:
    storage_id = {"$ref": "#/components/parameters/storageId"}
    checkpoint_bodies = {
        JSON: {"schema": _ref("Checkpoint")},
        OCP_MEDIA_TYPE: {"schema": _ref("Checkpoint")},
    }
    return {
        "/api/v1/openapi.json": {
            "get": {
                "operationId": "openapi",
                "tags": ["reference"],
                "summary": "This description",
                "responses": {
                    "200": {
                        "description": "The OpenAPI 3.1 description.",
                        "content": _json(_ref("OpenAPI")),
                    },
                    **_DEFAULT,
                },
            }
        },
        "/api/v1/lint": {
            "post": {
                "operationId": "lint",
                "tags": ["check"],
                "summary": "Lint a checkpoint",
                "description": (
                    "The report `ocp lint --format json` gives, for the raw body or for a "
                    "multipart form with the checkpoint and, to run the lineage checks, its "
                    "parent. A document that is not valid is still linted: its findings say "
                    "why. Nothing is stored."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        **checkpoint_bodies,
                        "multipart/form-data": {"schema": _ref("LintForm")},
                    },
                },
                "responses": {
                    "200": {"description": "The report.", "content": _json(_ref("LintReport"))},
                    "400": _response("BadRequest"),
                    **_BODY_ERRORS,
                    "503": _response("Unavailable"),
                    **_DEFAULT,
                },
            }
        },
        "/api/v1/guard": {
            "post": {
                "operationId": "guard",
                "tags": ["check"],
                "summary": "What a checkpoint records about a proposed tool call",
                "description": (
                    "The answer `ocp guard --format json` gives: one of three outcomes, each an "
                    "answer (200), never permission. The checkpoint is its text, the document "
                    "itself, or a stored one by its storage id. Nothing is stored."
                ),
                "requestBody": {"required": True, "content": _json(_ref("GuardRequest"))},
                "responses": {
                    "200": {"description": "The answer.", "content": _json(_ref("GuardAnswer"))},
                    "400": {
                        "description": (
                            "The call or the checkpoint cannot be read; `findings` say where."
                        ),
                        "content": _json(_ref("GuardProblem"), PROBLEM_TYPE),
                    },
                    "404": _response("NotFound"),
                    "410": _response("Gone"),
                    **_BODY_ERRORS,
                    "503": _response("Unavailable"),
                    **_DEFAULT,
                },
            }
        },
        "/api/v1/checkpoints": {
            "post": {
                "operationId": "storeCheckpoint",
                "tags": ["store"],
                "summary": "Store a checkpoint",
                "description": (
                    "Stores the exact bytes and answers with the permalink and a deletion "
                    "token, shown this once. A document that is not JSON, is no checkpoint "
                    "(its version or a top-level member §6 requires is missing) or appears to "
                    "hold a credential is never stored (422)."
                ),
                "security": [{}, {"uploadToken": []}],
                "parameters": [
                    {
                        "name": "lifetime",
                        "in": "query",
                        "description": "How long it is kept (at most the deployment's retention).",
                        "schema": {"enum": list(LIFETIMES)},
                    },
                    {
                        "name": "parent",
                        "in": "query",
                        "description": (
                            "The storage id of its stored parent: your proof that you hold it, "
                            "checked against the child's parent.id and parent.digest. The "
                            "child's page then links the parent and the diff."
                        ),
                        "schema": STORAGE_ID,
                    },
                ],
                "requestBody": {"required": True, "content": checkpoint_bodies},
                "responses": {
                    "201": {
                        "description": "Stored.",
                        "headers": {
                            "Location": {"$ref": "#/components/headers/Location"},
                            "Cache-Control": {"$ref": "#/components/headers/NoStore"},
                        },
                        "content": _json(_ref("Created")),
                    },
                    "400": _response("BadRequest"),
                    "401": _response("Unauthorized"),
                    **_BODY_ERRORS,
                    "422": _response("NotStored"),
                    "429": _response("TooManyRequests"),
                    "503": _response("Unavailable"),
                    "507": _response("InsufficientStorage"),
                    **_DEFAULT,
                },
            },
            "get": {
                "operationId": "listCheckpoints",
                "tags": ["read"],
                "summary": "What is stored under a checkpoint id",
                "description": (
                    "Counts for anyone; the metadata and links of the proven lineage only to a "
                    "caller that holds a member of it: its storage id as `holding`, or its "
                    "deletion token as the bearer token. A deployment with upload tokens "
                    "shows the counts only to a holder or an uploader (401 otherwise). "
                    "Nothing is listed without a checkpoint id."
                ),
                "security": [{}, {"deletionToken": []}, {"uploadToken": []}],
                "parameters": [
                    {
                        "name": "checkpoint_id",
                        "in": "query",
                        "required": True,
                        "description": "The id inside the checkpoint (its `id` member).",
                        "schema": {"type": "string", "minLength": 1},
                    },
                    {
                        "name": "holding",
                        "in": "query",
                        "description": "The storage id of a member of the lineage you hold.",
                        "schema": STORAGE_ID,
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The listing.",
                        "headers": {"Cache-Control": {"$ref": "#/components/headers/NoStore"}},
                        "content": _json(_ref("Listing")),
                    },
                    "400": _response("BadRequest"),
                    "401": _response("Unauthorized"),
                    "503": _response("Unavailable"),
                    **_DEFAULT,
                },
            },
        },
        "/api/v1/checkpoints/{storage_id}": {
            "parameters": [storage_id],
            "delete": {
                "operationId": "deleteCheckpoint",
                "tags": ["store"],
                "summary": "Delete a stored checkpoint before it expires",
                "security": [{"deletionToken": []}],
                "responses": {
                    "200": {"description": "Deleted.", "content": _json(_ref("Deleted"))},
                    "401": _response("Unauthorized"),
                    "403": _response("Forbidden"),
                    "404": _response("NotFound"),
                    "410": {
                        "description": "It had already expired or been deleted.",
                        "content": _json(_ref("Problem"), PROBLEM_TYPE),
                    },
                    "503": _response("Unavailable"),
                    "507": _response("InsufficientStorage"),
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}.json": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getCheckpoint",
                "tags": ["read"],
                "summary": "A stored checkpoint's page, as JSON",
                "description": (
                    "The report, the page's model with every item of every list, and the "
                    "stored checkpoint's metadata, links and lineage by evidence. The "
                    "parameters list some statements only, or a long list from an item on."
                ),
                "parameters": [
                    {"$ref": "#/components/parameters/kind"},
                    {"$ref": "#/components/parameters/origin"},
                    {"$ref": "#/components/parameters/status"},
                    {"$ref": "#/components/parameters/list"},
                    {"$ref": "#/components/parameters/from"},
                    {"$ref": "#/components/parameters/q"},
                    {"$ref": "#/components/parameters/ifNoneMatch"},
                ],
                "responses": {
                    "200": {
                        "description": "The page's JSON twin.",
                        "headers": {"ETag": {"$ref": "#/components/headers/PageETag"}},
                        "content": _json(_ref("CheckpointPage")),
                    },
                    "304": _response("NotModified"),
                    **_STORED_ERRORS,
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}/raw": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getCheckpointBytes",
                "tags": ["read"],
                "summary": "A stored checkpoint's exact bytes",
                "parameters": [{"$ref": "#/components/parameters/ifNoneMatch"}],
                "responses": {
                    "200": {
                        "description": "Exactly the bytes that were stored.",
                        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                        "content": _json(_ref("StoredDocument"), OCP_MEDIA_TYPE),
                    },
                    "304": _response("NotModified"),
                    **{status: _with_page(name) for status, name in _STORED_ERROR_NAMES.items()},
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}.md": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getCheckpointMarkdown",
                "tags": ["read"],
                "summary": "A stored checkpoint's summary as Markdown, for a ticket",
                "description": (
                    "The verdict, the badge, what changed since the parent and each line of "
                    "what to verify before continuing, each object linked to its card. It "
                    "holds no document text: rendered by any CommonMark renderer it yields no "
                    "link but to this service, no image but the badge and no HTML."
                ),
                "parameters": [{"$ref": "#/components/parameters/ifNoneMatch"}],
                "responses": {
                    "200": {
                        "description": "The Markdown.",
                        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                        "content": {"text/markdown": {"schema": STRING}},
                    },
                    "304": _response("NotModified"),
                    **{status: _with_page(name) for status, name in _STORED_ERROR_NAMES.items()},
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}/badge.svg": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getCheckpointBadge",
                "tags": ["read"],
                "summary": "A stored checkpoint's badge: its verdict and what to verify first",
                "description": (
                    "An SVG image. A checkpoint that expired or was deleted still gets a badge "
                    "(200) saying so, and an id that names nothing a 'not found' badge (404): "
                    "a ticket that embeds it shows why rather than a broken image."
                ),
                "parameters": [{"$ref": "#/components/parameters/ifNoneMatch"}],
                "responses": {
                    "200": {
                        "description": "The badge.",
                        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                        "content": {"image/svg+xml": {"schema": STRING}},
                    },
                    "304": _response("NotModified"),
                    "404": {
                        "description": "No such checkpoint: a badge that says so.",
                        "content": {"image/svg+xml": {"schema": STRING}},
                    },
                    "503": _response("Unavailable"),
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}/preview.png": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getCheckpointPreviewImage",
                "tags": ["read"],
                "summary": "A stored checkpoint's link-preview card (its page's og:image)",
                "description": (
                    "A 1200×630 PNG: the verdict and the counts of what to verify first, in "
                    "fixed words; never document text."
                ),
                "parameters": [{"$ref": "#/components/parameters/ifNoneMatch"}],
                "responses": {
                    "200": {
                        "description": "The card.",
                        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                        "content": {"image/png": {"schema": {"type": "string"}}},
                    },
                    "304": _response("NotModified"),
                    **{status: _with_page(name) for status, name in _STORED_ERROR_NAMES.items()},
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}/lineage.json": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getLineage",
                "tags": ["read"],
                "summary": "A stored checkpoint's proven lineage",
                "description": (
                    "The stored checkpoints connected to it by proven links, each with its "
                    "verdict against its parent, and its sibling forks compared (§9.3)."
                ),
                "responses": {
                    "200": {"description": "The lineage.", "content": _json(_ref("Lineage"))},
                    **_STORED_ERRORS,
                    **_DEFAULT,
                },
            },
        },
        "/c/{storage_id}/diff.json": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getDiffWithParent",
                "tags": ["read"],
                "summary": "A stored checkpoint against the parent it was stored with",
                "description": (
                    "404 when it was not stored with its parent (?parent= when storing): a "
                    "parent found only by its digest or claimed id is not shown."
                ),
                "responses": {
                    "200": {"description": "The diff.", "content": _json(_ref("Diff"))},
                    **_STORED_ERRORS,
                    **_DEFAULT,
                },
            },
        },
        "/diff.json": {
            "get": {
                "operationId": "getDiff",
                "tags": ["read"],
                "summary": "Any two stored checkpoints compared",
                "parameters": [
                    {
                        "name": name,
                        "in": "query",
                        "required": True,
                        "description": description,
                        "schema": STORAGE_ID,
                    }
                    for name, description in (
                        ("from", "The storage id of the older checkpoint (the parent)."),
                        ("to", "The storage id of the newer checkpoint (the child)."),
                    )
                ],
                "responses": {
                    "200": {"description": "The diff.", "content": _json(_ref("Diff"))},
                    "400": _response("BadRequest"),
                    **_STORED_ERRORS,
                    **_DEFAULT,
                },
            }
        },
        "/rules.json": {
            "get": {
                "operationId": "listRules",
                "tags": ["reference"],
                "summary": "Every finding code the linter reports",
                "responses": {
                    "200": {
                        "description": "The rules, schema findings first.",
                        "content": _json({"type": "array", "items": _ref("Rule")}),
                    },
                    **_DEFAULT,
                },
            }
        },
        "/rules/{code}.json": {
            "get": {
                "operationId": "getRule",
                "tags": ["reference"],
                "summary": "One rule: its page's JSON twin",
                "parameters": [
                    {
                        "name": "code",
                        "in": "path",
                        "required": True,
                        "description": "A finding code, such as OCP-S002 or secret.",
                        "schema": STRING,
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The rule, what the linter checks, its page's text.",
                        "content": _json(_ref("RuleDocument")),
                    },
                    "404": _response("NotFound"),
                    **_DEFAULT,
                },
            }
        },
        SCHEMA_PATH: {
            "get": {
                "operationId": "getSchema",
                "tags": ["reference"],
                "summary": "The checkpoint schema, at the path of its $id",
                "responses": {
                    "200": {
                        "description": "The JSON Schema (2020-12) of level 1.",
                        "content": _json(_ref("CheckpointSchema"), SCHEMA_MEDIA_TYPE),
                    },
                    **_DEFAULT,
                },
            }
        },
    }


# --- parameters, headers, responses ---------------------------------------------------------


def _parameters() -> Data:
    def listed(name: str, values: tuple[str, ...], what: str) -> Data:
        return {
            "name": name,
            "in": "query",
            "description": f"List only the statements {what} (repeat for several); values "
            "this service does not know are ignored.",
            "schema": {"type": "array", "items": {"enum": list(values)}},
            "style": "form",
            "explode": True,
        }

    return {
        "storageId": {
            "name": "storage_id",
            "in": "path",
            "required": True,
            "description": "An unknown or malformed storage id is a 404 like any other.",
            "schema": STORAGE_ID,
        },
        "kind": listed("kind", KIND_KEYS, "of these kinds"),
        "origin": listed("origin", ORIGIN_KEYS, "of these origin types"),
        "status": listed("status", STATUS_KEYS, "of these statuses"),
        "list": {
            "name": "list",
            "in": "query",
            "description": "The list `from` applies to, when not the statements.",
            "schema": {"enum": sorted(PAGED_LISTS)},
        },
        "from": {
            "name": "from",
            "in": "query",
            "description": "List from this item on (0 is the first).",
            "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
        },
        "q": {
            "name": "q",
            "in": "query",
            "description": "List only the cards (statements, operations, resources, steps, "
            "continuation and derivation entries, extensions) whose text holds these words: a "
            "plain substring, compared casefolded, never a pattern; `view.search` counts them. "
            "Empty or blank: every card. The header, summary and findings are never filtered.",
            "schema": STRING,
        },
        "ifNoneMatch": {
            "name": "If-None-Match",
            "in": "header",
            "description": "An ETag this service gave: 304 while it still matches.",
            "schema": STRING,
        },
    }


def _headers() -> Data:
    def header(description: str, schema: Data, *, required: bool = True) -> Data:
        return {"description": description, "required": required, "schema": schema}

    return {
        "Location": header("The permalink.", URL),
        "NoStore": header("no-store: no cache may keep the answer.", STRING),
        "ETag": header("The entity tag of the bytes sent.", STRING),
        "PageETag": header(
            "The entity tag of the bytes sent; none on a filtered, searched or paged view "
            "(?kind=, ?q=, ?from=, …), which is rendered for the asking.",
            STRING,
            required=False,
        ),
        "RetryAfter": header("Seconds to wait before trying again.", INTEGER),
        "WWWAuthenticate": header("The Bearer challenge (RFC 6750 §3).", STRING),
    }


def _problem(description: str, schema: str = "Problem", **headers: str) -> Data:
    out: Data = {"description": description, "content": _json(_ref(schema), PROBLEM_TYPE)}
    if headers:
        out["headers"] = {
            name: {"$ref": f"#/components/headers/{ref}"} for name, ref in headers.items()
        }
    return out


def _with_page(name: str) -> Data:
    """The response ``name`` of an address people open too (the raw bytes): a problem for a
    client whose Accept asks for JSON, the HTML error page for anyone else."""
    response = _responses()[name]
    return {
        **response,
        "description": f"{response['description']} An HTML page unless Accept asks for JSON.",
        "content": {**response["content"], "text/html": {"schema": STRING}},
    }


def _responses() -> Data:
    return {
        "NotModified": {"description": "The ETag given still matches; no body."},
        "BadRequest": _problem("The request cannot be read as sent; `detail` says why."),
        "Unauthorized": _problem(
            "A bearer token is needed (an upload or a deletion token).",
            **{"WWW-Authenticate": "WWWAuthenticate"},
        ),
        "Forbidden": _problem("That is not the deletion token of this checkpoint."),
        "NotFound": _problem("Nothing is stored at this address."),
        "RequestTimeout": _problem("The body did not arrive within the body timeout."),
        "Gone": _problem(
            "The checkpoint expired or was deleted; `gone_at` says when, `reason` which.",
            "GoneProblem",
        ),
        "ContentTooLarge": _problem(
            "The body is larger than the deployment's limit (OCP_MAX_BYTES)."
        ),
        "UnsupportedMediaType": _problem(
            "The body's media type is not one listed, or it is compressed (Content-Encoding)."
        ),
        "NotStored": _problem(
            "Not stored: not JSON, no checkpoint, apparently holding a credential (the "
            "pointers in `secret_paths`, never the values), or not the child of the parent "
            "given.",
            "NotStoredProblem",
        ),
        "TooManyRequests": _problem(
            "This client's writes for this minute are used.", **{"Retry-After": "RetryAfter"}
        ),
        "Unavailable": _problem(
            "The store is not answering, or the service is busy; try again after Retry-After.",
            **{"Retry-After": "RetryAfter"},
        ),
        "InsufficientStorage": _problem(
            "The store's quota is used or its disk is full; reading and deleting still work."
        ),
        "Error": _problem("Any other error, as a problem document."),
    }


# --- schemas --------------------------------------------------------------------------------


def report_components() -> Data:
    """The lint report's schemas (LintReport, FileResult, Finding, …), as the report's own JSON
    Schema states them (schema/lint-report.schema.json, docs/report.md): one statement of the
    report's shape, which the CLI's JSON, this API and the MCP tool all answer with."""
    report = json.loads(report_schema_bytes())
    text = json.dumps(report["$defs"]).replace('"#/$defs/', '"#/components/schemas/')
    components: Data = json.loads(text)
    return components


def _schemas(base_url: str) -> Data:
    meta = _object(
        {
            "storage_id": STORAGE_ID,
            "checkpoint_id": _nullable(STRING),
            "parent_id": _nullable(STRING),
            "created_at": _nullable(STRING),
            "derivation_method": _nullable(STRING),
            "task_status": _nullable(STRING),
            "stored_at": TIMESTAMP,
            "expires_at": TIMESTAMP,
            "digest": DIGEST,
            "valid": BOOLEAN,
            "errors": INTEGER,
            "warnings": INTEGER,
            "size": INTEGER,
            "parent_digest": _nullable(STRING),
        }
    )
    problem = _object(
        {
            "type": {
                "type": "string",
                "format": "uri-reference",
                "description": "about:blank: no more specific type than the status's.",
            },
            "title": {"type": "string", "description": "The status's reason phrase."},
            "status": {"type": "integer", "minimum": 400, "maximum": 599},
            "detail": {"type": "string", "description": "What happened to this request."},
            "ok": {"const": False},
            "error": {"type": "string", "description": "The same as detail."},
            "advice": {"type": "string", "description": "What to do about it."},
        },
        {
            "findings": {"type": "array", "items": {"type": "object"}},
            "secret_paths": {"type": "array", "items": STRING},
            "gone_at": TIMESTAMP,
            "reason": {"enum": list(get_args(GoneReason))},
        },
    )
    problem["description"] = (
        "RFC 9457 problem details, with the members this service's errors always had."
    )
    return {
        "Checkpoint": {
            # the schema as this service serves it, at the path of its $id: a validator of
            # this description resolves it from where it read the description
            "$ref": f"{base_url}{SCHEMA_PATH}",
            "description": (
                f"An OpenCheckpoint {SPEC_VERSION} document, exactly as its bytes are (the "
                "digest and the findings' positions are of those bytes). A document that "
                "fails the schema is still linted, and still stored when it is a checkpoint."
            ),
        },
        "StoredDocument": {
            "type": "object",
            "required": ["opencheckpoint", *REQUIRED_MEMBERS],
            "properties": {"opencheckpoint": {"const": SPEC_VERSION}},
            "description": (
                "A stored checkpoint's bytes: a checkpoint of this version with the members "
                "§6 requires; one whose metadata says valid conforms to "
                f"{CHECKPOINT_SCHEMA_ID}."
            ),
        },
        "CheckpointSchema": {
            "type": "object",
            "required": ["$schema", "$id"],
            "properties": {"$schema": {"const": DIALECT}, "$id": {"const": CHECKPOINT_SCHEMA_ID}},
        },
        "OpenAPI": {
            "type": "object",
            "required": ["openapi", "info", "servers", "paths", "components"],
            "properties": {"openapi": {"type": "string", "pattern": "^3\\.1\\."}},
        },
        **report_components(),
        "LintForm": {
            "type": "object",
            "description": (
                "The checkpoint as a file or as text, and its parent likewise (a file wins "
                "over text)."
            ),
            "properties": {
                "checkpoint_file": {"type": "string", "contentMediaType": OCP_MEDIA_TYPE},
                "checkpoint": STRING,
                "parent_file": {"type": "string", "contentMediaType": OCP_MEDIA_TYPE},
                "parent": STRING,
            },
        },
        "GuardRequest": {
            "type": "object",
            "required": ["call"],
            "properties": {
                "call": _object(
                    {"tool": {"type": "string", "minLength": 1}},
                    {"arguments": {"type": "object"}},
                ),
                "checkpoint": {
                    "description": (
                        "The checkpoint's text as a JSON string (its exact bytes: the digest "
                        "and the positions are the text's), or the document itself."
                    ),
                    "anyOf": [{"type": "string"}, _ref("Checkpoint")],
                },
                "checkpoint_id": {
                    **STORAGE_ID,
                    "description": "A stored checkpoint, read as its permalink is.",
                },
            },
            "oneOf": [{"required": ["checkpoint"]}, {"required": ["checkpoint_id"]}],
        },
        "GuardAnswer": _object(
            {
                "outcome": {"enum": list(get_args(Outcome))},
                "summary": STRING,
                "reasons": {
                    "type": "array",
                    "items": _object(
                        {
                            "code": STRING,
                            "outcome": {"enum": list(get_args(Outcome))},
                            "message": STRING,
                            "path": STRING,
                            "operation": _nullable(STRING),
                            "record": _nullable(STRING),
                            "lifted_by": _nullable(STRING),
                            "section": STRING,
                        }
                    ),
                },
                "uncompared_operations": {"type": "array", "items": STRING},
                "stop_conditions_in_force": {
                    "type": "array",
                    "description": (
                        "Every stop condition of the checkpoint: nothing it records lifts one "
                        "(§6.8), so each is listed with what lifts it."
                    ),
                    "items": _object(
                        {
                            "id": _nullable(STRING),
                            "path": STRING,
                            "applies_to": {"type": "array", "items": STRING},
                            "applies_to_more": INTEGER,
                            "refs": {"type": "array", "items": STRING},
                            "refs_more": INTEGER,
                            "lifted_by": STRING,
                            "lifted_when": {"enum": ["nothing", "system_of_record", "person"]},
                        }
                    ),
                },
                "checkpoint": _object({"digest": _nullable(DIGEST), "levels": {"type": "object"}}),
                "note": STRING,
            },
            {
                "newer_checkpoints": {
                    **_object(
                        {
                            "linked": {"type": "array", "items": PATH},
                            "verified": INTEGER,
                            "claimed": INTEGER,
                            "truncated": BOOLEAN,
                        }
                    ),
                    "description": (
                        "For a stored checkpoint (checkpoint_id): the newer checkpoints of its "
                        "lineage (§10.3), which the answer also reads the call against."
                    ),
                },
            },
        ),
        "Created": _object(
            {
                "storage_id": STORAGE_ID,
                "permalink": URL,
                "raw": URL,
                "json": URL,
                "badge": URL,
                "markdown": URL,
                "expires_at": TIMESTAMP,
                "stored_at": TIMESTAMP,
                "digest": DIGEST,
                "valid": BOOLEAN,
                "deletion_token": {
                    "type": "string",
                    "description": "The capability to delete it, shown this once: keep it.",
                },
                "note": STRING,
            }
        ),
        "Deleted": _object(
            {"ok": {"const": True}, "status": {"const": 200}, "deleted": {"const": True}}
        ),
        "Meta": meta,
        "Listing": _object(
            {
                "checkpoint_id": STRING,
                "proof": {"enum": ["member", "not_a_member", "none"]},
                "entries": {
                    "type": "array",
                    "items": {
                        "allOf": [
                            _ref("Meta"),
                            _object({"permalink": URL, "lineage": PATH}),
                        ]
                    },
                },
                "truncated": BOOLEAN,
                "stored": _object(
                    {"documents": INTEGER, "naming_it_as_parent": INTEGER, "at_least": BOOLEAN}
                ),
                "note": STRING,
            }
        ),
        "ParentState": {"enum": list(get_args(ParentState))},
        "Stored": {
            "allOf": [
                _ref("Meta"),
                _object(
                    {
                        "permalink": URL,
                        "raw": PATH,
                        "lineage": PATH,
                        "badge": PATH,
                        "markdown": PATH,
                        "diff": _nullable(PATH),
                        "delete": PATH,
                        "note": STRING,
                        "parent": _nullable(
                            _object(
                                {
                                    "state": _ref("ParentState"),
                                    "sentence": _nullable(STRING),
                                    "digest": _nullable(STRING),
                                    "compared": BOOLEAN,
                                    "claimants": INTEGER,
                                    "link": _nullable(PATH),
                                }
                            )
                        ),
                        "newer": _nullable(
                            _object(
                                {
                                    "linked": {"type": "array", "items": {"type": "object"}},
                                    "verified": INTEGER,
                                    "claimed": INTEGER,
                                    "truncated": BOOLEAN,
                                    "any": BOOLEAN,
                                    "sentences": {"type": "array", "items": STRING},
                                }
                            )
                        ),
                    }
                ),
            ]
        },
        "CheckpointPage": _object(
            {
                "tool": _ref("Tool"),
                "note": STRING,
                "report": _ref("FileResult"),
                "view": {"type": "object", "description": "The page's model, every list whole."},
                "stored": _ref("Stored"),
            }
        ),
        "Lineage": _object(
            {
                "focus": _ref("Meta"),
                "drawing": {"type": "object", "description": "The tree's layout (the SVG's)."},
                "entries": {
                    "type": "array",
                    "items": {
                        "allOf": [
                            _ref("Meta"),
                            _object(
                                {
                                    "relation": STRING,
                                    "href": PATH,
                                    "diff": _nullable(PATH),
                                    "checked_with_parent": _nullable(BOOLEAN),
                                    "valid": BOOLEAN,
                                }
                            ),
                        ]
                    },
                },
                "truncated": BOOLEAN,
                "unjudged": INTEGER,
                "max_judged": INTEGER,
                "parent": _object(
                    {
                        "state": _ref("ParentState"),
                        "sentence": _nullable(STRING),
                        "digest": _nullable(STRING),
                        "link": _nullable(PATH),
                    }
                ),
                "claimed": _object({"parents": INTEGER, "children": INTEGER}),
                "forks": _object(
                    {
                        "compared": {"type": "array", "items": STRING},
                        "conflicts": {"type": "array"},
                        "truncated": BOOLEAN,
                    }
                ),
            }
        ),
        "Diff": _object(
            {
                "model": {"const": "ocp-viewer/diff"},
                "model_version": {"type": "integer"},
                "comparable": BOOLEAN,
                "notes": {"type": "array", "items": STRING},
                "parent": {"type": "object"},
                "child": {"type": "object"},
                "summary": _nullable({"type": "object"}),
                "fields": _object({"changed": {"type": "array"}, "unchanged": INTEGER}),
                "sections": {"type": "array", "items": {"type": "object"}},
                "lineage_findings": {"type": "array", "items": {"type": "object"}},
                "findings": {"type": "object"},
                "patch": _nullable(
                    {
                        "type": "array",
                        "description": "The RFC 6902 JSON Patch from the parent to the child.",
                        "items": _object({"op": STRING, "path": STRING}),
                    }
                ),
                "patch_withheld": _nullable(STRING),
            }
        ),
        "Rule": _object(
            {
                "code": STRING,
                "severity": {"enum": list(get_args(Severity))},
                "level": STRING,
                "summary": STRING,
                "page": {"type": "string", "format": "uri"},
                "json": {"type": "string", "format": "uri"},
            }
        ),
        "RuleDocument": {
            "allOf": [
                _ref("Rule"),
                _object(
                    {
                        "description": STRING,
                        "text": {
                            "type": ["string", "null"],
                            "description": "The rule's page as written (Markdown).",
                        },
                    }
                ),
            ]
        },
        "Problem": problem,
        "GoneProblem": {
            "allOf": [_ref("Problem"), {"required": ["gone_at", "reason"]}],
        },
        "NotStoredProblem": {
            "allOf": [
                _ref("Problem"),
                _object(
                    {
                        "findings": {"type": "array", "items": _ref("Finding")},
                        "secret_paths": {"type": "array", "items": STRING},
                    }
                ),
            ],
        },
        "GuardProblem": {
            "allOf": [
                _ref("Problem"),
                _object(
                    {
                        "findings": {
                            "type": "array",
                            "items": _object(
                                {
                                    "subject": {
                                        "type": "string",
                                        "description": "What could not be read: body, call or "
                                        "checkpoint.",
                                    },
                                    "message": STRING,
                                    "path": STRING,
                                    "line": _nullable({"type": "integer", "minimum": 1}),
                                    "column": _nullable({"type": "integer", "minimum": 1}),
                                }
                            ),
                        }
                    }
                ),
            ],
        },
    }
