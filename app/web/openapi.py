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
import itertools
import json
from typing import Any, get_args
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app import SPEC_VERSION, __version__
from app.findings import SEVERITIES
from app.guard import Outcome
from app.render.query import KIND_KEYS, ORIGIN_KEYS, PAGED_LISTS, STATUS_KEYS
from app.resources import report_schema_bytes
from app.schema import SCHEMA_ID as CHECKPOINT_SCHEMA_ID
from app.store.base import GoneReason
from app.store.ids import STORAGE_ID_PATTERN
from app.store.storable import REQUIRED_MEMBERS
from app.stored_lineage import ParentState
from app.web.errors import PROBLEM_TYPE
from app.web.parameters import MAX_START
from app.web.stored import LIFETIMES, OCP_MEDIA_TYPE
from app.web.urls import public_base

OPENAPI_VERSION = "3.1.1"
DIALECT = "https://json-schema.org/draft/2020-12/schema"
# The service serves the schema at the path of its $id (SCHEMA_ROUTE in app/web/__init__.py).
SCHEMA_PATH = urlsplit(CHECKPOINT_SCHEMA_ID).path
SCHEMA_MEDIA_TYPE = "application/schema+json"
# The format of a string that holds the text of a JSON object of this version (the guard's
# checkpoint as its text): contentSchema says it, and a format names it for generators that read no
# contentSchema (tests/web/st_hooks.py teaches schemathesis).
JSON_OBJECT_TEXT = "json-object-text"
JSON = "application/json"

