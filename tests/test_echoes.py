"""A child that repeats a credential of its parent (app/echoes.py): beside its parent, each place
of the child holding a text the parent's scan flagged is withheld as the child's own finds are,
and reported as a `secret` warning, wherever the child is shown or reported: the lint's
reports, the page and its JSON twin, the diff. Alone, the child is read as before."""

from __future__ import annotations

import copy
import hashlib
import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.analysis import analyze, lint, pair
from app.cli import main
from app.config import Settings
from app.echoes import echoed_secrets
from app.findings import MAX_PER_CODE
from app.report import FileResult, format_json, format_text
from app.web import create_app
from tests.conftest import CONFORMANCE

PASSWORD = "Zq9-hunter-77x"  # flagged in the parent by its name; plain text in the child's prose


def _base() -> dict[str, Any]:
    return json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())


def _parent() -> bytes:
    parent = _base()
    parent["operations"] = [
        {
            "id": "op-1",
            "kind": "action",
            "status": "planned",
            "description": "Deploy.",
            "call": {"tool": "deploy.run", "arguments": {"db_password": PASSWORD}},
        }
    ]
    return json.dumps(parent, indent=2).encode()


def _child(parent: bytes, **statement: Any) -> bytes:
    child = _base()
    child["id"] = child["id"][:-4] + "9999"
    child["parent"] = {
        "id": json.loads(parent)["id"],
        "digest": "sha-256:" + hashlib.sha256(parent).hexdigest(),
    }
    child["statements"] = [
        {
            "id": "s-echo",
            "kind": "observation",
            "text": f"The deploy used {PASSWORD} for the database.",
            "origin": {"type": "user"},
            **statement,
        }
    ]
    return json.dumps(child, indent=2).encode()


def test_alone_the_child_s_scan_does_not_read_the_password_as_one() -> None:
    """What this file is about: the child's prose holds no credential by its shape."""
    child = lint(_child(_parent()))
    assert [f.code for f in child.findings if f.code == "secret"] == []


def test_beside_its_parent_the_repeated_credential_is_a_finding_and_withheld() -> None:
    parent = _parent()
    result = lint(_child(parent), parent=parent)
    secrets = [f for f in result.findings if f.code == "secret"]
    assert [f.path for f in secrets] == ["/statements/0/text"]
    assert "/operations/0/call/arguments/db_password" in secrets[0].message
    assert secrets[0].line is not None  # placed in the child's text
    # withheld from everything shown of the child
    assert PASSWORD not in json.dumps(result.analysis.redacted)
    assert PASSWORD not in result.analysis.shown_text
    reported = [FileResult("child.json", result)]
    assert PASSWORD not in format_text(reported) + format_json(reported)
    assert result.warnings >= 1


def test_a_member_name_repeating_it_is_withheld_from_the_pointer() -> None:
    parent = _parent()
    child = json.loads(_child(parent))
    child["statements"][0]["text"] = "The deploy was checked."
    child["extensions"] = {"dev.example/notes": {PASSWORD: "old"}}
    result = lint(json.dumps(child).encode(), parent=parent)
    (finding,) = [f for f in result.findings if f.code == "secret"]
    assert finding.path.startswith("/extensions/dev.example~1notes/")
    assert PASSWORD not in finding.path
    assert PASSWORD not in format_text([FileResult("child.json", result)])
    assert "member name" in finding.message


def test_a_place_the_child_s_own_scan_flagged_is_reported_once() -> None:
    parent = _parent()
    child = json.loads(_child(parent))
    child["statements"][0]["text"] = f"password: {PASSWORD}"  # flagged by the child's scan too
    result = lint(json.dumps(child).encode(), parent=parent)
    assert [f.path for f in result.findings if f.code == "secret"] == ["/statements/0/text"]


def test_a_child_repeating_nothing_is_the_child_itself() -> None:
    parent = _parent()
    child = json.loads(_child(parent))
    child["statements"][0]["text"] = "The deploy was checked."
    analysis, parent_analysis = analyze(json.dumps(child).encode()), analyze(parent)
    assert pair(analysis, parent_analysis).child is analysis


def test_past_the_cap_the_repeats_are_counted() -> None:
    parent = _parent()
    child = json.loads(_child(parent))
    statement = child["statements"][0]
    child["statements"] = [{**statement, "id": f"s-{i}"} for i in range(MAX_PER_CODE + 5)]
    result = lint(json.dumps(child).encode(), parent=parent)
    assert len([f for f in result.findings if f.code == "secret"]) == MAX_PER_CODE
    assert [(o.code, o.count) for o in result.omitted if o.code == "secret"] == [("secret", 5)]
    assert PASSWORD not in format_text([FileResult("child.json", result)])


def test_each_hit_is_where_its_pointer_says() -> None:
    document = {"a": [{"b": f"x {PASSWORD} y"}, PASSWORD], "c~/d": {PASSWORD: 1}, "e": 5}
    hits, findings = echoed_secrets(document, {PASSWORD: "/p"}, [])
    assert sorted(h.path for h in hits) == ["/a/0/b", "/a/1", f"/c~0~1d/{PASSWORD}"]
    for hit in hits:
        assert hit.text is not None and hit.text[hit.start : hit.end] == PASSWORD
    assert len(findings) == 3


