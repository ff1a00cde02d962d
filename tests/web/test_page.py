"""The checkpoint page: the render model shown as escaped, linkable, script-free HTML."""

from __future__ import annotations

import copy
import itertools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.pointer import parse_pointer
from app.report import VALIDITY_NOTE
from app.web import create_app
from tests.conftest import CONFORMANCE, ROOT, manifest

TEMPLATES = ROOT / "templates"
SECTION_ORDER = [
    "header",
    "findings",
    "before-continuing",
    "statements",
    "operations",
    "progress",
    "resources",
    "application-context",
    "continuation",
    "derivation",
    "extensions",
    "session-refs",
    "source",
]
HOSTILE = '<script>window.__pwned=1</script><img src=x onerror=alert(1)>"><svg onload=alert(1)>'
RICH = [
    "valid-support-handoff.ocp.json",
    "valid-coding-refactor.ocp.json",
    "valid-finance-variance.ocp.json",
    "valid-ops-scheduling.ocp.json",
]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Settings())) as c:
        yield c


def post(client, data: bytes | str | dict, *, parent: bytes | None = None, twin: bool = False):
    if isinstance(data, dict):
        data = json.dumps(data, indent=2)
    if isinstance(data, str):
        data = data.encode()
    form = {"parent": parent.decode()} if parent is not None else {}
    response = client.post(
        "/view.json" if twin else "/view",
        files={"checkpoint_file": ("c.ocp.json", data, "application/json")},
        data=form,
    )
    assert response.status_code == 200, response.text[:500]
    return response


