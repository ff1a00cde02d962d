"""The rule registry: every finding code, its severity, its rule text and, for the semantic
rules of spec §8.2, the small pure function that checks it.

A check takes a `Checkpoint` (and, for lineage rules, its `Parent`) and yields
``(path, message)`` pairs; `check_document` and `check_lineage` turn them into findings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice, repeat

from app import TYPE_CHECKING
from app.checkpoint import Checkpoint
from app.findings import MAX_PER_CODE, Finding
from app.pointer import Path, to_pointer
from app.record import Record

if TYPE_CHECKING:
    from typing import Final, TypeVar

    from app.digests import DigestCheck
    from app.findings import Severity

Violation = tuple[Path, str]
# What a check may yield past the first MAX_PER_CODE of its violations: one it only counts
# (`_run` makes no finding of it), so thousands of them cost no message and no path.
COUNTED: Violation = ((), "")
# A check: (checkpoint) or, for a lineage rule, (checkpoint, parent) -> violations.
Check = Callable[..., Iterable[Violation]]
if TYPE_CHECKING:
    _C = TypeVar("_C", bound=Check)
    _G = TypeVar("_G")
    _H = TypeVar("_H")


class Parent(Record):
    __slots__ = ("checkpoint", "data", "digest")

    checkpoint: Final[Checkpoint]
    data: Final[bytes]  # the parent's exact bytes
    # the child's parent.digest against them, as the pair checked it once (app/digests.py);
    # None: check the exact bytes
    digest: Final[DigestCheck | None]

    def __init__(
        self, checkpoint: Checkpoint, data: bytes, digest: DigestCheck | None = None
    ) -> None:
        self.checkpoint = checkpoint
        self.data = data
        self.digest = digest


class Rule(Record):
    __slots__ = ("check", "code", "level", "severity", "summary", "written")

    code: Final[str]
    severity: Final[Severity]
    level: Final[str]  # "syntax", "semantics" or "lineage"
    summary: Final[str]  # the rule in one sentence, as the specification states it
    # what the linter checks, at which path, for a rule with no check function of its own;
    # a check's is its docstring (`description`)
    written: Final[str | None]
    check: Final[Check | None]

    def __init__(
        self,
        code: str,
        severity: Severity,
        level: str,
        summary: str,
        written: str | None = None,
        check: Check | None = None,
    ) -> None:
        self.code = code
        self.severity = severity
        self.level = level
        self.summary = summary
        self.written = written
        self.check = check

    @property
    def description(self) -> str:
        """What the linter checks, at which path: the check's docstring, read when a rule page
        or a SARIF log asks (importing `inspect` to read it costs `ocp lint` some 5 ms)."""
        if self.check is None:
            return self.written or self.summary
        import inspect

        return inspect.getdoc(self.check) or self.summary

    @property
    def help_url(self) -> str:
        return f"/rules/{self.code}"


# Every rule by code, as registered so far (see `_Registry`).
_REGISTERED: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if rule.code in _REGISTERED:
        raise ValueError(f"rule {rule.code} registered twice")
    _REGISTERED[rule.code] = rule
    return rule


class _Registry(Mapping[str, Rule]):
    """Every rule by code: the one registry of codes (rule pages, SARIF, --select).

    The lineage rules' modules (§9.2's compaction checks, OCP-T001, OCP-T002, digest) are
    imported when the registry is first read, or a document is checked against its parent:
    a document linted alone needs only the single-document rules, and importing the others
    was a tenth of `ocp lint` of one small file (issue 28)."""

    def _every(self) -> dict[str, Rule]:
        _load_lineage_rules()
        return _REGISTERED

    def __getitem__(self, code: str) -> Rule:
        return self._every()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())


RULES: Mapping[str, Rule] = _Registry()


def _load_lineage_rules() -> None:
    from app.rules import compaction, lineage  # noqa: F401  (each registers its rules)


def rule(
    code: str,
    severity: Severity,
    summary: str,
    *,
    needs_parent: bool = False,
) -> Callable[[_C], _C]:
    """Register the decorated function as the check of ``code``; it is returned as it is."""

    def decorate(check: _C) -> _C:
        register(
            Rule(
                code,
                severity,
                "lineage" if needs_parent else "semantics",
                summary,
                check=check,
            )
        )
        return check

    return decorate


class Capped:
    """What a check that finds many returns: the violations a report lists and how many more
    it found. `_run` counts the rest from the number, one at a time by nothing; read as an
    iterable it is the listed violations, then `COUNTED` for each of the rest."""

    __slots__ = ("listed", "rest")

    def __init__(self, listed: tuple[Violation, ...], rest: int) -> None:
        self.listed = listed
        self.rest = rest

    def __iter__(self) -> Iterator[Violation]:
        yield from self.listed
        yield from repeat(COUNTED, self.rest)


def first_of(
    groups: Iterable[tuple[_G, Sequence[_H]]], violation: Callable[[_G, _H], Violation]
) -> Capped:
    """The violations of the first MAX_PER_CODE hits, and a count of the rest. Hits come in
    groups (a reference field and its unresolved indexes, say): a check finds them cheaply,
    a group at a time, and builds a message and a path only for those a report lists."""
    listed: list[Violation] = []
    total = 0
    for group, hits in groups:
        total += len(hits)
        for hit in hits[: MAX_PER_CODE - len(listed)]:
            listed.append(violation(group, hit))
    return Capped(tuple(listed), total - len(listed))


def check_document(checkpoint: Checkpoint) -> list[Finding]:
    """Level 2: every single-document rule, in code order."""
    return _run([r for r in _REGISTERED.values() if r.level == "semantics"], checkpoint)


def check_lineage(checkpoint: Checkpoint, parent: Parent) -> list[Finding]:
    """The rules that need the parent: OCP-T001, OCP-T002, digest (§8.2, §10.6) and the
    project's lineage checks of §9.2 and §9.3 (lineage-*)."""
    rules = [r for r in RULES.values() if r.level == "lineage"]
    return _run(rules, checkpoint, parent)