def test_the_command_line_reports_it_and_never_prints_it(tmp_path: Path) -> None:
    parent = _parent()
    (tmp_path / "parent.json").write_bytes(parent)
    (tmp_path / "child.json").write_bytes(_child(parent))
    out = io.StringIO()
    with redirect_stdout(out):
        main(["lint", "--parent", str(tmp_path / "parent.json"), str(tmp_path / "child.json")])
    printed = out.getvalue()
    assert "secret" in printed and "/statements/0/text" in printed
    assert PASSWORD not in printed


@pytest.mark.parametrize("route", ["/view", "/view.json"])
def test_the_page_and_its_json_twin_withhold_it(route: str) -> None:
    parent = _parent()
    with TestClient(create_app(Settings())) as client:
        response = client.post(
            route, data={"checkpoint": _child(parent).decode(), "parent": parent.decode()}
        )
    assert response.status_code == 200
    assert PASSWORD not in response.text
    assert "/statements/0/text" in response.text


def test_the_diff_withholds_it() -> None:
    parent = _parent()
    with TestClient(create_app(Settings())) as client:
        response = client.post(
            "/diff", data={"checkpoint": _child(parent).decode(), "parent": parent.decode()}
        )
    assert response.status_code == 200 and PASSWORD not in response.text


def test_a_deep_copy_of_the_parent_s_texts_is_not_needed() -> None:
    """The parent's texts are read, never changed (the parent's page shows them withheld)."""
    parent_bytes = _parent()
    parent = analyze(parent_bytes)
    before = copy.deepcopy(parent.intake.document)
    pair(analyze(_child(parent_bytes)), parent)
    assert parent.intake.document == before


def test_the_parent_s_place_is_named_as_the_parent_s_redaction_shows_it() -> None:
    """The finding names where the parent holds the credential; a flagged member name on the
    way there is withheld from that pointer too."""
    token = "gh" + "p_" + "aB3dE5fG7hJ9kLmN2pQrS4tUvW6xYz8C1234"
    parent = _base()
    parent["extensions"] = {"dev.example/notes": {token: {"db_password": PASSWORD}}}
    parent_bytes = json.dumps(parent).encode()
    result = lint(_child(parent_bytes), parent=parent_bytes)
    (finding,) = [f for f in result.findings if f.code == "secret"]
    assert "/extensions/dev.example~1notes/" in finding.message
    assert token not in finding.message and PASSWORD not in finding.message


def test_after_a_version_error_the_repeat_is_withheld_and_not_listed() -> None:
    """A child of a version this tool does not implement lists no secret warning (nothing is
    reported after that error), but what it repeats of its parent is withheld all the same."""
    parent = _parent()
    child = json.loads(_child(parent))
    child["opencheckpoint"] = "9.9"
    result = lint(json.dumps(child).encode(), parent=parent)
    assert [f.code for f in result.findings if f.code == "secret"] == []
    assert PASSWORD not in result.analysis.shown_text


def test_many_long_repeats_do_not_push_the_credential_out_of_what_is_withheld() -> None:
    """Each repeating string is withheld whole, and the texts looked for elsewhere are the 64
    longest: the credential itself is looked for first (a review's attack: 70 long sentences
    repeating it, and a reference whose message quotes it)."""
    parent = _parent()
    child = json.loads(_child(parent))
    statement = child["statements"][0]
    child["statements"] = [
        {
            **statement,
            "id": f"s-{i}",
            "text": f"note {i:03d}: the deploy used {PASSWORD} " + "x" * 40,
        }
        for i in range(70)
    ]
    child["statements"][-1].update(status="superseded", superseded_by=PASSWORD)
    result = lint(json.dumps(child).encode(), parent=parent)
    assert any(f.code == "OCP-S002" for f in result.findings)  # its message quotes the id
    reported = [FileResult("child.json", result)]
    assert PASSWORD not in format_text(reported) + format_json(reported)


def test_a_parent_that_does_not_parse_is_scanned_as_text() -> None:
    parent = _parent() + b" x"  # trailing text: no JSON document, no places
    result = lint(_child(_parent()), parent=parent)
    (finding,) = [f for f in result.findings if f.code == "secret"]
    assert "in its text" in finding.message
    assert PASSWORD not in result.analysis.shown_text


def test_a_child_that_does_not_parse_has_the_repeat_withheld_from_its_text() -> None:
    parent = _parent()
    child = _child(parent)[:-3]  # cut short: shown as text, line by line
    result = lint(child, parent=parent)
    shown = result.analysis.shown_text
    assert PASSWORD not in shown
    assert shown.count("\n") == child.decode().count("\n")  # the lines kept for the listing


def test_a_parent_holding_credentials_is_said_so_and_not_shared() -> None:
    """The page says the supplied parent holds apparent credentials, shown withheld, and that
    Share stores the child alone (its form carries no parent)."""
    leak = (CONFORMANCE / "secret-aws-pem-github.ocp.json").read_text()
    with TestClient(create_app(Settings())) as client:
        page = client.post("/view", data={"checkpoint": json.dumps(_base()), "parent": leak})
        view = client.post(
            "/view.json", data={"checkpoint": json.dumps(_base()), "parent": leak}
        ).json()
    assert "holds 3 apparent credentials" in page.text
    assert "Share stores this checkpoint alone" in page.text
    assert 'name="parent"' not in page.text
    assert view["view"]["header"]["lineage"]["supplied"]["credentials"] == 3
