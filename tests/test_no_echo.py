"""No output of any kind repeats a flagged value: a credential used as a member name, or
hidden behind JSON escapes in text that does not parse, is named by where it is, never shown.
Every output is checked: each `ocp lint` format, `ocp render`, the page, its JSON twin, the
live panel, the lint API, and the refusals of the share form and the store API."""

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

# Fake credentials of the right shapes (never real ones), and the parts of them that must never
# come back: each checked as it is and as a JSON Pointer token escapes it.
AWS_ID = "AKIAQ7XZ3M2N5P8R4T6V"
AWS_SECRET = "Zq9/Xw8+Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba"
GITHUB = "ghp_R8fK2mQ9xZ4vL7nB3cT6wY1pD5sH0jA2eG8u"
SECRET_PARTS = [
    "Q7XZ3M2N5P8R4T6V",
    "Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba",
    "R8fK2mQ9xZ4vL7nB3cT6wY1pD5sH0jA2",
]


def _document() -> bytes:
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document[GITHUB] = "a top-level member the schema does not know, named by a token"
    document["extensions"] = {"com.example": {f"{AWS_ID}:{AWS_SECRET}": "noted"}}
    return json.dumps(document, indent=2).encode()


DOCUMENT = _document()
# Text that does not parse, with a token whose first letter is a \u escape.
UNPARSED = (
    b'{"opencheckpoint": "0.1", "note": "see \\u0067hp_R8fK2mQ9xZ4vL7nB3cT6wY1pD5sH0jA2eG8u",'
    b' "x": [1, 2,}'
)


def assert_no_echo(output: str) -> None:
    for part in SECRET_PARTS:
        assert part not in output
        assert part.replace("/", "~1") not in output


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_no_lint_format_repeats_a_credential_named_member(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "named.ocp.json"
    path.write_bytes(DOCUMENT)
    run = _cli("lint", "--format", fmt, str(path))
    assert run.returncode == 1  # the unknown top-level member is a schema error
    assert "secret" in run.stdout  # the credentials are reported, by place
    assert_no_echo(run.stdout + run.stderr)


def test_render_repeats_neither_a_named_credential_nor_an_escaped_one(tmp_path: Path) -> None:
    for data in (DOCUMENT, UNPARSED):
        path = tmp_path / "doc.ocp.json"
        path.write_bytes(data)
        run = _cli("render", str(path))
        assert "<html" in run.stdout
        assert_no_echo(run.stdout + run.stderr)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("data", [DOCUMENT, UNPARSED], ids=["named", "escaped"])
@pytest.mark.parametrize("route", ["/view", "/view.json", "/live"])
def test_the_page_its_twin_and_the_live_panel(client, route: str, data: bytes) -> None:
    response = client.post(route, data={"checkpoint": data.decode()})
    assert response.status_code == 200
    assert_no_echo(response.text)


def test_the_lint_api(client) -> None:
    response = client.post(
        "/api/v1/lint", content=DOCUMENT, headers={"content-type": "application/json"}
    )
    assert response.status_code == 200
    assert response.json()["results"][0]["counts"]["warnings"] >= 2
    assert_no_echo(response.text)


def test_the_refusals_to_store_name_places_only(client) -> None:
    api = client.post(
        "/api/v1/checkpoints", content=DOCUMENT, headers={"content-type": "application/json"}
    )
    assert api.status_code == 422
    assert_no_echo(api.text)
    form = client.post("/share", data={"checkpoint_b64": base64.b64encode(DOCUMENT).decode()})
    assert form.status_code == 422
    assert_no_echo(form.text)


def test_long_credential_texts_are_looked_for_by_their_head() -> None:
    """A flagged value of 400 KB compiled whole into the pattern that looks for it elsewhere
    took 30 s (Python compiles a literal in quadratic time): only a bounded head is compiled,
    and the value is still withheld where it is, and its head wherever it is quoted."""
    from app.analysis import analyze
    from app.redaction import MAX_QUOTED_LENGTH, REDACTED

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    key = "-----BEGIN RSA PRIVATE KEY-----\n" + "QUJD" * 20_000
    document["task"]["objective"] = key
    document["task"]["outcome"] = "copied: " + key[:300]
    analysis = analyze(json.dumps(document).encode())
    pattern = analysis.redaction._pattern
    assert pattern is not None
    assert max(len(alternative) for alternative in pattern.pattern.split("|")) <= (
        2 * MAX_QUOTED_LENGTH  # re.escape doubles at most
    )
    shown = analysis.redacted
    assert shown is not None
    assert shown["task"]["objective"] == REDACTED
    assert "QUJDQUJD" not in shown["task"]["outcome"][:200]


# A credential as a repeated member name: I-JSON refuses the text before any value is read,
# and the duplicate's finding quotes the name, in its message and in its pointer.
DUPLICATE_NAMES = (
    '{"opencheckpoint": "0.1", "x": {"' + GITHUB + '": 1, "' + GITHUB + '": 2}}'
).encode()


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_no_lint_format_repeats_a_credential_named_twice(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / "twice.ocp.json"
    path.write_bytes(DUPLICATE_NAMES)
    run = _cli("lint", "--format", fmt, str(path))
    assert run.returncode == 1 and "duplicate member name" in run.stdout
    assert_no_echo(run.stdout + run.stderr)


def test_the_guard_repeats_no_credential_named_twice_in_a_call(tmp_path: Path) -> None:
    call = '{"tool": "x", "arguments": {"' + GITHUB + '": 1, "' + GITHUB + '": 2}}'
    run = _cli("guard", str(CONFORMANCE / "valid-minimal.ocp.json"), "--call", call)
    assert run.returncode == 2 and "duplicate member name" in run.stderr
    assert_no_echo(run.stdout + run.stderr)
