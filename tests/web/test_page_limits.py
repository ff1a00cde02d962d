"""A long checkpoint: the page lists PAGE_LIST_LIMIT items per list and says how many more
there are; the JSON twin has every one; the counts count every one."""

from __future__ import annotations

import copy
import json
import re
from datetime import UTC, datetime

import pytest
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.render import build_view
from app.web import create_app
from app.web.pages import PAGE_LIST_LIMIT, page_from_view
from tests.conftest import CONFORMANCE

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
COPIES = 80  # every list of the handoff, 81 times over: past the limit in each kind of list


def long_checkpoint() -> bytes:
    """valid-support-handoff with each statement, operation, resource and progress step
    repeated under new ids (the copies reference the originals, which all exist)."""
    document = json.loads((CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes())
    lists = [document["statements"], document["operations"], document["resources"]]
    lists += [document["progress"]["completed"], document["progress"]["next"]]
    for items in lists:
        originals = list(items)
        for n in range(COPIES):
            for item in originals:
                clone = copy.deepcopy(item)
                if "id" in clone:
                    clone["id"] = f"{clone['id']}-{n}"
                clone.pop("idempotency_key", None)
                items.append(clone)
    return json.dumps(document, indent=2).encode()


@pytest.fixture(scope="module")
def result():
    found = lint(long_checkpoint())
    assert found.document is not None
    return found


def without_unlisted_marks(node: object) -> object:
    if isinstance(node, dict):
        return {k: without_unlisted_marks(v) for k, v in node.items() if k != "unlisted"}
    if isinstance(node, list):
        return [without_unlisted_marks(v) for v in node]
    return node


def test_the_page_from_a_model_built_to_the_limit_is_the_page_from_the_whole_model(result):
    """Apart from naming the objects it left out (see the last test), the limited model
    makes the page that cutting the whole model's lists makes."""
    whole = build_view(result, now=NOW)
    limited = build_view(result, now=NOW, list_limit=PAGE_LIST_LIMIT)
    unmarked = without_unlisted_marks(limited)
    assert unmarked != limited  # there was something to mark
    # (and apart from the pagers: a list's "next 150" is an address only the model built to
    # the limit knows, app/render/query.py)
    pagers = re.compile(r'<p class="pager">.*?</p>')
    assert pagers.sub("", page_from_view("long", unmarked, result)) == pagers.sub(
        "", page_from_view("long", whole, result)
    )
    assert pagers.search(page_from_view("long", unmarked, result))
    # and it was built to the limit: fewer statement cards than the document has
    cards = sum(len(o["items"]) for g in limited["statements"]["groups"] for o in g["by_origin"])
    assert cards < limited["statements"]["count"]


def test_counts_count_every_item_whatever_the_limit(result):
    document = result.document
    limited = build_view(result, now=NOW, list_limit=PAGE_LIST_LIMIT)
    assert limited["statements"]["count"] == len(document["statements"])
    assert limited["statements"]["matrix"]["total"] == len(document["statements"])
    assert limited["operations"]["count"] == len(document["operations"])
    for group in limited["operations"]["groups"]:
        assert len(group["items"]) <= PAGE_LIST_LIMIT
    shown = sum(len(g["items"]) + g.get("hidden", 0) for g in limited["operations"]["groups"])
    assert shown == len(document["operations"])
    resources = limited["resources"]
    assert len(resources["items"]) == PAGE_LIST_LIMIT
    assert PAGE_LIST_LIMIT + resources["hidden"] == len(document["resources"])
    progress = limited["progress"]
    assert len(progress["completed"]) + progress["completed_hidden"] == len(
        document["progress"]["completed"]
    )
    assert len(progress["next"]) + progress["next_hidden"] == len(document["progress"]["next"])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    app = create_app(Settings(database_url=f"sqlite:///{directory / 'ocp.sqlite3'}"))
    with TestClient(app) as test_client:
        yield test_client


def test_the_page_says_what_it_left_out_and_the_json_twin_has_everything(client):
    body = long_checkpoint()
    files = {"checkpoint_file": ("long.ocp.json", body, "application/json")}
    html = client.post("/view", files=files).text
    document = json.loads(body)

    resources = html[html.index('<section id="resources"') : html.index('id="application-context"')]
    assert resources.count('class="card resource"') == PAGE_LIST_LIMIT
    total = len(document["resources"])
    # where the list stands, and a button that lists the next ones (the page's Share form,
    # which carries the document, sent back to /view)
    assert f"Resources 1–{PAGE_LIST_LIMIT} of {total:,}" in resources
    assert (
        f'form="carry" formaction="/view?list=resources&amp;from={PAGE_LIST_LIMIT}#resources">'
        f"next {min(PAGE_LIST_LIMIT, total - PAGE_LIST_LIMIT)}</button>"
    ) in resources
    # a file written by `ocp render` has no way to ask for more: it says where the rest is
    from app.analysis import lint
    from app.web.pages import checkpoint_html

    standalone = checkpoint_html("long.ocp.json", lint(body), standalone=True)
    left_out = total - PAGE_LIST_LIMIT
    assert f"{left_out} more not shown on this page" in standalone
    # the statements overview counts every statement, shown or not
    assert f'<td class="num total">{len(document["statements"])}</td>' in html

    twin = client.post("/view.json", files=files).json()["view"]
    assert len(twin["resources"]["items"]) == len(document["resources"])
    assert "hidden" not in twin["resources"]
    assert '"unlisted"' not in json.dumps(twin)  # only the page marks what it left out
    cards = [c for g in twin["operations"]["groups"] for c in g["items"]]
    assert len(cards) == len(document["operations"])


def test_every_link_within_the_page_has_a_target_on_the_page(client):
    """References to objects past the limit are marked as not listed, not dead links."""
    files = {"checkpoint_file": ("long.ocp.json", long_checkpoint(), "application/json")}
    html = client.post("/view", files=files).text
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    targets = set(re.findall(r'href="#([^"]+)"', html))
    assert targets - ids == set()
    assert "not listed on this page" in html


@pytest.mark.parametrize("query", ["", "?list=ops-verify-first&from=150", "?from=150"])
def test_no_link_leads_to_a_card_the_page_does_not_list(client, query):
    """A finding on an object past the list limit, and the summary's and checklist's first
    objects on a page that lists from the 151st on, name the object rather than link to it."""
    document = json.loads(long_checkpoint())
    last = document["operations"][-1]
    last["depends_on"] = ["op-that-was-never-recorded"]  # OCP-S002 on the last operation
    files = {"checkpoint_file": ("long.ocp.json", json.dumps(document, indent=2), "text/plain")}
    html = client.post("/view" + query, files=files).text
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    assert set(re.findall(r'href="#([^"]+)"', html)) - ids == set()
    findings = html[html.index('<section id="findings"') : html.index('id="before-continuing"')]
    listed = f'id="obj-{last["id"]}"' in html
    assert query or not listed  # the first page lists the first 150 of several hundred
    named = f'object <code>{last["id"]}</code> <span class="badge">not listed on this page'
    assert (f'href="#obj-{last["id"]}"' if listed else named) in findings


def test_the_checklist_names_the_first_few_and_links_to_the_cards_of_the_rest():
    from app.web.pages import CHECKLIST_SHOWN, checkpoint_html

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["continuation"] = {
        "stop_conditions": [
            {"id": f"stop-{i}", "description": f"Do not proceed while case {i} is open."}
            for i in range(CHECKLIST_SHOWN + 20)
        ]
    }
    result = lint(json.dumps(document).encode())
    page = checkpoint_html("stops.ocp.json", result)
    checklist = page[
        page.index('id="check-stop-conditions"') : page.index('id="check-incompatibilities"')
    ]
    assert checklist.count('href="#obj-stop-') == CHECKLIST_SHOWN
    assert '20 more, each in its card under <a href="#continuation">Continuation</a>' in checklist
    # each card once, in its section; the summary counts every one
    for i in range(CHECKLIST_SHOWN + 20):
        assert page.count(f'id="obj-stop-{i}"') == 1
    assert f"<strong>{CHECKLIST_SHOWN + 20}</strong> stop conditions" in page


def test_the_checklist_names_the_first_of_a_long_until_and_the_card_names_every_one():
    """A stop condition's checklist entry says what lifts it naming the first
    NAMED_PER_OPERATION operations of its until, and counts the rest; its card (and the JSON
    twin) names every one: the checklist points at the card, as for every object."""
    from app.advice import NAMED_PER_OPERATION
    from app.web.pages import checkpoint_html, checkpoint_json

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    ids = [f"op-{i}" for i in range(NAMED_PER_OPERATION + 5)]
    document["operations"] = [
        {"id": i, "kind": "action", "status": "planned", "description": f"Post entry {i}."}
        for i in ids
    ]
    until = [{"operation": i, "status": "completed"} for i in ids]
    document["continuation"] = {
        "stop_conditions": [{"id": "stop-all", "description": "Hold.", "until": until}]
    }
    result = lint(json.dumps(document).encode())
    assert not [f for f in result.findings if f.severity == "error"]
    page = checkpoint_html("until.ocp.json", result)
    checklist = page[
        page.index('id="check-stop-conditions"') : page.index('id="check-incompatibilities"')
    ]
    card = page[page.index("<dt>Lifted by</dt>", page.index('id="obj-stop-all"')) :]
    card = card[: card.index("</dd>")]
    last = ids[-1]
    assert f"{ids[0]} reaches completed" in checklist
    assert f"{last} reaches completed" not in checklist
    assert "5 more operations of its until reach theirs" in checklist
    assert f"{last} reaches completed" in card and "more operations" not in card
    stop = checkpoint_json("until.ocp.json", result)["view"]["continuation"]["stop_conditions"][0]
    assert f"{last} reaches completed" in stop["lifted_by"]
    assert "5 more operations" in stop["lifted_by_brief"]


@pytest.mark.parametrize(
    ("step", "section", "title", "noun"),
    [
        ("resources", "resources", "Resources", "resources to re-check"),
        ("statements", "statements", "Statements", "statements to re-check"),
    ],
)
def test_the_objects_to_re_check_are_named_first_and_counted_whole(step, section, title, noun):
    """The page's checklist names the first resources (and statements) to re-check, the
    summary and the "more" note count every one, and the JSON twin names every one."""
    from app.web.pages import CHECKLIST_SHOWN, checkpoint_html

    many = CHECKLIST_SHOWN + 25
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["resources"] = [
        {"id": f"r-{i}", "kind": "file", "uri": f"file:///ledger/{i}.csv", "revision": f"v{i}"}
        for i in range(many)
    ]
    document["statements"] = [
        {
            "id": f"s-{i}",
            "kind": "observation",
            "text": f"Posting {i} matched.",
            "origin": {"type": "tool", "ref": f"r-{i}"},
            "verification": {"state": "stale"},
        }
        for i in range(many)
    ]
    result = lint(json.dumps(document).encode())
    page = checkpoint_html("recheck.ocp.json", result)
    anchor = f'id="check-{step}"'
    checklist = page[page.index(anchor) : page.index("</section>", page.index(anchor))]
    prefix = "r" if step == "resources" else "s"
    assert len(set(re.findall(rf'href="#obj-{prefix}-\d+"', checklist))) == CHECKLIST_SHOWN
    assert f'25 more, each in its card under <a href="#{section}">{title}</a>' in checklist
    assert f"<strong>{many}</strong> {noun}" in page
    full = build_view(result, now=NOW)
    group = next(g for g in full["before_continuing"]["groups"] if g["key"] == step)
    assert [item["id"] for item in group["items"]] == [f"{prefix}-{i}" for i in range(many)]


def test_a_wide_extensions_object_is_built_to_the_limit_and_counted():
    """A page builds the first PAGE_LIST_LIMIT extension values and counts the rest, as every
    long list; the JSON twin has them all (160,000 members took 4.9 s to show 150)."""
    from app.web.pages import checkpoint_json

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    document["extensions"] = {f"com.example.k{i}": i for i in range(2000)}
    document["task"]["extensions"] = {"com.example.t": True}
    result = lint(json.dumps(document).encode())
    view = build_view(result, now=datetime.now(UTC), list_limit=PAGE_LIST_LIMIT)
    assert len(view["extensions"]["items"]) == PAGE_LIST_LIMIT
    assert view["extensions"]["hidden"] == 2001 - PAGE_LIST_LIMIT
    page = page_from_view("wide.ocp.json", view, result)
    assert f"{2001 - PAGE_LIST_LIMIT} more not shown on this page" in page
    twin = checkpoint_json("wide.ocp.json", result)["view"]["extensions"]
    assert len(twin["items"]) == 2001 and "hidden" not in twin


def test_a_stop_condition_s_long_until_is_listed_in_part_on_its_card():
    """Past REFS_SHOWN entries, the card lists the first ones and counts the rest, and says
    what lifts it naming the first few: the JSON twin has every one (a stop condition on
    40,000 actions made a 6 MB page)."""
    from app.web.fragments import REFS_SHOWN
    from app.web.pages import checkpoint_html, checkpoint_json

    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    ids = [f"op-{i}" for i in range(REFS_SHOWN + 30)]
    document["operations"] = [
        {"id": i, "kind": "action", "status": "planned", "description": f"Post entry {i}."}
        for i in ids
    ]
    until = [{"operation": i, "status": "completed"} for i in ids]
    document["continuation"] = {
        "stop_conditions": [{"id": "stop-all", "description": "Hold.", "until": until}]
    }
    result = lint(json.dumps(document).encode())
    page = checkpoint_html("until.ocp.json", result)
    card = page[
        page.index('id="obj-stop-all"') : page.index("</dl>", page.index('id="obj-stop-all"'))
    ]
    assert card.count(" reaches <code>completed</code>") == REFS_SHOWN
    assert "and 30 more, not shown on this page; the JSON view lists every one" in card
    assert "more operations of its until reach theirs" in card  # what lifts it, in brief
    stop = checkpoint_json("until.ocp.json", result)["view"]["continuation"]["stop_conditions"][0]
    assert len(stop["until"]) == REFS_SHOWN + 30 and ids[-1] in stop["lifted_by"]
