"""The report of report-contract.md, and the formats it is printed in: text, json, sarif,
github. One shape for the CLI, the API and the pages; members are added, never renamed."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence

from app import SPEC_VERSION, TYPE_CHECKING, __version__
from app.analysis import LintResult
from app.findings import MAX_PER_CODE, Finding, Omitted, in_document_order
from app.policy import Outcome, located
from app.record import Record
from app.resources import rule_markdown
from app.rules import RULES
from app.visible import visible, visible_json

if TYPE_CHECKING:
    from typing import Any, Final

    # The report, and each part of it, as plain data: the JSON of report-contract.md.
    Report = dict[str, Any]
    # An object of a SARIF 2.1.0 log, as plain data.
    SarifObject = dict[str, Any]

TOOL_NAME = "ocp-viewer"
# The only two verdicts (report-contract.md "Words"): neither claims more than levels 1–2
# (§8.1).
VERDICT_VALID = "valid (levels 1–2)"
VERDICT_INVALID = "invalid"
VALIDITY_NOTE = (
    "valid means levels 1–2 only: well-formed and internally consistent (spec §8.1); it does "
    "not mean the resources are available, the next actions are authorized, or that "
    "continuing will succeed"
)


def shown_file(name: str) -> str:
    """A file's name as given, its bytes that are not UTF-8 written as \\xff (see
    `FileResult.shown`)."""
    if name.isascii():
        return name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    return name


class FileResult(Record):
    """One input: its lint result, or why it could not be read (then exit status 2). An
    unreadable input stays in every machine-readable format, never silently dropped."""

    __slots__ = ("error", "file", "outcome", "result")

    file: Final[str]  # the name as the user gave it
    result: Final[LintResult | None]
    error: Final[str | None]  # "no such file", "permission denied", …
    # what a project's policy reports of it (app/policy.py); None: every finding
    outcome: Final[Outcome | None]

    def __init__(
        self,
        file: str,
        result: LintResult | None = None,
        error: str | None = None,
        outcome: Outcome | None = None,
    ) -> None:
        self.file = file
        self.result = result
        self.error = error
        self.outcome = outcome

    @property
    def shown(self) -> str:
        """The name as the reports write it: as given, but a byte of it that is not UTF-8
        (which Python reads as a lone surrogate, and JSON cannot hold) written as \\xff."""
        return shown_file(self.file)

    @property
    def errors_unlisted(self) -> bool:
        """Invalid, and none of its errors listed: the policy left them out (an invalid file
        fails the run all the same, and no error of its own says why)."""
        if self.result is None or self.result.valid or self.outcome is None:
            return False
        return not any(f.severity == "error" for f in self.outcome.reported)

    @property
    def listed(self) -> list[Finding]:
        """The findings the formats list: what the policy reports, or every one."""
        if self.outcome is not None:
            return list(self.outcome.reported)
        return self.result.findings if self.result is not None else []

    @property
    def listed_lineage(self) -> tuple[Finding, ...]:
        """The lineage checks' findings the formats list: what the policy reports, or all."""
        if self.outcome is not None:
            return self.outcome.lineage
        return self.result.lineage if self.result is not None else ()


def verdict(valid: bool) -> str:
    """The verdict of a document, in the report's words, wherever one is shown."""
    return VERDICT_VALID if valid else VERDICT_INVALID


def tool_info() -> Report:
    return {"name": TOOL_NAME, "version": __version__, "spec_version": SPEC_VERSION}


def file_result_dict(r: FileResult, base_url: str | None = None) -> Report:
    if r.result is not None:
        describe = _Describer(r.result, base_url)
        out = result_dict(r.shown, r.result, describe=describe)
        if r.outcome is not None:
            # a project's policy: what it reports, what it accepted (and why), how many it
            # does not report; `valid` and `counts` stay the specification's
            out["findings"] = [describe(f) for f in r.outcome.reported]
            out["suppressed"] = [
                {**describe(s.finding), "reason": s.reason} for s in r.outcome.suppressed
            ]
            out["ignored"] = r.outcome.ignored
            if "lineage" in out:
                out["lineage"]["findings"] = [describe(f) for f in r.outcome.lineage]
                out["notes"] = [describe(f) for f in r.outcome.lineage if f.severity == "note"]
        return out
    return {
        "file": r.shown,
        "valid": False,  # never report what was not read as valid
        "digest": None,
        "levels": {"syntax": "not_run", "semantics": "not_run"},
        "counts": {"errors": 0, "warnings": 0},
        "findings": [],
        "omitted": [],
        "error": r.error,
    }


