"""One analysis of a document, and one of a document with its parent: every stage runs once.

`analyze(bytes)`: intake (json) → version gate (version) → schema (schema, level 1) → rules
(OCP-*, level 2, only when level 1 passed) → secret scan → positions → redaction. Nothing is
reported after a `json` or a `version` error, as the report contract says; the secret scan runs
all the same and its findings are kept aside (`Analysis.secrets`): a credential is leaked
whatever the version says, so pages redact it and the service refuses to store it (§10.5).

`pair(child, parent)`: the findings that need both documents (OCP-T001, OCP-T002, digest and the
§9.2/§9.3 lineage checks), run once, from the two analyses.

An `Analysis` is immutable. Every consumer (the CLI's lint, render and diff; the service's
pages, its live panel, permalinks, lineage and diff pages) takes analyses and never reruns a
stage: the render model reads the analysis's index, redacted document and source map; the diff
reads a pair. The service keeps analyses by digest, so a stored document is analysed once.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property

from app import TYPE_CHECKING
from app.checkpoint import Checkpoint
from app.findings import (
    MAX_PER_CODE,
    Finding,
    Omitted,
    SchemaCheck,
    capped,
    in_document_order,
    merge_omitted,
)
from app.parse import DEFAULT_LIMITS, Document, Intake, Limits, parse
from app.redaction import Redaction, redacted_unparsed, unparsed_findings
from app.rules import Parent, check_document, check_lineage
from app.schema_screen import conforms, screen_pays
from app.secrets import SecretScan, findings_of, scan_document
from app.version import check_version
from app.visible import may_decode_to_controls

if TYPE_CHECKING:  # imported where a pair is made: a document alone never needs them
    from typing import Final, Literal

    LevelState = Literal["pass", "fail", "not_run"]
    from app.digests import DigestCheck, Rendering
    from app.rules.compaction import Loss


class SourceMap:
    """Where values sit in the submitted text. Each set of pointers asked for costs one walk
    over the text, and every offset found is remembered; lines are counted between the offsets
    asked for (`app.positions.line_cols`)."""

    def __init__(self, text: str | None) -> None:
        self.text = text
        self._offsets: dict[str, int | None] = {}

    @cached_property
    def line_count(self) -> int:
        return self.text.count("\n") + 1 if self.text else 1

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in code points) of ``offset``."""
        from app.positions import line_cols

        return line_cols(self.text or "", [offset])[offset]

    def offsets(self, pointers: Iterable[str]) -> dict[str, int]:
        """Offset of the value at each pointer that resolves."""
        known = self._offsets
        asked = dict.fromkeys(pointers)
        # the first walk (the findings'): nothing to look up first
        wanted = [p for p in asked if p not in known] if known else list(asked)
        if wanted and self.text:
            # imported by a document with findings to place: a valid one never asks
            from app.positions import offsets

            try:
                found = offsets(self.text, wanted)
            except (ValueError, IndexError, RecursionError):
                found = {}
            known.update(dict.fromkeys(wanted))  # None: no value there
            known.update(found)
            if len(wanted) == len(asked):
                return found
        return {p: o for p in asked if (o := known.get(p)) is not None}

    def locate(self, pointers: Iterable[str]) -> dict[str, tuple[int, int]]:
        found = self.offsets(pointers)
        if not found:
            return {}
        from app.positions import line_cols

        places = line_cols(self.text or "", found.values())
        return {p: places[o] for p, o in found.items()}

    def lines(self, pointers: Iterable[str]) -> dict[str, int]:
        return {p: place[0] for p, place in self.locate(pointers).items()}


class Verdict:
    """The verdict and the counts of a report, from its findings (those listed and those only
    counted) and its levels: one reading for a document alone and for a document with its
    parent. Nothing here but levels 1–2 (§8.1)."""

    if TYPE_CHECKING:  # what each report has, as a field or a property of its own

        @property
        def syntax(self) -> LevelState: ...
        @property
        def semantics(self) -> LevelState: ...
        @property
        def findings(self) -> Sequence[Finding]: ...
        @property
        def omitted(self) -> Sequence[Omitted]: ...

    @property
    def valid(self) -> bool:
        return self.syntax == "pass" and self.errors == 0

    @property
    def errors(self) -> int:
        return _tally("error", self.findings, self.omitted)

    @property
    def warnings(self) -> int:
        return _tally("warning", self.findings, self.omitted)

    def levels(self) -> dict[str, LevelState]:
        return {"syntax": self.syntax, "semantics": self.semantics}


