"""Load harness: the service under concurrent lint, upload and permalink traffic on loopback.

    .venv/bin/python bench/load.py [--quick] [--skip-postgres] [--no-wrk]

Starts everything itself and stops it all at the end, whatever happens (an overall alarm
included):

- SQLite: one `ocp serve` process on a fresh database file in a temporary folder;
- PostgreSQL: a throwaway cluster (scripts/pg-throwaway.sh) and two `ocp serve` processes
  sharing it, the client sending its requests to them in turn (round robin per request);
- the ceiling: bench/minimal_app.py (a minimal Starlette route, served by uvicorn exactly as
  `ocp serve` serves the app), as many processes as the store has instances, started beside
  them: each view cell is followed at once by the minimal app's cells with the same client
  and concurrency, so the two are compared under the same load from the rest of the machine.

Every server listens on a free port of 127.0.0.1 and nothing else is contacted. The client
is one asyncio process with keep-alive HTTP/1.1 connections (a small hand-written client that
does much less per request than the server; the CPU columns show whether it kept up). Each
cell sends a bounded number of requests and stops at a deadline. Request kinds, on a
generated valid checkpoint of about 50 KB (bench/lint.py):

- lint: POST /api/v1/lint with the document;
- upload: POST /api/v1/checkpoints with the document under a fresh checkpoint id each time;
- view: GET /c/{id} of 16 stored checkpoints whose pages are already rendered and cached
  (a popular link), with `Accept-Encoding: gzip` as a browser sends it;
- mix: 6 views, 2 lints and 2 uploads in every 10 requests;
- minimal: GET / of the minimal app (a 2-byte body); page: GET /page of the minimal app, a
  static body as large as the cached permalink page (what moving those bytes costs alone).

Where `wrk` is installed (Debian: apt-get install -y wrk) the GET kinds are measured again
with it, a C client far lighter than any Python one, for as long as the Python client took
(2 to 15 seconds): its rows are marked `wrk`. With two instances, one wrk per instance runs
with half the connections, and its latency percentiles are the worse of the two.

Printed: requests/second (answered with the right status), p50/p95/p99 latency, errors (any
other status, a refused or broken connection, a time-out, a request the deadline left
unsent), lost uploads (acknowledged with 201 but not served back byte for byte by
GET /c/{id}/raw at the end, from the other instance where there are two), the peak resident
memory of each service process during the cell (VmHWM, reset before each cell), and the CPU
used by the service processes, by PostgreSQL and by the client (100% = one core). "÷ minimal"
is a view's (or page's) rate over the minimal route's run right after it; "÷ minimal per CPU"
the same with each rate per second of its servers' CPU, what a request costs the server
whatever share of the cores others left it. Then the targets of issues 5 and 29 are checked
(the cached permalink ≥ ½ the minimal route with each client, on SQLite and on PostgreSQL ×2).
A benchmark, never a test: it is not part of CI's pass or fail.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib.metadata
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from bench.lint import generate  # noqa: E402

HOST = "127.0.0.1"
BIN = Path(sys.executable).parent
PG_SCRIPT = ROOT / "scripts" / "pg-throwaway.sh"
MINIMAL_APP = ROOT / "bench" / "minimal_app.py"
CLIENTS = (1, 16, 64)
# Requests per cell by concurrency, times a factor for the fast kinds (so that their cells
# last long enough to measure).
COUNTS = {1: 200, 16: 1000, 64: 2000}
QUICK_COUNTS = {1: 20, 16: 100, 64: 200}
SCALE = {"view": 2, "minimal": 5, "page": 5}
STORE_KINDS = ("lint", "upload", "view", "mix")
CEILING_KINDS = ("minimal", "page")
WRK_KINDS = ("view", "minimal", "page")
CELL_DEADLINE = 90.0  # seconds; a cell stops sending then, whatever is left (counted as errors)
QUICK_CELL_DEADLINE = 8.0
WRK_SECONDS = (2.0, 15.0)  # a wrk cell lasts as long as the Python one did, within these
QUICK_WRK_SECONDS = (1.0, 2.0)
OVERALL_ALARM = 900  # seconds: the whole run is cut off after this, services stopped
QUICK_OVERALL_ALARM = 180
REQUEST_TIMEOUT = 30.0
STARTUP_TIMEOUT = 30.0
DOC_BYTES = 50_000
SEEDED = 16  # stored checkpoints whose cached pages the views read
MIX = ("view", "lint", "view", "upload", "view", "view", "lint", "view", "upload", "view")
DOC_ID = b"urn:uuid:019a8000-0000-7000-8000-00000000b001"
JSON_TYPE = "application/json"
GZIP_ACCEPTED = "Accept-Encoding: gzip\r\n"


class Overtime(BaseException):
    """The overall alarm rang: stop everything (not an Exception, so nothing swallows it)."""


# --- the client -----------------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection: just enough of the protocol, and fast."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, target: str, body: bytes = b"", extra: str = ""
    ) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        head = f"{method} {target} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n{extra}"
        if body or method == "POST":
            head += f"Content-Type: {JSON_TYPE}\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        if body:
            await self.writer.drain()
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        length, chunked, close = None, False, False
        for line in raw[:-4].split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                close = b"close" in value.lower()
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                parts.append(await self.reader.readexactly(size + 2))
                if size == 0:
                    break
            data = b"".join(p[:-2] for p in parts)
        elif length is not None:
            data = await self.reader.readexactly(length)
        else:
            data = await self.reader.read()
            close = True
        if close:
            self.close()
        return status, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Upload:
    storage_id: str
    body: bytes
    port_index: int
    cell: str


@dataclass
class Cell:
    store: str  # "sqlite", "postgres x2", "minimal x1", "minimal x2"
    kind: str
    clients: int
    planned: int
    tool: str = "python"
    sent: int = 0
    ok: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    fixed_percentiles: dict[float, float] | None = None  # wrk's, in seconds
    errors: Counter = field(default_factory=Counter)
    uploads: list[Upload] = field(default_factory=list)
    lost: int | None = None
    memory_mb: list[float] = field(default_factory=list)
    server_cpu: float = 0.0
    db_cpu: float | None = None
    client_cpu: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.store} {self.kind} x{self.clients} ({self.tool})"

    @property
    def topology(self) -> str:
        return "x2" if self.store.endswith("x2") else "x1"

    @property
    def rate(self) -> float:
        """Requests answered with the right status, per second."""
        return self.ok / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        if self.fixed_percentiles is not None:
            return self.fixed_percentiles[q]
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.5) - 1))]

    @property
    def error_count(self) -> int:
        """Wrong statuses, broken connections, time-outs, and requests never sent because
        the cell's deadline came first: a cell that ran out of time cannot look clean."""
        return sum(self.errors.values()) + max(0, self.planned - self.sent)