def result_dict(
    file: str,
    result: LintResult,
    base_url: str | None = None,
    *,
    describe: _Describer | None = None,
) -> Report:
    describe = describe or _Describer(result, base_url)
    out = {
        "file": file,
        "valid": result.valid,
        "digest": result.digest,
        "levels": result.levels(),
        "counts": _counts(result),
        "findings": [describe(f) for f in result.findings],
        # counted in `counts`, not listed: beyond the first MAX_PER_CODE of a code
        "omitted": [o.to_dict() for o in result.omitted],
    }
    if result.pair is not None:
        # the project's lineage checks (lineage-*): a verdict of their own, never part of
        # levels 1–2 (§8.1); `notes` lists their notes, as it always did
        out["lineage"] = lineage_dict(result, describe)
        out["notes"] = [describe(f) for f in result.notes]
        parent = result.pair.parent
        out["parent"] = {
            "digest": parent.digest,
            "parsed": parent.document is not None,
            # parent.digest against the parent's bytes: match, mismatch, not_recorded, unsupported
            "digest_check": result.pair.digest.state,
        }
    return out


class _Describer:
    """A finding as the JSON report gives it: `Finding.to_dict`, with the end of its value's
    first token (``end_line``, ``end_column``: exclusive, in code points as ``column`` is),
    the advice apart from the problem (`app.finding_advice`), and ``help_url`` absolute with
    a service's base URL. Each finding is described once, however many lists hold it."""

    def __init__(self, result: LintResult, base_url: str | None) -> None:
        from app.finding_advice import split_advice  # the JSON report's alone

        self.split = split_advice
        self.base = base_url.rstrip("/") if base_url else ""
        self.result = result
        self._ends: _Ends | None = None
        self._done: dict[int, Report] = {}

    def __call__(self, finding: Finding) -> Report:
        known = self._done.get(id(finding))
        if known is not None:
            return known
        out = finding.to_dict()
        end_line = end_column = None
        if finding.line is not None and finding.column is not None:
            end_line = finding.line
            end_column = finding.column + self._widths().points(finding.path)
        problem, advice = self.split(finding.message)
        described: Report = {
            "code": out.pop("code"),
            "severity": out.pop("severity"),
            "path": out.pop("path"),
            "line": out.pop("line"),
            "column": out.pop("column"),
            "end_line": end_line,
            "end_column": end_column,
            "message": problem,
            "advice": advice,
            "help_url": self.base + out.pop("help_url"),
        }
        out.pop("message")
        described.update(out)  # related_errors, related
        self._done[id(finding)] = described
        return described

    def _widths(self) -> _Ends:
        if self._ends is None:
            r = self.result
            paths = [f.path for f in (*r.findings, *r.lineage) if f.line is not None]
            self._ends = _Ends(r, paths)
        return self._ends


LINEAGE_NOTE = (
    "the project's own checks of this checkpoint against its parent (spec §9.2, §9.3): what a "
    "compaction or fork dropped, rewrote or weakened; never part of levels 1–2, so never of "
    'valid, and failing a run only when fail-on names them (fail-on = ["lineage"])'
)


def lineage_dict(result: LintResult, describe: _Describer | None = None) -> Report:
    describe = describe or _Describer(result, None)
    return {
        "note": LINEAGE_NOTE,
        "counts": lineage_counts(result),
        "findings": [describe(f) for f in result.lineage],
        "omitted": [o.to_dict() for o in result.lineage_omitted],
    }


