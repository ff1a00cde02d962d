"""A document refused before it is analysed (not JSON, not I-JSON, a version this tool cannot
read) quotes its own text in the refusal: a duplicate member's name, the version it holds. A
credential there must be withheld in every answer that refuses it, as the lint report
withholds it (§10.5): the store's 422, the guard's 400, `ocp guard` and `ocp diff`, and the MCP
tools. Each case failed before: the refusals read the intake's findings and the version gate's
message as they were, never passing a redaction."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

TOKEN = "ghp_" + "".join(random.Random(11).choices(string.ascii_letters + string.digits, k=36))
PIECE = TOKEN[10:24]  # (a part of it: a message that cut it short still repeats one)
OCP = Path(sys.executable).parent / "ocp"


def _valid() -> dict[str, object]:
    return json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())


def _with_version(version: object) -> bytes:
    document = _valid()
    document["opencheckpoint"] = version
    return json.dumps(document).encode()


# (name, the document's bytes): each refused before any analysis, each quoting its text
REFUSED = [
    ("duplicate-member", f'{{"opencheckpoint": "0.1", "{TOKEN}": 1, "{TOKEN}": 2}}'.encode()),
    ("infinite-number", f'{{"opencheckpoint": "0.1", "{TOKEN}": 1e999}}'.encode()),
    ("nan", f'{{"opencheckpoint": "0.1", "{TOKEN}": NaN}}'.encode()),
    ("lone-surrogate", f'{{"opencheckpoint": "0.1", "{TOKEN}": "\\ud800"}}'.encode()),
    ("syntax-under-it", f'{{"opencheckpoint": "0.1", "a": {{"{TOKEN}": }}}}'.encode()),
    ("version-string", _with_version(TOKEN)),
    ("version-object", _with_version({"token": TOKEN})),
]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings())) as c:
        yield c


@pytest.mark.parametrize(("name", "data"), REFUSED, ids=[name for name, _ in REFUSED])
def test_the_store_and_the_guard_refuse_without_repeating_it(client, name, data):
    stored = client.post(
        "/api/v1/checkpoints", content=data, headers={"content-type": "application/json"}
    )
    assert stored.status_code == 422, stored.text
    assert PIECE not in stored.text
    guarded = client.post(
        "/api/v1/guard",
        content=json.dumps({"call": {"tool": "x"}, "checkpoint": data.decode()}).encode(),
        headers={"content-type": "application/json"},
    )
    assert guarded.status_code in (400, 422), guarded.text
    assert PIECE not in guarded.text


def test_a_version_is_still_quoted_when_it_is_one():
    """What the withholding keeps: a malformed version that is no credential is quoted, so the
    message shows what to fix."""
    from app.analysis import lint

    [finding] = lint(_with_version("0.1.0")).findings
    assert '"0.1.0" is not a MAJOR.MINOR version' in finding.message


@pytest.mark.parametrize("name", ["duplicate-member", "version-string"])
def test_ocp_guard_and_ocp_diff_refuse_without_repeating_it(tmp_path, name):
    data = dict(REFUSED)[name]
    refused = tmp_path / "refused.ocp.json"
    refused.write_bytes(data)
    valid = tmp_path / "valid.ocp.json"
    valid.write_bytes(json.dumps(_valid()).encode())
    for argv in (
        ["guard", str(refused), "--call", '{"tool": "x"}'],
        ["guard", str(refused), "--call", '{"tool": "x"}', "--format", "json"],
        ["diff", str(valid), str(refused)],
        ["diff", str(refused), str(valid)],
        ["lint", "--parent", str(refused), str(valid)],
    ):
        ran = subprocess.run([str(OCP), *argv], capture_output=True, text=True, timeout=60)
        assert ran.returncode != 0 or name == "version-string", (argv, ran.stdout, ran.stderr)
        assert PIECE not in ran.stdout + ran.stderr, argv


def test_the_guard_refuses_a_call_s_unknown_member_without_repeating_its_name(client, tmp_path):
    """A call of more than tool and arguments is refused naming what else it has: a name that
    may be a credential is described, and its pointer is the call's."""
    call = {"tool": "x", "arguments": {}, TOKEN: 1}
    guarded = client.post(
        "/api/v1/guard",
        content=json.dumps({"call": call, "checkpoint": json.dumps(_valid())}).encode(),
        headers={"content-type": "application/json"},
    )
    assert guarded.status_code == 400, guarded.text
    assert PIECE not in guarded.text and "not quoted here" in guarded.text
    checkpoint = tmp_path / "c.ocp.json"
    checkpoint.write_bytes(json.dumps(_valid()).encode())
    ran = subprocess.run(
        [str(OCP), "guard", str(checkpoint), "--call", json.dumps(call)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 2 and PIECE not in ran.stdout + ran.stderr
    # a misspelt member is still named, so the message says what to fix
    call = {"tool": "x", "argumnets": {}}
    guarded = client.post(
        "/api/v1/guard",
        content=json.dumps({"call": call, "checkpoint": json.dumps(_valid())}).encode(),
        headers={"content-type": "application/json"},
    )
    assert guarded.status_code == 400 and '"argumnets"' in guarded.json()["detail"]


def test_an_unknown_query_parameter_is_named_only_when_it_may_not_be_a_credential(client):
    """An address for programs refuses a parameter it does not take, saying what it takes;
    the name is repeated only when it may not be a credential."""
    data = json.dumps(_valid()).encode()
    refused = client.post(
        "/api/v1/checkpoints?lifetme=1d", content=data, headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert (
        detail == "?lifetme= is not a parameter of this address; it takes one of lifetime, parent"
    )
    refused = client.post(
        f"/api/v1/checkpoints?{TOKEN}=1", content=data, headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400 and PIECE not in refused.text
