"""The submitted text, redacted, with line numbers and the findings at their lines."""

from __future__ import annotations

from datetime import datetime

from app.analysis import LintResult
from app.render.context import Context, new_context
from app.render.model import Model, SourceLine, SourceSection

# A page lists at most this many characters of a line: a document written on one line (4 MB of
# JSON without a newline) would otherwise be listed whole, the largest part of its page.
SOURCE_LINE_CHARS = 2000


def build_source(ctx: Context) -> SourceSection:
    """The submitted text as numbered lines, each with the findings that start on it: the
    analysis's `shown_text`, redacted keeping the line count, so anchors stay right."""
    analysis = ctx.result.analysis
    text = analysis.shown_text
    submitted = analysis.text if analysis.text is not None else None
    flagged = bool(analysis.secrets) or (submitted is not None and text != submitted)
    raw_lines = text.split("\n")
    if len(raw_lines) > 1 and raw_lines[-1] == "":
        raw_lines.pop()
    at_line = _findings_by_line(ctx)
    shown = ctx.shown_lines
    # a page clips long lines; the JSON twin keeps them whole
    most = SOURCE_LINE_CHARS if ctx.limit is not None else None
    carriage = "\r" in text
    count = len(raw_lines)
    lines: list[SourceLine]
    if shown is None and not carriage and (most is None or max(map(len, raw_lines)) <= most):
        # every line listed whole, as most documents have it: one comprehension
        lines = [
            {
                "number": number,
                "anchor": f"L{number}",
                "text": line,
                "findings": at_line.get(number) or [],
                "hidden_before": 0,
                "clipped": 0,
            }
            for number, line in enumerate(raw_lines, start=1)
        ]
        return _section(ctx, flagged, count, lines, count)
    listed = range(1, count + 1) if shown is None else sorted(n for n in shown if n <= count)
    lines = []
    previous = 0  # the number of the line listed last
    for number in listed:
        line = raw_lines[number - 1]
        if carriage:
            line = line.removesuffix("\r")
        clipped = len(line) - most if most is not None and len(line) > most else 0
        lines.append(
            {
                "number": number,
                "anchor": f"L{number}",
                "text": line[: len(line) - clipped] if clipped else line,
                "findings": at_line.get(number, []),
                "hidden_before": number - previous - 1,
                "clipped": clipped,
            }
        )
        previous = number
    return _section(ctx, flagged, count, lines, previous)


def _section(
    ctx: Context, flagged: bool, count: int, lines: list[SourceLine], previous: int
) -> SourceSection:
    """The source section of ``lines``, the last listed being line ``previous``."""
    shown = ctx.shown_lines
    return {
        "anchor": "source",
        "title": "Source",
        "line_count": count,
        "utf8": ctx.result.text is not None,
        "note": (
            None
            if ctx.result.text is not None
            else "The bytes could not be read as UTF-8 text; they are shown with U+FFFD where "
            "they could not be decoded."
        ),
        "redacted": bool(flagged),
        "lines": lines,
        # lines left out of `lines` after the last listed one (see SOURCE_LINE_LIMIT)
        "hidden_after": count - previous,
        "complete": shown is None,
    }


def _findings_by_line(ctx: Context) -> dict[int, list[Model]]:
    """The findings that start on each line; ``listed``: whether a page lists the finding
    (its first ``ctx.limit``), so the mark can link to it."""
    out: dict[int, list[Model]] = {}
    limit = ctx.limit
    for index, finding in enumerate(ctx.result.findings):
        if isinstance(finding.line, int):
            out.setdefault(finding.line, []).append(
                {
                    "index": index,
                    "code": finding.code,
                    "severity": finding.severity,
                    "anchor": f"finding-{index}",
                    "listed": limit is None or index < limit,
                }
            )
    return out


def build_listing(result: LintResult, now: datetime, list_limit: int) -> SourceSection:
    """Every line of the submitted text, as a source page lists it: a checkpoint page of a
    long document lists its first lines and those around its findings, and links here for
    the rest. Long lines are clipped as on the page (the raw bytes are a link away), and the
    marks link to the findings the page lists (its first ``list_limit``)."""
    return build_source(new_context(result, now, list_limit, every_line=True))
