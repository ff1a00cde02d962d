"""The worst cases of issue 11 beside a benign checkpoint of the same size: is every stage linear?

    .venv/bin/python bench/worst.py [--quick] [--sizes 400KB,4MB] [--cases a,b] [--json FILE]

For each case of bench/worst_cases.py, generated at each size (default 400 KB and 4 MB; ``--quick``
100 KB), two stages are timed, each in a fresh subprocess with a timeout so the benchmark
finishes even while some stage is still quadratic:

- ``ocp lint``: `app.cli.main(["lint", FILE])` in-process, the text report included (the lineage
  case with ``--parent``);
- ``POST /view``: the form's multipart post (the pasted ``checkpoint``, and ``parent``) to
  `app.web.create_app` through Starlette's TestClient, reading the whole page.

Each figure is the median of a few runs (fewer at large sizes) of the CPU time of the measuring
process, every thread's (``--clock wall`` for wall-clock time; the machine this runs on is
shared, and CPU time varies less with its load), beside the benign document's
(the lineage case beside a benign child of an unchanged parent): the ratio's target is ≤ 3×.
Each ratio is the median of the ratios of each run of the case to a run of the benign document
right after it, in the same process: a machine's speed drifts by a third from one minute to
the next, and a benign figure taken minutes earlier moved every ratio with it. One run of each
comes first, untimed: the first of a kind pays for what a process keeps (patterns compiled on
first use); the memos of a document's names and values are emptied before each run
(`bench.worst_cases.forget_documents`), as a document the process has not seen finds them.
Memory is the growth of the subprocess's peak RSS over its warmed-up peak (`getrusage`), cheap
and coarse. The page's size is shown against the document's, and against the benign page's
ratio. A benchmark, never a test: it asserts nothing about time; lines over target are marked.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack, redirect_stdout
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Not bench/ itself (Python puts a script's folder first): a module named like one
# would shadow the standard library's.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.worst_cases import (  # noqa: E402
    BASELINES,
    CASES,
    Case,
    dump,
    forget_documents,
    grow,
    skeleton,
)

TARGET = 3.0  # no input costs more than 3× a benign document of its size (issue 11)
DEFAULT_SIZES = "400KB,4MB"
LARGE = 1_000_000  # from here on: fewer runs, a longer timeout
STAGES = ("lint", "view")


# --- the measuring subprocess -------------------------------------------------------------------


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _lint_once(path: str, parent: str | None) -> tuple[int, str]:
    """What `ocp lint [--parent P] FILE` does and prints, in this process."""
    from app.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["lint", *(["--parent", parent] if parent else []), path])
    return status, out.getvalue()


def _measure(
    stage: str,
    path: str,
    parent: str | None,
    runs: int,
    budget: float,
    baseline: tuple[str, str | None] | None = None,
) -> None:
    """Time ``stage`` on the file at ``path``; print one JSON line of figures. With
    ``baseline`` (a file and its parent), each run of the case is followed by one of the
    baseline, and the baseline's medians are printed beside the case's (``baseline_cpu``,
    ``baseline_wall``): the two are measured in the same moments of the machine."""
    warm = Path(path).with_name("warm.ocp.json")
    warm.write_bytes(dump(skeleton("bench/worst.py: warm-up")))
    figures: dict[str, Any] = {}
    cleanup = ExitStack()
    once: Callable[[], None]
    other: Callable[[], None] | None = None
    if stage == "lint":
        _lint_once(str(warm), None)  # imports, the validator, caches

        def once() -> None:
            status, report = _lint_once(path, parent)
            figures["exit"] = status
            figures["report_lines"] = report.count("\n")

        if baseline is not None:
            base_path, base_parent = baseline

            def other() -> None:
                _lint_once(base_path, base_parent)

    else:
        os.environ["OCP_DATABASE_URL"] = str(Path(path).with_name("bench.sqlite3"))
        from starlette.testclient import TestClient

        from app.config import Settings
        from app.web import create_app

        text = Path(path).read_text(encoding="utf-8")
        form: dict[str, tuple[None, str]] = {"checkpoint": (None, text)}
        if parent:
            form["parent"] = (None, Path(parent).read_text(encoding="utf-8"))
        client = cleanup.enter_context(TestClient(create_app(Settings.from_env())))
        client.post("/view", files={"checkpoint": (None, warm.read_text())}).raise_for_status()

        def once() -> None:
            response = client.post("/view", files=form)
            figures["status"] = response.status_code
            figures["page_bytes"] = len(response.content)  # decoded, as a browser holds it

        if baseline is not None:
            base_form: dict[str, tuple[None, str]] = {
                "checkpoint": (None, Path(baseline[0]).read_text(encoding="utf-8"))
            }
            if baseline[1]:
                base_form["parent"] = (None, Path(baseline[1]).read_text(encoding="utf-8"))

            def other() -> None:
                client.post("/view", files=base_form).raise_for_status()

    warmed = _peak_mb()  # the memory figure counts the case's first run
    # One run of each before timing: the first of a kind pays once for what a process keeps
    # (patterns compiled on first use, caches, the interpreter's specialised code), which a
    # comparison of how the cost grows with the input must not count as the input's.
    once()
    if other is not None:
        other()
    times: list[float] = []
    cpu_times: list[float] = []
    base_times: list[float] = []
    base_cpu_times: list[float] = []
    start = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - start
        # at least ``runs`` runs while within the budget; more, up to 50, while under a second
        # (a few milliseconds vary by half from run to run, and the benign figure divides)
        if times and (elapsed > budget or len(times) >= (runs if elapsed > 1 else 50)):
            break
        # each run starts from a collected heap: no run pays for the garbage of the one before
        # (the case's or the baseline's)
        # and from memos empty of the document (`forget_documents`): as `ocp lint` runs once,
        # and a server's next request brings a document it has not seen
        forget_documents()
        gc.collect()
        t0, cpu0 = time.perf_counter(), time.process_time()
        once()
        times.append(time.perf_counter() - t0)
        cpu_times.append(time.process_time() - cpu0)  # every thread's, the server's included
        if other is not None:
            forget_documents()
            gc.collect()
            t0, cpu0 = time.perf_counter(), time.process_time()
            other()
            base_times.append(time.perf_counter() - t0)
            base_cpu_times.append(time.process_time() - cpu0)
    cleanup.close()
    figures.update(
        wall=statistics.median(times),
        cpu=statistics.median(cpu_times),
        runs=len(times),
        peak_mb=_peak_mb(),
        growth_mb=_peak_mb() - warmed,
    )
    if base_times:
        figures.update(
            baseline_wall=statistics.median(base_times),
            baseline_cpu=statistics.median(base_cpu_times),
            # the median of each run's ratio to the baseline run right after it: the machine
            # moves between a fast and a slow state (the same run 1.6x slower for a while),
            # and a ratio of medians taken across such a move is off by that much
            ratio_wall=statistics.median(a / b for a, b in zip(times, base_times, strict=True)),
            ratio_cpu=statistics.median(
                a / b for a, b in zip(cpu_times, base_cpu_times, strict=True)
            ),
        )
    print(json.dumps(figures), flush=True)


# --- the driver ---------------------------------------------------------------------------------


@dataclass
class Row:
    case: str
    label: str
    target_bytes: int
    bytes: int
    n: int
    baseline: str
    clock: str  # "cpu" or "wall": which median the table shows and the ratios divide
    stages: dict[str, dict[str, Any]] = field(default_factory=dict)
    ratios: dict[str, float | None] = field(default_factory=dict)
    files: tuple[Path, Path | None] | None = None  # the document measured, and its parent
    # orjson.loads of the document, median CPU seconds: what building its values costs before
    # any stage of ours runs (None without orjson)
    decode: float | None = None


def parse_size(text: str) -> tuple[str, int]:
    """``400KB`` → ("400 KB", 400_000); decimal units, as the issue's figures are."""
    units = {"KB": 1_000, "MB": 1_000_000, "B": 1}
    clean = text.strip().upper().replace(" ", "")
    for unit, factor in units.items():
        if clean.endswith(unit) and clean[: -len(unit)].replace(".", "", 1).isdigit():
            number = float(clean[: -len(unit)])
            return f"{number:g} {unit}", int(number * factor)
    if clean.isdigit():
        return f"{int(clean):,} B", int(clean)
    raise argparse.ArgumentTypeError(f"not a size: {text!r} (write 400KB, 4MB or bytes)")


