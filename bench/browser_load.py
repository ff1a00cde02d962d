"""How long Chromium takes to load and first paint the stored page of the worst documents.

    .venv/bin/python bench/browser_load.py [--size 2.2MB] [--cases long-strings,benign]

Starts a real `ocp serve` on a free port (a throwaway SQLite store), stores each document through
the API, and opens its permalink in Debian's Chromium (/usr/bin/chromium) at 1280x900: the
time to the load event, to the first two animation frames after it, and to a frame after a
scroll, each the median of three loads, with the page's bytes and height. Issue 11 measured a
2.2 MB checkpoint with a 20,000-character run in every field taking 52 s to load. A benchmark
that prints figures, never a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.worst_cases import BASELINES, CASES, grow  # noqa: E402
from tests.serve import free_port  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _size(text: str) -> int:
    units = {"KB": 1000, "MB": 1000_000}
    for unit, factor in units.items():
        if text.upper().endswith(unit):
            return int(float(text[: -len(unit)]) * factor)
    return int(text)


def _serve(store: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "OCP_DATABASE_URL": str(store)}
    ocp = Path(sys.executable).parent / "ocp"
    server = subprocess.Popen(
        [str(ocp), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{base}/healthz", timeout=1)
            return server, base
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("ocp serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="2.2MB")
    parser.add_argument("--cases", default="benign,long-strings,unicode-heavy,deep-nesting")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    target = _size(args.size)
    known = {**BASELINES, **CASES}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        server, base = _serve(Path(folder) / "bench.sqlite3")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            print(
                f"{'case':<16} {'doc':>9} {'page':>10} {'load s':>7} {'frames s':>9} "
                f"{'scroll s':>9} {'height px':>10}"
            )
            for name in args.cases.split(","):
                _, data = grow(known[name].build, target)
                stored = httpx.post(
                    f"{base}/api/v1/checkpoints",
                    content=data,
                    headers={"content-type": "application/json"},
                    timeout=300,
                )
                if stored.status_code != 201:
                    print(f"{name:<16} not stored: {stored.status_code} {stored.text[:120]}")
                    continue
                link = stored.json()["permalink"]
                page_bytes = len(httpx.get(link, timeout=300).content)
                loads, frames, scrolls, height = [], [], [], 0
                for _ in range(3):
                    page = browser.new_page(viewport={"width": 1280, "height": 900})
                    start = time.perf_counter()
                    page.goto(link, wait_until="load", timeout=600_000)
                    loads.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    page.evaluate(FRAMES)
                    frames.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    page.mouse.wheel(0, 20_000)
                    page.evaluate(FRAMES)
                    scrolls.append(time.perf_counter() - start)
                    height = page.evaluate("document.documentElement.scrollHeight")
                    page.close()
                print(
                    f"{name:<16} {len(data):>9,} {page_bytes:>10,} "
                    f"{statistics.median(loads):>7.2f} {statistics.median(frames):>9.2f} "
                    f"{statistics.median(scrolls):>9.2f} {height:>10,}"
                )
        finally:
            browser.close()
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
