"""Page render time beside lint time, on the generated 5 KB, 200 KB and 2 MB checkpoints.

    .venv/bin/python bench/render.py [--served]

For each size: the median time of the full lint, of building the render model (app/render.py),
of the templates, and of the whole page (model + templates), with the page's size. The target
of issue 3: rendering costs no more than the lint does. A benchmark, never a test.

Two lints are beside the page: the lint as shipped, whose schema stage runs jsonschema-rs (the
lint speed target of issue 2 needs it), and the same lint with the schema checked by the Python
`jsonschema` validator the stack names (app/schema.py keeps it as the reference implementation).

Time to first byte beside them: a real `ocp serve` on a free port (a throwaway SQLite store),
asked for the page three ways, each with gzip accepted, as a browser asks: the unsaved page
(the document posted to /view as the form's chosen file: lint, page and gzip every time), a
permalink's first request (its page rendered and cached) and the same permalink again (served
from the page cache). The client sends each request already encoded, in one write, as a browser
does (`Wire`), so its own work stays out of the figure. Each POST /view follows a lint + page of
the same document run here, and "/view ÷ (lint + page)" is the median of their ratios: the
target of issue 29 is at most 2× at every size, the request path (form, gzip, thread hops,
headers) costing no more than the work. `--served` prints these figures alone.

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
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

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


class Wire:
    """One kept-alive HTTP/1.1 connection that sends each request already encoded, in one
    write with Nagle off, as a browser does, and times the first byte of the answer's body.

    httpx encodes a multipart body and parses the answer in Python: a millisecond or more of
    the machine's two cores, taken from the server it measures. Here the client's share of a
    request is a send and a few receives."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=300)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> bytes:
        """The request's bytes: the head with gzip accepted, as a browser sends it, and the body."""
        fields = {"Host": f"127.0.0.1:{self.port}", "Accept-Encoding": "gzip", **(headers or {})}
        if body or method == "POST":
            fields["Content-Length"] = str(len(body))
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
        return head.encode() + b"\r\n" + body

    def first_byte(self, request: bytes) -> tuple[float, int, bytes]:
        """Seconds from sending ``request`` to the first byte of the answer's body; the status
        and the whole body (read before the next request on the connection)."""
        start = time.perf_counter()
        self.sock.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            received += self._more()
        head, _, body = received.partition(b"\r\n\r\n")
        while not body:
            body = self._more()
        elapsed = time.perf_counter() - start
        lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.lower().split(": ", 1) for line in lines[1:])
        length = int(fields["content-length"])  # the service sends every page in one piece
        parts = [body]
        while (received_bytes := sum(map(len, parts))) < length:
            parts.append(self._more(length - received_bytes))
        return elapsed, int(lines[0].split()[1]), b"".join(parts)

    def _more(self, size: int = 1 << 20) -> bytes:
        chunk = self.sock.recv(size)
        if not chunk:
            raise SystemExit("the service closed the connection")
        return chunk

    def close(self) -> None:
        self.sock.close()


JSON_BODY = {"Content-Type": "application/json"}


def multipart(data: bytes) -> tuple[bytes, str]:
    """The home page's form with ``data`` as the chosen file, as a browser encodes it."""
    boundary = "----ocpbench7MA4YWxkTrZu0gW"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="checkpoint_file"; '
            'filename="bench.ocp.json"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


@dataclass
class Served:
    """Medians over a size's runs: lint + page in this process, the time to first byte of
    POST /view right after it, their ratio run by run, a permalink's first request and the
    same permalink again."""

    lint_page: float
    unsaved: float
    ratio: float
    cold: float
    warm: float


def lint_and_page(data: bytes) -> float:
    """Seconds to lint ``data`` and build its page (model and templates), as /view does."""
    start = time.perf_counter()
    result = lint(data)
    view = build_view(result, now=datetime.now(UTC), list_limit=PAGE_LIST_LIMIT)
    page_from_view("bench", view, result)
    return time.perf_counter() - start


