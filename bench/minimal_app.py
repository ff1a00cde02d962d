"""The ceiling of this stack on this machine: a minimal Starlette app on the same server.

    .venv/bin/python bench/minimal_app.py [--host HOST] [--port PORT]

Served exactly as `ocp serve` serves the real app (`uvicorn.run(app, host=…, port=…,
proxy_headers=False)`, one process, the same event loop and HTTP implementation, access log
on), so the difference between the two is the application's own work. Routes:

- `GET /` a small plain-text response (the ceiling the load targets compare against);
- `GET /page` a fixed HTML body of `OCP_BENCH_PAGE_BYTES` bytes (default 0: the route is
  off), for telling the cost of moving a large page through the server from the cost of
  producing it;
- `GET /healthz` for the harness to know it is up.
"""

from __future__ import annotations

import argparse
import os

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

PAGE = b"<!doctype html>" + b"x" * max(0, int(os.environ.get("OCP_BENCH_PAGE_BYTES", "0")) - 15)


async def hello(request: Request) -> Response:
    return PlainTextResponse("ok")


async def page(request: Request) -> Response:
    return HTMLResponse(PAGE)


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


app = Starlette(
    routes=[Route("/", hello), Route("/page", page), Route("/healthz", healthz)],
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    uvicorn.run(app, host=args.host, port=args.port, proxy_headers=False)


if __name__ == "__main__":
    main()
