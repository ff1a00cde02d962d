"""A crawl of a real `ocp serve` started on a free port with no settings: every public
conformance document stored through the API and posted to /view and /view.json as the form
posts it (multipart), then every same-origin link of every page and API answer followed.

No answer may be a 5xx, no link of ours may point at another origin or port, no same-origin
link may be dead (404 where a page links to it), and the access log names no storage id."""

from __future__ import annotations

import html.parser
import json
import re
import subprocess
import urllib.parse
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE
from tests.serve import Reply, Server, request
from tests.test_statement_query import document

# `make check` leaves this out: it crawls a real server and runs the W3C checker on Java.
pytestmark = pytest.mark.slow

MANIFEST = json.loads((CONFORMANCE / "manifest.json").read_text(encoding="utf-8"))
BOUNDARY = "ocp-crawl-boundary"
MAX_PAGES = 3000
# Members of our JSON answers that hold links (of the service, never of the document).
LINK_MEMBERS = {"permalink", "raw", "json", "lineage", "diff", "delete", "url", "help_url"}


class Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and name in ("href", "src", "action") and tag != "form":
                self.found.append(value)
            if value and name == "content" and ("property", "og:url") in attrs:
                self.found.append(value)


def html_links(body: bytes) -> list[str]:
    parser = Links()
    parser.feed(body.decode("utf-8", "replace"))
    return parser.found


