"""Slow clients against a real `ocp serve` on loopback: how long half-sent requests are held,
and what the service does when connections outnumber its file descriptors.

    .venv/bin/python bench/slow_clients.py [--clients 500] [--hold 90] [--nofile 256] [--ocp PATH]

Two scenarios, each on a fresh `ocp serve` (SQLite in a temporary folder) started with the
OCP_* settings of the calling environment, so the same command measures the defaults or, say,
OCP_HEADER_TIMEOUT_SECONDS=2:

- half-sent: ``--clients`` connections each send a request line and then one header byte every
  ``--trickle`` seconds, never the blank line, for at most ``--hold`` seconds. Printed: how
  many the server closed, after how long (median, max), how many it still held at the end, and
  whether a normal client, probing /healthz once a second meanwhile, was served.
- descriptors: the server runs under ``prlimit --nofile=N:N``; 2N connections are opened (more
  than it has descriptors), held ``--flood`` seconds and closed. Printed: the bytes and lines
  its log grew by (and how many were tracebacks), the probes served during and after the flood.
- lowered: the limit of a running server is lowered to 48 descriptors (``prlimit --pid``, as
  when descriptors are taken by something else), 200 connections are opened and held
  ``--flood`` seconds. Printed: its log's growth, the CPU it used meanwhile, and whether it
  serves once they are closed.

A benchmark, never a test (tests/hostile/test_slow_clients.py asserts the outcomes).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
OCP = Path(sys.executable).parent / "ocp"
HEADER_BYTES = b"Host: slow.example\r\nUser-Agent: trickle\r\nAccept: */*\r\n" * 50


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def service(folder: Path, nofile: int | None = None) -> Iterator[tuple[int, Path, int]]:
    """`ocp serve` on a free port (under prlimit, which execs it, when ``nofile`` is given):
    (port, log, process id)."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    env = {**os.environ, "OCP_DATABASE_URL": str(folder / f"db-{port}.sqlite3")}
    argv = [str(OCP), "serve", "--host", HOST, "--port", str(port)]
    if nofile is not None:
        argv = ["prlimit", f"--nofile={nofile}:{nofile}", "--", *argv]
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + 30
        while probe(port) is not True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"`ocp serve` did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.1)
        yield port, log, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def probe(port: int, timeout: float = 5.0) -> bool:
    """True when GET /healthz is answered 200 on a fresh connection."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


@dataclass
class Trickler:
    sock: socket.socket
    opened: float
    sent: int = 0
    closed_after: float | None = None


@dataclass
class Probes:
    served: int = 0
    failed: int = 0
    times: list[float] = field(default_factory=list)

    def run(self, port: int) -> None:
        started = time.monotonic()
        if probe(port):
            self.served += 1
        else:
            self.failed += 1
        self.times.append(time.monotonic() - started)

    def __str__(self) -> str:
        slowest = max(self.times, default=0.0)
        return f"{self.served} served, {self.failed} failed (slowest {slowest:.2f} s)"


def close_and_probe(socks: list[socket.socket], port: int) -> Probes:
    """Close ``socks``, then what a normal client sees in the 5 s after: one probe a second."""
    for sock in socks:
        sock.close()
    after = Probes()
    for _ in range(5):
        time.sleep(1.0)
        after.run(port)
    return after


def open_connections(port: int, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        try:
            sock = socket.create_connection((HOST, port), timeout=5)
        except OSError:
            break
        sock.setblocking(False)
        socks.append(sock)
    return socks


def half_sent(port: int, clients: int, hold: float, trickle: float) -> None:
    selector = selectors.DefaultSelector()
    start = time.monotonic()
    open_socks = open_connections(port, clients)
    tricklers = [Trickler(sock, time.monotonic()) for sock in open_socks]
    for t in tricklers:
        t.sock.send(b"GET /healthz HTTP/1.1\r\n")
        selector.register(t.sock, selectors.EVENT_READ, t)
    probes = Probes()
    next_trickle = next_probe = time.monotonic()
    while time.monotonic() - start < hold and any(t.closed_after is None for t in tricklers):
        now = time.monotonic()
        if now >= next_trickle:
            for t in tricklers:
                if t.closed_after is None and t.sent < len(HEADER_BYTES):
                    with contextlib.suppress(OSError):
                        t.sock.send(HEADER_BYTES[t.sent : t.sent + 1])
                        t.sent += 1
            next_trickle = now + trickle
        if now >= next_probe:
            probes.run(port)
            next_probe = time.monotonic() + 1.0
        for key, _ in selector.select(timeout=0.2):
            t = key.data
            try:
                data = t.sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                t.closed_after = time.monotonic() - t.opened
                selector.unregister(t.sock)
    closed = [t.closed_after for t in tricklers if t.closed_after is not None]
    held = len(tricklers) - len(closed)
    for t in tricklers:
        t.sock.close()
    print(f"half-sent: {len(tricklers)} of {clients} connections opened, one header byte every")
    print(f"  {trickle:g} s; watched {time.monotonic() - start:.0f} s (at most {hold:g} s)")
    if closed:
        print(
            f"  closed by the server: {len(closed)}, after {statistics.median(closed):.1f} s "
            f"(median), {max(closed):.1f} s (max)"
        )
    else:
        print("  closed by the server: none")
    print(f"  still held at the end: {held}")
    print(f"  a normal client meanwhile: {probes}")


def descriptors(folder: Path, nofile: int, flood: float) -> None:
    with service(folder, nofile) as (port, log, _):
        before = log.stat().st_size
        lines_before = log.read_bytes().count(b"\n")
        socks = open_connections(port, 2 * nofile)
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.send(b"GET /healthz HTTP/1.1\r\nHo")
        during = Probes()
        deadline = time.monotonic() + flood
        while time.monotonic() < deadline:
            during.run(port)
            time.sleep(1.0)
        after = close_and_probe(socks, port)
        grown = log.stat().st_size - before
        lines = log.read_bytes().count(b"\n") - lines_before
        tracebacks = log.read_bytes()[before:].count(b"Traceback")
    print(f"descriptors: server under prlimit --nofile={nofile}; {len(socks)} connections opened")
    print(f"  and held {flood:g} s, then closed")
    print(f"  its log grew by {grown:,} bytes, {lines:,} lines, {tracebacks:,} tracebacks")
    print(f"  a normal client during the flood: {during}")
    print(f"  after the flood: {after}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def lowered(folder: Path, flood: float) -> None:
    with service(folder) as (port, log, pid):
        subprocess.run(["prlimit", "--pid", str(pid), "--nofile=48:48"], check=True)
        before = log.stat().st_size
        socks = []
        for _ in range(200):
            try:
                socks.append(socket.create_connection((HOST, port), timeout=0.5))
            except OSError:
                break
        cpu = cpu_seconds(pid)
        time.sleep(flood)
        used = cpu_seconds(pid) - cpu
        after = close_and_probe(socks, port)
        data = log.read_bytes()[before:]
    print(f"lowered: a running server's limit lowered to 48; {len(socks)} connections held")
    print(f"  {flood:g} s, then closed")
    lines, tracebacks = data.count(b"\n"), data.count(b"Traceback")
    print(
        f"  its log grew by {len(data):,} bytes, {lines:,} lines, {tracebacks:,} tracebacks; "
        f"CPU {used:.2f} s"
    )
    print(f"  after the flood: {after}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--hold", type=float, default=90.0, help="seconds to watch at most")
    parser.add_argument("--trickle", type=float, default=3.0, help="seconds between bytes")
    parser.add_argument("--nofile", type=int, default=256)
    parser.add_argument("--flood", type=float, default=20.0, help="seconds the flood lasts")
    parser.add_argument("--skip-descriptors", action="store_true")
    parser.add_argument("--ocp", type=Path, help="another `ocp` to measure (an older version)")
    args = parser.parse_args()
    global OCP
    OCP = args.ocp or OCP
    settings = {k: v for k, v in os.environ.items() if k.startswith("OCP_")}
    print(f"settings: {settings or 'defaults'}")
    with tempfile.TemporaryDirectory(prefix="ocp-slow.") as tmp:
        folder = Path(tmp)
        with service(folder) as (port, _, _):
            half_sent(port, args.clients, args.hold, args.trickle)
        if not args.skip_descriptors:
            if shutil.which("prlimit") is None:
                print("descriptors: skipped (no prlimit)")
            else:
                descriptors(folder, args.nofile, args.flood)
                lowered(folder, args.flood)


if __name__ == "__main__":
    main()