def lineage_counts(result: LintResult) -> Report:
    return {
        "errors": result.lineage_count("error"),
        "warnings": result.lineage_count("warning"),
        "notes": result.lineage_count("note"),
    }


def lineage_verdict(result: LintResult) -> str:
    """The lineage checks' own verdict line: ``lineage (its parent, not levels 1–2): …``."""
    counts = lineage_counts(result)
    return (
        "lineage against its parent (the project's checks, not levels 1–2): "
        f"{_count(counts['errors'], 'error')}, {_count(counts['warnings'], 'warning')}, "
        f"{_count(counts['notes'], 'note')}"
    )


def _counts(result: LintResult) -> Report:
    """The totals; ``errors_at_least`` (``warnings_at_least``), a member present only when
    true, says the total is a lower bound: some findings were only counted as at least."""
    out: Report = {"errors": result.errors, "warnings": result.warnings}
    for severity in ("error", "warning"):
        if at_least(result.omitted, severity):
            out[f"{severity}s_at_least"] = True
    return out


def at_least(omitted: Sequence[Omitted], severity: str) -> str:
    """``"at least "`` before a total of ``severity`` that is a lower bound, else nothing."""
    return "at least " if any(o.at_least and o.severity == severity for o in omitted) else ""


def report_dict(
    results: Sequence[FileResult],
    problems: Sequence[str] = (),
    why: str | None = None,
    base_url: str | None = None,
) -> Report:
    """The report; ``problems`` are errors of the run itself (an unreadable --parent), as
    ``errors``, a member present only when there are some; ``why``, the sentence saying why
    the run failed (app/run_failure.py), as ``failure``, present only when it failed."""
    out: Report = {
        "tool": tool_info(),
        "note": VALIDITY_NOTE,
        "results": [file_result_dict(r, base_url) for r in results],
    }
    if problems:
        out["errors"] = list(problems)
    if why:
        out["failure"] = why
    return out


# --- formats ---------------------------------------------------------------------------------
# Each takes the file results and, as keywords, the run's problems and the base URL.


def format_json(
    results: Sequence[FileResult],
    *,
    problems: Sequence[str] = (),
    why: str | None = None,
    base_url: str | None = None,
    **_: object,
) -> str:
    report = report_dict(results, problems, why, base_url)
    return visible_json(report, indent=2) + "\n"


def format_text(
    results: Sequence[FileResult],
    *,
    quiet: bool = False,
    colour: bool = False,
    why: str | None = None,
    **_: object,
) -> str:
    """GNU style, ``file:line:col: severity code message``, then one verdict line a file and,
    for several files, a summary line; ``quiet``: the findings only.

    File names, messages and pointers go through `visible`: one finding is one line, and
    nothing a document holds reaches the terminal as a control character."""
    lines = []
    for r in results:
        if r.result is None:
            continue  # the CLI says on stderr why it could not be read
        name = visible(r.shown)
        lines.extend(
            _finding_lines(name, _shown(r.result, r.listed, lineage=r.listed_lineage), colour)
        )
        if quiet:
            continue
        if r.outcome is not None and r.outcome.suppressed:
            count = len(r.outcome.suppressed)
            lines.append(
                f"{name}: {_count(count, 'finding')} accepted in the configuration, not listed"
            )
        lines.extend(f"{name}: {omitted_sentence(o)}" for o in r.result.omitted)
        bound = functools.partial(at_least, r.result.omitted)  # "at least " or nothing
        lines.append(
            f"{name}: {verdict(r.result.valid)}: "
            f"{bound('error')}{_count(r.result.errors, 'error')}, "
            f"{bound('warning')}{_count(r.result.warnings, 'warning')}"
        )
        if r.result.pair is not None:
            verdict_line = lineage_verdict(r.result)
            if r.result.lineage_count("error") and not (
                r.outcome is not None and r.outcome.lineage_failing
            ):
                # (an error that fails nothing says so: a run of lineage errors exits 0)
                verdict_line += (
                    "; they fail the run only when fail-on names them (--fail-on lineage)"
                )
            lines.append(f"{name}: {verdict_line}")
            lines.extend(f"{name}: since the parent: {visible(line)}" for line in _losses(r.result))
        if r.outcome is not None and r.outcome.failing:
            lines.append(f"{name}: {_fails_by_policy(r.outcome.failing)}")
        if r.outcome is not None and r.outcome.lineage_failing:
            lines.append(
                f"{name}: fails the run: it holds {', '.join(r.outcome.lineage_failing)} "
                "findings, which fail-on names (in the configuration or --fail-on)"
            )
    if why and not quiet:
        lines.append(visible(why))  # why the job failed, at the end of its log
    if len(results) > 1 and not quiet:
        lines.append(_summary_line(results))
    return "".join(line + "\n" for line in lines)


