"""Lint speed and memory on generated checkpoints of about 5 KB, 200 KB and 2 MB.

    .venv/bin/python bench/lint.py [--quick]

Prints, per size: documents/second and MB/s of the full lint (intake + schema + rules +
secret scan), the median time of each stage, `orjson.loads` on the same bytes (the floor),
and `check-jsonschema` with the same schema on the same file (a peer that does level 1 only;
its command-line start-up is measured separately on a minimal checkpoint and shown beside it).
Then the peak memory of linting the 2 MB document, in a fresh process. The targets of issue 2
(and issue 29's tighter one: a lint within 10× of `orjson.loads`) are checked at the end; this is
a benchmark, never a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from app.analysis import lint  # noqa: E402
from app.resources import SCHEMA_FILE  # noqa: E402

SIZES = {"5 KB": 5_000, "200 KB": 200_000, "2 MB": 2_000_000}
MINIMAL = {
    "opencheckpoint": "0.1",
    "id": "urn:uuid:019a8000-0000-7000-8000-00000000b000",
    "created_at": "2026-11-20T08:00:00Z",
    "source": {"producer": "bench"},
    "task": {"objective": "Measure start-up.", "status": "active"},
}


def generate(target_bytes: int) -> bytes:
    """A valid, realistic checkpoint of about ``target_bytes``: every kind of statement and
    operation, resources with digests and excerpts, references that all resolve."""
    doc: dict = {
        "opencheckpoint": "0.1",
        "id": "urn:uuid:019a8000-0000-7000-8000-00000000b001",
        "created_at": "2026-11-20T08:00:00Z",
        "source": {"producer": "bench/lint.py", "agent": "bench-agent", "model": "bench-model"},
        "task": {
            "objective": "Reconcile the quarterly ledger against the bank statements.",
            "status": "active",
            "success_criteria": [
                {"id": "crit-0", "description": "Every account reconciled.", "status": "unmet"}
            ],
        },
        "progress": {"completed": [], "next": []},
        "statements": [],
        "resources": [],
        "operations": [],
        "continuation": {"stop_conditions": [], "requirements": []},
    }
    kinds = [
        "instruction",
        "constraint",
        "decision",
        "observation",
        "hypothesis",
        "question",
        "external",
    ]
    origins = {"instruction": "user", "constraint": "system", "external": "external"}
    i = 0
    while len(json.dumps(doc, indent=2)) < target_bytes:
        rid, sid, oid = f"r-{i}", f"s-{i}", f"op-{i}"
        doc["resources"].append(
            {
                "id": rid,
                "kind": "record",
                "title": f"Ledger account {4000 + i} statement for October 2026",
                "uri": f"https://erp.example.com/ledger/accounts/{4000 + i}?period=2026-10",
                "revision": f"rev-{i:06d}",
                "digest": "sha-256:" + f"{i:064x}",
                "observed_at": "2026-11-20T07:00:00Z",
                "availability": "available",
                "sensitivity": "internal",
                "excerpt": "Opening balance 1,204.35 EUR; 14 postings; closing 1,310.00 EUR.",
            }
        )
        kind = kinds[i % len(kinds)]
        statement = {
            "id": sid,
            "kind": kind,
            "text": f"Account {4000 + i}: the October postings match the bank statement except "
            "for a 12.40 EUR fee booked on the 31st, which belongs to November.",
            "origin": {"type": origins.get(kind, "agent"), "name": "reconciler"},
            "evidence": [rid],
            "recorded_at": "2026-11-20T07:30:00Z",
        }
        if kind == "decision":
            statement["rationale"] = "The bank books fees on the value date, not the posting date."
        if kind == "observation":
            statement["verification"] = {
                "state": "verified",
                "checked_at": "2026-11-20T07:31:00Z",
                "revalidate": "before_use",
            }
        doc["statements"].append(statement)
        doc["operations"].append(
            {
                "id": oid,
                "kind": "action",
                "status": "uncertain" if i % 5 == 0 else "planned",
                "description": f"Post the correcting journal entry for account {4000 + i}.",
                "target": rid,
                "record": rid,
                "effect": "non_idempotent",
                "resume": "verify_first",
                "idempotency_key": f"je-{i:06d}",
                "call": {
                    "tool": "erp.post_journal_entry",
                    "arguments": {"account": 4000 + i, "amount": "12.40", "currency": "EUR"},
                },
            }
        )
        doc["progress"]["completed"].append(
            {
                "id": f"step-{i}",
                "description": f"Matched postings of account {4000 + i}.",
                "completed_at": "2026-11-20T07:45:00Z",
                "evidence": [rid],
            }
        )
        doc["progress"]["next"].append(
            {
                "id": f"next-{i}",
                "description": f"Confirm entry for {4000 + i}.",
                "blocked_by": [oid],
            }
        )
        i += 1
    doc["continuation"]["stop_conditions"].append(
        {"id": "stop-0", "description": "Stop if the period is closed.", "applies_to": ["op-0"]}
    )
    doc["continuation"]["requirements"].append(
        {
            "id": "req-0",
            "kind": "access",
            "description": "ERP posting rights.",
            "necessity": "required",
        }
    )
    return json.dumps(doc, indent=2).encode()


def median_time(fn, data: bytes, budget: float = 1.5, min_runs: int = 3) -> float:
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < budget:
        t0 = time.perf_counter()
        fn(data)
        times.append(time.perf_counter() - t0)
        if len(times) >= 200:
            break
    return statistics.median(times)


def stage_medians(data: bytes, runs: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {}
    for _ in range(runs):
        result = lint(data)
        assert result.valid, [f.to_dict() for f in result.findings[:3]]
        for stage, seconds in result.timings.items():
            samples.setdefault(stage, []).append(seconds)
    return {stage: statistics.median(values) for stage, values in samples.items()}


def check_jsonschema_time(path: Path, runs: int) -> float:
    exe = Path(sys.executable).parent / "check-jsonschema"
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run(
            [str(exe), "--schemafile", str(ROOT / "schema" / SCHEMA_FILE), str(path)],
            capture_output=True,
            text=True,
        )
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(f"check-jsonschema rejected {path}: {done.stdout[-500:]}")
    return statistics.median(times)


MEMORY_PROBE = """
import resource, sys, tracemalloc
sys.path.insert(0, {root!r})
from app.analysis import lint
data = open({path!r}, "rb").read()
lint(b'{{"opencheckpoint": "0.1"}}')  # warm: imports, the validator, caches
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
result = lint(data)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(peak, (after - before) * 1024, result.valid)
"""


def memory(path: Path) -> tuple[int, int]:
    code = MEMORY_PROBE.format(root=str(ROOT), path=str(path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    traced, rss, _ = out.stdout.split()
    return int(traced), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs of the slow peer")
    args = parser.parse_args()
    lint(generate(1000))  # build the validator once, as a long-running service does
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        smallest = Path(tmp) / "minimal.ocp.json"
        smallest.write_text(json.dumps(MINIMAL))
        startup = check_jsonschema_time(smallest, 1 if args.quick else 3)
        for label, size in SIZES.items():
            data = generate(size)
            path = Path(tmp) / f"bench-{size}.ocp.json"
            path.write_bytes(data)
            full = median_time(lint, data)
            floor = median_time(orjson.loads, data)
            stages = stage_medians(data, 5 if size > 1_000_000 else 20)
            peer = check_jsonschema_time(path, 1 if args.quick or size > 1_000_000 else 3)
            rows.append((label, len(data), full, floor, stages, peer, path))

        print(f"check-jsonschema start-up (a minimal checkpoint): {startup * 1000:.0f} ms\n")
        header = (
            f"{'size':>7} {'bytes':>9} {'lint ms':>8} {'docs/s':>8} {'MB/s':>6} "
            f"{'orjson ms':>9} {'×orjson':>7} {'check-jsonschema ms':>19} {'peer/lint':>9}"
        )
        print(header)
        for label, n, full, floor, _, peer, _ in rows:
            print(
                f"{label:>7} {n:>9,} {full * 1000:>8.2f} {1 / full:>8.1f} "
                f"{n / full / 1e6:>6.1f} {floor * 1000:>9.2f} {full / floor:>7.1f} "
                f"{peer * 1000:>19.0f} {peer / full:>9.1f}"
            )
        print("\nstage split (median ms): " + ", ".join(rows[0][4]))
        for label, _, _, _, stages, _, _ in rows:
            print(f"{label:>7}: " + "  ".join(f"{k} {v * 1000:.2f}" for k, v in stages.items()))

        label, n, full, floor, _, peer, path = rows[-1]
        traced, rss = memory(path)
        print(f"\nmemory, linting the {label} document ({n:,} bytes) in a fresh process:")
        print(
            f"  Python allocations peak (tracemalloc): {traced / 1e6:.1f} MB = "
            f"{traced / n:.1f}× the document"
        )
        print(
            f"  resident set growth (ru_maxrss, includes the Rust validator): "
            f"{rss / 1e6:.1f} MB = {rss / n:.1f}× the document"
        )

        print(f"\ntargets on the {label} document:")
        checks = [
            (f"full lint ≥ 5× faster than check-jsonschema: {peer / full:.1f}×", peer / full >= 5),
            (f"full lint within 20× of orjson.loads: {full / floor:.1f}×", full / floor <= 20),
            # issue 29 tightened it: the secret scan was the largest stage
            (
                f"full lint within 10× of orjson.loads (issue 29): {full / floor:.1f}×",
                full / floor <= 10,
            ),
            (
                f"peak memory < 15× the document: {max(traced, rss) / n:.1f}×",
                max(traced, rss) / n < 15,
            ),
        ]
        for text, ok in checks:
            print(f"  [{'met' if ok else 'MISSED'}] {text}")
    print(f"\n(python {sys.version.split()[0]}, {os.cpu_count()} cpus)")


if __name__ == "__main__":
    main()
