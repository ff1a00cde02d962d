"""HTTP tests against the real app: routes, status codes, media types and headers."""

import hashlib
import json
import threading

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.parse import Limits
from app.rules import RULES
from app.web import create_app
from app.web.security import CSP, serialize_csp
from tests.conftest import CONFORMANCE, ROOT

VALID = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
INVALID = (CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json").read_bytes()
EXPECTED_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


@pytest.fixture
def client():
    with TestClient(create_app(Settings(limits=Limits(max_bytes=64 * 1024)))) as c:
        yield c


def assert_security_headers(response):
    assert response.headers["content-security-policy"] == EXPECTED_CSP
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_csp_is_serialized_in_one_place():
    assert serialize_csp(CSP) == EXPECTED_CSP


@pytest.mark.parametrize(
    ("path", "media"),
    [
        ("/", "text/html"),
        ("/healthz", "application/json"),
        ("/rules", "text/html"),
        ("/rules.json", "application/json"),
        ("/rules/OCP-S002", "text/html"),
        ("/schema/opencheckpoint-0.1.schema.json", "application/schema+json"),
        ("/static/app.css", "text/css"),
        ("/favicon.ico", "image/svg+xml"),
    ],
)
def test_get_routes(client, path, media):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media)
    assert_security_headers(response)


def test_healthz(client):
    assert client.get("/healthz").json()["status"] == "ok"


def test_schema_is_served_at_the_path_of_its_id(client):
    schema = client.get("/schema/opencheckpoint-0.1.schema.json").json()
    assert schema["$id"].endswith("/schema/opencheckpoint-0.1.schema.json")