class Analysis(Verdict):
    """Everything known about one document's bytes, computed once.

    A plain class, not a dataclass: defining one costs CPython 3.11 about a millisecond
    (its methods are generated from source and compiled), and `ocp lint` of one small file
    must start within 3× a bare interpreter (issue 28). `Final` has mypy hold it immutable."""

    data: Final[bytes]
    intake: Final[Intake]
    findings: Final[tuple[Finding, ...]]  # the report's, positioned, in document order, redacted
    # every apparent credential, also after a version error, unredacted: what `redacted`
    # withholds; show their paths only as `secret_paths` gives them
    secrets: Final[tuple[Finding, ...]]
    syntax: Final[LevelState]
    semantics: Final[LevelState]
    # the version gate's refusal: a version this tool does not implement is never
    # interpreted (§5.1), only shown as text
    version_error: Final[Finding | None]
    checkpoint: Final[Checkpoint | None]  # the index of the document as submitted
    source: Final[SourceMap]
    redaction: Final[Redaction]  # what to withhold (§10.5)
    timings: Final[Mapping[str, float]]
    # findings counted, not listed: beyond MAX_PER_CODE of one code (app/findings.py)
    omitted: Final[tuple[Omitted, ...]]

    def __init__(
        self,
        data: bytes,
        intake: Intake,
        findings: tuple[Finding, ...],
        secrets: tuple[Finding, ...],
        syntax: LevelState,
        semantics: LevelState,
        version_error: Finding | None,
        checkpoint: Checkpoint | None,
        source: SourceMap,
        redaction: Redaction | None = None,
        timings: Mapping[str, float] | None = None,
        omitted: tuple[Omitted, ...] = (),
    ) -> None:
        self.data = data
        self.intake = intake
        self.findings = findings
        self.secrets = secrets
        self.syntax = syntax
        self.semantics = semantics
        self.version_error = version_error
        self.checkpoint = checkpoint
        self.source = source
        self.redaction = Redaction() if redaction is None else redaction
        self.timings = {} if timings is None else timings
        self.omitted = omitted

    @property
    def document(self) -> Document | None:
        return self.intake.document

    @cached_property
    def digest(self) -> str:
        """sha-256 of the exact bytes, computed when first asked: a linter's text report never
        asks, and hashing's first use loads OpenSSL (some 4 ms of a run)."""
        from app.digests import sha256_digest

        return sha256_digest(self.data)

    @property
    def text(self) -> str | None:
        return self.intake.text

    @property
    def interpretable(self) -> bool:
        """A document of the version this tool implements: its fields mean what §6 says."""
        return self.intake.document is not None and self.version_error is None

    @property
    def secret_paths(self) -> list[str]:
        """Where each apparent credential is, its pointer withheld where it names one (a
        flagged member name goes whole): what a refusal may say."""
        return [self.redaction.pointer(f.path) for f in self.secrets]

    @cached_property
    def redacted(self) -> Document | None:
        """The document with every apparent credential withheld (app/redaction.py): what a
        page, a diff or a model is shown. The document itself when it holds none."""
        return self.redaction.document(self.intake.document)

    @cached_property
    def shown(self) -> Checkpoint | None:
        """The index of the redacted document; the same index when nothing was redacted."""
        redacted = self.redacted
        if redacted is None:
            return None
        if redacted is self.intake.document and self.checkpoint is not None:
            return self.checkpoint
        return Checkpoint(redacted)

    @cached_property
    def may_hold_controls(self) -> bool:
        """Whether a text the document holds may decode to a terminal control, which a page
        then writes as an escape (app/visible.py): False is certain, and spares the page the
        search."""
        return may_decode_to_controls(self.data)

    @cached_property
    def shown_text(self) -> str:
        """The submitted text as a page lists it: every flagged value (and flagged member
        name) withheld, line breaks kept; bytes that are not UTF-8 decoded with U+FFFD. Text
        that did not parse has no values to find, so the secret scanner reads it whole."""
        text = self.text if self.text is not None else self.data.decode("utf-8", "replace")
        if self.intake.document is None:
            # (and what a child repeats of its parent's credentials, `_beside`)
            return self.redaction.known_kept_lines(redacted_unparsed(text))
        if not self.redaction.active:
            return text
        return self.redaction.source(text, self.source.offsets(self.redaction.paths))


