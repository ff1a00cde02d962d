"""Property tests: random mutations of valid documents never crash the linter, every finding
points at a place that exists, and positions agree with the text."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.analysis import lint
from app.pointer import resolve
from app.positions import offsets
from tests.conftest import CONFORMANCE, manifest

VALID = [
    (CONFORMANCE / c["file"]).read_bytes() for c in manifest() if c["valid"] and not c.get("parent")
]
DOCUMENTS = [json.loads(data) for data in VALID]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            "0.1",
            "r-repo",
            "s-q-jpy",
            "op-open-pr",
            "completed",
            "forked",
            "2026-11-18T09:30:00Z",
            "superseded",
            "agent",
            "decision",
        ]
    ),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def all_paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from all_paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from all_paths(value, (*path, i))


@st.composite
def mutated_documents(draw):
    document = json.loads(json.dumps(draw(st.sampled_from(DOCUMENTS))))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(all_paths(document))
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent = document
        for token in path[:-1]:
            parent = parent[token]
        action = draw(st.sampled_from(["replace", "delete", "insert", "duplicate-id"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "delete":
            del parent[path[-1]]
        elif action == "insert" and isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = draw(json_values)
        elif action == "insert":
            parent.insert(path[-1], draw(json_values))
        elif isinstance(parent, dict) and "id" in parent:
            parent["id"] = draw(st.sampled_from(["r-repo", "s-q-jpy", "op-open-pr", "x"]))
    return document


def check_report(data: bytes) -> None:
    result = lint(data)
    assert result.valid == (result.syntax == "pass" and result.errors == 0)
    if result.document is None:
        assert result.findings and all(f.code == "json" for f in result.findings)
        return
    places = offsets(result.text, [f.path for f in result.findings])
    for finding in result.findings:
        resolve(result.document, finding.path)  # raises LookupError if the path is not there
        assert finding.path in places
        assert finding.line is not None and finding.column is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents(), st.booleans())
def test_structural_mutations_never_crash_and_paths_exist(document, pretty):
    data = json.dumps(document, indent=2 if pretty else None, ensure_ascii=False)
    check_report(data.encode("utf-8", "surrogatepass"))


# Bytes that break intake in the ways a hostile sender would try.
SPLICES = [b'"\\ud800"', b"NaN", b"1e999", b"[" * 70, b'"a":1,', b"\xff", b'"<script>"', b"\x00"]


@st.composite
def mutated_bytes(draw, sources: list[bytes]) -> bytes:
    """One of ``sources`` with a few bytes flipped, deleted, inserted, or a hostile splice."""
    mutated = bytearray(draw(st.sampled_from(sources)))
    for _ in range(draw(st.integers(1, 8))):
        if not mutated:
            mutated.extend(b"{")
            continue
        position = draw(st.integers(0, len(mutated) - 1))
        action = draw(st.sampled_from(["flip", "delete", "insert", "splice"]))
        if action == "flip":
            mutated[position] = draw(st.integers(0, 255))
        elif action == "delete":
            del mutated[position]
        elif action == "insert":
            mutated.insert(position, draw(st.integers(0, 255)))
        else:
            mutated[position:position] = draw(st.sampled_from(SPLICES))
    return bytes(mutated)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_bytes(VALID))
def test_byte_mutations_never_crash(data):
    check_report(data)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_any_json_value_in_extensions_keeps_the_document_checkable(value):
    document = json.loads(VALID[0])
    document.setdefault("extensions", {})["com.example.fuzz"] = value
    check_report(json.dumps(document).encode("utf-8", "surrogatepass"))
