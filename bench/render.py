"""Page render time beside lint time, on the generated 5 KB, 200 KB and 2 MB checkpoints.

    .venv/bin/python bench/render.py

For each size: the median time of the full lint, of building the render model (app/render.py),
of the templates, and of the whole page (model + templates), with the page's size. The target
of issue 3: rendering costs no more than the lint does. A benchmark, never a test.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from lint import SIZES, generate  # noqa: E402

from app.lint import lint  # noqa: E402
from app.render import build_view  # noqa: E402
from app.web.pages import page_from_view  # noqa: E402


def median(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> None:
    print(
        f"{'size':>7} {'bytes':>9} {'lint ms':>8} {'model ms':>9} {'templates ms':>12} "
        f"{'page ms':>8} {'page ÷ lint':>10} {'HTML KB':>8}"
    )
    verdicts = []
    for label, size in SIZES.items():
        data = generate(size)
        runs = 5 if size > 1_000_000 else 15
        now = datetime.now(UTC)
        lint_s, result = median(lambda d=data: lint(d), runs)
        model_s, view = median(lambda r=result, t=now: build_view(r, now=t), runs)
        tmpl_s, html = median(
            lambda v=view, r=result: page_from_view("bench", v, r),
            runs,
        )
        page = model_s + tmpl_s
        verdicts.append((label, page / lint_s))
        print(
            f"{label:>7} {len(data):>9,} {lint_s * 1000:>8.2f} {model_s * 1000:>9.2f} "
            f"{tmpl_s * 1000:>12.2f} {page * 1000:>8.2f} {page / lint_s:>10.2f} "
            f"{len(html) / 1000:>8.0f}"
        )
    print("\ntarget: the page costs no more than the lint (page ÷ lint ≤ 1)")
    for label, ratio in verdicts:
        print(f"  [{'met' if ratio <= 1 else 'MISSED'}] {label}: {ratio:.2f}×")


if __name__ == "__main__":
    main()