class Workload:
    """What each request of a kind is: method, target, body, extra headers, the status."""

    def __init__(self, document: bytes) -> None:
        self.document = document
        self.seeded: list[str] = []
        self.serial = 0

    def upload_body(self) -> bytes:
        self.serial += 1
        fresh = f"urn:uuid:019a8000-0000-7000-8000-{self.serial:012x}"
        return self.document.replace(DOC_ID, fresh.encode())

    def build(self, kind: str, i: int) -> tuple[str, str, bytes, str, int]:
        if kind == "mix":
            kind = MIX[i % len(MIX)]
        if kind == "lint":
            return "POST", "/api/v1/lint", self.document, "", 200
        if kind == "upload":
            return "POST", "/api/v1/checkpoints", self.upload_body(), "", 201
        if kind == "view":
            return "GET", f"/c/{self.seeded[i % len(self.seeded)]}", b"", GZIP_ACCEPTED, 200
        if kind == "minimal":
            return "GET", "/", b"", "", 200
        if kind == "page":
            return "GET", "/page", b"", "", 200
        raise ValueError(kind)


async def drive(cell: Cell, ports: list[int], work: Workload, deadline: float) -> None:
    """Send ``cell.planned`` requests from ``cell.clients`` concurrent clients, each request
    to the next port in turn; stop sending after ``deadline`` seconds."""
    counter = 0
    start = time.perf_counter()
    stop_at = start + deadline

    async def client() -> None:
        nonlocal counter
        connections = {port: Connection(port) for port in ports}
        try:
            while counter < cell.planned and time.perf_counter() < stop_at:
                i = counter
                counter += 1
                cell.sent += 1
                port_index = i % len(ports)
                conn = connections[ports[port_index]]
                method, target, body, extra, expected = work.build(cell.kind, i)
                what = f"{method} /{target.split('/')[1]}"
                t0 = time.perf_counter()
                try:
                    async with asyncio.timeout(REQUEST_TIMEOUT):
                        status, data = await conn.request(method, target, body, extra)
                except (OSError, EOFError, asyncio.IncompleteReadError, TimeoutError) as exc:
                    cell.errors[f"{what}: {type(exc).__name__}"] += 1
                    conn.close()
                    continue
                except (ValueError, asyncio.LimitOverrunError) as exc:
                    cell.errors[f"{what}: bad response ({type(exc).__name__})"] += 1
                    conn.close()
                    continue
                cell.latencies.append(time.perf_counter() - t0)
                if status != expected:
                    cell.errors[f"{what} -> {status}"] += 1
                    continue
                cell.ok += 1
                if expected == 201:
                    storage_id = orjson.loads(data)["storage_id"]
                    cell.uploads.append(Upload(storage_id, body, port_index, cell.label))
        finally:
            for conn in connections.values():
                conn.close()

    await asyncio.gather(*(client() for _ in range(cell.clients)))
    cell.seconds = time.perf_counter() - start