def served_first_bytes(documents: dict[str, bytes]) -> dict[str, Served]:
    """label -> what a real `ocp serve` (tests/serve.py starts it) answers in: the unsaved page
    paired with lint + page run here just before each request (this machine moves between a
    fast and a slow state: a ratio of medians taken apart is off by that much), a permalink's
    first request and a repeated one."""
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        settings = {
            "OCP_DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            "OCP_WRITE_RATE": "0",  # the bench stores a checkpoint per run
            "OCP_WRITE_RATE_BYTES": "0",
        }
        with Server(Path(folder), settings) as server:
            wire = Wire(server.port)
            try:
                for label, data in documents.items():
                    out[label] = _served(wire, data)
            finally:
                wire.close()
    return out


def _served(wire: Wire, data: bytes) -> Served:
    runs = 5 if len(data) > 1_000_000 else 21
    body, form_type = multipart(data)
    view = wire.request("POST", "/view", body, {"Accept": "text/html", "Content-Type": form_type})
    wire.first_byte(view)  # the first page of a size also fills the server's caches
    pairs = []
    for _ in range(runs):
        direct = lint_and_page(data)
        elapsed, status, _ = wire.first_byte(view)
        if status != 200:
            raise SystemExit(f"POST /view answered {status}")
        pairs.append((direct, elapsed))
    colds, warms = [], []
    for run in range(runs):
        # a new permalink per run: each document stored again is a new checkpoint
        copy = json.loads(data)
        copy["id"] = f"urn:uuid:019a8000-0000-7000-8000-{run + len(data):012x}"
        upload = json.dumps(copy, indent=2).encode()
        store = wire.request("POST", "/api/v1/checkpoints", upload, JSON_BODY)
        _, status, answer = wire.first_byte(store)
        if status != 201:
            raise SystemExit(f"not stored: {status} {answer[:200]!r}")
        link = urlsplit(json.loads(answer)["permalink"]).path
        get = wire.request("GET", link, headers={"Accept": "text/html"})
        for times in (colds, warms):
            elapsed, status, _ = wire.first_byte(get)
            if status != 200:
                raise SystemExit(f"GET {link} answered {status}")
            times.append(elapsed)
    return Served(
        lint_page=statistics.median(d for d, _ in pairs),
        unsaved=statistics.median(e for _, e in pairs),
        ratio=statistics.median(e / d for d, e in pairs),
        cold=statistics.median(colds),
        warm=statistics.median(warms),
    )


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
    if "--served" in sys.argv[1:]:  # the served figures alone
        report_served({label: generate(size) for label, size in SIZES.items()})
        return
    print(
        f"{'size':>7} {'bytes':>9} {'lint ms':>8} {'model ms':>9} {'templates ms':>12} "
        f"{'page ms':>8} {'page ÷ lint':>10} {'HTML KB':>8} {'ref. lint ms':>12} "
        f"{'page ÷ ref.':>11} {'floor ms':>9} {'floor ÷ lint':>12} {'page ÷ floor':>12} "
        f"{'HTML ÷ doc':>10} {'gzip KB':>8}"
    )
    verdicts = []
    weights = []
    documents: dict[str, bytes] = {}
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
        page = model_s + tmpl_s
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
    report_served(documents)
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


def report_served(documents: dict[str, bytes]) -> None:
    """The time to first byte table, and the target of issue 29."""
    print(
        "\ntime to first byte from `ocp serve`, gzip accepted (median ms): the unsaved page "
        "(POST /view: lint, page and gzip every time) beside lint + page run here just before "
        "each request, and their ratio run by run; a permalink's first request; the same "
        "permalink again (its cached page)"
    )
    print(
        f"{'size':>7} {'lint + page ms':>14} {'/view ms':>9} {'/view ÷ (lint + page)':>21} "
        f"{'permalink ms':>13} {'cached ms':>10}"
    )
    served = served_first_bytes(documents)
    for label, figures in served.items():
        print(
            f"{label:>7} {figures.lint_page * 1000:>14.2f} {figures.unsaved * 1000:>9.2f} "
            f"{figures.ratio:>21.2f} {figures.cold * 1000:>13.2f} {figures.warm * 1000:>10.2f}"
        )
    print(
        "\ntarget of issue 29: POST /view's time to first byte ≤ 2× its lint + page (the request "
        "path costs no more than the work)"
    )
    for label, figures in served.items():
        print(
            f"  [{'met' if figures.ratio <= 2 else 'MISSED'}] {label}: {figures.ratio:.2f}× "
            f"({figures.unsaved * 1000:.2f} ms vs {figures.lint_page * 1000:.2f} ms)"
        )


if __name__ == "__main__":
    main()