# How many of the parent's objects in force the text report names as lost; the rest counted.
LOSSES_NAMED = 20


def _losses(result: LintResult) -> list[str]:
    """What the child no longer holds as its parent did (§9.2), one short line each."""
    found = result.pair.losses if result.pair is not None else ()
    out = []
    for loss in found[:LOSSES_NAMED]:
        name = repr(loss.id) if loss.id is not None else f"at {loss.parent_pointer}"
        where = f" (at {loss.child_pointer})" if loss.child_pointer else ""
        out.append(f"{loss.change} {loss.what} {name}{where}: {loss.detail}; {loss.recorded}")
    if len(found) > LOSSES_NAMED:
        out.append(f"and {len(found) - LOSSES_NAMED} more")
    return out


def _fails_by_policy(codes: Sequence[str]) -> str:
    """Why a file fails the run though its verdict may read valid: the configuration's
    fail-on (or --fail-on) names warnings it holds."""
    return (
        f"fails the run: it holds {', '.join(codes)} warnings, which fail-on names "
        "(--fail-on, or the configuration's fail-on; by default it names none)"
    )


def _summary_line(results: Sequence[FileResult]) -> str:
    """``3 files: 1 valid, 1 invalid, 1 unreadable; 4 errors, 2 warnings``, and how many
    files fail the run by the configuration's fail-on alone."""
    read = [r.result for r in results if r.result is not None]
    valid = sum(1 for r in read if r.valid)
    unreadable = len(results) - len(read)
    parts = [f"{valid} valid", f"{len(read) - valid} invalid"]
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    errors, warnings = sum(r.errors for r in read), sum(r.warnings for r in read)
    by_policy = sum(
        1
        for r in results
        if r.result is not None and r.result.valid and r.outcome is not None and r.outcome.fails
    )
    failing = f"; {by_policy} valid failing the run by fail-on" if by_policy else ""
    return (
        f"{_count(len(results), 'file')}: {', '.join(parts)}; "
        f"{_count(errors, 'error')}, {_count(warnings, 'warning')}{failing}"
    )


@functools.cache
def _latin1_kept() -> bytes:
    """The Latin-1 characters `visible` keeps, as bytes (most reports are Latin-1: English
    messages with a "§" in them), worked out when a report with findings first asks."""
    return bytes(c for c in range(256) if visible(chr(c)) == chr(c))


def _nothing_to_escape(text: str) -> bool:
    """Whether `visible` leaves ``text`` as it is, decided in C: Latin-1 text as bytes, whose
    kept characters are deleted in one pass (what is left would be escaped); other text by
    str.isprintable (every character `visible` escapes is unprintable: a test holds it)."""
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return text.isprintable() or visible(text) == text
    return not raw.translate(None, _latin1_kept())


def _finding_lines(name: str, findings: Sequence[Finding], colour: bool = False) -> list[str]:
    """``file:line:col: severity code message [path]`` a finding. The lines are written as
    they are and read once for anything `visible` escapes: only when something is (rare) is
    each message and path made visible on its own, two scans a finding. With ``colour``, the
    severity is coloured (the only escape sequences in the output are these)."""
    if not findings:
        return []
    word = _COLOURED if colour else _PLAIN
    lines = []
    for f in findings:
        place = f"{name}:{f.line}:{f.column}" if f.line is not None else name
        where = f" [{f.path}]" if f.path else ""
        lines.append(f"{place}: {f.severity} {f.code} {f.message}{where}")
    # escaping is per character: nothing to escape in the whole, nothing in any line
    if _nothing_to_escape("".join(lines)) and not colour:
        return lines
    lines = []
    for f in findings:
        place = f"{name}:{f.line}:{f.column}" if f.line is not None else name
        where = f" [{visible(f.path)}]" if f.path else ""
        severity = word.get(f.severity, f.severity)
        lines.append(f"{place}: {severity} {f.code} {visible(f.message)}{where}")
    return lines


