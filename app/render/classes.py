"""CSS class names for the values a page styles, from a fixed mapping.

An operation's status, a statement's kind, a finding's severity pick the style of the element
that shows them. Such a value reaches a ``class`` attribute only through `css_class`: a value
the schema (or this viewer) defines maps to a fixed name, an absent one to the family's
``…-none`` and anything else to its ``…-other``. Document text never becomes a class name:
``"status": "uncertain skip"`` would otherwise add the class ``skip`` (which moves an element
off screen), and ``"kind": "x\\" onmouseover=…"`` would be one escaping mistake from markup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from app import advice, layout
from app.render.checklist import CHECKLIST
from app.render.model import OTHER
from app.render.summary import LINE_KEYS
from app.stored_lineage import ParentState


@dataclass(frozen=True, slots=True)
class Family:
    """The class names of one kind of value: ``names`` for the known values, ``absent`` when
    there is none, ``other`` for anything else."""

    names: dict[str, str]
    absent: str
    other: str


def _family(prefix: str, values: tuple[str, ...], *, spell: bool = False) -> Family:
    """``prefix`` + value for each known value (``spell``: with ``_`` written ``-``)."""
    names = {v: prefix + (v.replace("_", "-") if spell else v) for v in values}
    return Family(names, prefix + "none", prefix + "other")


def _bare(name: str, values: tuple[str, ...]) -> Family:
    """The known values as class names themselves (severities, verdicts, changes); the two
    fallbacks are named after the family, so they never collide with a value."""
    return Family({v: v for v in values}, f"{name}-none", f"{name}-other")


FAMILIES: dict[str, Family] = {
    "operation-status": _family("status-", layout.OPERATION_STATUSES),
    "statement-status": _family("status-", layout.STATEMENT_STATUSES),
    "criterion-status": _family("crit-", layout.CRITERION_STATUSES),
    "necessity": _family("nec-", layout.NECESSITIES),
    "verification": _family("ver-", layout.VERIFICATION_STATES),
    "sensitivity": _family("sens-", layout.SENSITIVITY),
    # the statements section groups unknown kinds under OTHER
    "statement-kind": _family("kind-", (*layout.STATEMENT_KINDS, OTHER)),
    "operation-group": _family("op-group-", tuple(key for key, _, _ in advice.GROUPS)),
    "checklist-step": _family("check-", tuple(step[0] for step in CHECKLIST), spell=True),
    "parent-state": _family("parent-", get_args(ParentState)),
    "summary-line": _family("summary-", LINE_KEYS),
    "since": _family("since-", ("dropped", "rewritten", "weakened", "withdrawn")),
    "severity": _bare("severity", ("error", "warning", "note")),
    "verdict": _bare("verdict", ("valid", "invalid", "unknown")),
    # a diff's field changes, and the operations of a JSON Patch (RFC 6902)
    "change": _bare("change", ("added", "removed", "changed", "add", "remove", "replace")),
}


def css_class(family: str, value: object) -> str:
    """The class name of ``value`` in ``family`` (a key of FAMILIES); never ``value`` itself
    unless it is one of the family's known values.

    >>> css_class("operation-status", "uncertain"), css_class("operation-status", "uncertain skip")
    ('status-uncertain', 'status-other')
    """
    names = FAMILIES[family]
    if value is None:
        return names.absent
    if isinstance(value, str):
        known = names.names.get(value)
        if known is not None:
            return known
    return names.other


def all_classes() -> frozenset[str]:
    """Every class name `css_class` can return."""
    out: set[str] = set()
    for names in FAMILIES.values():
        out.update(names.names.values())
        out.update((names.absent, names.other))
    return frozenset(out)
