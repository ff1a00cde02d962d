"""How fast `ocp lint` starts, beside bare Python and check-jsonschema (issue 13).

    .venv/bin/python bench/cli.py [--runs N] [--files N]

Figures, each the median wall time of whole processes after a warm-up run:
- bare Python start-up (`python -c pass`, the interpreter of the virtualenv `ocp` is installed
  in, so no site hook of this checkout's environment, such as its editable-install finder,
  slows the bare figure and flatters the ratio);
- what importing jsonschema-rs alone costs (`python -c "import jsonschema_rs"`, which loads
  `email.utils`, `decimal` and `typing`), which a valid document's run no longer pays;
- `ocp lint` of one small checkpoint (valid-support-handoff, 17 KB), each run paired with one
  of bare Python, and the median of the pairs' ratios (the target of issues 13 and 28 is at
  most 3×), with the ten modules whose own import costs that run most;
- one process linting many files (a copy of the conformance documents, over and over), per
  file; and check-jsonschema against the OpenCheckpoint schema on the same one file and the
  same many files (level 1 only: it checks the schema, nothing else).

`ocp` is what users run: the wheel built from this checkout, installed with its dependencies
(pinned by constraints.txt) in a fresh virtualenv outside it, so no editable-install finder
is on its import path. Each command runs with its bytecode cached, as an installed wheel has
it (pip compiles modules on install): this checkout's environment may say
PYTHONDONTWRITEBYTECODE, and a start that compiles every module from source measures the
compiler. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
SMALL = CONFORMANCE / "valid-support-handoff.ocp.json"
SCHEMA = ROOT / "schema" / "opencheckpoint-0.1.schema.json"
BIN = Path(sys.executable).parent


def _once(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def timed(command: list[str], runs: int, env: dict[str, str]) -> float:
    """The median wall seconds of ``runs`` runs of ``command``, after one not counted."""
    _once(command, env)
    return statistics.median(_once(command, env) for _ in range(runs))


def paired(
    base: list[str], command: list[str], runs: int, env: dict[str, str]
) -> tuple[float, float, float]:
    """The medians of ``base`` and ``command`` and the median of their ratios, each run of
    ``command`` timed right after one of ``base``: a machine that slows down for a while
    slows both of a pair, and the ratio stays what it is."""
    _once(base, env), _once(command, env)
    pairs = [(_once(base, env), _once(command, env)) for _ in range(runs)]
    return (
        statistics.median(b for b, _ in pairs),
        statistics.median(c for _, c in pairs),
        statistics.median(c / b for b, c in pairs),
    )


def import_top(command: list[str], env: dict[str, str], count: int = 10) -> list[tuple[str, float]]:
    """The modules whose own import (``-X importtime``'s "self") costs most in a run of
    ``command`` (a Python script and its arguments), the median of three runs, in seconds."""
    seen: dict[str, list[float]] = {}
    for _ in range(3):
        run = subprocess.run(
            [command[0], "-X", "importtime", *command[1:]],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        for line in run.stderr.splitlines():
            fields = line.removeprefix("import time:").split("|")
            if len(fields) == 3 and fields[0].strip().isdigit():
                seen.setdefault(fields[2].strip(), []).append(int(fields[0]) / 1e6)
    medians = {name: statistics.median(times) for name, times in seen.items()}
    return sorted(medians.items(), key=lambda item: -item[1])[:count]


def many_files(folder: Path, count: int) -> list[str]:
    """``count`` checkpoint files in ``folder``: the conformance documents over and over."""
    sources = sorted(CONFORMANCE.glob("valid-*.ocp.json"))
    names = []
    for n in range(count):
        target = folder / f"{n:05d}.ocp.json"
        shutil.copyfile(sources[n % len(sources)], target)
        names.append(str(target))
    return names


def installed_ocp(home: Path) -> Path:
    """`ocp` from the wheel of this checkout, in a fresh virtualenv under ``home``."""
    dist, venv = home / "dist", home / "venv"

    def run(*command: str) -> None:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT))
    (wheel,) = dist.glob("*.whl")
    run(sys.executable, "-m", "venv", str(venv))
    pip = str(venv / "bin" / "pip")
    run(
        pip,
        "install",
        "-q",
        "--disable-pip-version-check",
        "-c",
        str(ROOT / "constraints.txt"),
        str(wheel),
    )
    return venv / "bin" / "ocp"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(temp) / "pycache")  # written by the warm-up
        (Path(temp) / "files").mkdir()
        files = many_files(Path(temp) / "files", args.files)
        ocp = [str(installed_ocp(Path(temp))), "lint"]
        checker = [str(BIN / "check-jsonschema"), "--schemafile", str(SCHEMA)]

        python = str(Path(ocp[0]).parent / "python")
        bare, one, ratio = paired([python, "-c", "pass"], [*ocp, str(SMALL)], args.runs, env)
        floor = timed([python, "-c", "import jsonschema_rs"], args.runs, env)
        top = import_top([python, ocp[0], "lint", str(SMALL)], env)
        batch_runs = max(3, args.runs // 5)
        batch = timed([*ocp, *files], batch_runs, env)
        peer_one = peer_batch = None
        if (BIN / "check-jsonschema").exists():
            peer_one = timed([*checker, str(SMALL)], args.runs, env)
            peer_batch = timed([*checker, *files], batch_runs, env)

    def ms(seconds: float | None) -> str:
        return "—" if seconds is None else f"{seconds * 1000:.1f} ms"

    print(f"{'command':<44} {'one file':>10} {f'{args.files:,} files':>12} {'per file':>10}")
    print(f"{'python -c pass':<44} {ms(bare):>10}")
    validator = 'python -c "import jsonschema_rs"'
    print(f"{validator:<44} {ms(floor):>10}")
    print(f"{'ocp lint':<44} {ms(one):>10} {ms(batch):>12} {ms(batch / args.files):>10}")
    per_peer = ms(peer_batch / args.files) if peer_batch is not None else "—"
    peer = "check-jsonschema (schema only)"
    print(f"{peer:<44} {ms(peer_one):>10} {ms(peer_batch):>12} {per_peer:>10}")
    print(
        f"\ntarget of issues 13 and 28: `ocp lint` of one small file within 3× bare Python"
        f" start-up (the median of {args.runs} paired runs' ratios)\n"
        f"  [{'met' if ratio <= 3 else 'MISSED'}] {ratio:.2f}× ({ms(one)} against {ms(bare)})\n"
        f"  importing jsonschema-rs alone would be {floor / bare:.2f}× bare: a valid document"
        f" never loads it (app/schema_screen.py)"
    )
    print("\nthe ten costliest imports of that run (their own time, -X importtime):")
    for name, seconds in top:
        print(f"  {ms(seconds):>9}  {name}")


if __name__ == "__main__":
    main()
