"""Sibling forks (spec §9.3): the duplicate side effect that no single document can show.

A producer that forks a checkpoint several times "MUST leave each non-terminal operation of kind
action whose effect is not none actionable in at most one fork"; every other fork removes it
(recording the omission) or fences it with a stop condition. OCP-W004 looks at one fork at a time
and can only say that a fork leaves such an action open. `fork_conflicts` looks at the siblings
together and reports each action that more than one of them leaves open.

Plain data out (no HTML; nothing here imports Starlette or Jinja2), never raises for documents of
any shape. Give it redacted documents (`Analysis.redacted`): what it returns quotes them (§10.5).
"""

from __future__ import annotations

from typing import Any

from app.checkpoint import Checkpoint, is_open_side_effect
from app.parse import Document, JsonObject

# One conflict of `fork_conflicts`: plain data, as its docstring shows.
Conflict = dict[str, Any]


def _objects(value: object) -> list[JsonObject]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _member(document: object, *keys: str) -> object:
    node = document
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def fenced_operations(document: object) -> frozenset[str]:
    """Ids named by any stop condition's refs or applies_to (as OCP-W004 counts them: an
    operation named only in `until` is not fenced)."""
    return Checkpoint(document).fenced if isinstance(document, dict) else frozenset()


def side_effecting_actions(document: object) -> dict[str, JsonObject]:
    """id -> operation for every operation that `is_open_side_effect` (as OCP-W004 judges
    them). The first operation with each id (a duplicate id is OCP-S001's business)."""
    out: dict[str, JsonObject] = {}
    for operation in _objects(_member(document, "operations")):
        object_id = operation.get("id")
        if isinstance(object_id, str) and is_open_side_effect(operation):
            out.setdefault(object_id, operation)
    return out


def inherited_order(parent: object) -> list[str]:
    """The parent's operation ids, in document order."""
    if not isinstance(parent, dict):
        return []
    ids = [op.get("id") for op in _objects(parent.get("operations"))]
    return [i for i in dict.fromkeys(ids) if isinstance(i, str)]


def _parent_operation_ids(parent: object) -> set[str] | None:
    return set(inherited_order(parent)) if isinstance(parent, dict) else None


def fork_conflicts(parent: Document | None, forks: list[tuple[str, Document]]) -> list[Conflict]:
    """Every side-effecting action (see `side_effecting_actions`) that is actionable, that is
    not named by a stop condition's refs or applies_to, in more than one of ``forks``.

    ``forks`` are (label, document) pairs: the label is the caller's name for the fork (a storage
    id, a file name) and is returned as given. Operations are matched across forks by local id.
    With a ``parent``, only operations the parent also has are considered: those are the ones the
    forks inherited, and an id that two forks happen to give to new, unrelated operations is not
    a shared side effect. Without one, every shared id counts.

    Each conflict, in the order the operations first appear (in the parent, then the forks)::

        {"operation": id, "description": str | None, "effect": value or None,
         "actionable_in": [label], "fenced_in": [label], "absent_from": [label],
         "status_by_fork": {label: status}}

    The description is the parent's (else the first actionable fork's), the effect the first
    actionable fork's, as the (redacted) documents hold them. ``fenced_in`` lists the forks that
    carry the action non-terminal but fence it; ``absent_from`` the forks that do not carry it as
    a side-effecting action at all (removed, terminal, or effect none)."""
    try:
        return _conflicts(parent, forks)
    except Exception:  # a strange document must not take the lineage page down
        return []


def _conflicts(parent: Document | None, forks: list[tuple[str, Document]]) -> list[Conflict]:
    inherited = _parent_operation_ids(parent)
    per_fork: list[tuple[str, dict[str, JsonObject], frozenset[str]]] = []
    for label, document in forks:
        actions = side_effecting_actions(document)
        if inherited is not None:
            actions = {k: v for k, v in actions.items() if k in inherited}
        per_fork.append((label, actions, fenced_operations(document)))

    order: dict[str, None] = dict.fromkeys(inherited_order(parent))
    for _, actions, _ in per_fork:
        order.update(dict.fromkeys(actions))

    parent_operations: dict[str, JsonObject] = {}
    if isinstance(parent, dict):
        for op in _objects(parent.get("operations")):
            if isinstance(op.get("id"), str):
                parent_operations.setdefault(op["id"], op)
    conflicts: list[Conflict] = []
    for op_id in order:
        actionable, fenced, absent = [], [], []
        statuses: dict[str, object] = {}
        first: JsonObject | None = None  # the operation in the first fork that leaves it actionable
        for label, actions, fences in per_fork:
            operation = actions.get(op_id)
            if operation is None:
                absent.append(label)
                continue
            statuses[label] = operation.get("status")
            if op_id in fences:
                fenced.append(label)
            else:
                actionable.append(label)
                first = first or operation
        if len(actionable) < 2 or first is None:
            continue
        description = parent_operations.get(op_id, {}).get("description")
        if not isinstance(description, str):
            description = first.get("description")
        conflicts.append(
            {
                "operation": op_id,
                "description": description if isinstance(description, str) else None,
                "effect": first.get("effect"),
                "actionable_in": actionable,
                "fenced_in": fenced,
                "absent_from": absent,
                "status_by_fork": statuses,
            }
        )
    return conflicts
