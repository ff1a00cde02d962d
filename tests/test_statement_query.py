"""Which statements a page lists (app/render/query.py): by kind, origin type and status, and
from which on, read from a page's parameters; the matrix still counts every statement."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from app.analysis import lint
from app.render import build_view
from app.render.query import PageQuery
from tests.conftest import CONFORMANCE

NOW = datetime(2026, 12, 1, tzinfo=UTC)
LIMIT = 150


def query(**values: list[str]) -> PageQuery:
    return PageQuery.of(lambda name: values.get(name.replace("from", "start"), []))


def document(questions: int = 0, agent_observations: int = 0) -> bytes:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["statements"] = [
        {"id": f"q-{i}", "kind": "question", "text": f"Open {i}?", "origin": {"type": "user"}}
        for i in range(questions)
    ] + [
        {
            "id": f"o-{i}",
            "kind": "observation",
            "text": f"Seen {i}.",
            "origin": {"type": "agent"},
            "evidence": [],
            **({"status": "retracted"} if i % 2 else {}),
        }
        for i in range(agent_observations)
    ]
    return json.dumps(doc).encode()


def listed_ids(view: dict) -> list[str]:
    return [
        card["id"]
        for group in view["statements"]["groups"]
        for origin in group["by_origin"]
        for card in origin["items"]
    ]


def test_parameters_are_read_and_unknown_values_ignored() -> None:
    q = query(kind=["question", "rumour"], origin=["agent"], status=["active"], start=["150"])
    assert q.kinds == {"question"} and q.origins == {"agent"} and q.statuses == {"active"}
    assert q.start == 150
    assert q.search() == "?kind=question&origin=agent&status=active&from=150"
    for bad in ("-1", "1e3", "٣", "99999999999", ""):
        assert query(start=[bad]).start == 0, bad
    assert not query(kind=["<script>"]).any
    assert PageQuery().search() == ""


def test_a_filter_lists_only_what_it_admits_and_the_matrix_counts_everything() -> None:
    result = lint(document(questions=3, agent_observations=4))
    view = build_view(result, now=NOW, list_limit=LIMIT, query=query(kind=["question"]))
    assert listed_ids(view) == ["q-0", "q-1", "q-2"]
    assert view["statements"]["matrix"]["total"] == 7
    assert view["statements"]["query"]["listed"] == 3
    by_status = build_view(result, now=NOW, list_limit=LIMIT, query=query(status=["retracted"]))
    assert listed_ids(by_status) == ["o-1", "o-3"]
    # cells the query leaves out are counted, not linked
    cells = {
        (row["kind"], cell["origin_type"]): cell
        for row in by_status["statements"]["matrix"]["rows"]
        for cell in row["cells"]
    }
    assert cells[("question", "user")]["count"] == 3 and not cells[("question", "user")]["listed"]
    assert cells[("observation", "agent")]["listed"]


def test_a_long_list_pages_by_its_limit_with_next_and_previous_addresses() -> None:
    result = lint(document(questions=400))
    first = build_view(result, now=NOW, list_limit=LIMIT)
    (group,) = [o for g in first["statements"]["groups"] for o in g["by_origin"]]
    assert (group["pager"]["start"], len(group["items"]), group["hidden"]) == (0, 150, 250)
    assert group["pager"]["next"] == "?kind=question&origin=user&from=150"
    assert group["pager"]["previous"] is None
    second = build_view(
        result,
        now=NOW,
        list_limit=LIMIT,
        query=query(kind=["question"], origin=["user"], start=["150"]),
    )
    assert listed_ids(second) == [f"q-{i}" for i in range(150, 300)]
    (group,) = [o for g in second["statements"]["groups"] for o in g["by_origin"]]
    assert group["pager"]["previous"] == "?kind=question&origin=user"
    assert group["pager"]["next"] == "?kind=question&origin=user&from=300"
    last = build_view(
        result, now=NOW, list_limit=LIMIT, query=query(kind=["question"], start=["300"])
    )
    (group,) = [o for g in last["statements"]["groups"] for o in g["by_origin"]]
    assert len(group["items"]) == 100 and group["pager"]["next"] is None
    # past the end: nothing listed, the list says where it is
    beyond = build_view(result, now=NOW, list_limit=LIMIT, query=query(start=["900"]))
    assert listed_ids(beyond) == []
    # the JSON twin (no limit) lists every statement the query admits
    whole = build_view(result, now=NOW, query=query(start=["390"]))
    assert listed_ids(whole) == [f"q-{i}" for i in range(390, 400)]
    assert all(o["pager"] is None for g in whole["statements"]["groups"] for o in g["by_origin"])


def test_other_lists_page_by_their_name() -> None:
    doc = json.loads(document())
    doc["resources"] = [
        {"id": f"r-{i}", "kind": "file", "uri": f"https://files.example.com/{i}"}
        for i in range(320)
    ]
    result = lint(json.dumps(doc).encode())
    second = build_view(
        result,
        now=NOW,
        list_limit=LIMIT,
        query=PageQuery.of(lambda n: {"list": ["resources"], "from": ["150"]}.get(n, [])),
    )
    resources = second["resources"]
    assert [r["id"] for r in resources["items"]] == [f"r-{i}" for i in range(150, 300)]
    assert resources["pager"]["previous"] == "?list=resources"
    assert resources["pager"]["next"] == "?list=resources&from=300"
    assert resources["pager"]["next_count"] == 20
    # `from` with a list is that list's, not the statements'
    assert second["statements"]["query"]["start"] == 0
    # an unknown list name is ignored
    assert not PageQuery.of(lambda n: {"list": ["secrets"], "from": ["5"]}.get(n, [])).any