def run_stage(
    stage: str,
    path: Path,
    parent: Path | None,
    size: int,
    timeout: float,
    baseline: tuple[Path, Path | None] | None = None,
) -> dict[str, Any]:
    runs = 3 if size >= LARGE else 5
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--measure",
        stage,
        str(path),
        "--runs",
        str(runs),
        "--budget",
        str(timeout / 3),
    ]
    if parent is not None:
        command += ["--parent-file", str(parent)]
    if baseline is not None:
        command += ["--baseline-file", str(baseline[0])]
        if baseline[1] is not None:
            command += ["--baseline-parent-file", str(baseline[1])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1][:200]}
    figures: dict[str, Any] = json.loads(lines[-1])
    return figures


def measure_case(
    case: Case,
    label: str,
    size: int,
    folder: Path,
    timeout: float,
    clock: str,
    baseline: tuple[Path, Path | None] | None = None,
) -> Row:
    n, data = grow(case.build, size)
    path = folder / f"{case.name}.ocp.json"
    path.write_bytes(data)
    parent_path = None
    if case.parent is not None:
        parent_path = folder / f"{case.name}.parent.ocp.json"
        parent_path.write_bytes(case.parent(n))
    row = Row(case.name, label, size, len(data), n, case.baseline, clock)
    row.decode = decode_seconds(data)
    for stage in STAGES:
        if stage == "view" and "timeout" in row.stages["lint"]:
            row.stages[stage] = {"skipped": "the lint timed out; the page runs the lint too"}
            continue
        row.stages[stage] = run_stage(stage, path, parent_path, size, timeout, baseline)
    row.files = (path, parent_path)
    return row


