"""`ocp render`: the checkpoint page as one self-contained file."""

import base64
import hashlib
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import CONFORMANCE

OCP = Path(sys.executable).parent / "ocp"


def render(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(OCP), "render", *args], input=stdin, capture_output=True, timeout=120
    )


def test_standalone_page_has_inline_css_allowed_by_hash_and_no_script():
    done = render(
        str(CONFORMANCE / "valid-support-handoff.ocp.json"), "--base-url", "https://ocp.example"
    )
    assert done.returncode == 0
    html = done.stdout.decode()
    assert "<script" not in html
    assert '<link rel="stylesheet"' not in html
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert f"style-src &#39;sha256-{digest}&#39;" in csp
    assert "default-src &#39;none&#39;" in csp
    assert 'id="before-continuing"' in html and 'id="operations"' in html


def test_rule_links_point_at_the_public_url():
    done = render(
        str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json"),
        "--base-url",
        "https://ocp.example/",
    )
    assert done.returncode == 1  # invalid, as for lint
    assert 'href="https://ocp.example/rules/OCP-S002"' in done.stdout.decode()


def test_parent_and_standard_input():
    child = (CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json").read_bytes()
    done = render("--parent", str(CONFORMANCE / "valid-coding-refactor.ocp.json"), "-", stdin=child)
    assert done.returncode == 1
    assert "OCP-T001" in done.stdout.decode()


def test_secrets_are_redacted_in_the_file():
    done = render(str(CONFORMANCE / "secret-aws-pem-github.ocp.json"))
    html = done.stdout.decode()
    assert "[redacted: looks like a credential]" in html
    assert "BEGIN RSA PRIVATE KEY" not in html
    assert "ghp_R8x2" not in html


def test_missing_file_is_exit_2():
    done = render("/no/such.ocp.json")
    assert done.returncode == 2
    assert b"no such file" in done.stderr


def test_no_share_box_and_no_credential_claim_in_a_file():
    """Every `ocp render` said "cannot be shared: it appears to contain a credential"."""
    for name in ("valid-minimal.ocp.json", "valid-support-handoff.ocp.json"):
        html = render(str(CONFORMANCE / name)).stdout.decode()
        assert "cannot be shared" not in html
        assert "appears to contain a credential" not in html
        assert 'action="/share"' not in html


def test_without_a_base_url_the_file_links_to_no_service(monkeypatch):
    monkeypatch.delenv("OCP_PUBLIC_URL", raising=False)
    html = render(str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")).stdout.decode()
    assert not re.findall(r'href="/', html), "a root-relative link is dead in a file"
    assert "127.0.0.1" not in html and ":8000" not in html
    assert '<span class="code">OCP-S002</span>' in html


def test_a_version_this_viewer_does_not_implement_is_shown_not_read():
    done = render(str(CONFORMANCE / "version-0.2.ocp.json"))
    assert done.returncode == 1
    html = done.stdout.decode()
    assert "implements OpenCheckpoint 0.1 only" in html
    assert 'id="before-continuing"' not in html and 'id="operations"' not in html


def test_a_document_s_terminal_controls_reach_the_page_as_escapes(tmp_path: Path):
    """ESC, BEL and C1 controls in a document's text are written as the CLI's escapes, so
    `ocp render` printed on a terminal cannot retitle, clear or recolour it (and HTML forbids
    the characters anyway); tab and line feed stay."""
    import json

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["task"]["objective"] = "Sum \x1b]0;pwned\x07\x1b[2J\x1b[31mALL OK\x1b[0m\x9b1m"
    source = tmp_path / "controls.ocp.json"
    source.write_text(json.dumps(document, indent=2))
    done = render(str(source))
    assert done.returncode == 0, done.stderr
    page = done.stdout.decode()
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", page)
    assert "Sum \\e]0;pwned\\x07\\e[2J\\e[31mALL OK\\e[0m\\x9b1m" in page
    assert "\n" in page


def test_the_header_of_a_file_with_no_service_is_padded(monkeypatch):
    """Without a service to link to, the header is the brand alone, with the padding the
    navigation has elsewhere (it sat against the window's edge, issue 27)."""
    monkeypatch.delenv("OCP_PUBLIC_URL", raising=False)
    html = render(str(CONFORMANCE / "valid-minimal.ocp.json")).stdout.decode()
    assert '<p class="brand">OpenCheckpoint viewer</p>' in html
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    rule = re.search(r"header\.site > p\.brand \{([^}]*)\}", style)
    assert rule and "padding: .6rem 1.25rem" in rule.group(1)