async def fetch_all(
    requests: list[tuple[int, str]], clients: int = 16
) -> list[tuple[int, bytes] | None]:
    """GET each (port, target), a few at a time, with retries; None where it never answered."""
    results: list[tuple[int, bytes] | None] = [None] * len(requests)
    queue = list(enumerate(requests))

    async def client() -> None:
        connections: dict[int, Connection] = {}
        try:
            while queue:
                index, (port, target) = queue.pop()
                conn = connections.setdefault(port, Connection(port))
                for _ in range(3):
                    try:
                        async with asyncio.timeout(REQUEST_TIMEOUT):
                            results[index] = await conn.request("GET", target)
                        break
                    except (OSError, EOFError, asyncio.IncompleteReadError, TimeoutError):
                        conn.close()
                        await asyncio.sleep(0.1)
        finally:
            for conn in connections.values():
                conn.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return results


# --- wrk, for the GET kinds -----------------------------------------------------------------

# Each connection sends the paths in turn; the results come back on one line.
WRK_SCRIPT = """
local paths, i = {}, 0
for p in string.gmatch(os.getenv("OCP_WRK_PATHS"), "[^ ]+") do paths[#paths + 1] = p end
local extra = {}
if os.getenv("OCP_WRK_GZIP") == "1" then extra["Accept-Encoding"] = "gzip" end
function request()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1], extra)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("OCPWRK %d %d %d %d %d %d %d\\n", summary.requests,
    summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
"""