Data = dict[str, Any]
HTTP_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})


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
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
            "description": (
                "Checks OpenCheckpoint documents at levels 1 (the schema) and 2 (the semantic "
                "rules) only: valid never means authorized. Stored checkpoints are unlisted, "
                "not private: a storage id is the capability to read one, a deletion token "
                "the capability to delete it. Errors are RFC 9457 problem documents "
                f"({PROBLEM_TYPE}) that keep this service's own members (ok, error, advice). "
                "A query value outside its schema is refused (400, naming the parameter and "
                "what it takes), and so is a query parameter an operation does not take."
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
        "paths": _public(_paths()),
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


def _public(paths: Data) -> Data:
    """Every operation that names no security scheme is public, and says so (``security: []``):
    a client never has to guess whether one needs a token."""
    for item in paths.values():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                operation.setdefault("security", [])
    return paths


_BODY_ERRORS = {
    "408": _response("RequestTimeout"),
    "413": _response("ContentTooLarge"),
    "415": _response("UnsupportedMediaType"),
}
_STORED_ERROR_NAMES = {"404": "NotFound", "410": "Gone", "503": "Unavailable"}
_STORED_ERRORS = {status: _response(name) for status, name in _STORED_ERROR_NAMES.items()}
_DEFAULT = {"default": _response("Error")}
# An operation that takes nothing a client could get wrong can still be sent a request that is
# not HTTP: the server (uvicorn) answers 400 before this service sees it.
_MALFORMED = {"400": _response("MalformedRequest")}
# The parts of a form that are files: their bytes are the document, whatever their type says.
_FILE_PARTS = {
    name: {"contentType": f"{OCP_MEDIA_TYPE}, {JSON}, application/octet-stream"}
    for name in ("checkpoint_file", "parent_file")
}
_PATCH = {
    "application/json-patch+json": {
        "schema": {
            "type": "array",
            "description": "The RFC 6902 JSON Patch from the parent to the child.",
            "items": _object({"op": STRING, "path": STRING}),
        }
    }
}


def _page_parameters() -> list[Data]:
    """What a checkpoint page lists (app/render/query.py), checked by app/web/parameters.py."""
    return [
        {"$ref": f"#/components/parameters/{name}"}
        for name in ("kind", "origin", "status", "list", "from", "q")
    ]


def _pair_parameters() -> list[Data]:
    return [
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
    ]


def _paths() -> Data:
    storage_id = {"$ref": "#/components/parameters/storageId"}
    # What each address takes as its raw body: the linter any JSON text (it reports what is
    # wrong with it), the store a checkpoint's top level (app/store/storable.py).
    lint_bodies = {
        JSON: {"schema": _ref("AnyDocument")},
        OCP_MEDIA_TYPE: {"schema": _ref("AnyDocument")},
    }
    store_bodies = {
        JSON: {"schema": _ref("StorableCheckpoint")},
        OCP_MEDIA_TYPE: {"schema": _ref("StorableCheckpoint")},
    }
    forms = {
        "multipart/form-data": {"schema": _ref("PairForm"), "encoding": _FILE_PARTS},
        "application/x-www-form-urlencoded": {"schema": _ref("PairTextForm")},
    }

    def description(operation_id: str, summary: str) -> Data:
        return {
            "get": {
                "operationId": operation_id,
                "tags": ["reference"],
                "summary": summary,
                "responses": {
                    "200": {
                        "description": "The OpenAPI 3.1 description.",
                        "content": _json(_ref("OpenAPI")),
                    },
                    **_MALFORMED,
                    **_DEFAULT,
                },
            }
        }

    return {
        "/api/v1/openapi.json": description("openapi", "This description"),
        # where tools look first: the same answer, not a redirect (app/web/__init__.py)
        "/openapi.json": description("openapiAtRoot", "This description, where tools look"),
        "/healthz": {
            "get": {
                "operationId": "healthz",
                "tags": ["reference"],
                "summary": "Liveness: the process answers",
                "description": "Says nothing of the store (see /readyz).",
                "responses": {
                    "200": {"description": "Alive.", "content": _json(_ref("Health"))},
                    **_MALFORMED,
                    **_DEFAULT,
                },
            }
        },
        "/readyz": {
            "get": {
                "operationId": "readyz",
                "tags": ["reference"],
                "summary": "Readiness: the store answers",
                "description": (
                    "A full store is still ready (`writable` false): reading, linting and "
                    "deleting work."
                ),
                "responses": {
                    "200": {
                        "description": "Ready.",
                        "headers": {"Cache-Control": {"$ref": "#/components/headers/NoStore"}},
                        "content": _json(_ref("Readiness")),
                    },
                    **_MALFORMED,
                    "503": {
                        "description": "The store is not answering; try again after Retry-After.",
                        "headers": {"Retry-After": {"$ref": "#/components/headers/RetryAfter"}},
                        "content": _json(_ref("Readiness")),
                    },
                    **_DEFAULT,
                },
            }
        },
        "/view.json": {
            "post": {
                "operationId": "viewPasted",
                "tags": ["check"],
                "summary": "A pasted or uploaded checkpoint's page, as JSON",
                "description": (
                    "What the home page's form shows, as its JSON twin: the report and the "
                    "page's model, every list whole. Nothing is stored."
                ),
                "parameters": _page_parameters(),
                "requestBody": {
                    "required": True,
                    "content": {
                        **lint_bodies,
                        "multipart/form-data": {
                            "schema": _ref("LintForm"),
                            "encoding": _FILE_PARTS,
                        },
                        "application/x-www-form-urlencoded": {"schema": _ref("TextForm")},
                    },
                },
                "responses": {
                    "200": {
                        "description": "The page's JSON twin.",
                        "content": _json(_ref("CheckedPage")),
                    },
                    "400": _response("BadRequest"),
                    **_BODY_ERRORS,
                    "503": _response("Unavailable"),
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
                    "why. A parent that is no JSON is the report's `errors` (the lineage "
                    "checks did not run) and its `failure`. Nothing is stored."
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        **lint_bodies,
                        "multipart/form-data": {
                            "schema": _ref("LintForm"),
                            "encoding": _FILE_PARTS,
                        },
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
                        "description": (
                            "How long it is kept (at most the deployment's retention); absent, "
                            "the longest. Any other value, empty too, is refused (400)."
                        ),
                        "schema": {"enum": list(LIFETIMES)},
                    },
                    {
                        "name": "parent",
                        "in": "query",
                        "description": (
                            "The storage id of its stored parent: your proof that you hold it, "
                            "checked against the child's parent.id and parent.digest. The "
                            "child's page then links the parent and the diff. Given empty or "
                            "not in the shape of a storage id, it is refused (400)."
                        ),
                        "schema": STORAGE_ID,
                    },
                ],
                "requestBody": {"required": True, "content": store_bodies},
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
                    "404": _problem("Nothing is stored at the storage id given as ?parent=."),
                    **_BODY_ERRORS,
                    "409": _problem(
                        "The checkpoint stored at ?parent= is not the parent this one names "
                        "(not its parent.id, or another version than its parent.digest)."
                    ),
                    "410": _problem("The parent given as ?parent= expired or was deleted."),
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
                    "Nothing is listed without a checkpoint id or `holding`; `holding` alone "
                    "stands for the held checkpoint's own id (404 when nothing is stored "
                    "there)."
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
                    "404": _response("NotFound"),
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
                    *_page_parameters(),
                    {"$ref": "#/components/parameters/ifNoneMatch"},
                ],
                "responses": {
                    "200": {
                        "description": "The page's JSON twin.",
                        "headers": {"ETag": {"$ref": "#/components/headers/PageETag"}},
                        "content": _json(_ref("CheckpointPage")),
                    },
                    "304": _response("NotModified"),
                    "400": _response("BadRequest"),
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
        "/c/{storage_id}/diff.patch": {
            "parameters": [storage_id],
            "get": {
                "operationId": "getPatchFromParent",
                "tags": ["read"],
                "summary": "The JSON Patch from the parent it was stored with to it",
                "responses": {
                    "200": {"description": "The patch.", "content": _PATCH},
                    **{status: _with_page(name) for status, name in _STORED_ERROR_NAMES.items()},
                    "422": _with_page("NoPatch"),
                    **_DEFAULT,
                },
            },
        },
        "/diff.json": {
            "get": {
                "operationId": "getDiff",
                "tags": ["read"],
                "summary": "Any two stored checkpoints compared",
                "parameters": _pair_parameters(),
                "responses": {
                    "200": {"description": "The diff.", "content": _json(_ref("Diff"))},
                    "400": _response("BadRequest"),
                    **_STORED_ERRORS,
                    **_DEFAULT,
                },
            },
            "post": {
                "operationId": "diffPasted",
                "tags": ["check"],
                "summary": "A pasted or uploaded pair compared",
                "description": (
                    "The home page's 'Compare with the parent', as JSON: the checkpoint and its "
                    "parent, each a file or text. Nothing is stored."
                ),
                "requestBody": {"required": True, "content": forms},
                "responses": {
                    "200": {"description": "The diff.", "content": _json(_ref("Diff"))},
                    "400": _response("BadRequest"),
                    **_BODY_ERRORS,
                    "503": _response("Unavailable"),
                    **_DEFAULT,
                },
            },
        },
        "/diff.patch": {
            "get": {
                "operationId": "getPatch",
                "tags": ["read"],
                "summary": "The JSON Patch from one stored checkpoint to another",
                "parameters": _pair_parameters(),
                "responses": {
                    "200": {"description": "The patch.", "content": _PATCH},
                    "400": _with_page("BadRequest"),
                    **{status: _with_page(name) for status, name in _STORED_ERROR_NAMES.items()},
                    "422": _with_page("NoPatch"),
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
                    **_MALFORMED,
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
                    **_MALFORMED,
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
            "description": f"List only the statements {what} (repeat for several; empty is "
            "any, as the page's filter form sends it); any other value is refused (400), "
            "naming the parameter and the values it takes.",
            "schema": {"type": "array", "items": {"enum": [*values, ""]}},
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
            "description": "The list `from` applies to, when not the statements; any other "
            "value is refused (400).",
            "schema": {"enum": sorted(PAGED_LISTS)},
        },
        "from": {
            "name": "from",
            "in": "query",
            "description": "List from this item on (0 is the first); anything but a whole "
            "number in range is refused (400).",
            "schema": {"type": "integer", "minimum": 0, "maximum": MAX_START},
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
    client whose Accept asks for JSON, the HTML error page for anyone else. Inlined, so a
    response only such addresses give is not a component of its own (NO_PATCH)."""
    response = NO_PATCH if name == "NoPatch" else _responses()[name]
    return {
        **response,
        "description": f"{response['description']} An HTML page unless Accept asks for JSON.",
        "content": {**response["content"], "text/html": {"schema": STRING}},
    }


NO_PATCH = _problem(
    "There is no JSON Patch between these two (the diff says why: `patch_withheld`)."
)


def _responses() -> Data:
    return {
        "NotModified": {"description": "The ETag given still matches; no body."},
        "MalformedRequest": {
            "description": "Not a well-formed HTTP request: the server answers before the service.",
            "content": {"text/plain": {"schema": STRING}},
        },
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

# What a form's box or file may hold: anything (a blank box or an empty file is no document:
# the home page's form sends its empty boxes too).
# A form's fields are text on the wire, whatever they look like ("12" is text): no `type`.
ANY_TEXT: Data = {"description": "Text; blank is none."}
ANY_FILE: Data = {"contentMediaType": "application/octet-stream"}
# Python's white space (str.isspace, what the service strips from a box), spelt out for
# ECMA-262 patterns, whose \\s differs (it lacks U+001C–U+001F and U+0085, has U+FEFF).
WHITE_SPACE = (
    "\\t\\n\\u000b\\u000c\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029"
    "\\u202f\\u205f\\u3000"
)
# A document in a box: at least one character that is not white space. A form's values are
# text on the wire, so a number or a boolean is text too ("12"); a list or nothing is no text.
TEXT: Data = {
    "type": ["string", "number", "integer", "boolean"],
    "pattern": f"[^{WHITE_SPACE}]",
}
# A document in a file: at least one byte, any type (an empty list is no part at all).
FILE: Data = {**ANY_FILE, "minLength": 1, "minItems": 1}


def _form(*, parent: bool, files: bool = True) -> Data:
    """A form with the checkpoint (a file, or text; a file wins over text) and, for a pair,
    its parent likewise: each document required is given as one or the other, and its other
    field may come empty (a browser sends every field of the form)."""
    roles = ("checkpoint", "parent") if parent else ("checkpoint",)
    names = ("checkpoint", "parent")
    what = "a file or as text (a file wins over text)" if files else "text"
    described = f"The checkpoint as {what}, and its parent likewise" + (
        "." if parent else ", to run the lineage checks (a blank parent is none)."
    )
    if not files:
        return {
            "type": "object",
            "description": described,
            "required": list(roles),
            "properties": {name: TEXT if name in roles else ANY_TEXT for name in names},
        }

    # One branch for each way of giving every document required (text or file for each), at
    # the top: each branch repeats the schema of the fields it requires, so `required` names a
    # property it describes. (An allOf of one anyOf per document says the same, but a
    # generator of positive cases may then leave a document out.)
    branches = [
        {
            "required": list(fields),
            "properties": {f: FILE if f.endswith("_file") else TEXT for f in fields},
        }
        for fields in itertools.product(*[(role, f"{role}_file") for role in roles])
    ]
    return {
        "type": "object",
        "description": described,
        "properties": {
            field: schema
            for name in names
            for field, schema in ((name, ANY_TEXT), (f"{name}_file", ANY_FILE))
        },
        "anyOf": branches,
    }


def _guard_request() -> Data:
    """The guard's body: the call and one checkpoint, by its text, as the document itself, or
    stored (its storage id). The call has only tool and arguments (§6.6): app/guard.py
    refuses any other member, so the schema does too. Other members of the body itself are
    ignored, so a client may send members a later version reads (an older service answers
    without them); the schema leaves them open."""
    stored = {
        **STORAGE_ID,
        "description": "A stored checkpoint, read as its permalink is.",
    }
    # the guard reads a checkpoint past its version gate: an object of this version
    versioned = {
        "type": "object",
        "required": ["opencheckpoint"],
        "properties": {"opencheckpoint": {"const": SPEC_VERSION}},
    }
    checkpoint = {
        "description": (
            "The checkpoint's text as a JSON string (its exact bytes: the digest and the "
            "positions are the text's), or the document itself: any JSON, linted as it is."
        ),
        "anyOf": [
            {
                "type": "string",
                "minLength": 1,
                "format": JSON_OBJECT_TEXT,
                "contentMediaType": JSON,
                "contentSchema": versioned,
            },
            versioned,
        ],
    }
    # null is as good as absent: each member's schema allows it, its branch below does not
    members = {
        "checkpoint": checkpoint,
        "storage_id": stored,
        "checkpoint_id": {
            **stored,
            "deprecated": True,
            "description": "The storage id under its old name: give storage_id instead.",
        },
    }
    stored_names = ["storage_id", "checkpoint_id"]
    return {
        "type": "object",
        "required": ["call"],
        "properties": {
            "call": {
                **_object(
                    {"tool": {"type": "string", "minLength": 1}},
                    {"arguments": {"type": "object"}},
                ),
                "additionalProperties": False,
            },
            **{name: _nullable(schema) for name, schema in members.items()},
        },
        # a storage id under both names is refused, even when one is null
        "not": {
            "required": stored_names,
            "properties": {name: {"description": f"{name} given."} for name in stored_names},
        },
        "oneOf": [
            {"required": [name], "properties": {name: schema}} for name, schema in members.items()
        ],
    }


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
        "AnyDocument": {
            "description": (
                "Any JSON text: the linter reports what is wrong with it, against "
                f"{CHECKPOINT_SCHEMA_ID} and the rules, rather than refusing it (bytes that "
                "are not JSON get the json finding, with its line and column)."
            ),
        },
        "StorableCheckpoint": {
            "type": "object",
            "description": (
                f"A checkpoint's top level: version {SPEC_VERSION} and the members §6 "
                "requires. It is stored as its exact bytes even when it fails the schema or "
                "the rules (its page says why); it is refused (422) when it is not I-JSON or "
                "appears to hold a credential."
            ),
            "required": ["opencheckpoint", *REQUIRED_MEMBERS],
            "properties": {
                "opencheckpoint": {"const": SPEC_VERSION},
                **{
                    name: {"description": f"§6: the checkpoint's {name}."}
                    for name in REQUIRED_MEMBERS
                },
            },
        },
        "StoredDocument": {
            "type": "object",
            "required": ["opencheckpoint", *REQUIRED_MEMBERS],
            "properties": {
                "opencheckpoint": {"const": SPEC_VERSION},
                **{
                    name: {"description": f"§6: the checkpoint's {name}."}
                    for name in REQUIRED_MEMBERS
                },
            },
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
        "OpenAPI": _object(
            {
                "openapi": {"type": "string", "pattern": "^3\\.1\\."},
                "info": {"type": "object"},
                "servers": {"type": "array", "items": _object({"url": URL})},
                "paths": {"type": "object"},
                "components": {"type": "object"},
            }
        ),
        "Health": _object(
            {"status": {"const": "ok"}, "version": STRING, "spec_version": {"const": SPEC_VERSION}}
        ),
        "Readiness": _object(
            {
                "status": {"enum": ["ready", "unavailable"]},
                "version": STRING,
                "spec_version": {"const": SPEC_VERSION},
            },
            {
                "storage": {"enum": ["ok", "full"]},
                "writable": BOOLEAN,
                "full_because": {"enum": ["disk", "quota"]},
                "store": {"type": "string", "description": "Why the store is unavailable."},
            },
        ),
        "CheckedPage": _object(
            {
                "tool": _ref("Tool"),
                "note": STRING,
                "report": _ref("FileResult"),
                "view": {"type": "object", "description": "The page's model, every list whole."},
            }
        ),
        **report_components(),
        "LintForm": _form(parent=False),
        "TextForm": _form(parent=False, files=False),
        "PairForm": _form(parent=True),
        "PairTextForm": _form(parent=True, files=False),
        "GuardRequest": _guard_request(),
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
                "checkpoint_id": {
                    **_nullable(STRING),
                    "description": (
                        "The document id listed under; null when `holding` alone named a "
                        "stored document whose id is not text (its proven lineage is listed)."
                    ),
                },
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
                "severity": {"enum": list(SEVERITIES)},
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
                        # the intake's findings, before any report: where and what, without
                        # the report's end position and advice (app/findings.py to_dict)
                        "findings": {
                            "type": "array",
                            "items": _object(
                                {
                                    "code": STRING,
                                    "severity": {"enum": list(SEVERITIES)},
                                    "path": STRING,
                                    "line": _nullable({"type": "integer", "minimum": 1}),
                                    "column": _nullable({"type": "integer", "minimum": 1}),
                                    "message": STRING,
                                    "help_url": STRING,
                                }
                            ),
                        },
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