def _run(rules: list[Rule], *args: object) -> list[Finding]:
    """Each rule's findings in the order found. Past the first MAX_PER_CODE of a rule, which
    is all a report lists (app/findings.py `capped`), each is only counted: one shared
    placeholder, no pointer built. A check that finds many may yield `COUNTED` past its own
    first MAX_PER_CODE instead of building their messages, or return them `Capped`."""
    findings = []
    made = Finding
    for r in rules:
        assert r.check is not None
        found = r.check(*args)
        violations = iter(found.listed if isinstance(found, Capped) else found)
        for path, message in islice(violations, MAX_PER_CODE):
            findings.append(made(r.code, r.severity, to_pointer(path), message))
        # the rest counted: one placeholder repeated, made in C
        rest = len(list(violations)) + (found.rest if isinstance(found, Capped) else 0)
        findings.extend([Finding(r.code, r.severity, "", "")] * rest)
    return findings


# The project's own codes: reported by intake, the version gate, the schema and the secret
# scan rather than by a function here, but documented and listed like every rule.
for _code, _severity, _summary, _description in (
    (
        "json",
        "error",
        "The document is UTF-8 I-JSON holding one object: no byte-order mark, no duplicate "
        "member, no unpaired surrogate, no noncharacter, no NaN or Infinity, no number that "
        "overflows a double, within the size and nesting limits (integers beyond ±(2^53−1) "
        "are a warning).",
        "The strict parser reads the bytes exactly as written and reports the line and column "
        "of the first thing RFC 7493 (I-JSON) forbids; a document that fails here is not read, "
        "so nothing else is reported for it.",
    ),
    (
        "version",
        "error",
        '`opencheckpoint` is the string "0.1", the only version this tool implements.',
        "A document of another version, or of none, is shown but not read (§5.1): its fields "
        "may mean something else, so no schema check or rule runs after this error.",
    ),
    (
        "schema",
        "error",
        "The document conforms to the OpenCheckpoint v0.1 JSON Schema.",
        "Each finding is one failure of the v0.1 JSON Schema at its instance location (a JSON "
        "Pointer), with the keyword that failed and what was expected; failures that follow "
        "from one another are reported once. The semantic rules run only when it passes.",
    ),
    (
        "secret",
        "warning",
        "No value or member name looks like a credential (private key, access key, token, "
        "password in a URI, signed URL).",
        "A value or member name has the shape of a credential: a private key, an access key or "
        "token of a known format, a password in a URI or a sentence, a signed URL. A checkpoint "
        "never carries secrets (§9.1, §10.5): remove it, and rotate it if it is real. The "
        "finding says where the value is, never what it is.",
    ),
):
    _level = "content" if _code == "secret" else "syntax"
    register(Rule(_code, _severity, _level, _summary, _description))  # type: ignore[arg-type]

# The single-document rules, registered now; the lineage rules when first needed (`_Registry`).
from app.rules import consistency, references, warnings  # noqa: E402, F401
