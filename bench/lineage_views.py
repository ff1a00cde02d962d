"""Lineage pages under attack: many concurrent views of cold lineages, and what the other routes
see meanwhile.

    .venv/bin/python bench/lineage_views.py [--views 12] [--forks 16] [--kb 200] [--slots 2]
        [--code PATH]

Starts one `ocp serve` (SQLite in a temporary folder, OCP_DB_POOL_SIZE=--slots store slots,
OCP_STORE_TIMEOUT_SECONDS=5) on a free loopback port, stores --views lineages, each a parent
of about --kb KB (bench/lint.py's generator) with --forks forks stored with its link, then:

- cold: one lineage view (GET /c/{id}/lineage.json) of a lineage nobody viewed, then again
  (warm): the time of each;
- burst: --views concurrent views, one per lineage not yet viewed, while one probe client
  asks, in turn and without pause, for a stored document's raw bytes (a store route),
  /readyz, and a 5 KB lint (POST /api/v1/lint): per route, how many answered 200 and 503,
  their median and worst latency;
- the same burst again, every lineage now viewed once (warm).

--work prints, instead, the work one view does (in process, counted, no timing): analyses
run, child-and-parent pairs checked and documents read from the store, for a cold view, the
same view again, and a view of the same lineage from another member.

--code PATH runs the service (or --work) from another checkout's `app/` (for a before/after
comparison: `git worktree add /tmp/before <commit>`, or `git archive <commit> | tar -x -C
/tmp/before`),
with this checkout's templates. A benchmark, never a test: it prints figures, it asserts
nothing.
"""

from __future__ import annotations

import argparse
import copy
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The checkout, not this folder: a module here must never stand in for one of the standard
# library's (a module named like one would shadow it); after PYTHONPATH, which --work --code sets
# to the other checkout (whose process then never imports bench/lint.py: it imports app/).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(
    len([p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]), str(ROOT)
)


def generate(size: int) -> bytes:
    from bench.lint import generate as generated  # imports this checkout's app/

    return generated(size)


HOST = "127.0.0.1"
JSON = {"content-type": "application/json"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def call(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, float, bytes]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=600)
    try:
        conn.request(method, path, body=body, headers=JSON if body is not None else {})
        response = conn.getresponse()
        data = response.read()
        return response.status, time.perf_counter() - started, data
    finally:
        conn.close()


def lineage_bytes(n: int, kb: int, forks: int) -> tuple[bytes, list[bytes]]:
    parent = json.loads(generate(kb * 1000))
    parent["id"] = f"urn:x:bench-lineage-{n}"
    children = []
    for f in range(forks):
        fork = copy.deepcopy(parent)
        fork["id"] = f"urn:x:bench-lineage-{n}-fork-{f}"
        fork["parent"] = {"id": parent["id"]}
        fork["derivation"] = {
            "method": "forked",
            "inputs": [{"kind": "checkpoint", "id": parent["id"]}],
        }
        fork["task"]["objective"] += f" Fork {f}."
        children.append(json.dumps(fork).encode())
    return json.dumps(parent).encode(), children


def store(port: int, data: bytes, parent: str | None = None) -> str:
    path = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
    status, _, body = call(port, "POST", path, data)
    if status != 201:
        raise SystemExit(f"storing answered {status}: {body[:300]!r}")
    return str(json.loads(body)["storage_id"])


def burst(port: int, focuses: list[str], raw_id: str, lint_doc: bytes) -> dict[str, list]:
    """Every focus's lineage view at once, and the probe's requests until they are done."""
    done = threading.Event()
    probes: dict[str, list[tuple[int, float]]] = {"raw": [], "readyz": [], "lint": []}

    def probe() -> None:
        while not done.is_set():
            for name, method, path, body in (
                ("raw", "GET", f"/c/{raw_id}/raw", None),
                ("readyz", "GET", "/readyz", None),
                ("lint", "POST", "/api/v1/lint", lint_doc),
            ):
                status, took, _ = call(port, method, path, body)
                probes[name].append((status, took))

    prober = threading.Thread(target=probe)
    prober.start()
    with ThreadPoolExecutor(max_workers=len(focuses)) as pool:
        views = list(pool.map(lambda s: call(port, "GET", f"/c/{s}/lineage.json")[:2], focuses))
    done.set()
    prober.join()
    return {"views": views, **probes}


def row(name: str, results: list[tuple[int, float]]) -> str:
    times = [t for _, t in results] or [0.0]
    ok = sum(1 for s, _ in results if s == 200)
    unavailable = sum(1 for s, _ in results if s == 503)
    return (
        f"| {name} | {len(results)} | {ok} | {unavailable} | "
        f"{statistics.median(times) * 1000:,.0f} | {max(times) * 1000:,.0f} |"
    )


