"""Browser fixtures: the real service in a subprocess and Debian's Chromium through Playwright.

Every page a test opens comes from `open_page`, which records console errors, Content
Security Policy violations, dialogs and uncaught page errors; a test fails if any occurred,
unless it called `problems.expect(...)` for the ones it is about."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    Playwright,
    sync_playwright,
)

from tests.conftest import CONFORMANCE, ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 20.0  # seconds until /healthz must answer
SCREENSHOTS = ROOT / "artifacts" / "screenshots"

# Runs in every page before its own scripts: report CSP violations through a binding.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  if (typeof window.__ocpCspViolation === "function") {
    window.__ocpCspViolation({
      directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample,
      source: e.sourceFile, line: e.lineNumber,
    });
  }
}, true);
"""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
            return response.status == 200 and json.load(response).get("status") == "ok"
    except (OSError, urllib.error.URLError, ValueError):
        return False


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """`ocp serve` on a free port; yields its base URL."""
    ocp = Path(sys.executable).parent / "ocp"
    if not ocp.exists():
        pytest.fail(f"{ocp} is missing: install the project into the virtualenv (pip install -e .)")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile(prefix="ocp-serve-", suffix=".log", delete=False)  # noqa: SIM115
    env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    # Its own throwaway SQLite file, never one in the repository.
    env["OCP_DATABASE_URL"] = os.path.join(tempfile.mkdtemp(prefix="ocp-browser-"), "db.sqlite3")
    process = subprocess.Popen(
        [str(ocp), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                what = (
                    f"exited with status {process.returncode}"
                    if process.poll() is not None
                    else f"did not answer GET /healthz within {SERVER_START_TIMEOUT:.0f} s"
                )
                output = Path(log.name).read_text(errors="replace")[-4000:]
                pytest.fail(f"`ocp serve` on port {port} {what}. Its output:\n{output}")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        log.close()
        os.unlink(log.name)


@pytest.fixture(scope="session")
def pw() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(pw: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} does not exist. The browser tests need Debian's Chromium: "
            "apt-get update && apt-get install -y chromium "
            "(`playwright install` cannot download here)."
        )
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@dataclass
class Problems:
    """What went wrong on the pages of one test."""

    console_errors: list[str] = field(default_factory=list)
    csp_violations: list[dict] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    expected: list[Callable[[str], bool]] = field(default_factory=list)

    def expect(self, predicate: Callable[[str], bool]) -> None:
        """Allow problems (console text, dialog message, page error) that match."""
        self.expected.append(predicate)

    def unexpected(self) -> dict[str, list]:
        keep = lambda text: not any(p(text) for p in self.expected)  # noqa: E731
        found = {
            "console errors": [t for t in self.console_errors if keep(t)],
            "CSP violations": [v for v in self.csp_violations if keep(json.dumps(v))],
            "dialogs": [t for t in self.dialogs if keep(t)],
            "page errors": [t for t in self.page_errors if keep(t)],
        }
        return {k: v for k, v in found.items() if v}

    def assert_clean(self) -> None:
        found = self.unexpected()
        assert not found, "problems in the browser:\n" + json.dumps(found, indent=2)

    def watch(self, page: Page) -> Page:
        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error":
                where = message.location.get("url", "")
                self.console_errors.append(f"{message.text} [{where}]")

        def on_dialog(dialog: Dialog) -> None:
            self.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("console", on_console)
        page.on("dialog", on_dialog)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.expose_binding(
            "__ocpCspViolation", lambda _source, report: self.csp_violations.append(report)
        )
        page.add_init_script(CSP_LISTENER)
        return page


@pytest.fixture
def problems() -> Problems:
    return Problems()


@pytest.fixture
def make_context(chromium: Browser, server: str) -> Iterator[Callable[..., BrowserContext]]:
    """browser.new_context(**options) with the service as base URL; closed after the test."""
    contexts: list[BrowserContext] = []

    def make(**options) -> BrowserContext:
        context = chromium.new_context(base_url=server, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def open_page(make_context, problems: Problems) -> Iterator[Callable[..., Page]]:
    """A watched page, in `context` or in a fresh default context. After the test, any
    console error, CSP violation, dialog or page error not expected fails it."""
    default: list[BrowserContext] = []

    def make(context: BrowserContext | None = None) -> Page:
        if context is None:
            if not default:
                default.append(make_context())
            context = default[0]
        return problems.watch(context.new_page())

    yield make
    problems.assert_clean()


# --- helpers shared by the tests ----------------------------------------------------------


def conformance(name: str) -> bytes:
    return (CONFORMANCE / name).read_bytes()


def submit_file(page: Page, data: bytes, name: str = "c.ocp.json") -> None:
    """Open the form, choose `data` as the checkpoint file and submit; waits for the page."""
    page.goto("/")
    page.set_input_files(
        "#checkpoint_file", files=[{"name": name, "mimeType": "application/json", "buffer": data}]
    )
    with page.expect_navigation(url="**/view"):
        page.click("#intake button[type=submit]")


def paste(page: Page, selector: str, text: str) -> None:
    """Set a textarea's value and fire `input`, as pasting does: much faster than `fill`,
    which inserts large texts slowly (about 1.5 s for 17 KB)."""
    page.locator(selector).evaluate(
        "(el, text) => { el.value = text; el.dispatchEvent(new Event('input', {bubbles: true})); }",
        text,
    )


def submit_text(page: Page, text: str) -> None:
    """Open the form, paste `text` into the checkpoint textarea and submit."""
    page.goto("/")
    paste(page, "#checkpoint", text)
    with page.expect_navigation(url="**/view"):
        page.click("#intake button[type=submit]")


def store(page: Page, document: dict, parent: str | None = None) -> dict:
    """Store `document` through the API; the 201 answer (storage_id, deletion_token, ...).
    `parent` is the storage id of its stored parent: holding it is what links the two, so
    the child gets a diff page and its lineage tree shows the link."""
    response = page.request.post(
        "/api/v1/checkpoints" + (f"?parent={parent}" if parent else ""),
        data=json.dumps(document).encode(),
        headers={"content-type": "application/json"},
    )
    assert response.status == 201, response.text()
    return response.json()


def own_lineage() -> tuple[dict, dict]:
    """valid-coding-refactor and its child under ids of their own: the server is shared by
    the whole session, and tests count the nodes of their own lineage trees."""
    parent = json.loads(conformance("valid-coding-refactor.ocp.json"))
    child = json.loads(conformance("valid-coding-refactor-child.ocp.json"))
    parent["id"] = f"urn:uuid:{uuid.uuid4()}"
    child["id"] = f"urn:uuid:{uuid.uuid4()}"
    child["parent"] = {"id": parent["id"]}
    return parent, child
