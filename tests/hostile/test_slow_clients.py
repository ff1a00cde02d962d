"""Slow and numerous clients against a real `ocp serve` on loopback, over raw sockets: requests
whose headers never finish, idle kept-alive connections, more connections than the cap, more
than the process has file descriptors. Each test asserts what a client sees (answered, closed,
refused) and what the operator's log holds; every wait is bounded by a generous deadline, so
a regression fails instead of hanging, and nothing asserts speed."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import selectors
import socket
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config import ConfigError, Settings
from app.web.server import ACCEPT_FAILED, AcceptFailures, capacity, reserved_descriptors
from app.web.throttle import Throttle
from tests.conftest import CONFORMANCE
from tests.serve import HOST, OCP, Server, free_port, request

# `make check` leaves this out: it waits out the server's deadlines.
pytestmark = pytest.mark.slow

DEADLINE = 20.0  # seconds: only so that a regression fails rather than hangs
HALF_SENT = b"GET /healthz HTTP/1.1\r\nHost: slow.example\r\nUser-Ag"
COMPLETE = b"GET /healthz HTTP/1.1\r\nHost: slow.example\r\n\r\n"


def connect(port: int, sending: bytes = b"") -> socket.socket:
    sock = socket.create_connection((HOST, port), timeout=5)
    if sending:
        sock.sendall(sending)
    return sock


def until_closed(socks: list[socket.socket], within: float = DEADLINE) -> list[bytes | None]:
    """What the server sent on each socket before closing it; None for any still open when
    ``within`` seconds have passed."""
    selector = selectors.DefaultSelector()
    received: dict[socket.socket, bytearray] = {}
    for sock in socks:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        received[sock] = bytearray()
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + within
    while len(closed) < len(socks) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:  # reset: closed too
                data = b""
            if data:
                received[sock] += data
            else:
                closed.add(sock)
                selector.unregister(sock)
    selector.close()
    return [bytes(received[s]) if s in closed else None for s in socks]


def response_length(head: bytes) -> int:
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    raise AssertionError(f"no content-length in {head!r}")


def read_response(sock: socket.socket) -> bytes:
    """One whole response (status line, headers and Content-Length body), leaving the
    connection open."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before a whole response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    while len(body) < response_length(head):
        chunk = sock.recv(65536)
        assert chunk, f"closed before a whole body: {data!r}"
        body += chunk
    return head + b"\r\n\r\n" + body


def still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""  # data would be a response: not expected here
    except BlockingIOError:
        return True
    except OSError:
        return False


def log_since(server: Server, offset: int) -> str:
    return server.log.read_bytes()[offset:].decode(errors="replace")


