"""Why a run of `ocp lint` failed, in one sentence: the `::error` line of the github format,
the last line of the text format and the JSON report's `failure`.

Annotations say what each file holds; without this sentence a CI log of ``::warning`` lines
and a red job never says which of them failed it (fail-on turns a warning into a failure).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.policy import Policy
from app.report import FileResult

# What a file holds, for the codes fail-on names most often; other codes by their code.
_HOLDS = {"secret": "an apparent credential"}


def why_failed(results: Sequence[FileResult], policy: Policy) -> str | None:
    """``ocp lint fails: 1 file is invalid; 2 files hold an apparent credential, failing by
    fail-on = secret (given by --fail-on)``, or None when the run passes."""
    unreadable = sum(1 for r in results if r.result is None)
    invalid = unlisted = 0  # (unlisted: invalid, its errors left out of the list)
    holding: dict[str, int] = {}  # fail-on code -> files holding it
    entries: set[str] = set()  # the fail-on entries that failed a file
    for r in results:
        outcome = r.outcome
        if r.result is None or outcome is None or not outcome.fails:
            continue
        if not r.result.valid:
            invalid += 1
            unlisted += r.errors_unlisted
        for code in outcome.failing:
            holding[code] = holding.get(code, 0) + 1
            entries.add(policy.fail_on_entry(code, "warning") or code)
        for code in outcome.lineage_failing:
            holding[code] = holding.get(code, 0) + 1
            entries.add(policy.fail_on_entry(code, "note") or code)
    parts = []
    if unreadable:
        parts.append(f"{_files(unreadable)} cannot be read")
    if invalid:
        said = f"{_files(invalid)} {'is' if invalid == 1 else 'are'} invalid"
        if unlisted:
            said += (
                f" ({'its' if invalid == 1 else f'{unlisted} with their'} errors left out of "
                "the list by --select, --ignore or the configuration: an invalid file fails "
                "all the same)"
            )
        parts.append(said)
    held = [
        f"{_files(n)} {'holds' if n == 1 else 'hold'} {_HOLDS.get(code, f'{code} findings')}"
        for code, n in sorted(holding.items(), key=lambda item: (item[0] != "secret", item[0]))
    ]
    if held:
        parts.append(
            f"{', '.join(held)}; failing by fail-on = {', '.join(sorted(entries))} "
            f"({_origin(policy)})"
        )
    if not parts:
        return None
    return "ocp lint fails: " + "; ".join(parts)


def _origin(policy: Policy) -> str:
    # the default fail-on is empty (app/policy.py DEFAULT_FAIL_ON): a run fails by fail-on
    # only when the command line or a configuration named codes
    origin = policy.fail_on_origin
    if origin in ("--fail-on", "--extend-fail-on"):
        return f"given by {origin}"
    if origin.endswith(" and --extend-fail-on"):
        return f"set in {origin.removesuffix(' and --extend-fail-on')} and by --extend-fail-on"
    return f"set in {origin}"


def _files(n: int) -> str:
    return f"{n} file" + ("" if n == 1 else "s")
