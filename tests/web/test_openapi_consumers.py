"""The OpenAPI description and the service agree, as their consumers check it (issue 28).

Every route for programs (and every method its Allow header lists) is described, and nothing
described is unserved; /openapi.json at the root answers what /api/v1/openapi.json answers;
request bodies say what the service takes, no more and no less; a query value outside its
schema is a 400 naming the parameter, what is wrong and what it takes. The slow tests run the
real consumers: Redocly CLI's `lint --extends recommended` (0 errors, 0 warnings) and
schemathesis with every check against a live `ocp serve` (0 failures).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012
from starlette.routing import Route
from starlette.testclient import TestClient

from app.config import Settings
from app.render.query import PAGED_LISTS
from app.web import create_app
from app.web.openapi import WHITE_SPACE
from tests.conftest import CONFORMANCE
from tests.serve import Server

ROOT = Path(__file__).resolve().parents[2]
HANDOFF = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}
UNKNOWN = "A" * 24  # the shape of a storage id, stored nowhere
CALL = {"tool": "payments.refactor", "arguments": {}}
DOCUMENT_URI = "urn:ocp-viewer:openapi"
# The pages for people (HTML, forms, assets): the description is of what programs read.
PAGES = frozenset(
    {
        "/",
        "/view",
        "/example",
        "/live",
        "/share",
        "/c/{storage_id}",
        "/c/{storage_id}/source",
        "/c/{storage_id}/diff",
        "/c/{storage_id}/lineage",
        "/c/{storage_id}/delete",
        "/diff",
        "/rules",
        "/rules/{code}",  # its JSON twin, /rules/{code}.json, is described
        "/favicon.ico",
        "/static/{path:path}",
    }
)
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}

Document = dict[str, Any]


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture
def document(client: TestClient) -> Document:
    described: Document = client.get("/openapi.json").json()
    return described


def described_methods(document: Document) -> dict[str, set[str]]:
    return {path: set(item) & METHODS for path, item in document["paths"].items()}


def valid(document: Document, schema: str, instance: object, media: str | None = None) -> bool:
    """Whether ``instance`` is valid against a schema of the description: a component's name,
    or the pointer of a request body's schema."""
    registry: Registry[Any] = Registry().with_resource(
        DOCUMENT_URI, DRAFT202012.create_resource(document)
    )
    pointer = schema if schema.startswith("/") else f"/components/schemas/{schema}"
    validator = Draft202012Validator({"$ref": f"{DOCUMENT_URI}#{pointer}"}, registry=registry)
    return validator.is_valid(instance)


def store(client: TestClient, data: bytes = HANDOFF) -> str:
    response = client.post("/api/v1/checkpoints", content=data, headers=JSON_TYPE)
    assert response.status_code == 201, response.text
    storage_id: str = response.json()["storage_id"]
    return storage_id


# --- routes ---------------------------------------------------------------------------------


def test_every_route_for_programs_is_described_with_each_method_it_serves(client, document):
    described = described_methods(document)
    for route in client.app.routes:
        if isinstance(route, Route) and route.path not in PAGES:
            for method in (route.methods or set()) - {"HEAD"}:
                assert method.lower() in described.get(route.path, set()), (route.path, method)


def test_what_is_described_is_served_and_allow_lists_exactly_its_methods(client, document):
    """A method nothing describes gets 405, and its Allow header names the described methods
    (and HEAD): what schemathesis's unsupported-method and Allow checks hold the service to."""
    for path, methods in described_methods(document).items():
        concrete = path.replace("{storage_id}", UNKNOWN).replace("{code}", "OCP-S002")
        refused = client.request("PATCH", concrete)
        assert refused.status_code == 405, (path, refused.status_code)
        allowed = {m.strip().lower() for m in refused.headers["allow"].split(",")}
        assert allowed - {"head"} == methods, path


def test_the_description_is_also_at_the_root(client):
    at_root = client.get("/openapi.json")
    assert at_root.status_code == 200
    assert at_root.headers["content-type"] == "application/json"
    assert at_root.json() == client.get("/api/v1/openapi.json").json()


def test_every_operation_states_its_security_and_a_4xx(document):
    for path, item in document["paths"].items():
        for method in set(item) & METHODS:
            operation = item[method]
            assert "security" in operation, (path, method)
            assert any(code.startswith("4") for code in operation["responses"]), (path, method)
    assert document["info"]["license"]["identifier"] == "Apache-2.0"
    store = document["paths"]["/api/v1/checkpoints"]["post"]["security"]
    assert {"uploadToken": []} in store and {} in store


# --- request bodies -------------------------------------------------------------------------


def test_lint_takes_any_json_and_its_description_says_so(client, document):
    body = "/paths/~1api~1v1~1lint/post/requestBody/content/application~1json/schema"
    for text in (b"[1, 2]", b'{"not": "a checkpoint"}', b"null"):
        assert valid(document, body, json.loads(text))
        answer = client.post("/api/v1/lint", content=text, headers=JSON_TYPE)
        assert answer.status_code == 200, text
        assert answer.json()["results"][0]["valid"] is False