def work_per_view(parent_bytes: bytes, fork_bytes: list[bytes], kb: int) -> None:
    """Count, in this process, what lineage views of one lineage run (see --work)."""
    from collections import Counter

    from starlette.testclient import TestClient

    import app.web.analyses
    import app.web.lineage
    from app.config import Settings
    from app.web import create_app
    from app.web.analyses import AnalysisCache

    counts: Counter[str] = Counter()

    def count(owner: object, name: str, label: str) -> None:
        original = getattr(owner, name)

        def counted(*args: object, **kwargs: object) -> object:
            counts[label] += 1
            return original(*args, **kwargs)

        setattr(owner, name, counted)

    forks = len(fork_bytes)
    with tempfile.TemporaryDirectory(prefix="ocp-lineage-work-") as folder:
        settings = Settings(database_url=str(Path(folder) / "ocp.sqlite3"))
        with TestClient(create_app(settings)) as client:

            def put(data: bytes, parent: str | None = None) -> str:
                path = "/api/v1/checkpoints" + (f"?parent={parent}" if parent else "")
                response = client.post(path, content=data, headers=JSON)
                assert response.status_code == 201, response.text
                return str(response.json()["storage_id"])

            parent = put(parent_bytes)
            stored = [put(f, parent) for f in fork_bytes]
            client.app.state.analyses = AnalysisCache(settings.limits)  # nothing kept yet
            count(app.web.analyses, "analyze", "analyses")
            count(app.web.lineage, "pair", "pairs")
            count(client.app.state.store, "get", "documents read")
            code = Path(app.web.lineage.__file__).resolve().parent.parent.parent
            print(
                f"one lineage: a {kb} KB parent and {forks} forks stored with its link, "
                f"code: {code}"
            )
            print()
            print("| view | analyses | pairs | documents read | status |")
            print("|---|---|---|---|---|")
            for label, focus in (
                ("cold", stored[0]),
                ("the same again", stored[0]),
                ("another member", stored[1]),
                ("the parent", parent),
            ):
                counts.clear()
                status = client.get(f"/c/{focus}/lineage.json").status_code
                print(
                    f"| {label} | {counts['analyses']} | {counts['pairs']} | "
                    f"{counts['documents read']} | {status} |"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", type=int, default=12)
    parser.add_argument("--forks", type=int, default=16)
    parser.add_argument("--kb", type=int, default=200)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--code", type=Path, help="run the service from this checkout's app/")
    parser.add_argument("--work", action="store_true", help="count the work of one view")
    parser.add_argument("--documents", type=Path, help=argparse.SUPPRESS)  # --work --code
    args = parser.parse_args()
    if args.documents is not None:  # the process --work --code starts
        documents = json.loads(args.documents.read_text())
        work_per_view(documents[0].encode(), [d.encode() for d in documents[1:]], args.kb)
        return 0
    if args.work:
        parent_bytes, fork_bytes = lineage_bytes(0, args.kb, args.forks)
        if args.code is None:
            work_per_view(parent_bytes, fork_bytes, args.kb)
            return 0
        # Again, in a process that imports that checkout's app/ (run from a folder of its
        # own, so that the current directory is not this checkout).
        with tempfile.TemporaryDirectory(prefix="ocp-lineage-work-") as folder:
            documents = Path(folder) / "documents.json"
            documents.write_text(json.dumps([d.decode() for d in [parent_bytes, *fork_bytes]]))
            env = {**os.environ, "PYTHONPATH": str(args.code.resolve())}
            again = [sys.executable, __file__, f"--documents={documents}", f"--kb={args.kb}"]
            return subprocess.run(again, env=env, cwd=folder, check=False).returncode

    with tempfile.TemporaryDirectory(prefix="ocp-lineage-bench-") as folder:
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
        env.update(
            OCP_DATABASE_URL=str(Path(folder) / "ocp.sqlite3"),
            OCP_DB_POOL_SIZE=str(args.slots),
            OCP_STORE_TIMEOUT_SECONDS="5",
            OCP_WRITE_RATE="0",  # the lineages are stored from one client, quickly
            OCP_WRITE_RATE_BYTES="0",
        )
        if args.code is not None:
            env["PYTHONPATH"] = str(args.code.resolve())
        command = [sys.executable, "-m", "app.cli", "serve", "--host", HOST, "--port", str(port)]
        log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115 (closed below)
        # Run from the temporary folder: the current directory comes first on sys.path.
        server = subprocess.Popen(
            command, env=env, cwd=folder, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if call(port, "GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the service did not start")
                time.sleep(0.1)

            lineages = []
            for n in range(args.views + 1):
                parent_bytes, fork_bytes = lineage_bytes(n, args.kb, args.forks)
                parent = store(port, parent_bytes)
                lineages.append([store(port, f, parent) for f in fork_bytes])
            lint_doc = generate(5_000)
            raw_id = lineages[0][0]

            print(
                f"{args.views} lineages of a {args.kb} KB parent and {args.forks} forks each, "
                f"{args.slots} store slots, code: {args.code or ROOT}"
            )
            print()
            print("| view | ms |")
            print("|---|---|")
            for label in ("cold", "warm"):
                status, took = call(port, "GET", f"/c/{lineages[-1][0]}/lineage.json")[:2]
                print(f"| {label} (status {status}) | {took * 1000:,.0f} |")
            for label, group in (
                ("cold burst", lineages[: args.views]),
                ("warm burst", lineages[: args.views]),
            ):
                started = time.perf_counter()
                result = burst(port, [forks[0] for forks in group], raw_id, lint_doc)
                wall = time.perf_counter() - started
                print()
                print(f"{label}: {args.views} concurrent lineage views, {wall:,.1f} s in all")
                print()
                print("| requests | sent | 200 | 503 | median ms | worst ms |")
                print("|---|---|---|---|---|---|")
                print(row("lineage views", result["views"]))
                for name in ("raw", "readyz", "lint"):
                    print(row(f"probe: {name}", result[name]))
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
