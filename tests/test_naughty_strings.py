"""Every naughty string, in every kind of text field, survives lint and a JSON round trip."""

import json
import re

import pytest

from app.analysis import lint
from app.parse import _NONCHARACTER
from tests.conftest import BLNS, CONFORMANCE

STRINGS = [s for s in json.loads(BLNS.read_text()) if s]
BASE = json.loads((CONFORMANCE / "valid-coding-refactor.ocp.json").read_text())
TEXT_FIELDS = [
    ("task", "objective"),
    ("task", "outcome"),
    ("progress", "focus", "description"),
    ("statements", 0, "text"),
    ("statements", 0, "origin", "name"),
    ("statements", 3, "rationale"),
    ("resources", 0, "title"),
    ("resources", 0, "excerpt"),
    ("operations", 2, "description"),
    ("operations", 2, "call", "arguments", "title"),
    ("continuation", "stop_conditions", 0, "description"),
    ("source", "producer"),
    ("extensions", "dev.example.agent/workspace", "cwd"),
]


def test_blns_is_loaded():
    assert len(STRINGS) > 500


def pointer(field: tuple[str | int, ...]) -> str:
    return "/" + "/".join(str(t).replace("~", "~0").replace("/", "~1") for t in field)


def at(node: object, field: tuple[str | int, ...]) -> object:
    for token in field:
        node = node[token]  # type: ignore[index]
    return node


def holding(string: str, fields: list[tuple[str | int, ...]]) -> dict:
    document = json.loads(json.dumps(BASE))
    for field in fields:
        at(document, field[:-1])[field[-1]] = string  # type: ignore[index]
    return document


# Each string goes into every text field of one document at once: a lint reports each problem
# at its own path, so one lint a string answers for every field (13 times fewer lints).
CHUNK = 100


@pytest.mark.parametrize(
    "first", range(0, len(STRINGS), CHUNK), ids=lambda n: f"strings-{n}-{n + CHUNK - 1}"
)
def test_every_naughty_string_survives_in_every_text_field(first):
    for string in STRINGS[first : first + CHUNK]:
        if re.search(_NONCHARACTER, string):
            continue  # refused at intake, at the first place it stands: the test below
        document = holding(string, TEXT_FIELDS)
        result = lint(json.dumps(document, ensure_ascii=False).encode("utf-8"))
        assert result.document is not None, (string, result.findings[:1])
        # the value comes back exactly as it went in, through intake and a JSON round trip
        for field in TEXT_FIELDS:
            assert at(result.document, field) == string, (string, pointer(field))
        again = json.loads(json.dumps(result.document, ensure_ascii=False))
        assert again == document
        assert not [f for f in result.findings if f.code not in ("secret",)], (
            string,
            [(f.code, f.path, f.message) for f in result.findings],
        )


@pytest.mark.parametrize("field", TEXT_FIELDS, ids=pointer)
def test_a_noncharacter_is_a_clear_json_error_in_every_text_field(field):
    """I-JSON forbids noncharacters (U+FFFE and friends): a clear json error, right there."""
    strings = [s for s in STRINGS if re.search(_NONCHARACTER, s)]
    assert strings
    for string in strings:
        result = lint(json.dumps(holding(string, [field]), ensure_ascii=False).encode("utf-8"))
        assert result.document is None
        assert [(f.code, f.path) for f in result.findings] == [("json", pointer(field))]
