"""What users install: the sdist and the wheel built from it, installed with their dependencies
into a fresh virtualenv in a temporary folder outside the checkout, then used from there:
`ocp --version`, the conformance harness over every public case, `ocp render`, `ocp diff`, and
`ocp serve` on a free port with no settings.

Nothing here imports the checkout's `app`: every command runs the installed console script,
with the temporary folder as its working directory, so a file found only through the source
tree fails here as it would for a user."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import tarfile
import urllib.parse
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import __version__
from tests.conftest import CONFORMANCE, ROOT
from tests.serve import Server, request

# `make check` leaves this out: it builds, installs and runs the wheel in a fresh virtualenv.
pytestmark = pytest.mark.slow

MANIFEST = json.loads((CONFORMANCE / "manifest.json").read_text(encoding="utf-8"))
# What the program reads at run time, as it sits in the wheel.
RUNTIME_FILES = (
    "app/templates/checkpoint.html",
    "app/templates/base.html",
    "app/static/app.css",
    "app/static/print.css",
    "app/static/app.js",
    "app/static/favicon.svg",
    "app/static/vendor/htmx-2.0.11.min.js",
    "app/static/examples/invoice-handoff.ocp.json",
    "app/templates/_page_summary.html",
    "app/schemas/opencheckpoint-0.1.schema.json",
    "app/docs/rules/OCP-S008.md",
    "app/docs/rules/secret.md",
)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`python -m build`: the sdist, then the wheel built from the unpacked sdist (as pip
    builds one from PyPI), so a file missing from either fails here.

    Built once a run: the module's tests may run on several of xdist's workers, and two builds
    of one checkout at once race on what setuptools writes into it (an egg-info folder one
    removes while the other reads it: "No such file or directory"). The first worker builds
    under a lock in the run's folder all the workers share; the others take its files."""
    base = tmp_path_factory.getbasetemp()
    # (under xdist each worker's folder is in the run's; alone, the run's is its own)
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = shared / "dist"
    with (shared / "dist.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file closes)
        if not any(out.glob("*.whl")):
            out.mkdir(exist_ok=True)
            done = subprocess.run(
                [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def installed(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv outside the checkout with the wheel and its dependencies (pinned
    by constraints.txt, as CI pins everything); returns its bin folder."""
    home = tmp_path_factory.mktemp("user")
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [
            str(venv / "bin" / "pip"),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-c",
            str(ROOT / "constraints.txt"),
            str(dist["wheel"]),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return venv / "bin"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cwd")


def ocp(
    bin_dir: Path, cwd: Path, *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [str(bin_dir / "ocp"), *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
    )


def test_the_wheel_carries_every_runtime_file(dist: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(dist["wheel"]).namelist())
    missing = [name for name in RUNTIME_FILES if name not in names]
    assert not missing, f"the wheel lacks {missing}"
    rule_pages = {n for n in names if n.startswith("app/docs/rules/") and n.endswith(".md")}
    assert len(rule_pages) >= 24
    assert not [n for n in names if n.startswith("tests/")], "the tests do not ship"
    # every module of the checkout's app/ package tree, so a new subpackage is never left out
    modules = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "app").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert not sorted(modules - names), "the wheel lacks modules of app/"


def test_the_sdist_carries_the_sources_of_every_runtime_file(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    for wanted in (
        "templates/checkpoint.html",
        "static/app.css",
        "static/vendor/htmx-2.0.11.min.js",
        "schema/opencheckpoint-0.1.schema.json",
        "docs/rules/OCP-S008.md",
        "constraints.txt",
    ):
        assert wanted in names, f"the sdist lacks {wanted}"


def test_version_is_the_one_in_the_package(installed: Path, workdir: Path) -> None:
    done = ocp(installed, workdir, "--version")
    assert done.returncode == 0
    assert done.stdout.decode().strip() == f"ocp {__version__}"
    sarif = ocp(
        installed, workdir, "lint", "--format", "sarif", str(CONFORMANCE / "valid-minimal.ocp.json")
    )
    driver = json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]
    assert driver["version"] == __version__


def test_the_conformance_harness_agrees_on_every_case(installed: Path, workdir: Path) -> None:
    """The project's harness (tests/conformance.py, `make conformance`) over the installed
    `ocp`: each case linted by its own run, its exit status, report and silence on standard
    error as the manifest expects."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    env.pop("PYTHONPATH", None)
    command = f"{installed / 'ocp'} lint --format json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "conformance.py"),
            str(CONFORMANCE),
            "--cmd",
            command,
        ],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    total = len(MANIFEST)
    assert done.stdout.splitlines()[-1] == f"conformance conformance: {total}/{total} cases agree"


def test_a_large_document_is_read_by_its_own_decoder(installed: Path, workdir: Path) -> None:
    """From 64 KB on intake decodes with no hooks and counts members with orjson, a dependency
    the wheel must bring: a large document's repeated member is found, at its line, by the
    installed `ocp`."""
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["extensions"] = {"x-pad": {"note": "n" * 70_000}}
    text = json.dumps(document, indent=2)
    text = text.replace('"note": ', '"note": "once",\n      "note": ', 1)
    path = workdir / "large.ocp.json"
    path.write_text(text)
    done = ocp(installed, workdir, "lint", "--format", "json", str(path))
    assert done.returncode == 1, done.stderr.decode()[-2000:]
    [finding] = json.loads(done.stdout)["results"][0]["findings"]
    assert finding["code"] == "json" and finding["path"] == "/extensions/x-pad/note"
    assert finding["line"] == text[: text.rindex('"note"')].count("\n") + 1


def test_render_writes_one_self_contained_page(installed: Path, workdir: Path) -> None:
    done = ocp(installed, workdir, "render", str(CONFORMANCE / "valid-support-handoff.ocp.json"))
    assert done.returncode == 0, done.stderr.decode()
    page = done.stdout.decode()
    assert page.startswith("<!doctype html>")
    assert "<style>" in page and "<script" not in page
    assert "cannot be shared" not in page
    # with no service named, nothing links to one
    assert 'href="/' not in page and "127.0.0.1" not in page


def test_diff_of_the_lineage_pair(installed: Path, workdir: Path) -> None:
    done = ocp(
        installed,
        workdir,
        "diff",
        "--format",
        "json",
        str(CONFORMANCE / "valid-coding-refactor.ocp.json"),
        str(CONFORMANCE / "valid-coding-refactor-child.ocp.json"),
    )
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["summary"]["changed"] > 0


@pytest.fixture(scope="module")
def served(installed: Path, workdir: Path) -> Iterator[Server]:
    """The installed `ocp serve` on a free port, with nothing set but its database file."""
    server = Server(
        workdir,
        {"OCP_DATABASE_URL": str(workdir / "ocp.sqlite3")},
        executable=installed / "ocp",
    )
    with server:
        yield server


def test_serve_answers_its_pages(served: Server) -> None:
    for path in ("/", "/rules", "/example", "/static/app.css", "/static/vendor/htmx-2.0.11.min.js"):
        assert request(served.port, "GET", path).status == 200, path
    schema = request(served.port, "GET", "/schema/opencheckpoint-0.1.schema.json")
    assert json.loads(schema.body)["$id"].endswith("opencheckpoint-0.1.schema.json")


def test_serve_answers_every_rule_page(served: Server) -> None:
    rules = request(served.port, "GET", "/rules.json").json()
    assert isinstance(rules, list) and len(rules) >= 24
    for rule in rules:
        reply = request(served.port, "GET", f"/rules/{urllib.parse.quote(rule['code'])}")
        assert reply.status == 200, (rule["code"], reply.body[:300])


def test_serve_checks_a_posted_form(served: Server) -> None:
    data = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
    boundary = "ocp-installed-test"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="checkpoint_file"; '
            f'filename="handoff.ocp.json"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    reply = request(
        served.port,
        "POST",
        "/view",
        body,
        {"content-type": f"multipart/form-data; boundary={boundary}"},
    )
    assert reply.status == 200
    assert "valid (levels 1–2)" in reply.body.decode()


def test_serve_hands_out_links_on_its_own_port(served: Server) -> None:
    data = (CONFORMANCE / "valid-minimal.ocp.json").read_bytes()
    created = request(
        served.port, "POST", "/api/v1/checkpoints", data, {"content-type": "application/json"}
    )
    assert created.status == 201
    body = created.json()
    assert isinstance(body, dict)
    for key in ("permalink", "raw", "json"):
        assert body[key].startswith(served.base + "/c/"), (key, body[key])
    assert created.headers["location"] == body["permalink"]
    page = request(served.port, "GET", urllib.parse.urlsplit(body["permalink"]).path)
    assert page.status == 200
    assert f'content="{body["permalink"]}"' in page.body.decode()  # og:url


def test_guard_answers_from_the_installed_wheel(installed: Path, workdir: Path) -> None:
    call = {
        "tool": "brightdesk.add_tags",
        "arguments": {"ticket": 48213, "tags": ["billing", "duplicate-charge"]},
    }
    done = ocp(
        installed,
        workdir,
        "guard",
        str(CONFORMANCE / "valid-support-handoff.ocp.json"),
        "--call",
        json.dumps(call),
        "--format",
        "json",
    )
    assert done.returncode == 1, done.stderr.decode()
    assert json.loads(done.stdout)["outcome"] == "refuse"


def _mcp_tools(params: object) -> list[str]:
    """The tool names an MCP session lists, the SDK's client on ``params``' transport."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    from tests.test_mcp import in_thread

    async def main() -> list[str]:
        transport = (
            stdio_client(params)
            if isinstance(params, StdioServerParameters)
            else streamable_http_client(str(params))
        )
        async with transport as (read, write, *_), ClientSession(read, write) as client:
            await client.initialize()
            return sorted(t.name for t in (await client.list_tools()).tools)

    return in_thread(main)


def test_mcp_over_stdio_and_http_from_the_installed_wheel(
    installed: Path, workdir: Path, served: Server
) -> None:
    from mcp.client.stdio import StdioServerParameters

    env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    env["OCP_DATABASE_URL"] = str(workdir / "mcp.sqlite3")
    stdio = StdioServerParameters(
        command=str(installed / "ocp"), args=["mcp"], env=env, cwd=workdir
    )
    over_stdio = _mcp_tools(stdio)
    assert "check_call" in over_stdio and "store_checkpoint" in over_stdio
    assert _mcp_tools(f"{served.base}/mcp") == over_stdio