def run_wrk(
    cell: Cell, ports: list[int], paths: list[str], gzip: bool, seconds: float, tmp: Path
) -> float:
    """Fill ``cell`` from wrk runs (in parallel, one per port, or one after the other when
    there are fewer connections than ports); the client CPU seconds used."""
    script = tmp / "ocp-load.lua"
    script.write_text(WRK_SCRIPT)
    env = {**os.environ, "OCP_WRK_PATHS": " ".join(paths), "OCP_WRK_GZIP": "1" if gzip else "0"}
    parallel = cell.clients >= len(ports)
    each = max(1, cell.clients // len(ports)) if parallel else 1
    duration = max(1, round(seconds if parallel else seconds / len(ports)))

    def command(port: int) -> list[str]:
        return [
            "wrk", "-t1", f"-c{each}", f"-d{duration}s", "--timeout", f"{REQUEST_TIMEOUT:.0f}s",
            "-s", str(script), f"http://{HOST}:{port}/",
        ]  # fmt: skip

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    outputs = []
    if parallel:
        procs = [
            subprocess.Popen(command(p), env=env, stdout=subprocess.PIPE, text=True) for p in ports
        ]
        try:
            outputs = [proc.communicate(timeout=duration + 60)[0] for proc in procs]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    else:
        for port in ports:
            run = subprocess.run(
                command(port), env=env, capture_output=True, text=True, timeout=duration + 60
            )
            outputs.append(run.stdout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = []
    for out in outputs:
        line = next((x for x in out.splitlines() if x.startswith("OCPWRK ")), None)
        if line is None:
            raise RuntimeError(f"wrk printed no result:\n{out[-2000:]}")
        figures.append([int(x) for x in line.split()[1:]])
    requests = sum(f[0] for f in figures)
    socket_errors = sum(f[2] for f in figures)
    status_errors = sum(f[3] for f in figures)
    durations = [f[1] / 1e6 for f in figures]
    cell.planned = cell.sent = requests + socket_errors
    cell.ok = requests - status_errors
    if socket_errors:
        cell.errors["wrk: connect/read/write/timeout"] += socket_errors
    if status_errors:
        cell.errors["wrk: status >= 400"] += status_errors
    cell.seconds = max(durations) if parallel else sum(durations)
    cell.fixed_percentiles = {
        q: max(f[i] for f in figures) / 1e6 for q, i in ((0.50, 4), (0.95, 5), (0.99, 6))
    }
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


# --- the services ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            children = Path(f"/proc/{pid}/task/{tid}/children").read_text().split()
        except OSError:
            continue
        for child in children:
            found.extend(descendants(int(child)))
    return found


def status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pids: list[int]) -> float:
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime + stime
        except (OSError, IndexError, ValueError):
            pass
    return ticks / os.sysconf("SC_CLK_TCK")


class Service:
    """One server process of ours on a loopback port, with its log in ``logdir``."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], logdir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.log_path = logdir / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [*argv, "--host", HOST, "--port", str(self.port)],
            env={**os.environ, **env},
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=str(logdir),
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start-up:\n{self.log_tail()}")
            result = asyncio.run(fetch_all([(self.port, "/healthz")], 1))[0]
            if result is not None and result[0] == 200:
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer /healthz in time:\n{self.log_tail()}")

    def check_alive(self) -> None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} died:\n{self.log_tail()}")

    def log_tail(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]

    def pids(self) -> list[int]:
        return descendants(self.proc.pid)

    def reset_peak(self) -> bool:
        """Reset VmHWM to the current resident set (Linux: clear_refs 5)."""
        ok = True
        for pid in self.pids():
            try:
                Path(f"/proc/{pid}/clear_refs").write_text("5")
            except OSError:
                ok = False
        return ok

    def peak_mb(self) -> float:
        return sum(status_kb(pid, "VmHWM") for pid in self.pids()) / 1024

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


@contextlib.contextmanager
def services(specs: list[tuple[str, list[str], dict[str, str]]], logdir: Path) -> Iterator[list]:
    started: list[Service] = []
    try:
        for name, argv, env in specs:
            started.append(Service(name, argv, env, logdir))
        for service in started:
            service.wait_ready()
        yield started
    finally:
        for service in started:
            service.stop()


@dataclass
class Cluster:
    url: str
    folder: Path

    def pids(self) -> list[int]:
        """The postmaster and its backends (for their CPU)."""
        try:
            postmaster = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        return descendants(postmaster)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    run = subprocess.run(
        ["bash", str(PG_SCRIPT), "start"], capture_output=True, text=True, timeout=120
    )
    if run.returncode != 0:
        raise RuntimeError(f"cannot start a throwaway PostgreSQL: {run.stderr.strip()}")
    values = dict(line.split("=", 1) for line in run.stdout.split())
    try:
        yield Cluster(values["OCP_TEST_POSTGRES_URL"], Path(values["PGDIR"]))
    finally:
        subprocess.run(
            ["bash", str(PG_SCRIPT), "stop", values["PGDIR"]], capture_output=True, timeout=120
        )


def ocp_serve(name: str, database_url: str) -> tuple[str, list[str], dict[str, str]]:
    env = {"OCP_DATABASE_URL": database_url, "OCP_PUBLIC_URL": "http://127.0.0.1:8000"}
    # Every client of the benchmark is one loopback address: no per-client write rate, in
    # documents or in bytes (32 MiB a minute is 660 of its documents, fewer than a run stores).
    env["OCP_WRITE_RATE"] = "0"
    env["OCP_WRITE_RATE_BYTES"] = "0"
    return name, [str(BIN / "ocp"), "serve"], env


def minimal_serve(name: str, page_bytes: int) -> tuple[str, list[str], dict[str, str]]:
    return name, [sys.executable, str(MINIMAL_APP)], {"OCP_BENCH_PAGE_BYTES": str(page_bytes)}


# --- running the cells ----------------------------------------------------------------------


class Bench:
    def __init__(self, quick: bool, use_wrk: bool, tmp: Path) -> None:
        self.counts = QUICK_COUNTS if quick else COUNTS
        self.deadline = QUICK_CELL_DEADLINE if quick else CELL_DEADLINE
        self.wrk_seconds = QUICK_WRK_SECONDS if quick else WRK_SECONDS
        self.wrk = use_wrk and shutil.which("wrk") is not None
        self.tmp = tmp
        self.document = generate(DOC_BYTES)
        assert DOC_ID in self.document
        self.cells: list[Cell] = []
        self.page_bytes = 0
        self.peak_reset = True

    def seed(self, ports: list[int], work: Workload) -> list[Upload]:
        """Store the checkpoints the views read, then render each page on every instance."""
        cell = Cell("seed", "upload", SEEDED, SEEDED)
        asyncio.run(drive(cell, ports, work, self.deadline))
        if cell.errors or len(cell.uploads) != SEEDED:
            raise RuntimeError(f"seeding failed: {dict(cell.errors)}")
        work.seeded[:] = [u.storage_id for u in cell.uploads]
        self.warm(ports, work)
        return cell.uploads

    def warm(self, ports: list[int], work: Workload) -> None:
        """Every seeded page once on every instance, so the views read cached pages (their
        cache keeps a page a minute)."""
        targets = [(port, f"/c/{sid}") for port in ports for sid in work.seeded]
        results = asyncio.run(fetch_all(targets, 4))
        bad = [t for t, r in zip(targets, results, strict=True) if r is None or r[0] != 200]
        if bad:
            raise RuntimeError(f"the seeded pages do not render: {bad[:3]}")
        self.page_bytes = max(self.page_bytes, max(len(r[1]) for r in results if r))

    def measure(
        self,
        cell: Cell,
        running: list[Service],
        cluster: Cluster | None,
        action: Callable[[], float | None],
    ) -> Cell:
        """Run ``action`` (which returns the client's CPU seconds, or None for this
        process's) with the servers' memory peaks reset and their CPU counted."""
        for service in running:
            self.peak_reset &= service.reset_peak()
        server0 = cpu_seconds([p for s in running for p in s.pids()])
        db0 = cpu_seconds(cluster.pids()) if cluster else 0.0
        client0 = time.process_time()
        client = action()
        client = time.process_time() - client0 if client is None else client
        if cell.seconds:
            cell.client_cpu = client / cell.seconds
            server = cpu_seconds([p for s in running for p in s.pids()]) - server0
            cell.server_cpu = server / cell.seconds
            if cluster:
                cell.db_cpu = (cpu_seconds(cluster.pids()) - db0) / cell.seconds
        cell.memory_mb = [s.peak_mb() for s in running]
        for service in running:
            service.check_alive()
        print(
            f"  {cell.label:<36} {cell.rate:8,.0f} req/s  p99 {cell.percentile(0.99) * 1e3:7.1f}"
            f" ms  errors {cell.error_count}"
        )
        self.cells.append(cell)
        return cell

    def run(
        self,
        store: str,
        kinds: tuple[str, ...],
        running: list[Service],
        work: Workload,
        cluster: Cluster | None = None,
        ceiling: list[Service] | None = None,
    ) -> list[Cell]:
        """Each kind's cells; with ``ceiling``, each view cell is followed at once by the
        minimal app's cells with the same client and concurrency (`ceiling_cells`)."""
        ports = [s.port for s in running]
        done = []
        for kind in kinds:
            for clients in CLIENTS:
                planned = self.counts[clients] * SCALE.get(kind, 1)
                cell = Cell(store, kind, clients, planned)
                if kind in ("view", "mix"):
                    self.warm(ports, work)
                done.append(
                    self.measure(
                        cell,
                        running,
                        cluster,
                        lambda cell=cell: asyncio.run(drive(cell, ports, work, self.deadline)),
                    )
                )
                paired = ceiling if kind == "view" and ceiling else []
                ceilings = self.ceiling_cells(clients, paired) if paired else []
                done += ceilings
                if self.wrk and kind in WRK_KINDS:
                    done.append(self.run_wrk(cell, running, work, cluster))
                    done += [self.run_wrk(c, paired, Workload(b""), None) for c in ceilings]
        return done

    def ceiling_cells(self, clients: int, ceiling: list[Service]) -> list[Cell]:
        """The minimal app's cells (CEILING_KINDS) with ``clients`` concurrent clients, run
        right after the view cell they are compared with: others at work on this machine take
        a share of its two cores that changes from minute to minute, and a ratio of cells run
        minutes apart was off by that much."""
        store = f"minimal x{len(ceiling)}"
        ports = [s.port for s in ceiling]
        empty = Workload(b"")
        done = []
        for kind in CEILING_KINDS:
            cell = Cell(store, kind, clients, self.counts[clients] * SCALE.get(kind, 1))
            drives = functools.partial(self.drive, cell, ports, empty)
            done.append(self.measure(cell, ceiling, None, drives))
        return done

    def drive(self, cell: Cell, ports: list[int], work: Workload) -> None:
        asyncio.run(drive(cell, ports, work, self.deadline))

    def run_wrk(
        self, python_cell: Cell, running: list[Service], work: Workload, cluster: Cluster | None
    ) -> Cell:
        kind = python_cell.kind
        cell = Cell(python_cell.store, kind, python_cell.clients, 0, tool="wrk")
        if kind == "view":
            self.warm([s.port for s in running], work)
            paths = [f"/c/{sid}" for sid in work.seeded]
        else:
            paths = ["/" if kind == "minimal" else "/page"]
        low, high = self.wrk_seconds
        seconds = min(high, max(low, python_cell.seconds))
        ports = [s.port for s in running]
        return self.measure(
            cell,
            running,
            cluster,
            lambda: run_wrk(cell, ports, paths, kind == "view", seconds, self.tmp),
        )

    def verify(self, ports: list[int], uploads: list[Upload], cells: list[Cell]) -> int:
        """GET every acknowledged upload's raw bytes (from the other instance where there are
        two) and compare; the count missing or different, also set on each cell."""
        targets = [
            (ports[(u.port_index + 1) % len(ports)], f"/c/{u.storage_id}/raw") for u in uploads
        ]
        results = asyncio.run(fetch_all(targets))
        lost: Counter = Counter()
        for upload, result in zip(uploads, results, strict=True):
            if result is None or result[0] != 200 or result[1] != upload.body:
                lost[upload.cell] += 1
        for cell in cells:
            if cell.kind in ("upload", "mix") and cell.tool == "python":
                cell.lost = lost[cell.label]
        return sum(lost.values())

    def store_run(self, store: str, running: list[Service], cluster: Cluster | None = None) -> None:
        ports = [s.port for s in running]
        work = Workload(self.document)
        seeded = self.seed(ports, work)
        # the ceiling, as many processes as the store's instances, started once the seeded
        # pages say how large the minimal app's /page must be
        specs = [
            minimal_serve(f"minimal-{store.split()[0]}-{i}", self.page_bytes)
            for i in range(len(running))
        ]
        with services(specs, self.tmp) as ceiling:
            cells = self.run(store, STORE_KINDS, running, work, cluster, ceiling)
        uploads = seeded + [u for c in cells for u in c.uploads]
        lost = self.verify(ports, uploads, cells)
        where = "the other instance" if len(ports) > 1 else "the same instance"
        print(f"  verified {len(uploads):,} acknowledged uploads on {where}: {lost} lost")


# --- the report -----------------------------------------------------------------------------


def versions() -> str:
    found = []
    for name in ("uvicorn", "starlette", "h11", "httptools", "uvloop", "psycopg"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            found.append(f"{name} {importlib.metadata.version(name)}")
    return ", ".join(found)


def machine() -> str:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} cores ({model or platform.machine()}), {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, {versions()}"
    )


def ceiling_of(cell: Cell, cells: list[Cell]) -> Cell | None:
    """The minimal route's cell with the same client, process count and concurrency."""
    for other in cells:
        if (
            other.kind == "minimal"
            and other.tool == cell.tool
            and other.topology == cell.topology
            and other.clients == cell.clients
        ):
            return other
    return None


def cpu_ratio(cell: Cell, ceiling: Cell) -> float:
    """``cell``'s requests per second of its servers' CPU over ``ceiling``'s: what each request
    costs the server, whatever share of the cores the rest of the machine left it."""
    if not (cell.server_cpu and ceiling.server_cpu and ceiling.rate):
        return float("nan")
    return (cell.rate / cell.server_cpu) / (ceiling.rate / ceiling.server_cpu)


def table(cells: list[Cell]) -> str:
    lines = [
        "| scenario | client | clients | requests | req/s | p50 ms | p95 ms | p99 ms | errors "
        "| lost uploads | peak MB per process | server CPU | PostgreSQL CPU | client CPU "
        "| ÷ minimal | ÷ minimal per CPU |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for cell in cells:
        ratio = per_cpu = ""
        ceiling = ceiling_of(cell, cells) if cell.kind in ("view", "page") else None
        if ceiling is not None and ceiling.rate:
            ratio = f"{cell.rate / ceiling.rate:.2f}"
            per_cpu = f"{cpu_ratio(cell, ceiling):.2f}"
        lines.append(
            f"| {cell.store} {cell.kind} | {cell.tool} | {cell.clients} | {cell.ok:,} "
            f"| {cell.rate:,.0f} | {cell.percentile(0.50) * 1000:.1f} "
            f"| {cell.percentile(0.95) * 1000:.1f} | {cell.percentile(0.99) * 1000:.1f} "
            f"| {cell.error_count} | {'' if cell.lost is None else cell.lost} "
            f"| {' + '.join(f'{m:.0f}' for m in cell.memory_mb)} "
            f"| {cell.server_cpu * 100:.0f}% "
            f"| {'' if cell.db_cpu is None else f'{cell.db_cpu * 100:.0f}%'} "
            f"| {cell.client_cpu * 100:.0f}% | {ratio} | {per_cpu} |"
        )
    return "\n".join(lines)


def targets(cells: list[Cell]) -> list[tuple[str, bool]]:
    checks: list[tuple[str, bool]] = []
    at64 = [c for c in cells if c.clients == 64 and not c.store.startswith("minimal")]
    errors = Counter()
    for cell in at64:
        for what, n in cell.errors.items():
            errors[f"{cell.store} {cell.kind}: {what}"] += n
        if cell.planned > cell.sent:
            errors[f"{cell.store} {cell.kind}: unsent at the deadline"] += cell.planned - cell.sent
    detail = f" ({dict(errors)})" if errors else ""
    total = sum(errors.values())
    text = f"zero errors at 64 concurrent clients: {total}{detail}"
    checks.append((text, bool(at64) and not total))
    verified = [c for c in at64 if c.lost is not None]
    lost = sum(c.lost or 0 for c in verified)
    checks.append(
        (f"zero lost uploads at 64 concurrent clients: {lost}", bool(verified) and not lost)
    )
    for cell in cells:
        if cell.kind != "view" or cell.clients != 64:
            continue
        ceiling = ceiling_of(cell, cells)
        if ceiling is None or not ceiling.rate:
            continue
        ratio = cell.rate / ceiling.rate
        checks.append(
            (
                f"{cell.store}: cached permalink view ≥ ½ the minimal route ({ceiling.store}, "
                f"run right after it), 64 clients, {cell.tool} client: {cell.rate:,.0f} vs "
                f"{ceiling.rate:,.0f} req/s = {ratio:.2f} (per second of server CPU: "
                f"{cpu_ratio(cell, ceiling):.2f})",
                ratio >= 0.5,
            )
        )
    return checks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests: under a minute")
    parser.add_argument("--skip-postgres", action="store_true", help="no PostgreSQL run")
    parser.add_argument("--no-wrk", action="store_true", help="the Python client only")
    args = parser.parse_args()

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    def overtime(signum: int, frame: object) -> None:
        raise Overtime

    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGALRM, overtime)
    signal.alarm(QUICK_OVERALL_ALARM if args.quick else OVERALL_ALARM)
    started = time.monotonic()
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ocp-load.") as tmp:
        logdir = Path(tmp)
        bench = Bench(args.quick, not args.no_wrk, logdir)
        if not bench.wrk and not args.no_wrk:
            notes.append("wrk not found (apt-get install -y wrk): the Python client only")
        print(f"machine: {machine()}")
        print(
            f"document {len(bench.document):,} bytes; requests per cell {bench.counts}, "
            f"× {SCALE} for the fast kinds; wrk: {'yes' if bench.wrk else 'no'}"
        )
        try:
            print("SQLite, one instance")
            database = logdir / "load.sqlite3"
            with services([ocp_serve("sqlite", str(database))], logdir) as running:
                bench.store_run("sqlite", running)
            if not args.skip_postgres:
                print("PostgreSQL, two instances sharing one cluster")
                try:
                    with (
                        postgres_cluster() as cluster,
                        services(
                            [ocp_serve("pg-a", cluster.url), ocp_serve("pg-b", cluster.url)],
                            logdir,
                        ) as running,
                    ):
                        bench.store_run("postgres x2", running, cluster)
                except RuntimeError as exc:
                    if "throwaway PostgreSQL" not in str(exc):
                        raise
                    notes.append(f"PostgreSQL skipped: {exc}")
                    print(f"  skipped: {exc}")
        except Overtime:
            notes.append("the overall time limit cut the run short: the table is partial")
        finally:
            signal.alarm(0)

    print()
    print(table(bench.cells))
    print()
    print(f"machine: {machine()}")
    print(
        f"document {len(bench.document):,} bytes; cached permalink page {bench.page_bytes:,} "
        f"bytes (the minimal app's /page sends as many); Python client: one asyncio process "
        f"with keep-alive connections; wrk: 1 thread; total {time.monotonic() - started:.0f} s"
    )
    if not bench.peak_reset:
        notes.append("VmHWM could not be reset per cell: peak memory is since start-up")
    for note in notes:
        print(f"note: {note}")
    print("\ntargets (issues 5 and 29):")
    for text, ok in targets(bench.cells):
        print(f"  [{'met' if ok else 'MISSED'}] {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