_PLAIN: dict[str, str] = {}
_COLOURED = {
    "error": "\x1b[1;31merror\x1b[0m",
    "warning": "\x1b[33mwarning\x1b[0m",
    "note": "\x1b[36mnote\x1b[0m",
}


def format_github(
    results: Sequence[FileResult],
    *,
    problems: Sequence[str] = (),
    why: str | None = None,
    **_: object,
) -> str:
    """GitHub Actions workflow commands: one ``::error``/``::warning`` annotation a finding,
    and, when fail-on fails the run, one ``::error`` saying why (a warning fail-on names fails
    it, and its annotation alone reads as a warning).

    Every text is made `visible` and then escaped as the runner decodes it, so no value can
    end the command's line and start another (``::add-mask::``, ``::stop-commands::``)."""
    lines = [f"::error title=ocp::{_gh_data(problem)}" for problem in problems]
    for r in results:
        if r.result is None:
            lines.append(
                f"::error file={_gh_property(r.shown)},title=unreadable::"
                f"{_gh_data(f'{r.shown} cannot be read: {r.error}')}"
            )
            continue
        for f in _shown(r.result, r.listed, lineage=r.listed_lineage):
            props = [f"file={_gh_property(r.shown)}"]
            if f.line is not None:
                props += [f"line={f.line}", f"col={f.column}"]
            props.append(f"title={_gh_property(f.code)}")
            message = f.message + (f" ({f.path})" if f.path else "")
            command = "notice" if f.severity == "note" else f.severity
            lines.append(f"::{command} {','.join(props)}::{_gh_data(message)}")
        for o in r.result.omitted:
            where = f"file={_gh_property(r.shown)},title={_gh_property(o.code)}"
            lines.append(f"::notice {where}::{_gh_data(omitted_sentence(o))}")
    if why and any(_failing_unannotated(r) for r in results):
        # only then: an error's own annotation says why an invalid file fails the job
        lines.append(f"::error title=ocp lint failed::{_gh_data(why)}")
    return "".join(line + "\n" for line in lines)


def _shown(
    result: LintResult,
    findings: list[Finding],
    also: Sequence[Finding] = (),
    lineage: Sequence[Finding] | None = None,
) -> list[Finding]:
    """What a format lists: the findings (those a policy reports), with a parent the lineage
    checks' findings (those a policy reports: ``lineage``), and ``also`` (SARIF's suppressed
    findings), in document order."""
    checked = result.lineage if lineage is None else lineage
    if not checked and not also:
        return findings
    return in_document_order([*findings, *checked, *also])


def omitted_sentence(omitted: Omitted) -> str:
    """What a report says of the findings of one code it counts but does not list."""
    noun = omitted.severity if omitted.count == 1 else f"{omitted.severity}s"
    # a lower bound when checking stopped once the listed ones were known (app/schema.py)
    bound = "at least " if omitted.at_least else ""
    return (
        f"{bound}{omitted.count:,} more {omitted.code} {noun} not listed: a report lists the "
        f"first {MAX_PER_CODE:,} of each code; fix those and lint again"
    )