def test_a_form_without_its_document_is_refused_by_both(client, document):
    for form in ({}, {"checkpoint": "  \n\t"}, {"parent": HANDOFF.decode()}):
        assert not valid(document, "LintForm", form), form
        answer = client.post(
            "/api/v1/lint", files={k: (None, v) for k, v in form.items()} or {"other": (None, "x")}
        )
        assert answer.status_code == 400, form
    assert valid(document, "LintForm", {"checkpoint": "{", "parent": "", "parent_file": ""})
    assert not valid(document, "PairTextForm", {"checkpoint": HANDOFF.decode()})
    refused = client.post("/diff.json", data={"checkpoint": HANDOFF.decode()})
    assert refused.status_code == 400


def test_the_blank_of_a_form_is_what_the_service_strips():
    """A box holding only white space is no document: the description's pattern (ECMA-262)
    and Python's str.isspace, which the service strips with, name the same characters."""
    white = re.compile(f"[{WHITE_SPACE}]")
    for code in range(0x110000):
        char = chr(code)
        assert bool(white.fullmatch(char)) == char.isspace(), hex(code)


def test_the_guard_body_is_described_as_the_service_reads_it(client, document):
    stored = store(client)
    text = HANDOFF.decode()
    cases: list[tuple[dict[str, object], bool]] = [
        ({"call": CALL, "checkpoint": text}, True),
        ({"call": CALL, "checkpoint": json.loads(HANDOFF)}, True),
        ({"call": CALL, "storage_id": stored}, True),
        ({"call": CALL, "checkpoint_id": stored}, True),  # deprecated, still read
        ({"call": CALL, "checkpoint": text, "storage_id": None}, True),  # null is absent
        ({"call": CALL, "checkpoint": ""}, False),
        ({"call": CALL, "checkpoint": {"no": "version"}}, False),
        ({"call": {**CALL, "argumens": {}}, "checkpoint": text}, False),  # §6.6: no other
        ({"call": CALL, "storage_id": stored, "checkpoint_id": stored}, False),
        ({"call": CALL}, False),
        ({"call": CALL, "checkpoint": text, "storage_id": stored}, False),
    ]
    for body, accepted in cases:
        assert valid(document, "GuardRequest", body) is accepted, body
        answer = client.post("/api/v1/guard", json=body)
        assert (answer.status_code == 200) is accepted, (body, answer.text)
        if not accepted:
            assert answer.status_code == 400, body
    members = document["components"]["schemas"]["GuardRequest"]["properties"]
    assert members["call"]["additionalProperties"] is False
    assert members["checkpoint_id"]["anyOf"][0]["deprecated"] is True
    assert "deprecated" not in members["storage_id"]["anyOf"][0]


# --- query parameters -----------------------------------------------------------------------


def problem_of(answer: Any, name: str) -> str:
    assert answer.status_code == 400, answer.text
    detail: str = answer.json()["detail"]
    assert f"?{name}=" in detail and "it takes" in detail, detail
    return detail


def test_an_empty_parent_is_refused_not_stored_as_none(client):
    answer = client.post("/api/v1/checkpoints?parent=", content=HANDOFF, headers=JSON_TYPE)
    assert "is empty" in problem_of(answer, "parent")
    listing = client.get(
        "/api/v1/checkpoints", params={"checkpoint_id": json.loads(HANDOFF)["id"]}
    ).json()
    assert listing["stored"]["documents"] == 0
    for bad in ("nope", " "):
        problem_of(
            client.post(f"/api/v1/checkpoints?parent={bad}", content=HANDOFF, headers=JSON_TYPE),
            "parent",
        )
    answer = client.post(
        f"/api/v1/checkpoints?parent={UNKNOWN}", content=HANDOFF, headers=JSON_TYPE
    )
    assert answer.status_code == 404  # a storage id in its shape that names nothing


@pytest.mark.parametrize(
    ("query", "name", "problem"),
    [
        ("list=bogus", "list", "'bogus'"),
        ("list=", "list", "''"),
        ("list=resources&from=abc", "from", "'abc'"),
        ("from=-1", "from", "'-1'"),
        ("from=1000000000", "from", "'1000000000'"),
        ("kind=bogus", "kind", "'bogus'"),
        ("origin=robot", "origin", "'robot'"),
        ("status=bogus", "status", "'bogus'"),
    ],
)
def test_a_page_query_outside_its_schema_is_refused(client, query, name, problem):
    stored = store(client)
    for path in (f"/c/{stored}.json", f"/c/{stored}"):
        answer = client.get(f"{path}?{query}", headers={"accept": "application/json"})
        detail = problem_of(answer, name)
        assert problem in detail, detail
    page = client.get(f"/c/{stored}?{query}")
    assert page.status_code == 400 and f"?{name}=" in page.text
    pasted = client.post(f"/view.json?{query}", content=HANDOFF, headers=JSON_TYPE)
    problem_of(pasted, name)


