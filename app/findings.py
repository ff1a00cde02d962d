"""A finding: one problem, at one place, in words a person can act on."""

from dataclasses import dataclass, field, replace
from typing import Any, Literal

# A note is advice beside the report's findings: the project's lineage checks that rest on
# what the linter cannot read exactly (an omission's words, a rewrite's intent). Notes never
# count towards validity and are kept apart from `findings` in the JSON report (`notes`).
Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    path: str  # a JSON Pointer into the submitted document; "" is the whole document
    message: str
    line: int | None = None  # 1-based, of the value at `path` in the submitted bytes
    column: int | None = None  # 1-based, counted in Unicode code points
    # Lower-level validator errors this finding stands for (schema findings collapse cascades).
    related: tuple[str, ...] = field(default=())

    def at(self, line: int | None, column: int | None) -> "Finding":
        return replace(self, line=line, column=column)

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