def _gh_data(value: str) -> str:
    return visible(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(value: str) -> str:
    return _gh_data(value).replace(":", "%3A").replace(",", "%2C")


def format_sarif(
    results: Sequence[FileResult],
    *,
    problems: Sequence[str] = (),
    base_url: str | None = None,
    sarif_root: str | None = None,
    **_: object,
) -> str:
    """SARIF 2.1.0, with every rule described so code-scanning UIs can explain findings.

    Each rule's help travels in the log (its rule page, as text and Markdown); ``helpUri``
    is there only with the base URL of a service that serves the rule pages, never a guess at
    one, and ``informationUri`` is that service's rule pages or the project's documentation
    (`app.project.DOCUMENTATION_URL`). Files are named relative to ``%SRCROOT%``, the folder
    ``sarif_root`` (default: the working directory), as code scanning matches them against
    the repository (`artifact_location`)."""
    from app.project import DOCUMENTATION_URL

    root = _root_folder(sarif_root)
    codes = list(RULES)
    index = {code: i for i, code in enumerate(codes)}
    base = base_url.rstrip("/") if base_url else None
    rules = [_sarif_rule(code, base) for code in codes]
    sarif_results: list[SarifObject] = []
    artifacts: list[SarifObject] = []
    artifact_indexes: dict[tuple[str, str | None], int] = {}
    notifications = [_notification(problem) for problem in problems]
    for r in results:
        if r.result is None:
            notifications.append(
                _notification(
                    f"{r.shown} cannot be read: {r.error}", artifact_location(r.file, root)
                )
            )
            continue
        where = artifact_location(r.file, root)
        # one artifact a file, however many ways it was named (a, ./a, /abs/a): SARIF's
        # artifacts are unique
        key = (where["uri"], where.get("uriBaseId"))
        artifact_index = artifact_indexes.setdefault(key, len(artifacts))
        if artifact_index == len(artifacts):
            artifacts.append({"location": where, "hashes": {"sha-256": r.result.digest[8:]}})
        suppressed = r.outcome.suppressed if r.outcome is not None else ()
        accepted = {id(s.finding): s.reason for s in suppressed}
        # a warning or note that fails the run by fail-on is an error to code scanning: GitHub
        # fails a check on errors, and would show a failed job a warning only
        failing = (
            {*r.outcome.failing, *r.outcome.lineage_failing} if r.outcome is not None else set()
        )
        listed = _shown(
            r.result, r.listed, [s.finding for s in suppressed], lineage=r.listed_lineage
        )
        columns = _Utf16Columns(r.result.analysis.text)
        ends = _Ends(r.result, [f.path for f in listed])
        seen: dict[str, int] = {}
        for f in listed:
            location: SarifObject = {
                "physicalLocation": {
                    "artifactLocation": {**where, "index": artifact_index},
                },
                "logicalLocations": [{"fullyQualifiedName": f.path or "/", "kind": "object"}],
            }
            if f.line is not None:
                start = columns.of(f.line, f.column or 1)
                location["physicalLocation"]["region"] = {
                    "startLine": f.line,
                    "startColumn": start,
                    # the value's token, on its line (a JSON token holds no raw line break)
                    "endLine": f.line,
                    "endColumn": start + ends.width(f.path),
                }
            identity = _line_hash(f)
            seen[identity] = seen.get(identity, 0) + 1
            sarif_results.append(
                {
                    "ruleId": f.code,
                    "ruleIndex": index[f.code],
                    "level": "error" if f.code in failing and id(f) not in accepted else f.severity,
                    "message": {"text": f.message},
                    "locations": [location],
                    "partialFingerprints": {
                        "ocpFinding/v1": _sha256_hex(f"{f.code}\0{f.path}"),
                        # what GitHub matches alerts by across runs: the finding, not its line
                        # (a pointer stays when unrelated lines move), counted when repeated
                        "primaryLocationLineHash": f"{identity}:{seen[identity]}",
                    },
                    "properties": {"path": f.path},
                    # accepted in the project's configuration, with its reason
                    **(
                        {"suppressions": [{"kind": "external", "justification": accepted[id(f)]}]}
                        if id(f) in accepted
                        else {}
                    ),
                }
            )
        notifications.extend(
            _notification(f"{r.shown}: {omitted_sentence(o)}", where, level="note")
            for o in r.result.omitted
        )
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL_NAME,
                        "version": __version__,
                        "semanticVersion": __version__,
                        # a service's rule pages, or the project's documentation
                        "informationUri": f"{base}/rules" if base else DOCUMENTATION_URL,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": _folder_uri(root)}},
                # columns as GitHub's pages count them (a character beyond U+FFFF is two)
                "columnKind": "utf16CodeUnits",
                "invocations": [
                    {
                        "executionSuccessful": all(n["level"] != "error" for n in notifications),
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "artifacts": artifacts,
                "results": sarif_results,
            }
        ],
    }
    return visible_json(log, indent=2) + "\n"