def analyze(
    data: bytes,
    limits: Limits = DEFAULT_LIMITS,
    *,
    intake: Intake | None = None,
    secret_free: bool = False,
) -> Analysis:
    """Every stage once. ``intake``: the parse of ``data`` a gate already made (storing reads
    it first); ``secret_free``: that gate's scan found no credential in it
    (`app.secrets.first_secret`, the same scan stopping at its first hit), so none is run."""
    timings: dict[str, float] = {}
    stage = _stopwatch(timings)

    if intake is None:
        with stage("intake"):
            intake = parse(data, limits)
    findings = list(intake.findings)
    document = intake.document
    source = SourceMap(intake.text)
    if document is None:
        return Analysis(
            data,
            intake,
            tuple(unparsed_findings(findings)),
            (),
            "fail",
            "not_run",
            None,
            None,
            source,
            timings=timings,
        )

    with stage("schema"):
        version_error = check_version(document)
        schema = SchemaCheck() if version_error else check_level_one(document, len(data))
    if version_error:
        findings.append(version_error)
    findings.extend(schema.findings)
    syntax: LevelState = "fail" if version_error or not schema.valid else "pass"

    checkpoint = Checkpoint(document)
    semantics: LevelState = "not_run"
    if syntax == "pass":
        with stage("rules"):
            semantic = check_document(checkpoint)
        findings.extend(semantic)
        semantics = "fail" if any(f.severity == "error" for f in semantic) else "pass"

    with stage("secrets"):
        # past MAX_PER_CODE flagged places the scan stops: the rest are only "more", and the
        # document is withheld whole (`Redaction.complete`)
        # (the strings read from the text, when intake read it whole: no walk of the document
        # unless something is found)
        text = intake.text if intake.verbatim else None
        scan = (
            SecretScan([], True)
            if secret_free
            else scan_document(document, MAX_PER_CODE, source=text)
        )
        secrets = findings_of(scan.hits)
        redaction = Redaction.of(document, scan.hits, complete=scan.complete)
    if not version_error:
        findings.extend(secrets)
    findings, counted = capped(findings)
    unscanned = () if scan.complete or version_error else (Omitted("secret", "warning", 0, True),)
    omitted = merge_omitted(counted, schema.unlisted, unscanned)

    with stage("positions"):
        # The findings' places only: the credentials' (a page's source listing withholds
        # them: `shown_text`) are found on first use, and the lines of the cards a page shows
        # by the page (app/render/context.py `place_lines`), so a lint of 10,000 flagged
        # values never looks for them.
        placed = _positioned(findings, source)
    if redaction.active:
        # No report repeats a credential: messages quote values, paths name members. The
        # secret findings kept aside stay as found: they say what to withhold.
        with stage("redaction"):
            placed = redaction.findings(placed)
    return Analysis(
        data,
        intake,
        tuple(placed),
        tuple(secrets),
        syntax,
        semantics,
        version_error,
        checkpoint,
        source,
        redaction,
        timings,
        tuple(omitted),
    )


_SEVERITY = operator.attrgetter("severity")


def _tally(severity: str, findings: Sequence[Finding], omitted: Sequence[Omitted]) -> int:
    """How many findings of ``severity`` a report has: those listed and those only counted."""
    listed = operator.countOf(map(_SEVERITY, findings), severity)  # counted in C
    return listed + sum(o.count for o in omitted if o.severity == severity)


def _positioned(findings: Sequence[Finding], source: SourceMap) -> list[Finding]:
    """Fill in line and column, and order findings as they appear in the document."""
    places = source.locate([f.path for f in findings if f.line is None])
    at = Finding.at
    placed = [
        f if f.line is not None or (place := places.get(f.path)) is None else at(f, *place)
        for f in findings
    ]
    # those with a place by line and column (a key read in C), then the rest as they came
    placed_ones = [f for f in placed if f.line is not None]
    if any(f.column is None for f in placed_ones):
        placed_ones.sort(key=lambda f: (f.line, f.column or 0))
    else:
        placed_ones.sort(key=_LINE_COLUMN)
    return placed_ones + [f for f in placed if f.line is None]


