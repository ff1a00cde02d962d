"""A long list's next statements and the statement filter, as a reviewer follows them
without JavaScript: links with parameters on a stored page (and its JSON twin), and on an
unsaved page buttons that send the page's Share form, which carries the document, back to
/view (issue 12)."""

from __future__ import annotations

import html
import re

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.test_statement_query import document

JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path):
    settings = Settings(database_url=str(tmp_path / "store.sqlite3"))
    with TestClient(create_app(settings)) as c:
        yield c


def card_ids(page: str) -> list[str]:
    return re.findall(r'<li id="obj-([^"]+)" class="card statement', page)


def test_a_stored_page_pages_and_filters_by_links(client) -> None:
    created = client.post(
        "/api/v1/checkpoints",
        content=document(questions=400, agent_observations=6),
        headers=JSON_TYPE,
    ).json()
    permalink = f"/c/{created['storage_id']}"
    first = client.get(permalink).text
    assert [i for i in card_ids(first) if i.startswith("q-")] == [f"q-{i}" for i in range(150)]
    nexts = re.findall(r'<a href="([^"]+)">next (\d+)</a>', first)
    assert nexts == [
        ("?kind=question&amp;origin=user&amp;from=150#kind-question-origin-user", "150")
    ]
    second = client.get(permalink + html.unescape(nexts[0][0]).split("#")[0])
    assert second.status_code == 200
    assert second.headers["cache-control"] == "private, no-cache"
    assert card_ids(second.text) == [f"q-{i}" for i in range(150, 300)]
    assert "Statements 151–300 of 400" in second.text
    # the filter form's GET: what the Show button sends
    filtered = client.get(
        permalink, params={"kind": "observation", "origin": "", "status": "retracted"}
    )
    assert card_ids(filtered.text) == ["o-1", "o-3", "o-5"]
    assert "Listing 3 of 406 statements" in filtered.text
    twin = client.get(permalink + ".json", params={"kind": "observation", "status": "retracted"})
    ids = [
        c["id"]
        for g in twin.json()["view"]["statements"]["groups"]
        for o in g["by_origin"]
        for c in o["items"]
    ]
    assert ids == ["o-1", "o-3", "o-5"]
    # the unfiltered page is as before, and cached
    assert client.get(permalink).headers.get("etag")


def carried_form(page: str) -> dict[str, str]:
    form = re.search(r'<form id="carry".*?</form>', page, re.S)
    assert form, "the page carries its document in its Share form"
    return {
        html.unescape(name): html.unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group()
        )
    }


def test_an_unsaved_page_pages_by_sending_its_share_form_back(client) -> None:
    first = client.post(
        "/view", files={"checkpoint_file": ("long.ocp.json", document(questions=400))}
    ).text
    buttons = re.findall(r'form="carry" formaction="([^"]+)">next (\d+)</button>', first)
    assert buttons == [
        ("/view?kind=question&amp;origin=user&amp;from=150#kind-question-origin-user", "150")
    ]
    action = html.unescape(buttons[0][0]).split("#")[0]
    fields = carried_form(first)
    assert "checkpoint_gz64" in fields and fields["name"] == "long.ocp.json"
    second = client.post(action, files={k: (None, v) for k, v in fields.items()})
    assert second.status_code == 200, second.text[:500]
    assert card_ids(second.text) == [f"q-{i}" for i in range(150, 300)]
    assert "long.ocp.json" in second.text  # the same name as the page it came from
    # and the filter's Show button: the selects belong to the same form
    filtered = client.post(
        "/view", files={**{k: (None, v) for k, v in fields.items()}, "kind": (None, "observation")}
    )
    assert card_ids(filtered.text) == []
    assert "Listing 0 of 400 statements" in filtered.text