def _failing_unannotated(r: FileResult) -> bool:
    """Whether ``r`` fails the run with no ::error of its own saying so: by fail-on, or
    invalid with its errors left out of the list by the policy."""
    outcome = r.outcome
    if outcome is None or r.result is None:
        return False
    return bool(outcome.failing or outcome.lineage_failing) or r.errors_unlisted


def _notification(
    text: str, where: SarifObject | None = None, *, level: str = "error"
) -> SarifObject:
    out: SarifObject = {"level": level, "message": {"text": text}}
    if where is not None:
        out["locations"] = [{"physicalLocation": {"artifactLocation": where}}]
    return out


SRCROOT = "%SRCROOT%"


def _root_folder(sarif_root: str | None) -> str:
    """The folder SARIF names files from: absolute, normalised, no symbolic link resolved
    (a path the user gave stays the path the repository has)."""
    return os.path.normpath(os.path.abspath(sarif_root or os.getcwd()))


def _folder_uri(folder: str) -> str:
    from pathlib import PurePosixPath  # SARIF's alone: a text or JSON run never loads pathlib

    return PurePosixPath(folder).as_uri().rstrip("/") + "/"


def artifact_location(name: str, root: str) -> SarifObject:
    """Where SARIF says a file argument is: relative to ``%SRCROOT%`` (``root``) when it lies
    inside it, percent-encoded and normalised (``./a/../b.json`` is ``b.json``: code scanning
    opens a new alert when a path changes between runs); an absolute ``file:`` URI when it
    lies outside; standard input as ``stdin``."""
    if name == "-":
        return {"uri": "stdin"}
    from pathlib import PurePosixPath
    from urllib.parse import quote

    path, relative = located(name, root)
    if relative is not None:
        # (its bytes: a name's byte that is not UTF-8 is percent-encoded as it stands)
        return {"uri": quote(os.fsencode(relative), safe="/"), "uriBaseId": SRCROOT}
    return {"uri": PurePosixPath(path).as_uri()}


# Findings about credentials, for GitHub to file as security alerts: its scale of severity
# (7.0 and over is "high"). A credential in the document; userinfo in a resource URI, which
# may be only a user name.
_SECURITY_SEVERITY = {"secret": "8.0", "OCP-S008": "5.0"}
# GitHub shows at most this many characters of a rule's full description.
_DESCRIPTION_LIMIT = 1024


def _sarif_rule(code: str, base: str | None) -> SarifObject:
    rule = RULES[code]
    markdown = rule_markdown(code)
    properties: SarifObject = {"level": rule.level}
    if code in _SECURITY_SEVERITY:
        properties.update(tags=["security"], **{"security-severity": _SECURITY_SEVERITY[code]})
    out: SarifObject = {
        "id": code,
        "name": _rule_name(code),
        "shortDescription": _text_and_markdown(rule.summary),
        "fullDescription": _text_and_markdown(
            _sentences_within(rule.description, _DESCRIPTION_LIMIT)
        ),
        "help": {"text": _plain(rule.description), **({"markdown": markdown} if markdown else {})},
        "defaultConfiguration": {"level": rule.severity},
        "properties": properties,
    }
    if base:
        out["helpUri"] = f"{base}/rules/{code}"
    return out


# SARIF's rule name is an identifier that says what the rule is about, and must differ from
# its id (SARIF1001 compares them ignoring case): "Json" would not.
_RULE_NAMES = {
    "json": "StrictIJson",
    "version": "ImplementedVersion",
    "schema": "SchemaConformance",
    "secret": "NoApparentCredential",
    "digest": "ParentDigestMatches",
}


