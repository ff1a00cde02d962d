"""A document this tool cannot check (a `version` error) that holds a credential: the report
has only the version finding, as the report contract says nothing runs after it, yet the page
still redacts the credential and the service refuses to store it (§10.5)."""

from __future__ import annotations

import json
import random
import string

import pytest
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.web import create_app
from tests.conftest import CONFORMANCE

TOKEN = "ghp_" + "".join(random.Random(7).choices(string.ascii_letters + string.digits, k=36))


def future_version_with_a_token() -> bytes:
    document = json.loads((CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())
    document["opencheckpoint"] = "0.2"
    document["extensions"] = {"com.example.ci": {"github_token": TOKEN}}
    return json.dumps(document, indent=2).encode()


def test_the_report_has_only_the_version_finding_but_the_credential_is_known():
    result = lint(future_version_with_a_token())
    assert [f.code for f in result.findings] == ["version"]
    assert [f.path for f in result.secrets] == ["/extensions/com.example.ci/github_token"]


@pytest.fixture
def client():
    with TestClient(create_app(Settings())) as c:
        yield c


def test_the_page_redacts_it_and_offers_no_share(client):
    files = {"checkpoint_file": ("c.ocp.json", future_version_with_a_token(), "application/json")}
    html = client.post("/view", files=files).text
    assert TOKEN not in html
    assert "[redacted: looks like a credential]" in html
    assert 'action="/share"' not in html
    report = client.post("/view.json", files=files).json()["report"]
    assert [f["code"] for f in report["findings"]] == ["version"]


def test_the_service_refuses_to_store_it(client):
    response = client.post(
        "/api/v1/checkpoints",
        content=future_version_with_a_token(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    # The version gate refuses it before the credential scan runs (cheapest gate first).
    assert "is not stored" in response.json()["error"]
    assert TOKEN not in response.text