class Page(HTMLParser):
    """The parts of a page the tests look at: ids in document order, links, and every tag
    with its attributes."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.anchors: list[dict[str, str | None]] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if attributes.get("id") is not None:
            self.ids.append(attributes["id"])
        if tag == "a" and attributes.get("href") is not None:
            self.hrefs.append(attributes["href"])
            self.anchors.append(attributes)

    handle_startendtag = handle_starttag


def page_of(response) -> Page:
    return Page(response.text)


def cases() -> list[tuple[str, str | None]]:
    return [(entry["file"], entry.get("parent")) for entry in manifest()]


def read(name: str) -> bytes:
    return (CONFORMANCE / name).read_bytes()


def model_anchors(view: dict) -> set[str]:
    """Every anchor the model names, except matrix cells with no statements (no list of
    statements exists for them to point at) and the inner anchors of a section whose member
    the document does not have (the page says it is not recorded, and nothing links there)."""
    found: set[str] = set()

    def walk(node: object, in_matrix: bool = False) -> None:
        if isinstance(node, dict):
            anchor = node.get("anchor")
            if isinstance(anchor, str) and not (in_matrix and node.get("count") == 0):
                found.add(anchor)
            if node.get("present") is False:
                return
            for key, value in node.items():
                walk(value, in_matrix or key == "matrix")
        elif isinstance(node, list):
            for item in node:
                walk(item, in_matrix)

    walk(view)
    return found


# --- every conformance document ----------------------------------------------------------


@pytest.mark.parametrize(("name", "parent"), cases(), ids=[c[0] for c in cases()])
def test_every_conformance_document_renders_with_all_its_anchors(client, name, parent):
    data = read(name)
    parent_bytes = read(parent) if parent else None
    view = post(client, data, parent=parent_bytes, twin=True).json()["view"]
    page = page_of(post(client, data, parent=parent_bytes))
    ids = set(page.ids)
    sections = [s["anchor"] for s in view["sections"]]
    assert set(sections) <= ids
    assert model_anchors(view) <= ids
    assert len(page.ids) == len(ids), "duplicate ids"
    dangling = {h[1:] for h in page.hrefs if h.startswith("#")} - ids
    assert not dangling
    order = [page.ids.index(anchor) for anchor in sections]
    assert order == sorted(order)


@pytest.mark.parametrize("name", RICH)
def test_sections_come_in_the_order_of_the_issue(client, name):
    page = page_of(post(client, read(name)))
    positions = [page.ids.index(anchor) for anchor in SECTION_ORDER]
    assert positions == sorted(positions)


def test_a_document_that_did_not_parse_shows_header_findings_and_source_only(client):
    response = post(client, read("json-nan.ocp.json"))
    ids = set(page_of(response).ids)
    assert {"header", "findings", "source"} <= ids
    assert not ids & set(SECTION_ORDER[2:-1])
    assert "could not be read as a JSON document" in response.text
    view = post(client, read("json-nan.ocp.json"), twin=True).json()["view"]
    assert [s["key"] for s in view["sections"]] == ["header", "findings", "source"]


def test_the_page_has_a_table_of_contents_linking_every_section(client):
    response = post(client, read("valid-support-handoff.ocp.json"))
    toc = response.text.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    assert [h[1:] for h in Page(toc).hrefs] == SECTION_ORDER
    assert response.text.index('<nav class="toc"') < response.text.index('id="findings"')


def test_one_h1_and_headings_never_skip_a_level(client):
    page = page_of(post(client, read("valid-support-handoff.ocp.json")))
    levels = [int(tag[1]) for tag, _ in page.tags if re.fullmatch(r"h[1-6]", tag)]
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels))


# --- findings -----------------------------------------------------------------------------


def test_findings_link_to_rule_pages_objects_and_lines(client):
    data = read("rule-S002-unresolved-blocked-by.ocp.json")
    view = post(client, data, twin=True).json()["view"]
    html = post(client, data).text
    items = view["findings"]["items"]
    assert items
    for finding in items:
        block = html.split(f'id="{finding["anchor"]}"', 1)[1].split("</li>", 1)[0]
        links = Page(block).hrefs
        assert f"/rules/{finding['code']}" in links
        if finding["object_anchor"]:
            assert f"#{finding['object_anchor']}" in links
        assert f"#L{finding['line']}" in links
    s002 = items[0]
    assert s002["code"] == "OCP-S002" and s002["object_anchor"] == "obj-next-ap"
    # the source line is marked and carries the finding back
    line = html.split(f'<li id="L{s002["line"]}" class="has-finding">', 1)[1].split("</li>", 1)[0]
    assert f'href="#{s002["anchor"]}"' in line


def test_every_source_line_is_anchored_and_links_to_itself(client):
    data = read("valid-minimal.ocp.json")
    page = page_of(post(client, data))
    count = len(data.decode().rstrip("\n").split("\n"))
    for n in range(1, count + 1):
        assert f"L{n}" in page.ids and f"#L{n}" in page.hrefs


# --- statements ---------------------------------------------------------------------------


def test_statement_matrix_is_an_accessible_table_linking_non_zero_cells(client):
    data = read("valid-support-handoff.ocp.json")
    view = post(client, data, twin=True).json()["view"]
    html = post(client, data).text
    table = html.split('<table class="matrix">', 1)[1].split("</table>", 1)[0]
    assert "<caption>" in table
    assert table.count('scope="row"') >= len(view["statements"]["kinds"])
    assert table.count('scope="col"') == len(view["statements"]["origin_types"]) + 2
    links = Page(table).hrefs
    for row in view["statements"]["matrix"]["rows"]:
        for cell in row["cells"]:
            assert (f"#{cell['anchor']}" in links) == (cell["count"] > 0)


def test_struck_and_external_statements_are_marked(client):
    html = post(client, read("valid-support-handoff.ocp.json")).text
    struck = html.split('id="obj-s-dec-credit"', 1)[1].split("</li>", 1)[0]
    assert html.split('id="obj-s-dec-credit"', 1)[1].startswith(' class="card statement struck')
    assert 'href="#obj-s-dec-refund-card"' in struck
    external = html.split('id="obj-s-ext-status-page"', 1)[1].split("</li>", 1)[0]
    assert external.startswith(' class="card statement external')
    assert "no instruction authority" in external and 'class="badge quoted"' in external


# --- operations ---------------------------------------------------------------------------


def test_operation_cards_show_call_resume_and_advice(client):
    data = read("valid-support-handoff.ocp.json")
    view = post(client, data, twin=True).json()["view"]
    html = post(client, data).text
    ops = html.split('id="operations"', 1)[1].split('id="progress"', 1)[0]
    positions = [ops.index(f'id="{g["anchor"]}"') for g in view["operations"]["groups"]]
    assert positions == sorted(positions)
    card = ops.split('id="obj-op-refund"', 1)[1].split("</article>", 1)[0]
    assert "<pre" in card and "&#34;amount&#34;: 58800" in card
    assert "the source&#39;s recommendation" in card
    assert "What to verify" in card and 'class="advice"' in card
    for advice in next(
        op for g in view["operations"]["groups"] for op in g["items"] if op["id"] == "op-refund"
    )["advice"]:
        assert str(escape(advice)) in card


# --- resources ----------------------------------------------------------------------------


def test_only_http_and_https_uris_become_links(client, minimal):
    doc = copy.deepcopy(minimal)
    uris = {
        "r-js": "javascript:alert(document.domain)",
        "r-js-case": "JaVaScRiPt:alert(1)",
        "r-data": "data:text/html,<script>alert(1)</script>",
        "r-vb": "vbscript:msgbox(1)",
        "r-file": "file:///etc/passwd",
        "r-https": "https://example.com/a?b=1&c=2",
        "r-http": "http://example.org/x",
    }
    doc["resources"] = [{"id": key, "uri": uri} for key, uri in uris.items()]
    response = post(client, doc)
    page = page_of(response)
    hrefs = [h.strip().lower() for h in page.hrefs]
    assert not [h for h in hrefs if h.startswith(("javascript:", "data:", "vbscript:", "file:"))]
    for key in ("r-https", "r-http"):
        link = next(a for a in page.anchors if a["href"] == uris[key])
        assert link["rel"] == "noopener noreferrer nofollow"
    for key in ("r-js", "r-data", "r-file"):
        assert str(escape(uris[key])) in response.text  # shown, as text
    assert "<script>alert(1)" not in response.text


# --- escaping -----------------------------------------------------------------------------


def hostile_documents(minimal: dict) -> list[dict]:
    valid = copy.deepcopy(minimal)
    valid["task"]["objective"] = "Objective " + HOSTILE
    valid["statements"] = [
        {
            "id": "s-1",
            "kind": "observation",
            "text": "Statement " + HOSTILE,
            "origin": {"type": "tool", "name": HOSTILE},
        }
    ]
    valid["resources"] = [
        {"id": "r-1", "title": HOSTILE, "uri": "https://example.com/", "excerpt": HOSTILE}
    ]
    valid["operations"] = [
        {
            "id": "op-1",
            "kind": "action",
            "status": "planned",
            "description": HOSTILE,
            "effect": "none",
            "call": {"tool": "search", "arguments": {"query": HOSTILE, "nested": [HOSTILE]}},
        }
    ]
    valid["extensions"] = {"com.example.notes": {"note": HOSTILE}}
    invalid = copy.deepcopy(valid)
    invalid["extensions"] = {HOSTILE: {HOSTILE: HOSTILE}}
    invalid[HOSTILE] = HOSTILE  # an unknown member name: a schema finding quotes it
    invalid["statements"][0]["id"] = HOSTILE
    return [valid, invalid]


def assert_escaped(html: str) -> None:
    assert "&lt;script&gt;" in html
    assert "<script>window" not in html
    assert "<img src=x" not in html
    assert "<svg onload" not in html
    page = Page(html)
    for tag, attributes in page.tags:
        assert tag not in ("svg", "img", "iframe", "object", "embed")
        assert not [name for name in attributes if name.startswith("on")]
        assert "style" not in attributes
        if tag == "script":
            assert attributes.get("src", "").startswith("/static/")


def test_hostile_text_is_escaped_everywhere(client, minimal):
    for doc in hostile_documents(minimal):
        response = post(client, doc)
        assert_escaped(response.text)
    valid_view = post(client, hostile_documents(minimal)[0], twin=True).json()
    assert valid_view["report"]["valid"] is True  # the hostile values reach every section


def test_hostile_text_lands_where_it_was_put(client, minimal):
    html = post(client, hostile_documents(minimal)[1]).text
    escaped = str(escape(HOSTILE))
    for anchor in ("header", "statements", "resources", "operations", "extensions", "source"):
        section = html.split(f'id="{anchor}"', 1)[1]
        assert escaped in section or escaped.replace("&#34;", "\\&#34;") in section, anchor
    extensions = html.split('id="extensions"', 1)[1].split('id="session-refs"', 1)[0]
    assert 'class="ext-key"' in extensions and escaped in extensions
    findings = html.split('id="findings"', 1)[1].split('id="before-continuing"', 1)[0]
    assert "&lt;script&gt;" in findings  # the unknown member name, quoted by a finding


def test_hostile_text_in_a_document_that_does_not_parse(client):
    response = post(client, '{"task": {"objective": "' + HOSTILE.replace('"', "'") + '"}, }')
    assert_escaped(response.text)


def test_markdown_and_template_syntax_stay_plain_text(client):
    html = post(client, read("escape-coding-basic.ocp.json")).text
    assert "<strong>Switch" not in html and 'href="javascript' not in html
    assert "**Switch** the rounding mode [now](javascript:window.__pwned=1)" in html
    assert "{{constructor.constructor(" in html
    assert "<img src=x" not in html


# --- secrets ------------------------------------------------------------------------------


def string_leaves(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in [key, *string_leaves(item)]]
    if isinstance(value, list):
        return [leaf for item in value for leaf in string_leaves(item)]
    return []


def secret_tokens(data: bytes) -> tuple[list[str], list[str]]:
    """The flagged values of a document, and the credential-looking runs inside them that
    occur nowhere else in it."""
    document = json.loads(data)
    text = data.decode()
    values = []
    for finding in lint(data).findings:
        if finding.code != "secret":
            continue
        value = document
        for token in parse_pointer(finding.path):
            value = value[int(token)] if isinstance(value, list) else value[token]
        values += string_leaves(value)
    rest = text
    for value in values:
        rest = rest.replace(json.dumps(value, ensure_ascii=False)[1:-1], "")
    runs = {run for value in values for run in re.findall(r"[A-Za-z0-9_+/=%:\-]{12,}", value)}
    return values, sorted(run for run in runs if run not in rest)


SECRET_DOCUMENTS = sorted(CONFORMANCE.glob("secret-*.ocp.json"))


@pytest.mark.parametrize("path", SECRET_DOCUMENTS, ids=lambda p: p.name)
def test_secrets_never_reach_the_page(client, path: Path):
    data = path.read_bytes()
    values, runs = secret_tokens(data)
    assert values and runs
    html = post(client, data).text
    view = json.dumps(post(client, data, twin=True).json()["view"], ensure_ascii=False)
    for needle in [*values, *runs]:
        for form in (needle, str(escape(needle))):
            assert form not in html, needle
        assert needle not in view, needle
    assert 'class="redacted"' in html


# --- what the page claims -----------------------------------------------------------------


CLAIM = re.compile(r"\b(safe|safely|resumable|authori[sz]ed)\b", re.I)
NEGATION = re.compile(r"\b(not|never|no|nor|none|cannot)\b", re.I)


def visible_sentences(html: str) -> list[str]:
    body = html.split("<body>", 1)[1]
    text = re.sub(r"<[^>]+>", " ", body)
    return [s for s in re.split(r"[.;!?\n]", text) if s.strip()]


@pytest.mark.parametrize("name", RICH)
def test_the_validity_note_is_shown_and_nothing_is_called_safe(client, name):
    html = post(client, read(name)).text
    assert VALIDITY_NOTE in html
    assert "valid (levels 1–2)" in html
    for sentence in visible_sentences(html):
        if CLAIM.search(sentence):
            assert NEGATION.search(sentence), sentence


def test_lineage_with_a_supplied_parent(client):
    parent = read("valid-coding-refactor.ocp.json")
    child = post(client, read("valid-coding-refactor-child.ocp.json"), parent=parent).text
    assert "Supplied parent" in child and "matches parent.digest" in child
    mismatch = post(client, read("digest-parent-mismatch.ocp.json"), parent=parent).text
    assert "does not match</strong> parent.digest" in mismatch


# --- the JSON twin ------------------------------------------------------------------------


def test_json_twin_has_the_report_and_the_view(client):
    twin = post(client, read("valid-support-handoff.ocp.json"), twin=True).json()
    assert {"tool", "note", "report", "view"} <= set(twin)
    assert twin["note"] == VALIDITY_NOTE
    assert twin["report"]["valid"] is True
    assert twin["view"]["header"]["verdict"] == "valid (levels 1–2)"
    assert [s["anchor"] for s in twin["view"]["sections"]] == SECTION_ORDER


def test_json_twin_with_a_parent(client):
    parent = read("valid-coding-refactor.ocp.json")
    twin = post(client, read("valid-coding-refactor-child.ocp.json"), parent=parent, twin=True)
    lineage = twin.json()["view"]["header"]["lineage"]
    assert lineage["parent_supplied"] is True
    assert lineage["supplied"]["digest_matches"] is True


# --- templates ----------------------------------------------------------------------------


def test_no_template_can_emit_unescaped_or_inline_code():
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert any(t.name.startswith("_page_") for t in templates)
    for template in templates:
        text = template.read_text()
        assert not re.search(r"\|\s*safe\b", text), template
        assert "Markup(" not in text, template
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text, re.I), template
        assert not re.search(r"\sstyle=", text, re.I), template
        assert not re.search(r"\son[a-z]+\s*=", text, re.I), template
        assert "hx-on" not in text, template
        assert "autoescape false" not in text, template


def test_pages_work_without_javascript(client):
    """Copy-link buttons are the only scripted part; every link target is an id in the HTML."""
    html = post(client, read("valid-support-handoff.ocp.json")).text
    assert html.count("data-copy-link=") > 50
    for button in re.findall(r"<button[^>]*data-copy-link[^>]*>", html):
        assert 'type="button"' in button and 'class="link"' in button


def test_each_summary_line_lands_on_a_list_of_as_many(tmp_path):
    """The summary's "2 operations forbidden" once led to a group headed "(1)": a line whose
    target is a counted list lands on one that counts what the line counts (issue 27)."""
    data = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()
    with TestClient(create_app(Settings(database_url=str(tmp_path / "db.sqlite3")))) as c:
        page = c.post("/view", files={"checkpoint_file": ("c.json", data, "application/json")})
    html = page.text
    line = re.search(
        r'summary-forbidden"><a class="line-head" href="#([^"]+)"><strong>(\d+)</strong>', html
    )
    assert line, "no forbidden line"
    target, count = line[1], int(line[2])
    assert count == 2
    heading = re.search(rf'<h3 id="{target}-h">[^<]*<span class="count">\((\d+)\)</span>', html)
    assert heading and int(heading[1]) == count
    section = html[
        html.index(f'id="{target}"') : html.index("</section>", html.index(f'id="{target}"'))
    ]
    assert section.count("<li>") == count
