"""A finding: one problem, at one place, in words a person can act on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby

from app import TYPE_CHECKING
from app.record import Record

if TYPE_CHECKING:
    from typing import Any, Final, Literal

    Severity = Literal["error", "warning", "note"]  # each of SEVERITIES, as the checker reads it

# A note is advice beside the report's findings: the project's lineage checks that rest on
# what the linter cannot read exactly (an omission's words, a rewrite's intent). Notes never
# count towards validity and are kept apart from `findings` in the JSON report (`notes`).
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "note")


class Finding(Record):
    """A value: made once a finding and again when placed (`at`) or redacted, thousands of
    times for some documents: a record with slots, made about as cheaply as a named tuple and
    far more cheaply than a frozen dataclass (each field set through object.__setattr__),
    and defined without generating code (app/record.py)."""

    __slots__ = ("code", "column", "line", "message", "path", "related", "severity")

    code: Final[str]
    severity: Final[Severity]
    path: Final[str]  # a JSON Pointer into the submitted document; "" is the whole document
    message: Final[str]
    line: Final[int | None]  # 1-based, of the value at `path` in the submitted bytes
    column: Final[int | None]  # 1-based, counted in Unicode code points
    # Lower-level validator errors this finding stands for (schema findings collapse cascades).
    related: Final[tuple[str, ...]]

    def __init__(
        self,
        code: str,
        severity: Severity,
        path: str,
        message: str,
        line: int | None = None,
        column: int | None = None,
        related: tuple[str, ...] = (),
    ) -> None:
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.related = related

    def at(self, line: int | None, column: int | None) -> Finding:
        """This finding, placed."""
        return Finding(
            self.code, self.severity, self.path, self.message, line, column, self.related
        )

    @property
    def help_url(self) -> str:
        return f"/rules/{self.code}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "help_url": self.help_url,
        }
        if self.related:
            out["related_errors"] = len(self.related)
            out["related"] = list(self.related)
        return out


def in_document_order(findings: Iterable[Finding]) -> list[Finding]:
    """Findings by line and column, those without a place last, each group as it came."""
    return sorted(findings, key=lambda f: (f.line is None, f.line or 0, f.column or 0))


# A document may hold any number of problems of one kind (480,000 unresolved references fit in
# 5 MB); a report lists the first of each code, in the order found, and counts the rest, so
# its size and the work of placing and showing it stay bounded by the codes, not the input.
MAX_PER_CODE = 1000


class Omitted(Record):
    """The findings of one code and severity a report counts but does not list."""

    __slots__ = ("at_least", "code", "count", "severity")

    code: Final[str]
    severity: Final[Severity]
    count: Final[int]
    # the count is a lower bound: checking stopped once the listed findings were known, and
    # what was only counted holds at least this many (app/schema.py, "windows")
    at_least: Final[bool]

    def __init__(self, code: str, severity: Severity, count: int, at_least: bool = False) -> None:
        self.code = code
        self.severity = severity
        self.count = count
        self.at_least = at_least

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "severity": self.severity, "count": self.count}
        if self.at_least:
            out["at_least"] = True
        return out


def capped(
    findings: Iterable[Finding], per_code: int = MAX_PER_CODE
) -> tuple[list[Finding], list[Omitted]]:
    """The first ``per_code`` findings of each code and severity, and a count of the rest."""
    findings = list(findings)
    # Runs of one object taken at once: the checks count the findings past their own cap with
    # one placeholder repeated (45,000 of them on one line of unresolved references), so a
    # code's count is a run's length, in C, not a step for each of them.
    runs = [list(run) for _, run in groupby(findings, key=id)]
    seen: dict[tuple[str, Severity], int] = {}
    for same in runs:
        key = (same[0].code, same[0].severity)
        seen[key] = seen.get(key, 0) + len(same)
    if not seen or max(seen.values()) <= per_code:
        return findings, []  # nothing past the cap (the rule): kept as it is
    kept: list[Finding] = []
    seen = {}
    for same in runs:
        finding = same[0]
        key = (finding.code, finding.severity)
        n = seen.get(key, 0)
        seen[key] = n + len(same)
        if n < per_code:
            kept.extend(same[: per_code - n])
    omitted = [Omitted(code, sev, n - per_code) for (code, sev), n in seen.items() if n > per_code]
    return kept, omitted


def merge_omitted(*groups: Iterable[Omitted]) -> tuple[Omitted, ...]:
    """One count per code and severity across several reports' omissions (a child's own and
    its lineage findings); a sum with a lower bound in it is a lower bound."""
    totals: dict[tuple[str, Severity], int] = {}
    bounds: set[tuple[str, Severity]] = set()
    for group in groups:
        for o in group:
            totals[(o.code, o.severity)] = totals.get((o.code, o.severity), 0) + o.count
            if o.at_least:
                bounds.add((o.code, o.severity))
    return tuple(Omitted(code, sev, n, (code, sev) in bounds) for (code, sev), n in totals.items())


class SchemaCheck(Record):
    """Level 1 as a report lists it. ``findings``: in document order, the first ``limit`` with
    their messages and the rest found there to be counted, with none; ``more``: at least this
    many findings besides, never built (past the first failing items of a long array, each of
    the others that fails holds at least one; see "windows" in app/schema.py)."""

    __slots__ = ("findings", "more")

    findings: Final[Sequence[Finding]]
    more: Final[int]

    def __init__(self, findings: Sequence[Finding] = (), more: int = 0) -> None:
        self.findings = findings
        self.more = more

    @property
    def valid(self) -> bool:
        return not self.findings and not self.more

    @property
    def unlisted(self) -> tuple[Omitted, ...]:
        """The findings only known to be there, as a report counts them: a lower bound."""
        if not self.more:
            return ()
        return (Omitted("schema", "error", self.more, at_least=True),)
