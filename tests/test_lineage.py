"""Lineage trees: linking by the proven parent's key, and a layout where boxes never overlap."""

from app.lineage import NODE_HEIGHT, NODE_WIDTH, LineageNode, build_tree, layout


def node(key, checkpoint_id, parent_id=None, created="2026-11-18T09:00:00Z", method=None):
    """A node whose parent (a proven link) is the node keyed as its parent id without "urn:"."""
    parent_key = parent_id.removeprefix("urn:") if parent_id else None
    return LineageNode(
        key,
        parent_key,
        checkpoint_id,
        parent_id,
        created,
        key,
        "active",
        True,
        method,
        f"/c/{key}",
    )


def test_parent_child_and_forks_form_one_tree():
    roots = build_tree(
        [
            node("c", "urn:c", "urn:p", "2026-11-18T10:00:00Z", "compacted"),
            node("p", "urn:p"),
            node("f", "urn:f", "urn:p", "2026-11-18T09:40:00Z", "forked"),
            node("g", "urn:g", "urn:c", "2026-11-18T11:00:00Z"),
        ]
    )
    assert [r.key for r in roots] == ["p"]
    assert [c.key for c in roots[0].children] == ["f", "c"]
    assert [c.key for c in roots[0].children[1].children] == ["g"]


def test_a_cycle_or_a_missing_parent_does_not_loop():
    roots = build_tree(
        [
            node("a", "urn:a", "urn:b"),
            node("b", "urn:b", "urn:a"),
            node("x", "urn:x", "urn:missing"),
        ]
    )
    assert {r.key for r in roots} >= {"x"}
    drawing = layout(roots)
    assert len(drawing["nodes"]) == 3


def test_layout_has_no_overlapping_boxes_and_edges_join_centres():
    nodes = (
        [node("p", "urn:p")]
        + [
            node(f"k{i}", f"urn:k{i}", "urn:p", f"2026-11-18T1{i}:00:00Z", "forked")
            for i in range(4)
        ]
        + [node("gc", "urn:gc", "urn:k1", "2026-11-19T00:00:00Z")]
    )
    drawing = layout(build_tree(nodes))
    boxes = drawing["nodes"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + NODE_WIDTH <= b["x"]
                or b["x"] + NODE_WIDTH <= a["x"]
                or a["y"] + NODE_HEIGHT <= b["y"]
                or b["y"] + NODE_HEIGHT <= a["y"]
            )
            assert apart, (a["key"], b["key"])
        assert a["x"] + NODE_WIDTH <= drawing["width"] and a["y"] + NODE_HEIGHT <= drawing["height"]
    assert len(drawing["edges"]) == 5
    assert sum(e["fork"] for e in drawing["edges"]) == 4
