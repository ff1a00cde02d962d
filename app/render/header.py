"""The header (task, source, validity, lineage) and the findings section."""

from __future__ import annotations

from typing import Any

from app.digests import DigestCheck
from app.findings import MAX_PER_CODE, Finding
from app.json_values import text_of
from app.render.context import Context, as_object, links_to, object_items, texts_of
from app.render.model import NOTE_SOURCE_MEMBER, FindingItem, FindingsSection, Model
from app.report import (
    VALIDITY_NOTE,
    VERDICT_INVALID,
    VERDICT_VALID,
    at_least,
    lineage_counts,
    omitted_sentence,
)


def build_header(ctx: Context) -> Model:
    """What the checkpoint is and what the linter found, with the limits of that verdict.

    The verdict is "valid (levels 1–2)" or "invalid", never a word about safety or
    authority; the validity note says what validity does not mean (§8.1)."""
    doc = ctx.document or {}
    task = as_object(doc.get("task"))
    source = as_object(doc.get("source"))
    result = ctx.result
    return {
        "anchor": "header",
        "title": "Checkpoint",
        "checkpoint_id": text_of(doc.get("id")),
        "opencheckpoint": ctx.format_version,
        "objective": text_of(task.get("objective")),
        "outcome": text_of(task.get("outcome")),
        "task_status": text_of(task.get("status")),
        "success_criteria": _criteria(ctx, task.get("success_criteria")),
        "scope": {
            "includes": texts_of(as_object(task.get("scope")).get("includes")),
            "excludes": texts_of(as_object(task.get("scope")).get("excludes")),
        },
        "producer": text_of(source.get("producer")),
        "agent": text_of(source.get("agent")),
        "model": text_of(source.get("model")),
        "source_note": NOTE_SOURCE_MEMBER,
        "created_at": text_of(doc.get("created_at")),
        "created_age": ctx.age(ctx.created_at),
        "verdict": VERDICT_VALID if result.valid else VERDICT_INVALID,
        "valid": result.valid,
        "errors": result.errors,
        "warnings": result.warnings,
        # "at least " when a count is a lower bound (a check stopped once a report's share
        # was known), else ""
        "errors_bound": at_least(result.omitted, "error"),
        "warnings_bound": at_least(result.omitted, "warning"),
        # the lineage checks against the parent, counted in the banner beside the verdict
        "lineage_counts": lineage_counts(result) if result.pair is not None else None,
        "levels": dict(result.levels()),
        "validity_note": VALIDITY_NOTE,
        "digest": result.digest,
        "secrets_redacted": len(result.secrets),
        # the number of flagged places the scan stopped past (the document is then withheld
        # whole), or None when it read the whole document
        "secrets_scan_stopped_past": (None if result.analysis.redaction.complete else MAX_PER_CODE),
        "lineage": _lineage(ctx),
    }


def _criteria(ctx: Context, value: object) -> list[Model]:
    return [
        ctx.card(
            ("task", "success_criteria", i),
            {
                "description": text_of(item.get("description")),
                "status": text_of(item.get("status")),
                "evidence": links_to(ctx, item.get("evidence")),
            },
        )
        for i, item in object_items(value)
    ]


def _lineage(ctx: Context) -> Model:
    """The recorded parent, and, when the parent was supplied, whether it matches."""
    recorded = as_object((ctx.document or {}).get("parent"))
    out: dict[str, Any] = {
        "parent_id": text_of(recorded.get("id")),
        "parent_digest": text_of(recorded.get("digest")),
        "parent_supplied": ctx.parent is not None,
        "supplied": None,
    }
    if ctx.parent is None:
        return out
    supplied = ctx.parent_document or {}
    out["supplied"] = {
        "id": text_of(supplied.get("id")),
        "created_at": text_of(supplied.get("created_at")),
        "objective": text_of(as_object(supplied.get("task")).get("objective")),
        "valid": ctx.parent.valid,
        # its apparent credentials (§10.5): shown withheld, and never stored with the child
        "credentials": len(ctx.parent.secrets),
        "digest": ctx.parent.digest,
        "id_matches": (
            recorded.get("id") == supplied.get("id") if "id" in recorded and supplied else None
        ),
        "digest_matches": (
            ctx.digest.state == "match"
            if ctx.digest is not None and ctx.digest.comparable
            else None
        ),
        # which rendering of a pasted parent matched: exact bytes, as sent, or CRLF made LF
        "digest_matched": ctx.digest.matched if ctx.digest is not None else None,
    }
    return out


def _digest_matches(check: DigestCheck | None) -> bool | None:
    """parent.digest against the parent's bytes (§10.6); None when not comparable."""
    if check is None or not check.comparable:
        return None
    return check.state == "match"


# --- findings -----------------------------------------------------------------------------


def build_findings(ctx: Context) -> FindingsSection:
    """The findings, as a page lists them: its first ``ctx.limit`` (a page of 3,000 built
    every one to show 150), the rest counted as ``hidden``; every one in the JSON twin."""
    result = ctx.result
    listed = result.findings[: ctx.limit]
    section: FindingsSection = {
        "anchor": "findings",
        "title": "Findings",
        "count": len(result.findings),
        "errors": result.errors,
        "warnings": result.warnings,
        # "at least " when a count is a lower bound (a check stopped once a report's share
        # was known), else ""
        "errors_bound": at_least(result.omitted, "error"),
        "warnings_bound": at_least(result.omitted, "warning"),
        "items": [_finding(ctx, i, f) for i, f in enumerate(listed)],
        # the project's lineage checks against the parent (with one): errors, warnings and
        # notes with a verdict line of their own, never counted in levels 1–2
        "notes": [_finding(ctx, i, f, "lineage") for i, f in enumerate(result.lineage)],
        "lineage": lineage_counts(result) if result.pair is not None else None,
        # findings counted, not listed (beyond the first of each code): one sentence a code
        "omitted": [omitted_sentence(o) for o in result.omitted],
    }
    if len(listed) < len(result.findings):
        section["hidden"] = len(result.findings) - len(listed)
    return section


def _finding(ctx: Context, index: int, finding: Finding, prefix: str = "finding") -> FindingItem:
    """One finding, linked to its rule page, the local object it concerns and its line.
    Paths are redacted too: a flagged member name is part of its own path."""
    object_id, object_anchor = _innermost_object(ctx, finding.path)
    return {
        "index": index,
        "anchor": f"{prefix}-{index}",
        "code": finding.code,
        "severity": finding.severity,
        "message": finding.message,  # redacted by the lint (app/redaction.py)
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "rule_url": f"/rules/{finding.code}",
        "object_id": object_id,
        "object_anchor": object_anchor,
        "line_anchor": f"L{finding.line}" if finding.line is not None else None,
    }


def _innermost_object(ctx: Context, pointer: str) -> tuple[str | None, str | None]:
    """The id and anchor of the innermost local object whose path contains ``pointer``."""
    candidate = pointer
    while True:
        owner = ctx.owners.get(candidate)
        if owner is not None:
            return owner
        if not candidate:
            return None, None
        candidate = candidate[: candidate.rfind("/")]