def test_a_long_stored_documents_page_links_to_a_page_of_every_line(client) -> None:
    import json as json_module

    data = json_module.dumps(json_module.loads(document(agent_observations=500)), indent=2)
    lines = data.count("\n") + 1
    assert lines > 3000
    created = client.post("/api/v1/checkpoints", content=data.encode(), headers=JSON_TYPE).json()
    permalink = f"/c/{created['storage_id']}"
    page = client.get(permalink).text
    assert f'<a href="{permalink}/source">Every line, on a page of its own</a>' in page
    assert page.count('<li id="L') < lines
    source = client.get(permalink + "/source")
    assert source.status_code == 200
    assert source.text.count('<li id="L') == lines
    assert f'id="L{lines}"' in source.text
    # a line's findings link to them on the checkpoint's page, which has them
    marks = re.findall(r'class="mark \w+" href="([^"#]*)#(finding-\d+)"', source.text)
    assert marks
    for path, anchor in marks:
        assert path == permalink and f'id="{anchor}"' in page
    assert len(set(marks)) < len(re.findall(r'class="mark ', source.text))  # some unlinked
    # and on the checkpoint page itself, no mark links to a finding it does not list
    for anchor in re.findall(r'href="#(finding-\d+)"', page):
        assert f'id="{anchor}"' in page, anchor
    assert client.get("/c/AAAAAAAAAAAAAAAAAAAAAAAA/source").status_code == 404


def test_a_long_page_lists_the_lines_of_the_findings_it_lists(client) -> None:
    """A page lists its first 150 findings, and of a long text the lines around those: a line
    only an unlisted finding stands on is left to the source page, where the JSON twin still
    has every finding and every such line."""
    import json as json_module

    from app.analysis import lint

    data = json_module.dumps(json_module.loads(document(agent_observations=500)), indent=2)
    lines = [f.line for f in lint(data.encode()).findings]
    assert len(lines) == 500 and data.count("\n") + 1 > 3000
    created = client.post("/api/v1/checkpoints", content=data.encode(), headers=JSON_TYPE).json()
    permalink = f"/c/{created['storage_id']}"
    page = client.get(permalink).text
    assert len(re.findall(r'<li id="finding-\d+"', page)) == 150
    assert "more not shown on this page" in page
    # every line a listed finding or card links to is listed, and no line of the last findings
    for line in re.findall(r'href="#(L\d+)"', page):
        assert f'id="{line}"' in page, line
    assert f'id="L{lines[0]}"' in page
    assert f'id="L{lines[-1]}"' not in page
    assert page.count('<li id="L') < 150 * 8 + 40
    twin = client.get(permalink + ".json").json()["view"]
    assert len(twin["findings"]["items"]) == len(lint(data.encode()).findings)
    listed = {line["number"] for line in twin["source"]["lines"]}
    assert {lines[0], lines[-1]} <= listed


def test_a_long_childs_page_lists_the_lines_its_lineage_notes_link_to(client) -> None:
    """The lineage checks' notes are listed whole, and so are their lines in a long child's
    listing: a note's link to its line has a line to go to."""
    import hashlib
    import json as json_module

    parent_doc = json_module.loads(document(questions=1))
    parent_doc["statements"] += [
        {
            "id": f"c-{i}",
            "kind": "constraint",
            "text": f"Review account ledger {i} before posting.",
            "origin": {"type": "user"},
        }
        for i in range(20)
    ]
    parent = json_module.dumps(parent_doc, indent=2).encode()
    child_doc = json_module.loads(document(questions=1))
    child_doc["id"] = "urn:uuid:019a8000-0000-7000-8000-000000000008"
    child_doc["created_at"] = "2026-11-21T08:00:00Z"
    child_doc["parent"] = {
        "id": parent_doc["id"],
        "digest": "sha-256:" + hashlib.sha256(parent).hexdigest(),
    }
    # a compaction that drops the twenty constraints, written after 3,000 lines of resources
    statements = child_doc.pop("statements")
    child_doc["resources"] = [
        {"id": f"r-{i}", "kind": "file", "uri": f"file:///tmp/{i}"} for i in range(700)
    ]
    child_doc["statements"] = statements
    child_doc["derivation"] = {
        "method": "compacted",
        "omissions": [{"id": "om-0", "description": "editor state", "reason": "irrelevant"}],
    }
    child = json_module.dumps(child_doc, indent=2)
    assert child.count("\n") > 3000
    page = client.post(
        "/view", files={"checkpoint": (None, child), "parent": (None, parent.decode())}
    ).text
    notes = page.split('id="lineage-checks"')[1].split("</ol>")[0]
    noted = re.findall(r'href="#(L\d+)"', notes)
    assert noted and all(int(line[1:]) > 40 for line in noted)
    for line in noted:
        assert f'id="{line}"' in page, line
