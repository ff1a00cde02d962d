"""What changed since the parent, object by object, for the cards of a child's page (issue 12):
added, changed (and a status that moved), read from the pair's semantic diff (app/diff.py).

The diff is made once per page, from the pair the analysis already compared; each mark names
the field-level change it stands for by the anchor the diff page gives it.
"""

from __future__ import annotations

from app.analysis import LintResult
from app.diff import diff_checkpoints
from app.json_values import text_of
from app.render.model import Model


def change_anchor(state: str, pointer: str) -> str:
    """The anchor of an object's entry on the diff page: ``changed-statements-3``."""
    return state + pointer.replace("/", "-")


def changes_since_parent(result: LintResult) -> dict[str, Model]:
    """The child's pointer of each object added or changed since the parent -> its mark.
    Empty without a parent, or when the two could not be compared."""
    if result.pair is None:
        return {}
    diff = diff_checkpoints(result.pair)
    if not diff.get("comparable"):
        return {}
    marks: dict[str, Model] = {}
    for section in diff.get("sections", []):
        for added in section.get("added", []):
            pointer = added.get("pointer")
            if isinstance(pointer, str):
                marks[pointer] = {
                    "state": "added",
                    "diff_anchor": change_anchor("added", pointer),
                    "status": None,
                    "fields": 0,
                }
        for changed in section.get("changed", []):
            pointer = changed.get("child_pointer")
            if not isinstance(pointer, str):
                continue
            changes = changed.get("changes", [])
            status = next((c for c in changes if c.get("pointer") == "/status"), None)
            marks[pointer] = {
                "state": "changed",
                "diff_anchor": change_anchor("changed", pointer),
                "status": {
                    "before": text_of(status.get("before")),
                    "after": text_of(status.get("after")),
                }
                if status is not None
                else None,
                "fields": len(changes),
            }
    return marks