def decode_seconds(data: bytes, runs: int = 5) -> float | None:
    """The median CPU time of orjson.loads on ``data`` (the floor of bench/lint.py): a case
    made of many small containers costs more than a benign document of its size to any
    decoder, before any stage of ours; its lint ratio is read beside this one."""
    try:
        import orjson
    except ImportError:
        return None
    times = []
    for _ in range(runs):
        started = time.process_time()
        orjson.loads(data)
        times.append(time.process_time() - started)
    return statistics.median(times)


def _seconds(figures: dict[str, Any], clock: str) -> float | None:
    value = figures.get(clock)
    return float(value) if value is not None else None


def compare(row: Row, base: Row) -> None:
    for stage in STAGES:
        mine = _seconds(row.stages[stage], row.clock)
        # the baseline run beside this case, in the same process and moments; the baseline's
        # own line when there is none
        theirs = _seconds(row.stages[stage], f"baseline_{row.clock}") or _seconds(
            base.stages[stage], row.clock
        )
        paired = _seconds(row.stages[stage], f"ratio_{row.clock}")
        row.ratios[stage] = (
            paired if paired is not None else mine / theirs if mine is not None and theirs else None
        )
    if row.decode is not None and base.decode:
        row.ratios["decode"] = row.decode / base.decode
    page, base_page = row.stages["view"].get("page_bytes"), base.stages["view"].get("page_bytes")
    if page is not None and base_page:
        row.ratios["page"] = (page / row.bytes) / (base_page / base.bytes)


def _cell(figures: dict[str, Any], ratio: float | None, clock: str) -> tuple[str, str, str]:
    if "timeout" in figures:
        return f"timeout>{figures['timeout']:.0f}s", "OVER", ""
    if "skipped" in figures:
        return "skipped", "", ""
    if "error" in figures:
        return "error", "", ""
    seconds = f"{figures[clock]:.3f}"
    mark = "" if ratio is None else f"{ratio:.1f}×" + (" OVER" if ratio > TARGET else "")
    return seconds, mark, f"{figures.get('growth_mb', 0):.0f}"


HEADER = (
    f"{'case':<22} {'size':>7} {'bytes':>10} {'lint s':>11} {'÷ benign':>10} {'MB':>5} "
    f"{'view s':>11} {'÷ benign':>10} {'MB':>5} {'page bytes':>11} {'page÷doc':>9} "
    f"{'÷ benign':>10} {'decode ÷':>9}"
)


def format_row(row: Row) -> str:
    lint_s, lint_r, lint_mb = _cell(row.stages["lint"], row.ratios.get("lint"), row.clock)
    view_s, view_r, view_mb = _cell(row.stages["view"], row.ratios.get("view"), row.clock)
    page = row.stages["view"].get("page_bytes")
    page_cells = f"{'':>11} {'':>9} {'':>10}"
    if page is not None:
        page_ratio = row.ratios.get("page")
        mark = (
            ""
            if page_ratio is None
            else f"{page_ratio:.2f}×" + (" OVER" if page_ratio > TARGET else "")
        )
        page_cells = f"{page:>11,} {page / row.bytes:>8.1f}× {mark:>10}"
    decode = row.ratios.get("decode")
    page_cells += f" {'' if decode is None else f'{decode:.1f}×':>9}"
    extra = ""
    for stage in STAGES:
        problem = row.stages[stage].get("error")
        if problem:
            extra += f"  [{stage} failed: {problem}]"
        status = row.stages[stage].get("status")
        if status not in (None, 200):
            extra += f"  [{stage}: HTTP {status}]"
    return (
        f"{row.case:<22} {row.label:>7} {row.bytes:>10,} {lint_s:>11} {lint_r:>10} "
        f"{lint_mb:>5} {view_s:>11} {view_r:>10} {view_mb:>5} {page_cells}{extra}"
    )