_LINE_COLUMN = operator.attrgetter("line", "column")


# --- a document and its parent -------------------------------------------------------------------


class Pair:
    """A child and its parent, compared once: the findings that need both documents. (A
    plain class, as `Analysis` is.)"""

    child: Final[Analysis]
    parent: Final[Analysis]
    # the specification's rules that need both documents (OCP-T001, OCP-T002, digest: §8.2,
    # §10.6), positioned in the child's text, redacted: part of level 2
    findings: Final[tuple[Finding, ...]]
    digest: Final[DigestCheck]  # the child's parent.digest against the parent's bytes
    # why the lineage rules did not run (None when they did)
    skipped: Final[str | None]
    # the project's own lineage checks (lineage-*: §9.2, §9.3), errors, warnings and notes:
    # never part of levels 1–2, so never of the verdict; a verdict line of their own, and a
    # failed run only when fail-on names them
    lineage: Final[tuple[Finding, ...]]
    omitted: Final[tuple[Omitted, ...]]  # the specification's lineage findings counted, not listed
    lineage_omitted: Final[tuple[Omitted, ...]]  # … and the project's

    def __init__(
        self,
        child: Analysis,
        parent: Analysis,
        findings: tuple[Finding, ...],
        digest: DigestCheck,
        skipped: str | None = None,
        lineage: tuple[Finding, ...] = (),
        omitted: tuple[Omitted, ...] = (),
        lineage_omitted: tuple[Omitted, ...] = (),
    ) -> None:
        self.child = child
        self.parent = parent
        self.findings = findings
        self.digest = digest
        self.skipped = skipped
        self.lineage = lineage
        self.omitted = omitted
        self.lineage_omitted = lineage_omitted

    @property
    def errors(self) -> int:
        return _tally("error", self.findings, self.omitted)

    @property
    def notes(self) -> tuple[Finding, ...]:
        """The lineage checks' notes (the report's ``notes``, as it always listed them)."""
        return tuple(f for f in self.lineage if f.severity == "note")

    @cached_property
    def losses(self) -> tuple[Loss, ...]:
        """What the child dropped, rewrote, weakened or withdrew of what the parent holds in
        force (§9.2): what a person reads first, "since the parent", on every view of it."""
        if self.skipped is not None or self.child.checkpoint is None:
            return ()
        if self.parent.checkpoint is None:
            return ()
        from app.rules.compaction import losses

        found = losses(self.child.checkpoint, self.parent.checkpoint)
        redaction = self.child.redaction.joined(self.parent.redaction)
        if not redaction.active:
            return tuple(found)
        # (every text and pointer shown, the scanner reading all of them at once)
        ids = [loss.id for loss in found if loss.id is not None]
        children = [loss.child_pointer for loss in found if loss.child_pointer]
        texts, pointers = redaction.shown(
            ids + [loss.detail for loss in found],
            [loss.parent_pointer for loss in found] + children,
        )
        shown_ids, details = iter(texts[: len(ids)]), iter(texts[len(ids) :])
        parents, shown_children = iter(pointers[: len(found)]), iter(pointers[len(found) :])
        return tuple(
            loss.replace(
                id=next(shown_ids) if loss.id is not None else None,
                detail=next(details),
                parent_pointer=next(parents),
                child_pointer=next(shown_children) if loss.child_pointer else None,
            )
            for loss in found
        )


