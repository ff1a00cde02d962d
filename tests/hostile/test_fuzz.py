"""Fuzzing the whole path — intake → lint → render model → page → diff, and the HTTP views —
with byte-level and structure-level mutations of the conformance documents: no unhandled
exception, no 5xx, and no hang (a generous bound per document, far from any speed target)."""

import json
import time
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from app.analysis import LintResult, analyze, pair
from app.config import Settings
from app.diff import diff_checkpoints
from app.render import build_view
from app.web import create_app
from app.web.pages import page_from_view
from tests.conftest import CONFORMANCE, manifest
from tests.test_properties import VALID, mutated_bytes, mutated_documents

# `make check` leaves this out: it fuzzes the whole path with hypothesis.
pytestmark = pytest.mark.slow

HANG = 20.0  # seconds: only a hang gets near this; speed is measured in bench/
NOW = datetime(2026, 11, 30, tzinfo=UTC)
PARENT = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
PARENT_ANALYSIS = analyze(PARENT)
ALL = [(CONFORMANCE / c["file"]).read_bytes() for c in manifest()]


def whole_path(data: bytes) -> None:
    start = time.monotonic()
    child = analyze(data)
    result = LintResult(child, pair(child, PARENT_ANALYSIS))
    view = build_view(result, now=NOW)
    json.dumps(view)
    html = page_from_view("fuzz", view, result)
    assert "<html" in html
    diff = diff_checkpoints(result.pair)
    json.dumps(diff)
    assert time.monotonic() - start < HANG, "the path hung on this document"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents(), st.booleans())
def test_structure_mutations_through_the_whole_path(document, pretty):
    data = json.dumps(document, indent=2 if pretty else None, ensure_ascii=False)
    whole_path(data.encode("utf-8", "surrogatepass"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_bytes(ALL))
def test_byte_mutations_through_the_whole_path(data):
    whole_path(data)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    with TestClient(create_app(Settings(database_url=str(folder / "db.sqlite3")))) as c:
        yield c


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(VALID + ALL), st.data())
def test_no_view_answers_5xx(client, data, draw):
    mutated = bytearray(data)
    for _ in range(draw.draw(st.integers(0, 4))):
        if mutated:
            mutated[draw.draw(st.integers(0, len(mutated) - 1))] = draw.draw(st.integers(0, 255))
    body = bytes(mutated)
    files = {"checkpoint_file": ("c.json", body, "application/json")}
    for response in (
        client.post("/view", files=files),
        client.post("/view.json", files=files),
        client.post("/live", files=files),
        client.post("/api/v1/lint", content=body, headers={"content-type": "application/json"}),
        client.post(
            "/api/v1/checkpoints", content=body, headers={"content-type": "application/json"}
        ),
        client.post(
            "/diff", files={**files, "parent_file": ("p.json", PARENT, "application/json")}
        ),
    ):
        assert response.status_code < 500, (response.status_code, response.text[:300])


def _leaf_paths(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaf_paths(v, (*path, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _leaf_paths(v, (*path, i))]
    return [path]


def _replaced(document: object, path: tuple[object, ...], value: object) -> object:
    copy = json.loads(json.dumps(document))
    node = copy
    for step in path[:-1]:
        node = node[step]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    return copy


PARENT_DOCUMENT = json.loads(PARENT)


@pytest.mark.parametrize("wrong", [["completed"], {"status": "completed"}], ids=["list", "object"])
def test_every_leaf_of_the_wrong_json_type(wrong):
    """Each scalar of a valid checkpoint replaced, one at a time, by a list or an object (a
    hashable value where the code expects a string is where sets and dict lookups break:
    an operation whose status was a list once crashed the page's blocked-steps check)."""
    for path in _leaf_paths(PARENT_DOCUMENT):
        whole_path(json.dumps(_replaced(PARENT_DOCUMENT, path, wrong)).encode())
