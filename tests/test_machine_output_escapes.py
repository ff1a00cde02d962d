"""What a report, a diff and a page's title quote of a document is its text, and is printed as
it is by whatever reads it: `jq -r` of a JSON report, a CI log, a browser's tab. A member name
holding ESC sequences or a bidi override is written with escapes in every message (as a value
already was), the JSON outputs write the unsafe characters app/visible.py names as JSON escapes
(the same JSON values: a patch still applies), and a page's <title>, outside any <bdi>, writes
them visibly. Each failed before (a review as a new user found them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import CONFORMANCE

OCP = Path(sys.executable).parent / "ocp"
RLO = "\u202e"
MEMBER = f"bad\x1b[31mkey{RLO}"
OBJECTIVE = f"Rename the file {RLO}gnp.exe before the release"


def _documents(tmp_path: Path) -> tuple[Path, Path]:
    parent = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    parent_file = tmp_path / "parent.ocp.json"
    parent_file.write_text(json.dumps(parent))
    child = json.loads(json.dumps(parent))
    child["task"]["objective"] = OBJECTIVE
    child[MEMBER] = 1
    child_file = tmp_path / "child.ocp.json"
    child_file.write_text(json.dumps(child))
    return parent_file, child_file


def _ocp(*argv: str) -> str:
    return subprocess.run(
        [str(OCP), *argv], capture_output=True, text=True, check=False, timeout=60
    ).stdout


def _no_unsafe_character(text: str) -> None:
    assert "\x1b" not in text and RLO not in text


def test_a_report_s_messages_escape_a_member_name(tmp_path):
    _, child = _documents(tmp_path)
    report = _ocp("lint", "--format", "json", str(child))
    _no_unsafe_character(report)
    [message] = [f["message"] for f in json.loads(report)["results"][0]["findings"]]
    assert message.startswith("unknown member 'bad\\e[31mkey\\u202e'")
    sarif = _ocp("lint", "--format", "sarif", str(child))
    _no_unsafe_character(sarif)
    [result] = json.loads(sarif)["runs"][0]["results"]
    _no_unsafe_character(result["message"]["text"])


def test_a_diff_in_json_escapes_them_and_keeps_the_values(tmp_path):
    parent, child = _documents(tmp_path)
    for fmt in ("json", "patch"):
        text = _ocp("diff", "--format", fmt, str(parent), str(child))
        _no_unsafe_character(text)
        assert OBJECTIVE in json.dumps(json.loads(text), ensure_ascii=False)  # the same value


def test_a_page_s_title_writes_them_visibly(tmp_path):
    _, child = _documents(tmp_path)
    page = _ocp("render", str(child))
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    _no_unsafe_character(title)
    assert "\\u202egnp.exe" in title


def test_a_page_writes_a_bidi_override_in_the_order_the_text_is_stored(tmp_path):
    """A <bdi> keeps an override from reordering the page around a value, not the value: the
    objective "…\\u202egnp.exe" read "exe.png" on the page. Each embedding, override and
    isolate is written as its escape, in the objective's heading and in the source listing."""
    _, child = _documents(tmp_path)
    page = _ocp("render", str(child))
    assert RLO not in page
    assert page.count("\\u202egnp.exe") >= 2  # the heading and the source line, at least
