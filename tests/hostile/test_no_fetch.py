"""No endpoint fetches a URL from a document: the service has no HTTP client at all, so a
checkpoint's URIs (resources, state_schema, anything) can never make it call out (no SSRF)."""

import ast
import re
from pathlib import Path

APP = Path(__file__).resolve().parent.parent.parent / "app"
NETWORK_MODULES = {
    "urllib.request",
    "http.client",
    "httpx",
    "httpx2",
    "requests",
    "urllib3",
    "aiohttp",
    "socket",
    "ftplib",
    "smtplib",
    "telnetlib",
    "xmlrpc.client",
    "websockets",
    "pycurl",
}

# The service's own listening socket (app/web/server.py: accept() paused when descriptors run
# out); that module opens no connection (checked below).
LISTENING_ONLY = {"web/server.py": {"socket"}}


def imported_modules(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_application_imports_no_network_client():
    offenders = {}
    for path in sorted(APP.rglob("*.py")):
        hits = {
            m
            for m in imported_modules(path.read_text())
            if m in NETWORK_MODULES
            or m.split(".")[0] in {"httpx", "httpx2", "requests", "urllib3", "aiohttp"}
        }
        name = str(path.relative_to(APP))
        if name in LISTENING_ONLY:
            hits -= LISTENING_ONLY[name]
            assert not re.search(r"connect(_ex)?\(|create_connection", path.read_text()), name
        if hits:
            offenders[name] = sorted(hits)
    assert offenders == {}


def test_the_scan_would_see_one():
    assert "httpx" in imported_modules("import httpx\n")
    assert "urllib.request.urlopen" in imported_modules("from urllib.request import urlopen\n")