def test_what_the_list_parameter_takes_is_named(client):
    detail = problem_of(client.get(f"/c/{store(client)}.json?list=bogus"), "list")
    assert all(name in detail for name in PAGED_LISTS)


def test_values_in_their_schema_still_answer(client):
    stored = store(client)
    # a page for people ignores a parameter it does not take: a shared link still opens
    assert client.get(f"/c/{stored}?utm_source=chat").status_code == 200
    for query in ("list=resources&from=0", "kind=decision&origin=agent", "from=5", "q=", "kind="):
        assert client.get(f"/c/{stored}.json?{query}").status_code == 200, query
    assert (
        client.post(
            "/api/v1/checkpoints?lifetime=1h", content=HANDOFF, headers=JSON_TYPE
        ).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [
        ("POST", "/api/v1/checkpoints?lifetime=", "lifetime"),
        ("POST", "/api/v1/checkpoints?lifetime=2y", "lifetime"),
        ("GET", "/api/v1/checkpoints?checkpoint_id=x&holding=", "holding"),
        ("GET", "/api/v1/checkpoints?checkpoint_id=x&holding=short", "holding"),
        ("GET", f"/diff.json?from=x&to={UNKNOWN}", "from"),
        ("GET", f"/diff.json?from={UNKNOWN}&to=", "to"),
        ("GET", f"/diff.patch?from={UNKNOWN}&to=../etc", "to"),
        ("GET", "/api/v1/checkpoints?checkpoint_id=x&holdng=y", "holdng"),
        ("POST", "/api/v1/checkpoints?lifetme=1h", "lifetme"),
        ("GET", f"/diff.json?from={UNKNOWN}&to={UNKNOWN}&utm_source=chat", "utm_source"),
    ],
)
def test_other_parameters_outside_their_schema_are_refused(client, method, path, name):
    answer = client.request(
        method, path, content=HANDOFF, headers={**JSON_TYPE, "accept": "application/json"}
    )
    problem_of(answer, name)


# --- the real consumers ---------------------------------------------------------------------


def _fetch(script: str) -> str:
    done = subprocess.run(
        ["sh", str(ROOT / "scripts" / script)], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.slow
def test_redocly_recommended_finds_nothing(client, tmp_path):
    """Redocly CLI 2.x, `lint --extends recommended`: 0 errors and 0 warnings."""
    redocly = _fetch("fetch-redocly.sh")
    described = tmp_path / "openapi.json"
    described.write_bytes(client.get("/openapi.json").content)
    done = subprocess.run(
        [redocly, "lint", "--extends", "recommended", "--format", "json", str(described)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
    )
    report = json.loads(done.stdout)
    problems = [(p["ruleId"], p["message"]) for p in report["problems"]]
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, problems
    assert done.returncode == 0


# Bounded for the suite's budget; run it by hand with more (SCHEMATHESIS_EXAMPLES=1000).
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))
SEED = os.environ.get("SCHEMATHESIS_SEED", "28")


@pytest.mark.slow
def test_schemathesis_finds_no_failure_of_any_check(tmp_path):
    """Every check (server errors, statuses, content types, headers, response schemas,
    negative data refused, positive data accepted, methods and Allow, the stateful links),
    against a live `ocp serve` on a temporary SQLite store: 0 failures."""
    schemathesis = _fetch("fetch-schemathesis.sh")
    env = {"OCP_DATABASE_URL": str(tmp_path / "ocp.sqlite3"), "OCP_WRITE_RATE": "0"}
    with Server(tmp_path, env) as server:
        done = subprocess.run(
            [
                schemathesis,
                "run",
                f"{server.base}/openapi.json",
                "--checks",
                "all",
                "--max-examples",
                str(EXAMPLES),
                "--seed",
                SEED,
                # no example database: every run is the seed's own, as in a fresh clone (a
                # database in the checkout replays what an earlier run found, anywhere)
                "--generation-database",
                "none",
                "--workers",
                "1",
                "--report-dir",
                str(tmp_path / "report"),
            ],
            capture_output=True,
            text=True,
            timeout=240,
            cwd=Path(__file__).parent,  # where SCHEMATHESIS_HOOKS finds its module
            env={
                **os.environ,
                "SCHEMATHESIS_HOOKS": "schemathesis_hooks",
                "NO_COLOR": "1",
                "COLUMNS": "200",
            },
        )
    tail = done.stdout[-6000:]
    assert done.returncode == 0, tail
    assert re.search(r"✅ Stateful", done.stdout), tail  # the stateful phase ran, and passed
    assert not re.search(r"\d+ failures?\b", done.stdout.splitlines()[-1]), tail