def pair(child: Analysis, parent: Analysis, *, parent_as_sent: bytes | None = None) -> Pair:
    """The lineage findings of ``child`` against ``parent``. ``parent_as_sent``: the parent's
    bytes as a browser sent them, when they were pasted (its CRLF line ends were made LF
    before the analysis); `parent.digest` is checked against both."""
    # the lineage modules only for a pair: a document linted alone never imports them
    from app.digests import check_digest

    child = _beside(child, parent)

    renderings: list[tuple[Rendering, bytes]] = [("exact", parent.data)]
    if parent_as_sent is not None and parent_as_sent != parent.data:
        renderings = [("as_sent", parent_as_sent), ("lf", parent.data)]
    named = child.checkpoint.get("parent", "digest") if child.checkpoint is not None else None
    digest = check_digest(named, renderings)
    skipped = _why_not_compared(child, parent)
    if skipped is not None or child.checkpoint is None or parent.checkpoint is None:
        return Pair(child, parent, (), digest, skipped or "both documents must parse")
    found, omitted = capped(
        check_lineage(child.checkpoint, Parent(parent.checkpoint, parent.data, digest))
    )
    placed = _positioned(found, child.source)
    redaction = child.redaction.joined(parent.redaction)
    if redaction.active:
        placed = redaction.findings(placed)
    findings = tuple(f for f in placed if not is_project_lineage(f.code))
    lineage = tuple(f for f in placed if is_project_lineage(f.code))
    return Pair(
        child,
        parent,
        findings,
        digest,
        lineage=lineage,
        omitted=tuple(o for o in omitted if not is_project_lineage(o.code)),
        lineage_omitted=tuple(o for o in omitted if is_project_lineage(o.code)),
    )


def _beside(child: Analysis, parent: Analysis) -> Analysis:
    """The child as read beside its parent: the places that repeat a credential the parent's
    scan flagged (app/echoes.py) withheld and reported as its own scan's finds are; the child
    itself when it repeats none."""
    from app.echoes import echoed_secrets, unparsed_credentials

    if parent.intake.document is None:
        # a parent that does not parse has no places: its text is scanned for what to withhold
        shown: dict[str, str | None] = dict.fromkeys(
            unparsed_credentials(parent.data.decode("utf-8", "replace"))
        )
    else:
        # the parent's places as the parent's redaction shows them: a pointer through a
        # flagged member name withholds the name
        credentials = parent.redaction.credentials
        shown = {text: parent.redaction.pointer(path) for text, path in credentials.items()}
    if not shown or not child.redaction.complete:
        return child  # (a child whose scan stopped early is withheld whole already)
    findings, secrets, omitted = child.findings, child.secrets, child.omitted
    if child.intake.document is None:
        # a child that does not parse is shown as text: what it repeats is withheld there
        repeated = Redaction(quoted=frozenset(shown), credentials=dict.fromkeys(shown, ""))
    else:
        hits, echoes = echoed_secrets(child.intake.document, shown, [f.path for f in secrets])
        if not hits:
            return child
        repeated = Redaction.of(child.intake.document, hits)
        # the child's findings may quote what it repeats (a message quoting a value, a pointer
        # through a member name): withheld from them too, past what a report lists counted
        # (after a version error no secret finding is listed: the echoes are withheld all the
        # same)
        listed = (
            0 if child.version_error else MAX_PER_CODE - sum(f.code == "secret" for f in findings)
        )
        placed = _positioned(echoes[: max(listed, 0)], child.source)
        findings = tuple(in_document_order(repeated.findings([*findings, *placed])))
        secrets = (*secrets, *echoes)
        past = 0 if child.version_error else len(echoes) - max(listed, 0)
        if past > 0:
            omitted = merge_omitted(omitted, (Omitted("secret", "warning", past),))
    return Analysis(
        child.data,
        child.intake,
        findings,
        secrets,
        child.syntax,
        child.semantics,
        child.version_error,
        child.checkpoint,
        child.source,
        child.redaction.merged(repeated),
        child.timings,
        omitted,
    )


def is_project_lineage(code: str) -> bool:
    """The project's lineage codes (lineage-kind, lineage-dropped, …), not the
    specification's (OCP-T001, OCP-T002) nor the digest check."""
    return code.startswith("lineage-")


def _why_not_compared(child: Analysis, parent: Analysis) -> str | None:
    if parent.document is None:
        return "the parent is not a JSON document"
    if child.document is None:
        return "the checkpoint is not a JSON document"
    if parent.version_error is not None:
        return "the parent is of a version this tool does not implement"
    if child.syntax != "pass":
        return "the checkpoint does not pass level 1 (the schema)"
    return None


# --- the report's view: one document, alone or with its parent -----------------------------------


