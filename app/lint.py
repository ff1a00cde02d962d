"""The lint pipeline: bytes in, one report out (report-contract.md).

intake (json) → version gate (version) → schema (schema, level 1) → rules (OCP-*, level 2,
only when level 1 passed) → lineage rules with a parent → secret scan → positions.
Nothing runs after a `json` or a `version` error, as the report contract says. The secret
scan runs all the same and its findings are kept aside (``LintResult.secrets``): a credential
is leaked whatever the version says, so the page redacts it and the service refuses to store
it (§10.5); only the report leaves them out.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

from app.checkpoint import Checkpoint
from app.findings import Finding
from app.parse import DEFAULT_LIMITS, Intake, Limits, parse
from app.positions import locate
from app.redaction import redact_findings
from app.rules import Parent, check_document, check_lineage
from app.schema import check_schema
from app.secrets import secret_findings
from app.version import check_version

LevelState = Literal["pass", "fail", "not_run"]


@dataclass(slots=True)
class ParentInput:
    """The parent as supplied: its bytes and what intake made of them."""

    data: bytes
    intake: Intake

    @property
    def usable(self) -> bool:
        return self.intake.document is not None


@dataclass(slots=True)
class LintResult:
    data: bytes
    intake: Intake
    findings: list[Finding]
    syntax: LevelState
    semantics: LevelState
    parent: ParentInput | None = None
    timings: dict[str, float] = field(default_factory=dict)
    # every apparent credential, also those the report leaves out after a version error
    secrets: list[Finding] = field(default_factory=list)
    # the version gate's refusal: a version this tool does not implement is never
    # interpreted (§5.1), only shown as text
    version_error: Finding | None = None

    @property
    def document(self) -> dict | None:
        return self.intake.document

    @property
    def text(self) -> str | None:
        return self.intake.text

    @property
    def valid(self) -> bool:
        return self.syntax == "pass" and not any(f.severity == "error" for f in self.findings)

    @property
    def digest(self) -> str:
        return "sha-256:" + hashlib.sha256(self.data).hexdigest()

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity == "warning" for f in self.findings)

    def levels(self) -> dict[str, LevelState]:
        return {"syntax": self.syntax, "semantics": self.semantics}


def lint(
    data: bytes, *, parent: bytes | None = None, limits: Limits = DEFAULT_LIMITS
) -> LintResult:
    timings: dict[str, float] = {}
    stage = _stopwatch(timings)

    with stage("intake"):
        intake = parse(data, limits)
    parent_input = None
    if parent is not None:
        parent_input = ParentInput(parent, parse(parent, limits))
    findings = list(intake.findings)
    result = LintResult(data, intake, findings, "not_run", "not_run", parent_input, timings)
    document = intake.document
    if document is None:
        result.syntax = "fail"
        return result

    with stage("schema"):
        version_finding = check_version(document)
        schema_findings = [] if version_finding else check_schema(document)
    if version_finding:
        findings.append(version_finding)
        result.version_error = version_finding
    findings.extend(schema_findings)
    result.syntax = "fail" if version_finding or schema_findings else "pass"

    if result.syntax == "pass":
        with stage("rules"):
            checkpoint = Checkpoint(document)
            semantic = check_document(checkpoint)
            if parent_input is not None and parent_input.usable:
                assert parent_input.intake.document is not None
                semantic += check_lineage(
                    checkpoint,
                    Parent(Checkpoint(parent_input.intake.document), parent),  # type: ignore[arg-type]
                    notes=False,  # the report has the contract's codes only
                )
        findings.extend(semantic)
        result.semantics = "fail" if any(f.severity == "error" for f in semantic) else "pass"

    with stage("secrets"):
        result.secrets = secret_findings(document)
    if not version_finding:
        findings.extend(result.secrets)

    with stage("positions"):
        result.findings = _positioned(findings, intake.text or "")
    if result.secrets:
        # No report repeats a credential: messages quote values, paths name members.
        with stage("redaction"):
            result.findings = redact_findings(result.findings)
    return result


def _positioned(findings: list[Finding], text: str) -> list[Finding]:
    """Fill in line and column, and order findings as they appear in the document."""
    missing = {f.path for f in findings if f.line is None}
    places = locate(text, missing) if missing and text else {}
    placed = [
        f if f.line is not None else f.at(*places.get(f.path, (None, None))) for f in findings
    ]
    return sorted(placed, key=lambda f: (f.line is None, f.line or 0, f.column or 0))


def _stopwatch(timings: dict[str, float]) -> Callable:
    @contextmanager
    def stage(name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            timings[name] = timings.get(name, 0.0) + time.perf_counter() - start

    return stage