def json_links(value: object, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from json_links(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from json_links(v, key)
    elif isinstance(value, str) and key in LINK_MEMBERS:
        yield value


def multipart(fields: dict[str, tuple[str, bytes]]) -> bytes:
    out = b""
    for name, (filename, data) in fields.items():
        out += (
            (
                f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'
            ).encode()
            + data
            + b"\r\n"
        )
    return out + f"--{BOUNDARY}--\r\n".encode()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("crawl")
    with Server(workdir, {"OCP_DATABASE_URL": str(workdir / "ocp.sqlite3")}) as server:
        yield server


@dataclass
class Crawl:
    seen: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    storage_ids: list[str] = field(default_factory=list)
    # every HTML answer, by where it was found (a posted form's page under its file's name)
    pages: dict[str, bytes] = field(default_factory=dict)


@pytest.fixture(scope="module")
def crawl(served: Server) -> Crawl:
    origin = served.base
    queue: deque[tuple[str, str]] = deque([("/", "start")])
    done = Crawl()
    problems, storage_ids, seen = done.problems, done.storage_ids, done.seen

    def follow(links: list[str], found_on: str) -> None:
        for link in links:
            absolute = urllib.parse.urljoin(origin + found_on, link)
            parts = urllib.parse.urlsplit(absolute)
            if parts.scheme not in ("http", "https"):
                continue
            if parts.hostname in ("127.0.0.1", "localhost") and parts.port != served.port:
                problems.append(f"{found_on} links to {absolute}: another port")
                continue
            if f"{parts.scheme}://{parts.netloc}" != origin:
                continue  # a document's own resource link: not ours to follow
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            queue.append((path, found_on))

    def check(path: str, reply: Reply, found_on: str) -> None:
        if reply.status >= 500:
            problems.append(f"{path} (linked from {found_on}) answered {reply.status}")
        elif reply.status == 404 and found_on != "start":
            problems.append(f"{path} (linked from {found_on}) is a dead link: 404")
        kind = reply.headers.get("content-type", "")
        if kind.startswith("text/html"):
            done.pages[path] = reply.body
            follow(html_links(reply.body), path)
        elif kind.startswith("application/json") and reply.body:
            follow(list(json_links(json.loads(reply.body))), path)

    # Store every document that can be stored, and post every one to the form's targets.
    for case in MANIFEST:
        data = (CONFORMANCE / case["file"]).read_bytes()
        created = request(
            served.port, "POST", "/api/v1/checkpoints", data, {"content-type": "application/json"}
        )
        assert created.status < 500, (case["file"], created.status)
        if created.status == 201:
            body = created.json()
            assert isinstance(body, dict)
            storage_ids.append(body["storage_id"])
        check("/api/v1/checkpoints", created, "start")
        fields = {"checkpoint_file": (case["file"], data)}
        if case.get("parent"):
            fields["parent_file"] = (case["parent"], (CONFORMANCE / case["parent"]).read_bytes())
        for target in ("/view", "/view.json"):
            reply = request(
                served.port,
                "POST",
                target,
                multipart(fields),
                {"content-type": f"multipart/form-data; boundary={BOUNDARY}"},
                timeout=30,
            )
            assert reply.status == 200, (target, case["file"], reply.status)
            check(f"{target}?file={case['file']}", reply, "start")

    # and a long one: its lists page ("next 150"), its statements filter by address, and its
    # page links to a page of every line
    long_document = json.dumps(
        json.loads(document(questions=400, agent_observations=500)), indent=2
    )
    created = request(
        served.port,
        "POST",
        "/api/v1/checkpoints",
        long_document.encode(),
        {"content-type": "application/json"},
    )
    assert created.status == 201, created.status
    long_id = created.json()["storage_id"]
    storage_ids.append(long_id)
    for path in (f"/c/{long_id}", f"/c/{long_id}?kind=question&status=active"):
        queue.append((path, "start"))

    while queue:
        path, found_on = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        assert len(seen) < MAX_PAGES, "the crawl does not end"
        check(path, request(served.port, "GET", path, timeout=30), found_on)
    return done


def test_crawl(crawl: Crawl, served: Server) -> None:
    seen, problems, storage_ids = crawl.seen, crawl.problems, crawl.storage_ids
    assert len(seen) > 200, f"the crawl reached only {len(seen)} pages"
    assert not problems, "\n".join(problems[:40])
    # the crawl reached what people reach
    for wanted in ("/rules", "/rules/OCP-S008", "/schema/opencheckpoint-0.1.schema.json"):
        assert wanted in seen
    assert any(re.fullmatch(r"/c/[^/]+/lineage", p) for p in seen)
    assert any(re.fullmatch(r"/c/[^/]+/raw", p) for p in seen)
    assert any(re.fullmatch(r"/c/[^/]+/source", p) for p in seen)
    assert any(re.fullmatch(r"/c/[^/?]+\?kind=question&origin=user&from=150", p) for p in seen)
    assert len(storage_ids) > 40

    log = Path(served.log).read_text(errors="replace")
    assert '"GET /c/…' in log, "the access log is on and filtered"
    leaked = [sid for sid in storage_ids if sid in log]
    assert not leaked, f"the log names storage ids: {leaked[:3]}"


FETCH_VNU = Path(__file__).resolve().parents[1] / "scripts" / "fetch-vnu.sh"


def test_every_page_passes_the_w3c_nu_html_checker(crawl: Crawl, tmp_path: Path) -> None:
    """Every HTML page the crawl reached, and the page of every conformance document posted to
    the form, checked by the W3C Nu Html Checker (npm vnu-jar, on Java): no error."""
    jar = subprocess.run(
        ["sh", str(FETCH_VNU)], capture_output=True, text=True, check=True
    ).stdout.strip()
    files: dict[str, str] = {}
    for n, (path, body) in enumerate(sorted(crawl.pages.items())):
        page = tmp_path / f"page-{n}.html"
        page.write_bytes(body)
        files[page.as_uri()] = path
    assert len(files) > 150, f"only {len(files)} pages to check"
    checked = subprocess.run(
        [
            "java",
            "-jar",
            jar,
            "--errors-only",
            "--format",
            "json",
            *map(str, sorted(tmp_path.glob("*.html"))),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    messages = json.loads(checked.stderr)["messages"]
    errors = [
        f"{files.get(m.get('url', ''), m.get('url'))}:{m.get('lastLine')}: {m['message']}"
        for m in messages
        if m.get("type") in ("error", "non-document-error")
    ]
    assert not errors, f"{len(errors)} errors:\n" + "\n".join(errors[:40])
