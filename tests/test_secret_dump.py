"""A document holding more apparent credentials than a report lists is a dump of credentials:
the scan stops past MAX_PER_CODE flagged places, every output says "at least" of the rest, and
what shows the document withholds all of it (app/secrets `scan_document`)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.analysis import analyze, lint
from app.config import Settings
from app.findings import MAX_PER_CODE
from app.parse import MIB, Limits
from app.redaction import REDACTED
from app.web import create_app
from tests.conftest import CONFORMANCE

# An AWS access key id in a member name the schema does not know: the schema's finding
# names the member, and the scan, stopped before member names, never flagged it.
KEY_ID_NAME = "AKIAZ7QUQ4EXAMPLEKEY"


def _token(i: int) -> str:
    """A GitHub token shape that looks random (the scanner passes over placeholders)."""
    alphabet = "aB3dE5fG7hJ9kLmN2pQrS4tUvW6xYz8C"
    body = "".join(alphabet[(i * 7 + j * 13 + (i >> (j % 5))) % 32] for j in range(36))
    return "ghp_" + body


def _dump(n: int, *, objective: str = "Move the ledger.", stray: bool = False) -> bytes:
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["task"]["objective"] = objective
    document["operations"] = [
        {
            "id": "op-configure",
            "kind": "action",
            "status": "planned",
            "description": "Configure the deployment.",
            "effect": "idempotent",
            "call": {
                "tool": "deploy.configure",
                "arguments": {f"t{i}": _token(i) for i in range(n)},
            },
        }
    ]
    if stray:
        document[KEY_ID_NAME] = 1
    return json.dumps(document, indent=1).encode()


@pytest.fixture(scope="module")
def dump() -> bytes:
    return _dump(MAX_PER_CODE + 200, objective="Rotate the vault keys.", stray=True)


def _tokens_in(text: str, n: int) -> list[str]:
    return [t for t in (_token(i) for i in range(n)) if t in text]


def test_the_scan_stops_past_the_cap_and_says_there_are_more(dump: bytes) -> None:
    analysis = analyze(dump)
    listed = [f for f in analysis.findings if f.code == "secret"]
    assert len(listed) == MAX_PER_CODE
    assert [(o.code, o.at_least) for o in analysis.omitted if o.code == "secret"] == [
        ("secret", True)
    ]
    assert not analysis.redaction.complete
    # the whole document is withheld: no content to show, every line of the source blanked
    assert analysis.redacted == {}
    assert _tokens_in(analysis.shown_text, MAX_PER_CODE + 200) == []
    assert "Rotate the vault keys." not in analysis.shown_text
    assert analysis.shown_text.count("\n") == analysis.text.count("\n")  # type: ignore[union-attr]


def test_a_scan_that_stops_checks_few_values_past_its_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The values are checked a batch at a time, each batch whole before any of it is recorded:
    past the first, a batch holds what the places left need at the rate found so far, and
    little more (5,000 tokens: 1,220 checked to record 1,001 before). The places flagged are
    the same whatever the batches: the first in document order."""
    import app.secrets as secrets
    from app.secrets import scan_document

    checked: list[int] = []
    candidates = secrets._candidates

    def counting(strings, **options):  # type: ignore[no-untyped-def]
        checked.append(len(strings))
        return candidates(strings, **options)

    document = json.loads(_dump(5000))
    monkeypatch.setattr(secrets, "_candidates", counting)
    scan = scan_document(document, MAX_PER_CODE)
    assert not scan.complete
    assert len({hit.path for hit in scan.hits}) == MAX_PER_CODE + 1
    assert sum(checked) <= (MAX_PER_CODE + 1) * 1.1
    # (the first found are the first in document order: the values' batches are read in order)
    ordered = [hit.path for hit in scan_document(document).hits][: MAX_PER_CODE + 1]
    assert [hit.path for hit in scan.hits] == ordered


def test_at_the_cap_the_scan_is_complete() -> None:
    analysis = analyze(_dump(MAX_PER_CODE))
    assert analysis.redaction.complete
    assert [f.code for f in analysis.findings].count("secret") == MAX_PER_CODE
    assert all(o.code != "secret" for o in analysis.omitted)
    assert analysis.redacted is not None and analysis.redacted != {}


def test_a_member_name_past_the_stop_is_still_withheld(dump: bytes) -> None:
    """The schema's finding about the stray member names it; the scan never reached member
    names, so the report's texts are read by the scanner instead."""
    result = lint(dump)
    schema = [f for f in result.findings if f.code == "schema"]
    assert schema, "the stray member breaks the schema"
    shown = json.dumps([f.to_dict() for f in result.findings])
    assert KEY_ID_NAME not in shown
    assert REDACTED in shown


def _cli(fmt: str, path: Path) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "app.cli", "lint", "--format", fmt, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    return run.stdout


def test_every_cli_format_says_at_least_and_repeats_no_credential(
    dump: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "dump.ocp.json"
    path.write_bytes(dump)
    sentence = "at least 1 more secret warning not listed"
    for fmt in ("json", "text", "github", "sarif"):
        out = _cli(fmt, path)
        assert _tokens_in(out, MAX_PER_CODE + 200) == [], fmt
        assert KEY_ID_NAME not in out, fmt
        if fmt == "json":
            report = json.loads(out)["results"][0]
            secret = [o for o in report["omitted"] if o["code"] == "secret"]
            assert secret == [
                {"code": "secret", "severity": "warning", "count": 1, "at_least": True}
            ]
        else:
            assert sentence in out, fmt


def test_the_page_withholds_the_document_and_says_why(dump: bytes) -> None:
    with TestClient(create_app(Settings(limits=Limits(max_bytes=5 * MIB)))) as client:
        page = client.post("/view", data={"checkpoint": dump.decode()})
        assert page.status_code == 200
        assert f"more than {MAX_PER_CODE:,} values that look like a credential" in page.text
        assert "none of the document's content is shown" in page.text
        assert "Rotate the vault keys." not in page.text
        assert _tokens_in(page.text, MAX_PER_CODE + 200) == []
        assert KEY_ID_NAME not in page.text

        twin = client.post("/view.json", data={"checkpoint": dump.decode()})
        assert twin.status_code == 200
        assert _tokens_in(twin.text, MAX_PER_CODE + 200) == []
        assert KEY_ID_NAME not in twin.text
        assert "Rotate the vault keys." not in twin.text


def _schema_flood(n: int) -> bytes:
    """n statements each failing the schema (an unknown kind, no origin): the schema check
    stops once a report's 1,000 are known and counts the rest as a lower bound."""
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["statements"] = [{"id": f"s{i}", "kind": "rumour", "text": "?"} for i in range(n)]
    return json.dumps(document).encode()


def test_every_total_on_the_page_says_at_least_when_it_is_a_lower_bound() -> None:
    flood = _schema_flood(MAX_PER_CODE + 300).decode()
    with TestClient(create_app(Settings(limits=Limits(max_bytes=5 * MIB)))) as client:
        page = client.post("/view", data={"checkpoint": flood}).text
        header = page.split('class="verdict', 1)[1].split("</p>", 1)[0]
        assert "· at least " in header and " errors" in header
        findings = page.split('id="findings"', 1)[1].split("</p>", 1)[0]
        assert "at least " in findings
        live = client.post("/live", data={"checkpoint": flood}).text
        assert "at least " in live.split('class="verdict', 1)[1].split("</p>", 1)[0]
        # a document whose count is exact says no such thing
        exact = client.post("/view", data={"checkpoint": _schema_flood(3).decode()}).text
        assert "at least" not in exact.split('class="verdict', 1)[1].split("</p>", 1)[0]