def _plain(markdown: str) -> str:
    """A rule's sentence, written with Markdown code spans, as plain text (a SARIF ``text`` is
    shown as written: `parent.id` would keep its backticks)."""
    return markdown.replace("`", "")


def _text_and_markdown(markdown: str) -> SarifObject:
    out: SarifObject = {"text": _plain(markdown)}
    if "`" in markdown:
        out["markdown"] = markdown
    return out


def _sentences_within(text: str, limit: int) -> str:
    """``text``, or as many of its first sentences as fit in ``limit`` characters (the rest is
    in the rule's help, whole)."""
    if len(text) <= limit:
        return text
    cut = text.rfind(". ", 0, limit)
    return text[: cut + 1] if cut > 0 else text[: limit - 1] + "…"


def _line_hash(finding: Finding) -> str:
    """The finding's identity for GitHub (code, pointer and message): two findings at one
    place differ, and a finding keeps its hash when lines above it move."""
    return _sha256_hex(f"{finding.code}\0{finding.path}\0{finding.message}")[:16]


def _sha256_hex(text: str) -> str:
    import hashlib  # here: its import loads OpenSSL, which only a SARIF report needs

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class _Ends:
    """The width of the token each finding's value starts with (`app.positions.token_end`),
    from the offsets the analysis found already: in UTF-16 code units for SARIF (`width`),
    in code points for the JSON report (`points`)."""

    def __init__(self, result: LintResult, paths: list[str]) -> None:
        self.text = result.analysis.text or ""
        self.offsets = result.analysis.source.offsets(paths) if self.text else {}
        # one reading a value, however many findings it has (distinct scalars do not
        # overlap: all of them together are at most the text)
        self._widths: dict[str, tuple[int, int]] = {}

    def width(self, path: str) -> int:
        return self._measure(path)[1]

    def points(self, path: str) -> int:
        return self._measure(path)[0]

    def _measure(self, path: str) -> tuple[int, int]:
        known = self._widths.get(path)
        if known is not None:
            return known
        offset = self.offsets.get(path)
        measured = (1, 1)
        if offset is not None:
            from app.positions import token_end  # a report with findings: a valid one has none

            token = self.text[offset : token_end(self.text, offset)]
            if token:  # (none at the end of a text: a one-character span, as the schema wants)
                measured = (len(token), len(token) + len(re.findall(_ASTRAL, token)))
        self._widths[path] = measured
        return measured


class _Utf16Columns:
    """A finding's column (1-based, in code points) as UTF-16 code units. Only a document
    with a character beyond U+FFFF needs counting: its line starts are found once, and the
    findings, asked in document order, are counted from the one before on the same line (a
    document on one line with a thousand findings is read once, not a thousand times)."""

    def __init__(self, text: str | None) -> None:
        self.text = text if text is not None and re.search(_ASTRAL, text) else None
        self._starts: list[int] | None = None
        self._at = (0, 0, 0)  # line, column and the astral characters before it on the line

    def of(self, line: int, column: int) -> int:
        if self.text is None:
            return column
        if self._starts is None:
            self._starts = [0, *(m.end() for m in re.finditer("\n", self.text))]
        if line > len(self._starts):
            return column
        start = self._starts[line - 1]
        last_line, last_column, before = self._at
        if last_line != line or last_column > column:
            last_column, before = 1, 0  # another line, or out of order: from its start
        astral = re.compile(_ASTRAL)  # (re's cache)
        before += len(astral.findall(self.text, start + last_column - 1, start + column - 1))
        self._at = (line, column, before)
        return column + before


_ASTRAL = "[\U00010000-\U0010ffff]"  # compiled where first used (re's cache): few texts hold one


def _rule_name(code: str) -> str:
    derived = "".join(part.capitalize() for part in code.replace("-", " ").split())
    return _RULE_NAMES.get(code, derived)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


FORMATS: dict[str, Callable[..., str]] = {
    "text": format_text,
    "json": format_json,
    "sarif": format_sarif,
    "github": format_github,
}