class LintResult(Verdict):
    """What the report shows of one document: its analysis and, with a parent, the pair's
    findings beside its own, in document order. (A plain class, as `Analysis` is.)"""

    analysis: Final[Analysis]
    pair: Final[Pair | None]

    def __init__(self, analysis: Analysis, pair: Pair | None = None) -> None:
        # beside a parent, the child as the pair read it (`_beside`: what it repeats of the
        # parent's credentials withheld)
        self.analysis = pair.child if pair is not None else analysis
        self.pair = pair

    @cached_property
    def findings(self) -> list[Finding]:
        if self.pair is None or not self.pair.findings:
            return list(self.analysis.findings)
        return in_document_order([*self.analysis.findings, *self.pair.findings])

    @property
    def notes(self) -> tuple[Finding, ...]:
        """The lineage checks' notes (app/findings.py): beside the findings, never counted."""
        return self.pair.notes if self.pair is not None else ()

    @property
    def lineage(self) -> tuple[Finding, ...]:
        """The project's lineage checks against the parent (lineage-*), every severity: a
        verdict of their own beside levels 1–2, never counted in them."""
        return self.pair.lineage if self.pair is not None else ()

    @property
    def lineage_omitted(self) -> tuple[Omitted, ...]:
        return self.pair.lineage_omitted if self.pair is not None else ()

    def lineage_count(self, severity: str) -> int:
        return _tally(severity, self.lineage, self.lineage_omitted)

    @cached_property
    def omitted(self) -> tuple[Omitted, ...]:
        """The findings counted but not listed, the child's own and the pair's."""
        if self.pair is None or not self.pair.omitted:
            return self.analysis.omitted
        return merge_omitted(self.analysis.omitted, self.pair.omitted)

    @property
    def parent(self) -> Analysis | None:
        return self.pair.parent if self.pair is not None else None

    @property
    def data(self) -> bytes:
        return self.analysis.data

    @property
    def intake(self) -> Intake:
        return self.analysis.intake

    @property
    def document(self) -> Document | None:
        return self.analysis.document

    @property
    def text(self) -> str | None:
        return self.analysis.text

    @property
    def secrets(self) -> tuple[Finding, ...]:
        return self.analysis.secrets

    @property
    def secret_paths(self) -> list[str]:
        return self.analysis.secret_paths

    @property
    def version_error(self) -> Finding | None:
        return self.analysis.version_error

    @property
    def digest(self) -> str:
        return self.analysis.digest

    @property
    def timings(self) -> Mapping[str, float]:
        return self.analysis.timings

    @property
    def syntax(self) -> LevelState:
        return self.analysis.syntax

    @property
    def semantics(self) -> LevelState:
        if self.pair is not None and self.pair.errors and self.analysis.semantics == "pass":
            return "fail"
        return self.analysis.semantics


def lint(
    data: bytes, *, parent: bytes | None = None, limits: Limits = DEFAULT_LIMITS
) -> LintResult:
    """The report of one document's bytes, with its parent's bytes when given: a convenience
    for callers that hold bytes; callers that already hold analyses use `pair`."""
    child = analyze(data, limits)
    if parent is None:
        return LintResult(child)
    return LintResult(child, pair(child, analyze(parent, limits)))


def check_level_one(document: object, size: int) -> SchemaCheck:
    """The schema stage (level 1) of a parsed document of ``size`` bytes: the screen's pass
    where it pays (app/schema_screen.py), else jsonschema-rs's findings, as many as a report
    lists with messages, the rest counted (`capped`), some only as a lower bound
    (`SchemaCheck.unlisted`)."""
    if screen_pays(size) and conforms(document):
        return SchemaCheck()
    # what is wrong, worded: jsonschema-rs, imported only for a document the screen may fail
    from app.schema import check_schema

    return check_schema(document, MAX_PER_CODE)


class _Stage:
    """``with stage(name):`` adds the time the block takes to ``timings[name]``. (A class,
    not a contextlib generator: importing contextlib costs `ocp lint` most of a millisecond.)"""

    __slots__ = ("name", "start", "timings")

    def __init__(self, timings: dict[str, float], name: str) -> None:
        self.timings = timings
        self.name = name
        self.start = 0.0

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        elapsed = time.perf_counter() - self.start
        self.timings[self.name] = self.timings.get(self.name, 0.0) + elapsed


def _stopwatch(timings: dict[str, float]) -> Callable[[str], _Stage]:
    def stage(name: str) -> _Stage:
        return _Stage(timings, name)

    return stage
