"""Every naughty string, in every kind of text field, survives lint and a JSON round trip."""

import json

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


@pytest.mark.parametrize("field", TEXT_FIELDS, ids=lambda f: "/".join(map(str, f)))
def test_every_naughty_string_survives(field):
    for string in STRINGS:
        document = json.loads(json.dumps(BASE))
        node = document
        for token in field[:-1]:
            node = node[token]
        node[field[-1]] = string
        data = json.dumps(document, ensure_ascii=False).encode("utf-8")
        result = lint(data)
        path = "/" + "/".join(str(t).replace("~", "~0").replace("/", "~1") for t in field)
        if _NONCHARACTER.search(string):
            # I-JSON forbids noncharacters (U+FFFE and friends): a clear json error, right there
            assert result.document is None
            assert [(f.code, f.path) for f in result.findings] == [("json", path)]
            continue
        assert result.document is not None, (string, result.findings[:1])
        # the value comes back exactly as it went in, through intake and a JSON round trip
        node = result.document
        for token in field:
            node = node[token]
        assert node == string
        again = json.loads(json.dumps(result.document, ensure_ascii=False))
        assert again == document
        assert not [f for f in result.findings if f.code not in ("secret",)], (
            string,
            [(f.code, f.path, f.message) for f in result.findings],
        )
