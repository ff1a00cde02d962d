"""Page render time beside lint time, on the generated 5 KB, 200 KB and 2 MB checkpoints.

    .venv/bin/python bench/render.py

For each size: the median time of the full lint, of building the render model (app/render.py),
of the templates, and of the whole page (model + templates), with the page's size. The target
of issue 3: rendering costs no more than the lint does. A benchmark, never a test.

Two lints are beside the page: the lint as shipped, whose schema stage runs jsonschema-rs (the
lint speed target of issue 2 needs it), and the same lint with the schema checked by the Python
`jsonschema` validator the stack names (app/schema.py keeps it as the reference implementation).

Time to first byte beside them: a real `ocp serve` on a free port (a throwaway SQLite store),
asked for the page three ways, each with gzip accepted, as a browser asks: the unsaved page
(the document posted to /view: lint, page and gzip every time), a permalink's first request
(its page rendered and cached) and the same permalink again (served from the page cache).

And a floor: the least any page showing the document could cost in Python. Every value once,
escaped, in nested lists, then the numbered source lines; no render model, no grouping, no
links between objects, no advice, no checklist, no template engine. "page ÷ floor" is the
median ratio of a page (model and templates) to the floor run right after it. The page lists at
most PAGE_LIST_LIMIT items of each list and, past 3,000 lines, the head of the source and the
lines around findings, where the floor shows everything: the same page with every list whole is
printed beside it, for the 5 KB and 200 KB documents.
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from lint import SIZES, generate  # noqa: E402

import app.analysis  # noqa: E402
from app import schema  # noqa: E402
from app.analysis import lint  # noqa: E402
from app.render import build_view  # noqa: E402
from app.web.pages import PAGE_LIST_LIMIT, page_from_view  # noqa: E402
from tests.serve import Server  # noqa: E402


def median(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def paired_ratio(first: Callable[[], object], second: Callable[[], object], runs: int) -> float:
    """The median, over ``runs`` pairs, of one run of ``first`` divided by the run of
    ``second`` right after it."""
    ratios = []
    for _ in range(runs):
        start = time.perf_counter()
        first()
        middle = time.perf_counter()
        second()
        ratios.append((middle - start) / (time.perf_counter() - middle))
    return statistics.median(ratios)


def reference_lint(data: bytes) -> object:
    """The lint with its schema stage run by the Python `jsonschema` validator."""
    shipped = app.analysis.check_level_one

    def reference(document: object, size: int) -> schema.SchemaCheck:
        # every finding, as the reference validator lists them (no window, no screen)
        return schema.SchemaCheck(schema.check_schema_reference(document))

    app.analysis.check_level_one = reference
    try:
        return lint(data)
    finally:
        app.analysis.check_level_one = shipped


def floor_page(document: object, text: str) -> str:
    out: list[str] = []

    def value(node: object) -> None:
        if isinstance(node, dict):
            out.append("<dl>")
            for key, item in node.items():
                out.append(f"<dt>{escape(key)}</dt><dd>")
                value(item)
                out.append("</dd>")
            out.append("</dl>")
        elif isinstance(node, list):
            out.append("<ol>")
            for item in node:
                out.append("<li>")
                value(item)
                out.append("</li>")
            out.append("</ol>")
        elif isinstance(node, str):
            out.append(f"<span>{escape(node)}</span>")
        else:
            out.append(f"<code>{json.dumps(node)}</code>")

    value(document)
    lines = escape(text).split("\n")
    out.extend(
        f'<li id="L{n}"><a href="#L{n}">{n}</a><code>{line}</code></li>'
        for n, line in enumerate(lines, start=1)
    )
    return "".join(out)


def first_byte(client: httpx.Client, method: str, url: str, **sent: object) -> float:
    """Seconds from sending the request to the first byte of the body."""
    start = time.perf_counter()
    with client.stream(method, url, **sent) as response:  # type: ignore[arg-type]
        chunks = response.iter_raw()
        next(chunks)
        elapsed = time.perf_counter() - start
        if response.status_code not in (200, 201):
            raise SystemExit(f"{method} {url} answered {response.status_code}")
        for _ in chunks:  # the rest of the body, before the next request on the connection
            pass
    return elapsed


def served_first_bytes(documents: dict[str, bytes]) -> dict[str, tuple[float, float, float]]:
    """label -> the median time to first byte of the unsaved page, of a permalink's first
    request and of a repeated one, from a real `ocp serve` (tests/serve.py starts it)."""
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        settings = {
            "OCP_DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            "OCP_WRITE_RATE": "0",  # the bench stores a checkpoint per run
        }
        with (
            Server(Path(folder), settings) as server,
            httpx.Client(headers={"accept-encoding": "gzip"}, timeout=120) as client,
        ):
            base = server.base
            for label, data in documents.items():
                runs = 3 if len(data) > 1_000_000 else 11
                files = {"checkpoint_file": ("bench.ocp.json", data, "application/json")}
                unsaved = statistics.median(
                    first_byte(client, "POST", f"{base}/view", files=files) for _ in range(runs)
                )
                colds, warms = [], []
                for _ in range(runs):
                    # a new permalink per run: each document stored again is a new checkpoint
                    copy = json.loads(data)
                    copy["id"] = f"urn:uuid:019a8000-0000-7000-8000-{len(colds):012x}"
                    stored = client.post(
                        f"{base}/api/v1/checkpoints",
                        content=json.dumps(copy, indent=2).encode(),
                        headers={"content-type": "application/json"},
                    )
                    if stored.status_code != 201:
                        raise SystemExit(f"not stored: {stored.status_code} {stored.text[:200]}")
                    link = stored.json()["permalink"]
                    colds.append(first_byte(client, "GET", link))
                    warms.append(first_byte(client, "GET", link))
                out[label] = (unsaved, statistics.median(colds), statistics.median(warms))
    return out


def fixed_costs(data: bytes) -> list[tuple[str, float]]:
    """What a page costs whatever the document holds, as paired ratios to the floor of
    ``data``: the render model of ``data`` alone (no HTML at all), and the whole page of a
    checkpoint with one statement (bench/worst_cases.py's skeleton)."""
    from worst_cases import dump, skeleton

    result, tiny = lint(data), lint(dump(skeleton("bench/render.py")))
    document, text = json.loads(data), data.decode()
    now = datetime.now(UTC)

    def floor() -> object:
        return floor_page(document, text)

    def model() -> object:
        return build_view(result, now=now, list_limit=PAGE_LIST_LIMIT)

    def tiny_page() -> object:
        return page_from_view("bench", build_view(tiny, now=now, list_limit=PAGE_LIST_LIMIT), tiny)

    return [
        ("its render model alone", paired_ratio(model, floor, 101)),
        (
            f"the whole page of a {len(tiny.data)}-byte checkpoint",
            paired_ratio(tiny_page, floor, 101),
        ),
    ]


def main() -> None:
    print(
        f"{'size':>7} {'bytes':>9} {'lint ms':>8} {'model ms':>9} {'templates ms':>12} "
        f"{'page ms':>8} {'page ÷ lint':>10} {'HTML KB':>8} {'ref. lint ms':>12} "
        f"{'page ÷ ref.':>11} {'floor ms':>9} {'floor ÷ lint':>12} {'page ÷ floor':>12} "
        f"{'HTML ÷ doc':>10} {'gzip KB':>8}"
    )
    verdicts = []
    weights = []
    documents: dict[str, bytes] = {}
    pages: dict[str, float] = {}
    for label, size in SIZES.items():
        data = documents[label] = generate(size)
        runs = 7 if size > 1_000_000 else 21 if size > 100_000 else 51
        now = datetime.now(UTC)
        lint_s, result = median(lambda d=data: lint(d), runs)
        # the model as the page builds it: at most PAGE_LIST_LIMIT items per long list
        model_s, view = median(
            lambda r=result, t=now: build_view(r, now=t, list_limit=PAGE_LIST_LIMIT), runs
        )
        tmpl_s, html = median(
            lambda v=view, r=result: page_from_view("bench", v, r),
            runs,
        )
        ref_s, _ = median(lambda d=data: reference_lint(d), 3)
        document, text = json.loads(data), data.decode()
        floor_s, _ = median(lambda d=document, t=text: floor_page(d, t), runs)
        page = pages[label] = model_s + tmpl_s
        # page ÷ floor: the median of each page's ratio to the floor run right after it (this
        # machine moves between a fast and a slow state, the same run 1.6× slower for a while,
        # and a ratio of medians taken minutes apart is off by that much)
        over_floor = paired_ratio(
            lambda r=result, t=now: page_from_view(
                "bench", build_view(r, now=t, list_limit=PAGE_LIST_LIMIT), r
            ),
            lambda d=document, t=text: floor_page(d, t),
            runs,
        )
        verdicts.append((label, page / lint_s, page / ref_s))
        body = html.encode()
        weight = len(body) / len(data)
        # as sent to a browser that accepts gzip (app/web/compression.py: level 6)
        sent = len(gzip.compress(body, compresslevel=6, mtime=0))
        weights.append((label, size, over_floor, weight))
        print(
            f"{label:>7} {len(data):>9,} {lint_s * 1000:>8.2f} {model_s * 1000:>9.2f} "
            f"{tmpl_s * 1000:>12.2f} {page * 1000:>8.2f} {page / lint_s:>10.2f} "
            f"{len(body) / 1000:>8.0f} {ref_s * 1000:>12.1f} {page / ref_s:>11.2f} "
            f"{floor_s * 1000:>9.2f} {floor_s / lint_s:>12.2f} {over_floor:>12.2f} "
            f"{weight:>10.2f} {sent / 1000:>8.0f}"
        )
    print(
        "\ntime to first byte from `ocp serve`, gzip accepted (median ms): the unsaved page "
        "(POST /view), a permalink's first request, the same permalink again (its cached page)"
    )
    print(f"{'size':>7} {'page ms':>8} {'/view ms':>9} {'permalink ms':>13} {'cached ms':>10}")
    for label, (unsaved, cold, warm) in served_first_bytes(documents).items():
        print(
            f"{label:>7} {pages[label] * 1000:>8.2f} {unsaved * 1000:>9.2f} {cold * 1000:>13.2f} "
            f"{warm * 1000:>10.2f}"
        )
    print("\ntarget: the page costs no more than the lint (page ÷ lint ≤ 1)")
    for label, ratio, ref_ratio in verdicts:
        print(
            f"  [{'met' if ratio <= 1 else 'MISSED'}] {label}: {ratio:.2f}× the lint as shipped; "
            f"[{'met' if ref_ratio <= 1 else 'MISSED'}] {ref_ratio:.2f}× the lint with the "
            "Python jsonschema validator"
        )

    small = documents[next(iter(SIZES))]
    print(f"\nthe fixed part of a page, against the floor of the {next(iter(SIZES))} document:")
    for what, ratio in fixed_costs(small):
        print(f"  {what}: {ratio:.2f}×")
    # At 200 KB and 2 MB the page lists PAGE_LIST_LIMIT items per list and the source listing
    # its head and the lines around findings, where the floor shows every value and line.
    print(
        "\nthe page with every list whole (the page lists "
        f"{PAGE_LIST_LIMIT} items per list), against the floor:"
    )
    for label, data in list(documents.items())[:2]:
        result, document, text = lint(data), json.loads(data), data.decode()
        now = datetime.now(UTC)
        ratio = paired_ratio(
            lambda r=result, t=now: page_from_view("bench", build_view(r, now=t), r),
            lambda d=document, t=text: floor_page(d, t),
            21 if len(data) > 100_000 else 101,
        )
        print(f"  {label}: {ratio:.2f}×")
    print("\ntargets of issue 12: the page ≤ 3× the floor; its bytes ≤ 4× the document's")
    for label, size, over_floor, weight in weights:
        weighed = size >= 200_000  # the 200 KB and 2 MB documents
        print(
            f"  [{'met' if over_floor <= 3 else 'MISSED'}] {label}: the page {over_floor:.2f}× "
            f"the floor; [{'met' if weight <= 4 or not weighed else 'MISSED'}] "
            f"{weight:.2f}× the document's bytes"
        )


if __name__ == "__main__":
    main()