def over_target(row: Row) -> list[str]:
    found = []
    for stage in STAGES:
        if "timeout" in row.stages[stage]:
            found.append(f"{row.case} at {row.label}: {stage} timed out")
        ratio = row.ratios.get(stage)
        if ratio is not None and ratio > TARGET:
            found.append(f"{row.case} at {row.label}: {stage} {ratio:.1f}× the {row.baseline}")
    page_ratio = row.ratios.get("page")
    if page_ratio is not None and page_ratio > TARGET:
        found.append(f"{row.case} at {row.label}: page {page_ratio:.1f}× the benign page per byte")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated, e.g. 400KB,4MB")
    parser.add_argument("--quick", action="store_true", help="100 KB only")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--timeout", type=float, help="seconds per measurement (default 60, 120 from 1 MB)"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="the time shown and divided: the measuring process's CPU time (default: steadier "
        "on a shared machine) or wall-clock time; the JSON holds both",
    )
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    # the measuring subprocess
    parser.add_argument("--measure", choices=STAGES, help=argparse.SUPPRESS)
    parser.add_argument("file", nargs="?", help=argparse.SUPPRESS)
    parser.add_argument("--parent-file", help=argparse.SUPPRESS)
    parser.add_argument("--baseline-file", help=argparse.SUPPRESS)
    parser.add_argument("--baseline-parent-file", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=3, help=argparse.SUPPRESS)
    parser.add_argument("--budget", type=float, default=30.0, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.measure:
        paired = (args.baseline_file, args.baseline_parent_file) if args.baseline_file else None
        _measure(args.measure, args.file, args.parent_file, args.runs, args.budget, paired)
        return
    if args.list:
        for case in CASES.values():
            print(f"{case.name:<22} {case.attack}")
        return
    sizes = [parse_size("100KB")] if args.quick else [parse_size(s) for s in args.sizes.split(",")]
    names = args.cases.split(",") if args.cases else list(CASES)
    unknown = [name for name in names if name not in CASES]
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}; see --list")

    print(
        f"bench/worst.py: {len(names)} cases × {len(sizes)} sizes; target: each ratio ≤ "
        f"{TARGET:g}× the benign document of the same size ({platform.python_version()}, "
        f"{os.cpu_count()} CPUs)"
    )
    rows: list[Row] = []
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ocp-worst-") as tmp:
        folder = Path(tmp)
        for label, size in sizes:
            timeout = args.timeout or (120.0 if size >= LARGE else 60.0)
            print(f"\n{label} (timeout {timeout:.0f} s per measurement)\n{HEADER}", flush=True)
            needed = {"benign"} | {CASES[name].baseline for name in names}
            bases = {}
            for base_name in sorted(needed):
                base = measure_case(BASELINES[base_name], label, size, folder, timeout, args.clock)
                bases[base_name] = base
                rows.append(base)
                print(format_row(base), flush=True)
            for name in names:
                case = CASES[name]
                base = bases[case.baseline]
                row = measure_case(case, label, size, folder, timeout, args.clock, base.files)
                compare(row, base)
                rows.append(row)
                problems += over_target(row)
                print(format_row(row), flush=True)
    print(
        f"\nlint s, view s: median {args.clock} seconds (lint: `ocp lint` with its text "
        "report; view: POST /view, the whole page read); ÷ benign: the ratio to the benign "
        "document of the same size (lineage: to a benign child of an unchanged parent); "
        "MB: growth of the peak RSS over the warmed-up process; page÷doc: page bytes per "
        "document byte, and ÷ benign that against the benign page's; decode ÷: orjson.loads "
        "of the document against of the benign one (CPU), what building its values costs any "
        "decoder before a stage of ours runs (a document of small containers costs more)."
    )
    if problems:
        print(f"\nover target ({len(problems)}):")
        for problem in problems:
            print(f"  OVER {problem}")
    else:
        print("\nevery ratio within target")
    if args.json:
        report = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "target_ratio": TARGET,
            # the temporary files each row was measured on are gone: not kept
            "rows": [{k: v for k, v in row.__dict__.items() if k != "files"} for row in rows],
            "over_target": problems,
        }
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
