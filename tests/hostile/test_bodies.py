"""Hostile request bodies against a real uvicorn process on loopback: huge, endless, slow,
compressed, or multipart with thousands of parts — each refused at its limit with the right
status, while the server's memory stays flat."""

import gzip
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

OCP = Path(sys.executable).parent / "ocp"
MAX_BYTES = 256 * 1024  # the form limit is then 2 × this + 64 KiB


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    folder = tempfile.mkdtemp(prefix="ocp-hostile-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    env.update(
        OCP_DATABASE_URL=os.path.join(folder, "db.sqlite3"),
        OCP_MAX_BYTES=str(MAX_BYTES),
        OCP_BODY_TIMEOUT_SECONDS="2",
    )
    process = subprocess.Popen(
        [str(OCP), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    pytest.fail("the server did not start")
                time.sleep(0.1)
        yield port, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def peak_memory_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def exchange(port: int, head: bytes, body_chunks, *, pause: float = 0.0, timeout: float = 15):
    """Send a raw request (headers, then body chunks with a pause between them) and return the
    response status, reading what the server answers even if it stops reading us."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head)
        try:
            for chunk in body_chunks:
                sock.sendall(chunk)
                if pause:
                    time.sleep(pause)
        except OSError:
            pass  # the server answered and closed while we were still sending
        sock.settimeout(timeout)
        response = b""
        try:
            while b"\r\n" not in response:
                data = sock.recv(4096)
                if not data:
                    break
                response += data
        except OSError:
            pass
    assert response, "no response"
    return int(response.split(b" ", 2)[1])


def head(path: str, *extra: str, content_type: str = "application/json") -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Type: {content_type}", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def chunked(chunks):
    for chunk in chunks:
        yield f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"


def test_huge_declared_body_is_refused_at_once(server):
    port, _ = server
    start = time.monotonic()
    status = exchange(port, head("/api/v1/lint", "Content-Length: 10000000000"), [])
    assert status == 413
    assert time.monotonic() - start < 5


def test_endless_body_is_refused_at_its_limit(server):
    port, _ = server
    endless = chunked(b"x" * 65536 for _ in range(10_000))  # 640 MB if it were all read
    start = time.monotonic()
    status = exchange(port, head("/api/v1/lint", "Transfer-Encoding: chunked"), endless)
    assert status == 413
    assert time.monotonic() - start < 10


def test_slow_body_gets_408_after_the_body_timeout(server):
    port, _ = server
    start = time.monotonic()
    status = exchange(
        port, head("/api/v1/lint", "Content-Length: 100"), (b"{" for _ in range(100)), pause=0.5
    )
    elapsed = time.monotonic() - start
    assert status == 408
    assert 1.5 < elapsed < 10


def test_compressed_body_is_refused(server):
    port, _ = server
    bomb = gzip.compress(b"[" * 10_000_000)
    status = exchange(
        port,
        head("/api/v1/lint", f"Content-Length: {len(bomb)}", "Content-Encoding: gzip"),
        [bomb],
    )
    assert status == 415


def test_multipart_with_thousands_of_parts_is_refused(server):
    port, _ = server
    parts = (
        b"".join(
            b'--b\r\nContent-Disposition: form-data; name="f%d"\r\n\r\nx\r\n' % i
            for i in range(5000)
        )
        + b"--b--\r\n"
    )
    status = exchange(
        port,
        head(
            "/view", f"Content-Length: {len(parts)}", content_type="multipart/form-data; boundary=b"
        ),
        [parts],
    )
    assert status == 400


def test_memory_stays_flat_under_repeated_oversized_bodies(server):
    port, pid = server
    exchange(
        port,
        head("/api/v1/lint", "Transfer-Encoding: chunked"),
        chunked(b"x" * 65536 for _ in range(100)),
    )
    before = peak_memory_kib(pid)
    for _ in range(10):
        exchange(
            port,
            head("/api/v1/lint", "Transfer-Encoding: chunked"),
            chunked(b"x" * 65536 for _ in range(2000)),
        )
    after = peak_memory_kib(pid)
    # 10 × 128 MB offered; the peak grows by no more than a few request buffers
    assert after - before < 32 * 1024, (before, after)


def test_deep_nesting_over_http_is_a_json_finding_not_a_crash(server):
    port, _ = server
    body = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/lint",
        data=body,
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        report = json.loads(response.read())
    [finding] = report["results"][0]["findings"]
    assert finding["code"] == "json" and "nesting deeper than 64" in finding["message"]
