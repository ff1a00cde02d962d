"""A real `ocp serve` for the tests that use the service as its users do: the fault tests
(killed mid-upload, its database stopped under it), the installed-wheel test and the crawl.

The helpers here start and stop the service as a separate process on a loopback port, with no
settings but those a test gives, talk to it over plain HTTP with short timeouts, and make
distinct small valid checkpoints from the conformance set (tests/data/conformance). Every
wait is bounded.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import CONFORMANCE

# The console script installed next to the interpreter running the tests (the venv's bin).
OCP = Path(sys.executable).parent / "ocp"
HOST = "127.0.0.1"
START_TIMEOUT = 30.0  # seconds for `ocp serve` to answer /healthz
STOP_TIMEOUT = 10.0
TEXT = (
    "summarise the planning notes check the figures against the spreadsheet and write the "
    "handoff for the next reviewer before the meeting on thursday"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Reply:
    status: int
    headers: Mapping[str, str]  # lower-cased names
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 5.0,
) -> Reply:
    """One request on a fresh connection. A dead or absent server raises OSError (connection
    refused or reset, timeout) or http.client.HTTPException (a response cut short)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        response = conn.getresponse()
        data = response.read()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
    finally:
        conn.close()


TRANSPORT_ERRORS = (OSError, http.client.HTTPException)

JSON = {"content-type": "application/json"}


def upload(port: int, data: bytes, timeout: float = 5.0) -> Reply:
    return request(port, "POST", "/api/v1/checkpoints", data, JSON, timeout)


def checkpoint_bytes(number: int, tag: str, words: int = 0) -> bytes:
    """valid-minimal.ocp.json with a unique id and some text: small, valid, and distinct."""
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    doc["id"] = f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'ocp-fault/{tag}/{number}')}"
    vocabulary = TEXT.split()
    text = " ".join(vocabulary[i % len(vocabulary)] for i in range(number, number + words))
    doc["task"]["objective"] = f"Upload {number} of {tag}: {text}".strip()
    return json.dumps(doc, indent=2, ensure_ascii=False).encode()


class Server:
    """`ocp serve` in a process of its own, restartable on the same port and database."""

    def __init__(
        self,
        workdir: Path,
        env: Mapping[str, str],
        port: int | None = None,
        *,
        executable: Path = OCP,
    ) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.executable = executable
        self.log = workdir / f"server-{self.port}.log"
        # No OCP_* setting of the test runner's own: only what the test gives.
        base = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
        self.env = {**base, "PYTHONUNBUFFERED": "1", **env}
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def spawn(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        with self.log.open("ab") as log:
            log.write(f"--- start {self.starts + 1} ---\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                [str(self.executable), "serve", "--host", HOST, "--port", str(self.port)],
                cwd=self.workdir,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # signals meant for the test runner never reach it
            )
        self.starts += 1

    def start(self, timeout: float = START_TIMEOUT) -> float:
        """Spawn and wait until /healthz answers 200; return how long that took."""
        started = time.monotonic()
        self.spawn()
        self.wait_ready(timeout, started)
        return time.monotonic() - started

    def wait_ready(self, timeout: float = START_TIMEOUT, since: float | None = None) -> None:
        deadline = (since or time.monotonic()) + timeout
        while True:
            assert self.proc is not None
            code = self.proc.poll()
            if code is not None:
                raise AssertionError(
                    f"`ocp serve` exited with status {code} before it answered:\n{self.tail()}"
                )
            try:
                if request(self.port, "GET", "/healthz", timeout=1.0).status == 200:
                    return
            except TRANSPORT_ERRORS:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"`ocp serve` did not answer in {timeout} s:\n{self.tail()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no lifespan exit."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=STOP_TIMEOUT)

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful shutdown), SIGKILL if it takes too long."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self, lines: int = 60) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = [
    "HOST",
    "JSON",
    "OCP",
    "TRANSPORT_ERRORS",
    "Reply",
    "Server",
    "checkpoint_bytes",
    "free_port",
    "request",
    "upload",
]
