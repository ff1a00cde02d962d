"""What the store keeps: checkpoints, and nothing else.

Any JSON object used to be kept for 30 days, so the store was free space for anyone's data.
Now a document is stored only when it passes the version gate and has the top level of a
checkpoint (§6: the REQUIRED members ``opencheckpoint``, ``id``, ``created_at``, ``source`` and
``task``). A checkpoint that fails the schema or the rules in other ways (an id that is not a
string, a missing objective) is still kept: sharing one to have it reviewed is what the service
is for, and its page says what is wrong with it. The quota and the rate bound the rest.

These checks are the cheap ones: they read the parsed top level only, so a document that is
not a checkpoint is refused before the schema, the rules and the secret scan run.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.findings import Finding
from app.parse import Document, Intake, Limits, parse
from app.redaction import Redaction, unparsed_findings
from app.secrets import first_secret
from app.version import check_version

# Beside "opencheckpoint", which the version gate reads.
REQUIRED_MEMBERS = ("id", "created_at", "source", "task")
WHAT_TO_DO = (
    "only OpenCheckpoint checkpoints are stored; to check any other JSON, use the linter "
    "(POST /api/v1/lint) without storing it"
)


def not_a_checkpoint(document: Document, version_error: Finding | None = None) -> str | None:
    """Why ``document`` (a parsed JSON object) is not a checkpoint the store keeps, as a
    sentence saying what is missing and what to do; None when it is one.

    ``version_error``: the version gate's finding when the caller ran it already."""
    # The version gate's own message quotes the value; this one never repeats document text.
    if (version_error or check_version(document)) is not None:
        if "opencheckpoint" not in document:
            why = 'it has no "opencheckpoint" member (a v0.1 checkpoint starts with '
            why += '"opencheckpoint": "0.1")'
        else:
            why = 'its "opencheckpoint" is not "0.1", the version this service implements (§5.1)'
        return f"this document is not a checkpoint, so it is not stored: {why}. " + _capital(
            WHAT_TO_DO
        )
    missing = [name for name in REQUIRED_MEMBERS if name not in document]
    if missing:
        return (
            f"this document is not a checkpoint, so it is not stored: it has no "
            f"{_listed(missing)} at the top level, which every checkpoint has (§6). "
            f"{_capital(WHAT_TO_DO)}"
        )
    return None


def _listed(names: list[str]) -> str:
    quoted = [f'"{name}"' for name in names]
    if len(quoted) == 1:
        return quoted[0] + " member"
    return ", ".join(quoted[:-1]) + " or " + quoted[-1] + " members"


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a document is refused before it is analysed, in the words of a 422."""

    message: str
    findings: tuple[Finding, ...] = ()  # the intake's json findings, when it is not JSON
    secret_paths: tuple[str, ...] = ()  # where an apparent credential is, pointer redacted


NOT_JSON = "the document is not JSON, so it cannot be stored; fix the json finding first"
HOLDS_CREDENTIALS = (
    "the document appears to contain credentials, so it is never stored (§10.5); remove them "
    "(and rotate them if they are real), then share again. The scan stopped at the first one "
    "(secret_paths); the linter (POST /api/v1/lint, or ocp lint) lists every one, with its line "
    "and column"
)


def early_refusal(data: bytes, limits: Limits) -> Refusal | Intake:
    """The cheap gates before storing, cheapest first (the size is the body limit's): strict
    intake, the version gate and the top level, then the first apparent credential (the scan
    stops there). Otherwise the intake of a checkpoint the scan found no credential in: the
    full analysis takes it as it is (`analyze(..., intake=, secret_free=True)`), so nothing
    is parsed or scanned twice; the store checks the analysis again."""
    intake = parse(data, limits)
    document = intake.document
    if document is None:
        # (what the findings quote of the text, a member name among it, a credential withheld)
        return Refusal(NOT_JSON, findings=tuple(unparsed_findings(intake.findings)))
    why = not_a_checkpoint(document)
    if why is not None:
        return Refusal(why)
    hit = first_secret(document, source=intake.text if intake.verbatim else None)
    if hit is not None:
        withheld = Redaction.of(document, [hit]).pointer(hit.path)
        return Refusal(HOLDS_CREDENTIALS, secret_paths=(withheld,))
    return intake
