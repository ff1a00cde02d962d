#!/usr/bin/env python3
"""The project's conformance harness: a linter's JSON reports against a conformance manifest.

    python3 tests/conformance.py [SET_DIR] [--cmd 'ocp lint --format json'] [--show N]

SET_DIR defaults to tests/data/conformance. Each case of its manifest.json is linted by its own
run of the command (with ``--parent`` where the case has one), as a CI job would run it. A case
agrees when:
- the run exits 0 for a valid document and 1 for an invalid one, printing one JSON report and
  nothing on standard error;
- ``valid`` is the manifest's;
- every expected error and warning has a finding of that code at a related path (equal, or one
  inside the other; ``json`` and ``version`` findings are placed by line and column instead);
- no error or warning has a code the case does not expect;
- every expected credential path is flagged ``secret``, and nothing else is (userinfo in a
  resource URI, OCP-S008, is a credential too).

Prints each disagreeing case, then a last line ``conformance NAME: A/N cases agree``; exits 0
only when every case agrees. Standard library only, so it runs with any Python 3.11.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

DEFAULT_SET = Path(__file__).resolve().parent / "data" / "conformance"
PLACED_BY_POSITION = frozenset({"json", "version"})
RUN_TIMEOUT = 60.0  # seconds for one lint run


def related(a: str, b: str) -> bool:
    """Equal JSON Pointers, or one inside the other; the whole document only matches itself."""
    a, b = a.rstrip("/"), b.rstrip("/")
    if not a or not b:
        return a == b
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def disagreements(case: dict[str, Any], report: dict[str, Any]) -> list[str]:
    """What ``report`` (one result of a JSON lint report) gets wrong about ``case``."""
    problems: list[str] = []
    if bool(report.get("valid")) != bool(case["valid"]):
        problems.append(f"valid is {report.get('valid')}, expected {case['valid']}")
    findings: list[dict[str, Any]] = report.get("findings", [])
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        expected: list[dict[str, Any]] = case.get(key, [])
        got = [f for f in findings if f.get("severity") == severity and f.get("code") != "secret"]
        for want in expected:
            placed = want["code"] in PLACED_BY_POSITION
            if not any(
                f.get("code") == want["code"]
                and (placed or related(f.get("path", ""), want.get("path", "")))
                for f in got
            ):
                problems.append(f"missing {severity} {want['code']} at {want.get('path')!r}")
        allowed = {want["code"] for want in expected}
        for f in got:
            if f.get("code") not in allowed:
                message = str(f.get("message", ""))[:100]
                problems.append(
                    f"unexpected {severity} {f.get('code')} at {f.get('path')!r}: {message}"
                )
    secret_paths = list(case.get("secrets", [])) + [
        e["path"] for e in case.get("errors", []) if e["code"] == "OCP-S008"
    ]
    flagged = [f.get("path", "") for f in findings if f.get("code") == "secret"]
    for path in case.get("secrets", []):
        if not any(related(p, path) for p in flagged):
            problems.append(f"the credential at {path!r} is not flagged")
    for path in flagged:
        if not any(related(path, s) for s in secret_paths):
            problems.append(f"a credential is flagged at {path!r}, where there is none")
    return problems


def run_case(command: list[str], folder: Path, case: dict[str, Any]) -> list[str]:
    """Lint one case with ``command`` and say what disagrees (nothing: it agrees)."""
    args = list(command)
    if case.get("parent"):
        args += ["--parent", str(folder / case["parent"])]
    args.append(str(folder / case["file"]))
    try:
        done = subprocess.run(args, capture_output=True, timeout=RUN_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [f"could not run {shlex.join(args)}: {exc}"]
    try:
        report = json.loads(done.stdout)["results"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        tail = done.stderr.decode("utf-8", "replace")[-300:]
        return [f"exit {done.returncode} and no JSON report on standard output: {tail}"]
    if done.returncode not in (0, 1):
        return [f"exit {done.returncode}, where a lint exits 0 or 1"]
    if (done.returncode == 0) != bool(report.get("valid")):
        return [f"exit {done.returncode} disagrees with valid={report.get('valid')}"]
    problems = disagreements(case, report)
    if done.stderr:
        problems.append(
            f"printed on standard error: {done.stderr.decode('utf-8', 'replace')[:300]}"
        )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", nargs="?", type=Path, default=DEFAULT_SET)
    parser.add_argument("--cmd", default="ocp lint --format json", help="the linter to run")
    parser.add_argument("--show", type=int, default=15, help="disagreeing cases to print")
    options = parser.parse_args(argv)
    folder: Path = options.set_dir
    try:
        cases: list[dict[str, Any]] = json.loads((folder / "manifest.json").read_bytes())
    except (OSError, ValueError) as exc:
        print(f"conformance: cannot read {folder / 'manifest.json'}: {exc}", file=sys.stderr)
        return 2
    command = shlex.split(options.cmd)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outcomes = list(pool.map(lambda case: run_case(command, folder, case), cases))
    failing = [(case, problems) for case, problems in zip(cases, outcomes, strict=True) if problems]
    for case, problems in failing[: options.show]:
        print(f"{case['file']}:")
        for problem in problems:
            print(f"  {problem}")
    if len(failing) > options.show:
        print(f"… and {len(failing) - options.show} more disagreeing cases")
    agreed = len(cases) - len(failing)
    print(f"conformance {folder.name}: {agreed}/{len(cases)} cases agree")
    return 0 if not failing else 1


if __name__ == "__main__":
    sys.exit(main())
