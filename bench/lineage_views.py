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

--code PATH runs the service from another checkout's `app/` (for a before/after comparison:
`git worktree add /tmp/before <commit>`, or `git archive <commit> | tar -x -C /tmp/before`),
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
sys.path.insert(0, str(ROOT))

from bench.lint import generate  # noqa: E402

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", type=int, default=12)
    parser.add_argument("--forks", type=int, default=16)
    parser.add_argument("--kb", type=int, default=200)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--code", type=Path, help="run the service from this checkout's app/")
    args = parser.parse_args()

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
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
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
