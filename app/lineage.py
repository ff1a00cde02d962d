"""A lineage drawn as a tree: ancestors, the focus, its siblings (forks) and its descendants.

Pure layout: nodes and edges with coordinates, as plain data. The template turns it into SVG
on the server, so the tree needs no script; every label is text the template escapes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

NODE_WIDTH = 264  # room for a 30-character label at 13px and the relation line
NODE_HEIGHT = 64
GAP_X = 28
GAP_Y = 44
MARGIN = 12

# Plain data for the template: a node's box (its coordinates and texts), an edge, the drawing.
Box = dict[str, Any]
Edge = dict[str, Any]
Drawing = dict[str, Any]


@dataclass(slots=True)
class LineageNode:
    key: str  # unique in the tree: the storage id of a stored checkpoint
    parent_key: str | None  # the key of its parent in the tree (a proven link), if any
    checkpoint_id: str | None
    parent_id: str | None
    created_at: str | None
    label: str  # a short text for the box (the caller decides what, and redacts)
    status: str | None  # task status
    valid: bool | None
    method: str | None  # derivation.method
    href: str | None
    focus: bool = False
    relation: str = ""  # ancestor, focus, sibling, descendant
    children: list[LineageNode] = field(default_factory=list)


def build_tree(nodes: Iterable[LineageNode]) -> list[LineageNode]:
    """Link nodes into trees by parent_key → key; returns the roots, oldest first. A link that
    would close a cycle is dropped, so the drawing stays a tree."""
    nodes = list(nodes)
    by_key = {node.key: node for node in nodes}
    roots = []
    for node in sorted(nodes, key=_order):
        parent = by_key.get(node.parent_key) if node.parent_key else None
        if parent is not None and parent is not node and not _is_descendant(parent, node):
            parent.children.append(node)
        else:
            roots.append(node)
    return roots


def _is_descendant(candidate: LineageNode, ancestor: LineageNode) -> bool:
    stack = list(ancestor.children)
    while stack:
        node = stack.pop()
        if node is candidate:
            return True
        stack.extend(node.children)
    return False


def _order(node: LineageNode) -> tuple[str, str]:
    return (node.created_at or "", node.key)


def layout(roots: list[LineageNode]) -> Drawing:
    """Coordinates for every node (leaves left to right, parents centred over their children)
    and the edges between them, with the size of the drawing."""
    placed: list[Box] = []
    edges: list[Edge] = []
    next_x = [MARGIN]
    depth_max = [0]

    def place(node: LineageNode, depth: int) -> float:
        depth_max[0] = max(depth_max[0], depth)
        y = MARGIN + depth * (NODE_HEIGHT + GAP_Y)
        if node.children:
            centres = [place(child, depth + 1) for child in node.children]
            x = (centres[0] + centres[-1]) / 2 - NODE_WIDTH / 2
        else:
            x = next_x[0]
            next_x[0] += NODE_WIDTH + GAP_X
        placed.append(_box(node, x, y))
        for child in node.children:
            edges.append(
                {
                    "x1": x + NODE_WIDTH / 2,
                    "y1": y + NODE_HEIGHT,
                    "x2": _centre_of(placed, child.key),
                    "y2": y + NODE_HEIGHT + GAP_Y,
                    "fork": child.method == "forked",
                }
            )
        return x + NODE_WIDTH / 2

    for root in roots:
        place(root, 0)
    width = max(next_x[0] - GAP_X + MARGIN, NODE_WIDTH + 2 * MARGIN)
    height = MARGIN * 2 + (depth_max[0] + 1) * NODE_HEIGHT + depth_max[0] * GAP_Y
    placed.sort(key=lambda box: (box["y"], box["x"]))
    return {"width": round(width), "height": round(height), "nodes": placed, "edges": edges}


def _centre_of(placed: list[Box], key: str) -> float:
    for box in placed:
        if box["key"] == key:
            x: float = box["x"]
            return x + NODE_WIDTH / 2
    raise KeyError(key)


def _box(node: LineageNode, x: float, y: float) -> Box:
    verdict = "valid" if node.valid else "invalid" if node.valid is not None else "unknown"
    return {
        "key": node.key,
        "x": round(x, 1),
        "y": round(y, 1),
        "width": NODE_WIDTH,
        "height": NODE_HEIGHT,
        "label": _clip(node.label, 30),
        "detail": " · ".join(part for part in (node.status, verdict, node.method) if part),
        "created_at": node.created_at,
        "href": node.href,
        "focus": node.focus,
        "relation": node.relation,
        "verdict": verdict,
        "checkpoint_id": node.checkpoint_id,
    }


def _clip(text: str, limit: int) -> str:
    """``text`` cut in the middle to ``limit`` characters: the ids of one lineage share their
    start (a scheme, a time-ordered prefix), so a box keeps the end, where they differ."""
    if len(text) <= limit:
        return text
    head = limit // 3
    return text[:head] + "…" + text[len(text) - (limit - head - 1) :]