def close_all(socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()


def served_eventually(port: int, within: float = DEADLINE) -> int:
    """The status of GET /healthz, asked again until it is answered."""
    deadline = time.monotonic() + within
    while True:
        try:
            return request(port, "GET", "/healthz", timeout=2.0).status
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


class LimitedServer(Server):
    """`ocp serve` started under ``prlimit --nofile=N:N`` (soft and hard limits)."""

    def __init__(self, workdir: Path, env: dict[str, str], nofile: int) -> None:
        super().__init__(workdir, env)
        self.nofile = nofile

    def spawn(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    *("prlimit", f"--nofile={self.nofile}:{self.nofile}", "--"),
                    *(str(self.executable), "serve", "--host", HOST, "--port", str(self.port)),
                ],
                cwd=self.workdir,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1


def settings_env(workdir: Path, **settings: str) -> dict[str, str]:
    return {"OCP_DATABASE_URL": str(workdir / "ocp.sqlite3"), **settings}


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Headers within 1 s, bodies within 1 s, idle kept-alive connections closed after 1 s."""
    workdir = tmp_path_factory.mktemp("slow-clients")
    env = settings_env(
        workdir,
        OCP_HEADER_TIMEOUT_SECONDS="1",
        OCP_KEEP_ALIVE_SECONDS="1",
        OCP_BODY_TIMEOUT_SECONDS="1",
    )
    with Server(workdir, env) as server:
        yield server


# -- the header deadline ---------------------------------------------------------------------


def test_a_stalled_request_is_answered_408_and_closed_while_others_are_served(
    quick: Server,
) -> None:
    stalled = connect(quick.port, b"GET /healthz HT")
    # Served meanwhile, on a connection of its own.
    assert request(quick.port, "GET", "/healthz").status == 200
    (answer,) = until_closed([stalled])
    assert answer is not None, "a stalled request line was held past the deadline"
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"connection: close" in answer.lower()
    stalled.close()


def test_headers_trickled_a_byte_at_a_time_do_not_extend_the_deadline(quick: Server) -> None:
    sock = connect(quick.port, b"GET /healthz HTTP/1.1\r\n")
    header = b"X-Trickle: " + b"a" * 10_000
    closed_while_sending = False
    deadline = time.monotonic() + DEADLINE
    for byte in header:
        if time.monotonic() > deadline:
            break
        try:
            sock.send(bytes([byte]))
        except OSError:
            closed_while_sending = True
            break
        if not still_open(sock):
            closed_while_sending = True
            break
        sock.setblocking(True)
        time.sleep(0.1)
    sock.close()
    assert closed_while_sending, "a connection trickling its headers was held past the deadline"


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(quick: Server) -> None:
    silent = connect(quick.port)
    assert until_closed([silent]) == [b""]
    silent.close()


def test_three_hundred_half_sent_requests_neither_block_a_client_nor_stay_open(
    quick: Server,
) -> None:
    half_sent = [connect(quick.port, HALF_SENT) for _ in range(300)]
    try:
        assert request(quick.port, "GET", "/healthz").status == 200
        answers = until_closed(half_sent)
    finally:
        close_all(half_sent)
    held = sum(answer is None for answer in answers)
    assert held == 0, f"{held} of 300 half-sent requests still open after {DEADLINE:g} s"
    assert all(answer and answer.startswith(b"HTTP/1.1 408 ") for answer in answers)
    assert request(quick.port, "GET", "/healthz").status == 200


# -- kept-alive connections ------------------------------------------------------------------


def test_an_idle_kept_alive_connection_is_closed(quick: Server) -> None:
    sock = connect(quick.port, COMPLETE)
    assert read_response(sock).startswith(b"HTTP/1.1 200 ")
    assert until_closed([sock]) == [b""], "an idle kept-alive connection stayed open"
    sock.close()


def test_the_next_request_on_a_kept_alive_connection_has_the_deadline_too(
    quick: Server,
) -> None:
    sock = connect(quick.port, COMPLETE)
    assert read_response(sock).startswith(b"HTTP/1.1 200 ")
    sock.sendall(HALF_SENT)  # the second request never finishes its headers
    (answer,) = until_closed([sock])
    assert answer is not None and answer.startswith(b"HTTP/1.1 408 ")
    sock.close()


def test_a_body_left_unread_and_trickled_after_the_answer_does_not_keep_the_connection(
    quick: Server,
) -> None:
    # /healthz answers without reading the body; the client goes on sending it, a byte at a time.
    sock = connect(quick.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n")
    sock.settimeout(0.2)
    received = b""
    closed = False
    deadline = time.monotonic() + DEADLINE
    while not closed and time.monotonic() < deadline:
        try:
            sock.send(b"a")
            chunk = sock.recv(65536)
            closed = chunk == b""
            received += chunk
        except TimeoutError:
            continue
        except OSError:
            closed = True
    sock.close()
    assert received.startswith(b"HTTP/1.1 200 ")
    assert closed, "a body trickled after the answer held the connection"


def test_a_pipelined_partial_request_has_the_deadline(quick: Server) -> None:
    sock = connect(quick.port, COMPLETE + HALF_SENT)
    (answer,) = until_closed([sock])
    assert answer is not None
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert b"HTTP/1.1 408 " in answer
    sock.close()


def test_a_kept_alive_client_is_served_again(quick: Server) -> None:
    sock = connect(quick.port, COMPLETE)
    try:
        assert read_response(sock).startswith(b"HTTP/1.1 200 ")
        sock.sendall(COMPLETE)
        assert read_response(sock).startswith(b"HTTP/1.1 200 ")
    finally:
        sock.close()


# -- answers left unread ---------------------------------------------------------------------


def server_side_state(server_port: int, client_port: int) -> str | None:
    """The TCP state (hex, as /proc/net/tcp has it: 01 established) of the server's end of a
    loopback connection; None once the kernel has forgotten it."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state = fields[1], fields[2], fields[3]
        if int(local.split(":")[1], 16) == server_port and (
            int(remote.split(":")[1], 16) == client_port
        ):
            return state
    return None


def test_an_answer_left_unread_is_cut_off(tmp_path: Path) -> None:
    env = settings_env(tmp_path, OCP_SEND_TIMEOUT_SECONDS="1")
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    document["task"]["objective"] = "word\n" * 400_000  # a JSON twin of about 5 MB
    form = urllib.parse.urlencode({"checkpoint": json.dumps(document, indent=2)}).encode()
    with Server(tmp_path, env) as server:
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a window kept shut
        reader.connect((HOST, server.port))
        reader.sendall(
            b"POST /view.json HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {len(form)}\r\n\r\n".encode()
            + form
        )
        client_port = reader.getsockname()[1]
        deadline = time.monotonic() + DEADLINE
        while server_side_state(server.port, client_port) == "01":
            assert time.monotonic() < deadline, "an unread answer held its connection"
            assert request(server.port, "GET", "/healthz").status == 200
            time.sleep(0.2)
        # What the server had not yet handed to the kernel was dropped with the connection.
        reader.settimeout(DEADLINE)
        answer = b""
        while chunk := reader.recv(1 << 20):
            answer += chunk
        reader.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ")
    assert len(body) < response_length(head)


# -- the connection cap ----------------------------------------------------------------------


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[Server]:
    """At most 20 connections; headers and bodies may take a minute, so any connection closed
    within a test's deadline was closed by the cap."""
    env = settings_env(
        tmp_path,
        OCP_MAX_CONNECTIONS="20",
        OCP_HEADER_TIMEOUT_SECONDS="60",
        OCP_BODY_TIMEOUT_SECONDS="60",
        OCP_KEEP_ALIVE_SECONDS="60",
    )
    with Server(tmp_path, env) as server:
        yield server


def test_at_the_cap_the_oldest_half_sent_connections_give_way(capped: Server) -> None:
    half_sent = [connect(capped.port, HALF_SENT) for _ in range(50)]
    try:
        # Each connection past the 20th made room by closing the oldest still sending headers.
        oldest = until_closed(half_sent[:30])
        assert oldest == [b""] * 30, "connections past the cap were kept open"
        assert all(still_open(sock) for sock in half_sent[30:])
        assert request(capped.port, "GET", "/healthz").status == 200
    finally:
        close_all(half_sent)


def busy_with_a_request(port: int) -> socket.socket:
    """A connection whose request's headers are in and whose body the application is waiting
    for (uvicorn says 100 Continue once the application reads the body)."""
    sock = connect(
        port,
        b"POST /api/v1/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n",
    )
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"closed instead of reading the body: {data!r}"
        data += chunk
    assert data.startswith(b"HTTP/1.1 100 "), data
    sock.sendall(b"{")
    return sock


def test_at_the_cap_with_every_connection_busy_a_new_one_gets_503(capped: Server) -> None:
    offset = capped.log.stat().st_size
    busy: list[socket.socket] = []
    refused: list[socket.socket] = []
    try:
        busy = [busy_with_a_request(capped.port) for _ in range(20)]
        refused = [connect(capped.port) for _ in range(30)]
        answers = until_closed(refused)
        assert all(a is not None and a.startswith(b"HTTP/1.1 503 ") for a in answers), answers
        assert b"retry-after: 1" in (answers[0] or b"").lower()
        assert all(still_open(sock) for sock in busy)
        for sock in busy:  # the rest of each body: every busy request is answered
            sock.setblocking(True)
            sock.sendall(b" " * 98 + b"}")
            assert read_response(sock).startswith(b"HTTP/1.1 ")
    finally:
        close_all(busy + refused)
    assert served_eventually(capped.port) == 200
    log = log_since(capped, offset)
    # One line for 30 refusals (and a count of the rest when the interval ends), no traceback.
    assert log.count("Connection limit (20) reached") == 1, log
    assert "Traceback" not in log


# -- file descriptors ------------------------------------------------------------------------


def test_more_connections_than_descriptors_under_a_low_limit(tmp_path: Path) -> None:
    server = LimitedServer(tmp_path, settings_env(tmp_path, OCP_HEADER_TIMEOUT_SECONDS="1"), 128)
    with server:
        start = server.log.read_text()
        assert "Connections: at most " in start
        cap = int(start.split("Connections: at most ")[1].split()[0].replace(",", ""))
        assert 0 < cap < 128 - reserved_descriptors(Settings().store_pool_size)
        offset = server.log.stat().st_size
        flood = [connect(server.port, HALF_SENT) for _ in range(300)]
        try:
            # The newest connection takes the place of the oldest half-sent one.
            assert request(server.port, "GET", "/healthz").status == 200
        finally:
            close_all(flood)
        assert served_eventually(server.port) == 200
        log = log_since(server, offset)
    assert "Traceback" not in log and "Too many open files" not in log, log[:3000]
    assert len(log.splitlines()) < 50


def test_descriptors_running_out_under_a_running_server(tmp_path: Path) -> None:
    """The limit lowered under the running process, below what its cap assumed: accept()
    fails, the log says so in a line or two rather than a traceback per attempt, and the
    service accepts again once the descriptors are back."""
    env = settings_env(tmp_path, OCP_HEADER_TIMEOUT_SECONDS="30")
    with Server(tmp_path, env) as server:
        assert server.proc is not None
        offset = server.log.stat().st_size
        subprocess.run(
            ["prlimit", "--pid", str(server.proc.pid), "--nofile=48:48"], check=True, timeout=10
        )
        flood: list[socket.socket] = []
        for _ in range(150):
            try:  # past the listen queue a connection attempt times out: that is the point
                flood.append(socket.create_connection((HOST, server.port), timeout=0.5))
            except OSError:
                break
        try:
            time.sleep(3)  # not a measurement: three of asyncio's one-second accept retries
            assert server.running()
        finally:
            close_all(flood)
        assert served_eventually(server.port) == 200
        log = log_since(server, offset)
    assert "Cannot accept connections: Too many open files (EMFILE)" in log, log[:3000]
    assert "Traceback" not in log, log[:3000]
    assert len(log.splitlines()) < 50, log[:3000]


# -- settings --------------------------------------------------------------------------------


def serve_refusing(env: dict[str, str], *prefix: str) -> subprocess.CompletedProcess[str]:
    """`ocp serve` with settings it must refuse (exit status 2 before it listens)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("OCP_")}
    return subprocess.run(
        [*prefix, str(OCP), "serve", "--host", HOST, "--port", str(free_port())],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("OCP_HEADER_TIMEOUT_SECONDS", "0"),
        ("OCP_HEADER_TIMEOUT_SECONDS", "nan"),
        ("OCP_KEEP_ALIVE_SECONDS", "0"),
        ("OCP_SEND_TIMEOUT_SECONDS", "-1"),
        ("OCP_MAX_CONNECTIONS", "0"),
        ("OCP_MAX_CONNECTIONS", "many"),
    ],
)
def test_a_bad_setting_is_a_clear_error(name: str, value: str) -> None:
    done = serve_refusing({name: value})
    assert done.returncode == 2
    assert name in done.stderr and "Traceback" not in done.stderr


def test_more_connections_than_descriptors_allow_is_refused_at_start() -> None:
    done = serve_refusing({"OCP_MAX_CONNECTIONS": "5000"}, "prlimit", "--nofile=256:256", "--")
    assert done.returncode == 2
    assert "OCP_MAX_CONNECTIONS is 5,000, but with 256 file descriptors" in done.stderr
    assert "Traceback" not in done.stderr


def test_capacity_keeps_room_for_the_store_and_the_accept_batches() -> None:
    settings = Settings()
    assert capacity(settings, 65536).max_connections == 1000
    small = capacity(settings, 256)
    spare = 256 - reserved_descriptors(settings.store_pool_size)
    assert small.max_connections + 3 * small.accept_batch <= spare
    with pytest.raises(ConfigError, match="ulimit -n"):
        capacity(settings, 40)
    assert capacity(Settings(max_connections=20), 256).max_connections == 20


# -- the accept-failure log ------------------------------------------------------------------


def test_accept_failures_are_one_line_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    handler = AcceptFailures(Throttle(logging.getLogger("test.accept"), interval=0.05))
    failure = OSError(errno.EMFILE, "Too many open files")
    try:
        with caplog.at_level(logging.WARNING, logger="test.accept"):
            for _ in range(1000):
                handler(loop, {"message": ACCEPT_FAILED, "exception": failure})
            first = [r.getMessage() for r in caplog.records]
            # past the interval: the count. On a thread of its own: a browser test before
            # this one may leave an event loop running in this thread.
            runner = threading.Thread(target=loop.run_until_complete, args=(asyncio.sleep(0.2),))
            runner.start()
            runner.join(10)
            lines = [r.getMessage() for r in caplog.records]
    finally:
        loop.close()
    assert first == [
        "Cannot accept connections: Too many open files (EMFILE); new ones wait in the listen "
        "queue, tried again every second"
    ]
    assert lines[1:] == [
        "accept() failed 999 more times in the last 0.05 s: Too many open files (EMFILE)"
    ]
    assert all(r.exc_info is None for r in caplog.records)


def test_other_loop_errors_keep_their_traceback(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    handler = AcceptFailures(Throttle(logging.getLogger("test.accept")))
    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            handler(
                loop, {"message": "Task exception was never retrieved", "exception": KeyError(1)}
            )
            handler(loop, {"message": ACCEPT_FAILED, "exception": OSError(errno.EBADF, "bad")})
    finally:
        loop.close()
    messages = [r.getMessage() for r in caplog.records if r.name == "asyncio"]
    assert messages[0].startswith("Task exception was never retrieved")
    assert messages[1].startswith(ACCEPT_FAILED)
    assert all(r.exc_info for r in caplog.records if r.name == "asyncio")