def test_unknown_rule_and_route_are_404_pages_with_headers(client):
    for path in ("/rules/OCP-X999", "/nope"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"].startswith("text/html")
        assert_security_headers(response)


def test_rule_page_renders_markdown_without_raw_html(client):
    html = client.get("/rules/OCP-S002").text
    assert "<h2>What it checks</h2>" in html
    assert 'class="language-json' in html or "<pre><code" in html


def test_view_pasted_and_uploaded(client):
    pasted = client.post("/view", data={"checkpoint": VALID.decode()})
    assert pasted.status_code == 200 and "valid (levels 1–2)" in pasted.text
    uploaded = client.post(
        "/view", files={"checkpoint_file": ("x.ocp.json", INVALID, "application/json")}
    )
    assert uploaded.status_code == 200 and "invalid" in uploaded.text
    assert "OCP-S002" in uploaded.text
    assert_security_headers(uploaded)


def test_view_json_twin_and_accept_header(client):
    twin = client.post("/view.json", files={"checkpoint_file": ("x.ocp.json", INVALID, "x")})
    assert twin.headers["content-type"] == "application/json"
    report = twin.json()["report"]
    assert report["valid"] is False
    assert report["digest"] == "sha-256:" + hashlib.sha256(INVALID).hexdigest()
    accept = client.post(
        "/view", data={"checkpoint": INVALID.decode()}, headers={"accept": "application/json"}
    )
    assert accept.json()["report"]["findings"][0]["code"] == "OCP-S002"


def test_view_with_parent_runs_lineage_rules(client):
    t001 = (CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json").read_bytes()
    response = client.post(
        "/view.json", data={"checkpoint": t001.decode(), "parent": VALID.decode()}
    )
    assert [f["code"] for f in response.json()["report"]["findings"]] == ["OCP-T001"]


def test_view_without_a_checkpoint_is_400_with_advice(client):
    response = client.post("/view", data={"checkpoint": "  "})
    assert response.status_code == 400
    assert "paste a checkpoint" in response.text


def test_api_lint_raw_body(client):
    for media in ("application/json", "application/vnd.opencheckpoint+json"):
        response = client.post("/api/v1/lint", content=INVALID, headers={"content-type": media})
        assert response.status_code == 200
        report = response.json()
        assert report["results"][0]["findings"][0]["code"] == "OCP-S002"
        assert report["tool"]["spec_version"] == "0.1"


def test_api_lint_multipart_with_parent(client):
    t001 = (CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json").read_bytes()
    response = client.post(
        "/api/v1/lint",
        files={
            "checkpoint_file": ("c.json", t001, "application/json"),
            "parent_file": ("p.json", VALID, "application/json"),
        },
    )
    assert [f["code"] for f in response.json()["results"][0]["findings"]] == ["OCP-T001"]


def test_api_lint_wrong_media_type_is_415_json(client):
    response = client.post("/api/v1/lint", content=b"x", headers={"content-type": "text/plain"})
    assert response.status_code == 415
    body = response.json()
    assert body["ok"] is False and "application/json" in body["error"]


def test_api_lint_bad_json_is_a_report_not_an_error(client):
    response = client.post(
        "/api/v1/lint", content=b'{"a": NaN}', headers={"content-type": "application/json"}
    )
    assert response.status_code == 200
    assert response.json()["results"][0]["findings"][0]["code"] == "json"


def test_body_over_the_limit_is_413(client):
    big = b'{"x": "' + b"a" * 200_000 + b'"}'
    response = client.post(
        "/api/v1/lint", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["status"] == 413
    page = client.post("/view", data={"checkpoint": big.decode()})
    assert page.status_code == 413 and "Too large" in page.text


def test_streamed_body_is_refused_before_it_is_all_read():
    """No Content-Length: the limit trips while the chunks arrive, and the rest is never read."""
    import anyio

    app = create_app(Settings(limits=Limits(max_bytes=1000)))
    received = 0
    sent: list[dict] = []

    async def receive():
        nonlocal received
        received += 1
        return {"type": "http.request", "body": b"x" * 1000, "more_body": received < 1000}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/v1/lint",
        "raw_path": b"/api/v1/lint",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"host", b"test")],
        "client": ("127.0.0.1", 1),
        "server": ("test", 80),
    }
    # A thread of its own: the browser tests' Playwright keeps an event loop in this one.
    worker = threading.Thread(target=anyio.run, args=(app, scope, receive, send))
    worker.start()
    worker.join(timeout=60)
    assert sent[0]["status"] == 413
    # the form limit is 2 × 1000 + 64 KiB: refused right after it, not after a megabyte
    assert received <= 2 * 1000 // 1000 + 64 * 1024 // 1000 + 2


def test_declared_content_length_over_the_limit_is_refused_at_once(client):
    response = client.post(
        "/api/v1/lint",
        content=b"{}",
        headers={"content-type": "application/json", "content-length": "999999999"},
    )
    assert response.status_code == 413


def test_malformed_multipart_is_400(client):
    response = client.post(
        "/view",
        content=b"--xyz\r\nContent-Disposition: form-data\r\n\r\nbroken",
        headers={"content-type": "multipart/form-data; boundary=xyz"},
    )
    assert response.status_code == 400
    assert_security_headers(response)


def test_form_with_wrong_media_type_is_415(client):
    response = client.post("/view", content=b"{}", headers={"content-type": "text/plain"})
    assert response.status_code == 415


def test_live_panel_is_a_fragment(client):
    response = client.post("/live", data={"checkpoint": INVALID.decode()})
    assert response.status_code == 200
    assert "<html" not in response.text
    assert "OCP-S002" in response.text
    empty = client.post("/live", data={"checkpoint": ""})
    assert "paste a checkpoint" in empty.text


def test_method_not_allowed(client):
    assert client.get("/view").status_code == 405
    assert client.get("/api/v1/lint").status_code == 405


def test_vendored_htmx_matches_its_recorded_sha256():
    data = (ROOT / "static" / "vendor" / "htmx-2.0.11.min.js").read_bytes()
    expected = "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"
    assert hashlib.sha256(data).hexdigest() == expected
    assert expected in (ROOT / "static" / "vendor" / "README.md").read_text()


def test_htmx_is_configured_for_the_strict_csp(client):
    html = client.get("/").text
    config = html.split('name="htmx-config" content=\'')[1].split("'")[0]
    assert json.loads(config) == {
        "includeIndicatorStyles": False,
        "allowEval": False,
        "allowScriptTags": False,
        "selfRequestsOnly": True,
    }


def test_every_rule_page_has_a_json_twin_that_the_rules_index_links(client):
    """/rules.json links each rule's page and twin; the twin holds what the page says."""
    index = client.get("/rules.json").json()
    assert {entry["code"] for entry in index} == set(RULES)
    for entry in index:
        assert entry["page"].endswith(f"/rules/{entry['code']}")
        twin = client.get(entry["json"])
        assert twin.status_code == 200 and twin.headers["content-type"] == "application/json"
        rule = twin.json()
        assert rule["code"] == entry["code"] and rule["summary"] == RULES[entry["code"]].summary
        assert rule["text"] is None or rule["text"].startswith("# ")
        page = client.get(entry["page"])
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        # the page names its twin, for a reader and for a client that follows links
        twin_path = entry["json"].removeprefix("http://testserver")
        assert f'<link rel="alternate" type="application/json" href="{twin_path}">' in page.text
        assert f'<a href="{twin_path}" type="application/json">as JSON</a>' in page.text
    assert client.get("/rules/OCP-X999.json").status_code == 404
    rules = client.get("/rules").text
    assert '<link rel="alternate" type="application/json" href="/rules.json">' in rules
    assert '<a href="/rules.json" type="application/json">as JSON</a>' in rules


def test_the_api_takes_a_checkpoint_file_in_the_checkpoint_part(client):
    """curl -F checkpoint=@case.ocp.json: the part the 415 advice names, as a file."""
    data = (CONFORMANCE / "valid-minimal.ocp.json").read_bytes()
    answer = client.post(
        "/api/v1/lint", files={"checkpoint": ("case.ocp.json", data, "application/json")}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["results"][0]["valid"] is True
    refused = client.post("/api/v1/lint", content=b"{}", headers={"content-type": "text/plain"})
    assert refused.status_code == 415 and "a checkpoint part" in refused.json()["detail"]
