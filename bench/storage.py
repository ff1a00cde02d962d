"""Storage abuse against a real `ocp serve` on loopback: what one client can store, what is left
on disk after deleting everything, and what a full disk answers.

    .venv/bin/python bench/storage.py [--quick] [--app PATH]

``--app PATH``: a checkout whose ``app`` package is served instead (its folder goes first on
PYTHONPATH), so the same command measures an older version: ``git worktree add /tmp/old
<commit>`` then ``--app /tmp/old``. Each scenario starts a fresh `ocp serve` with a SQLite file
in a temporary folder and the default settings, except where said:

- blob flood: one client sends ``{"blob": "<1 MB>"}`` bodies back to back. Printed: how many
  were stored, the MB stored per second, the median answer time.
- checkpoint flood: one client sends distinct 20 KB checkpoints back to back for ten seconds.
  Printed: the answers by status, the checkpoints stored per minute.
- upload speed: with no per-client rate, 200 checkpoints of 20 KB and of 200 KB one after
  another. Printed: the median answer time and uploads per second.
- delete all: with no per-client rate, 400 checkpoints of 250 KB (100 MB) are stored and all
  deleted with their tokens, then one sweep runs (``OCP_PURGE_INTERVAL_SECONDS=1``). Printed:
  the file and its log on disk, full, after the deletions and after the sweep.
- full disk (root only: a 16 MiB tmpfs): uploads until one is refused; then a DELETE and
  /readyz. Printed: each status and error.
- gates: in this process, the cheap gates before storing (``early_refusal``) beside the whole
  analysis, on the generated 5 KB / 200 KB / 2 MB checkpoints of bench/lint.py.

A benchmark, never a test (tests/hostile/test_storage_served.py asserts the outcomes).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
JSON = {"content-type": "application/json"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def call(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@contextlib.contextmanager
def service(folder: Path, app: Path | None, **settings: str) -> Iterator[int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    env.update({"OCP_DATABASE_URL": str(folder / "ocp.sqlite3"), **settings})
    if app is not None:
        env["PYTHONPATH"] = str(app)
    serve = "import sys; from app.cli import main; sys.argv = ['ocp', *sys.argv[1:]]; main()"
    command = [sys.executable, "-c", serve, "serve", "--host", HOST, "--port", str(port)]
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if call(port, "GET", "/healthz")[0] == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((folder / "serve.log").read_text(errors="replace")[-2000:])
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def checkpoint(number: int, size: int, tag: str) -> bytes:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    doc["id"] = f"urn:x:bench-storage-{tag}-{number}"
    words = ["plan", "check", "write", "review", "the", "figures", "before", "thursday"]
    text = " ".join(words[(number + i) % len(words)] for i in range(size // 6))
    doc["task"]["objective"] = f"Upload {number}: {text}"
    return json.dumps(doc).encode()


def on_disk(database: Path) -> int:
    wal = database.with_name(database.name + "-wal")
    return database.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def mb(count: float) -> str:
    return f"{count / 1e6:,.1f} MB"


def blob_flood(app: Path | None, count: int) -> None:
    body = json.dumps({"blob": "A" * 1_000_000}).encode()
    with tempfile.TemporaryDirectory() as tmp, service(Path(tmp), app) as port:
        statuses: Counter[int] = Counter()
        times = []
        started = time.perf_counter()
        for _ in range(count):
            t = time.perf_counter()
            status, _ = call(port, "POST", "/api/v1/checkpoints", body, JSON)
            times.append(time.perf_counter() - t)
            statuses[status] += 1
        elapsed = time.perf_counter() - started
        stored = statuses[201] * len(body)
        print(
            f"blob flood: {count} bodies of {mb(len(body))}: answers {dict(statuses)}; "
            f"stored {mb(stored)} at {stored / elapsed / 1e6:,.1f} MB/s; "
            f"median answer {statistics.median(times) * 1000:.1f} ms"
        )


def checkpoint_flood(app: Path | None, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp, service(Path(tmp), app) as port:
        statuses: Counter[int] = Counter()
        started = time.perf_counter()
        number = 0
        while time.perf_counter() - started < seconds:
            status, _ = call(
                port, "POST", "/api/v1/checkpoints", checkpoint(number, 20_000, "f"), JSON
            )
            statuses[status] += 1
            number += 1
        elapsed = time.perf_counter() - started
        print(
            f"checkpoint flood: {number} uploads of 20 KB in {elapsed:.1f} s: answers "
            f"{dict(statuses)}: {statuses[201]} stored ({statuses[201] / elapsed:,.1f} per second)"
        )


def upload_speed(app: Path | None, count: int) -> None:
    """Sequential uploads with no per-client rate: what the gates and counters cost."""
    unlimited = {"OCP_WRITE_RATE": "0", "OCP_WRITE_RATE_BYTES": "0"}
    with tempfile.TemporaryDirectory() as tmp, service(Path(tmp), app, **unlimited) as port:
        for size in (20_000, 200_000):
            times = []
            for number in range(count):
                data = checkpoint(number, size, f"s{size}")
                t = time.perf_counter()
                status, body = call(port, "POST", "/api/v1/checkpoints", data, JSON)
                times.append(time.perf_counter() - t)
                assert status == 201, body[:200]
            print(
                f"upload speed: {count} checkpoints of {size // 1000} KB one after another: "
                f"median {statistics.median(times) * 1000:.1f} ms, "
                f"{count / sum(times):,.1f} per second"
            )


def delete_all(app: Path | None, count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        database = folder / "ocp.sqlite3"
        with service(
            folder,
            app,
            OCP_WRITE_RATE="0",
            OCP_WRITE_RATE_BYTES="0",
            OCP_PURGE_INTERVAL_SECONDS="1",
        ) as port:
            created = []
            for number in range(count):
                status, body = call(
                    port, "POST", "/api/v1/checkpoints", checkpoint(number, 250_000, "d"), JSON
                )
                assert status == 201, body[:200]
                created.append(json.loads(body))
            time.sleep(1.5)  # a sweep: the log checkpointed into the file
            full = on_disk(database)
            for entry in created:
                auth = {"authorization": f"Bearer {entry['deletion_token']}"}
                status, _ = call(
                    port, "DELETE", f"/api/v1/checkpoints/{entry['storage_id']}", None, auth
                )
                assert status == 200
            deleted = on_disk(database)
            time.sleep(2.5)  # at least one more sweep
            swept = on_disk(database)
        print(
            f"delete all: {count} checkpoints of 250 KB: on disk {mb(full)} stored, "
            f"{mb(deleted)} after deleting them all, {mb(swept)} after a sweep"
        )


def full_disk(app: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mount = Path(tmp) / "disk"
        mount.mkdir()
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], capture_output=True
        )
        if mounted.returncode != 0:
            print("full disk: not measured (mounting a tmpfs needs root)")
            return
        try:
            with service(mount, app, OCP_WRITE_RATE="0", OCP_WRITE_RATE_BYTES="0") as port:
                created = []
                for number in range(2000):
                    status, body = call(
                        port, "POST", "/api/v1/checkpoints", checkpoint(number, 50_000, "x"), JSON
                    )
                    if status != 201:
                        break
                    created.append(json.loads(body))
                refused = json.loads(body).get("error", "")
                auth = {"authorization": f"Bearer {created[0]['deletion_token']}"}
                deleted, answer = call(
                    port, "DELETE", f"/api/v1/checkpoints/{created[0]['storage_id']}", None, auth
                )
                ready, readiness = call(port, "GET", "/readyz")
                print(
                    f"full disk: {len(created)} stored, then upload {status} ({refused!r}); "
                    f"DELETE {deleted}{'' if deleted == 200 else ' ' + repr(answer[:120])}; "
                    f"/readyz {ready} {readiness.decode()[:160]}"
                )
        finally:
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def gates() -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from lint import SIZES, generate  # type: ignore[import-not-found]

    from app.analysis import analyze
    from app.parse import DEFAULT_LIMITS
    from app.store.storable import early_refusal

    for name, size in SIZES.items():
        data = generate(size)
        analysis = _median(lambda d=data: analyze(d))
        early = _median(lambda d=data: early_refusal(d, DEFAULT_LIMITS))
        blob = json.dumps({"blob": "A" * size}).encode()
        refused = _median(lambda d=blob: early_refusal(d, DEFAULT_LIMITS))
        print(
            f"gates {name}: analysis {analysis * 1000:.2f} ms, cheap gates before it "
            f"{early * 1000:.2f} ms (+{early / analysis:.0%} per stored checkpoint); a blob of "
            f"the same size refused in {refused * 1000:.2f} ms"
        )


def _median(fn: object, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    parser.add_argument("--app", type=Path, help="serve the app package of this checkout")
    args = parser.parse_args()
    if args.app is not None and not (args.app / "app" / "__init__.py").is_file():
        parser.error(f"{args.app} has no app package")
    if shutil.which("mount") is None:
        print("(no mount command: the full-disk scenario is skipped)")
    blob_flood(args.app, 30 if args.quick else 100)
    checkpoint_flood(args.app, 3 if args.quick else 10)
    upload_speed(args.app, 50 if args.quick else 200)
    delete_all(args.app, 80 if args.quick else 400)
    full_disk(args.app)
    if args.app is None:
        gates()


if __name__ == "__main__":
    main()
