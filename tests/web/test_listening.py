"""The listening socket `ocp serve` accepts on (app/web/server.py)."""

from __future__ import annotations

import socket

from app.web.server import ListeningSocket


def test_an_accepted_connection_sends_without_waiting_for_acknowledgements():
    """Nagle's algorithm off (TCP_NODELAY): with it on, the last part of every answer on a
    kept-alive connection waited for the client's delayed acknowledgement, 40 ms a request
    (bench/render.py prints the time to first byte)."""
    plain = socket.create_server(("127.0.0.1", 0))  # protocol 0, as uvicorn binds it
    listening = ListeningSocket.taking_over(plain)
    with listening, socket.create_connection(listening.getsockname()) as client:
        connection, _ = listening.accept()
        with connection:
            assert connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            client.sendall(b"ping")
            assert connection.recv(4) == b"ping"
