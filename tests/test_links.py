"""Links that cannot lie (app/links.py) and class names that are never document text
(app/render/classes.py): the decision, the page a reader sees, its JSON twin, OCP-S008."""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser

import ada_url
import pytest
from starlette.testclient import TestClient

from app.analysis import lint
from app.config import Settings
from app.links import LONGEST_LINK, decide, has_userinfo
from app.render.classes import FAMILIES, all_classes, css_class
from app.report import FileResult, format_json, format_sarif, format_text
from app.web import create_app
from app.web.pages import checkpoint_html, checkpoint_json
from tests.conftest import CONFORMANCE, ROOT

# (uri, clickable, the host a reader is shown, a words of the reason when not clickable)
CASES = [
    # the attack: "https:" without slashes, a user name that reads as a host
    ("https:accounts.example.com@evil.example/login", False, "evil.example", "user name"),
    ("https:user:pass@evil.example/", False, "evil.example", "user name"),
    ("https://accounts.example.com@evil.example/", False, "evil.example", "user name"),
    ("https://:@evil.example/", False, "evil.example", "user name"),
    # whitespace, controls and invisible characters before "@" or in the host
    ("https://accounts.example.com\t@evil.example/", False, "evil.example", "whitespace"),
    ("https://accounts.example.com\n@evil.example/", False, "evil.example", "whitespace"),
    ("https://accounts.example.com\u00a0@evil.example/", False, None, "whitespace"),
    ("https://accounts.example.com\u2028@evil.example/", False, None, "whitespace"),
    ("https://good.example/\u2029", False, "good.example", "whitespace"),
    ("https://good.example/\x00", False, "good.example", "control"),
    ("https://good.example/\x9b", False, "good.example", "control"),
    ("https://good.example/\u202e/lmth.xe", False, "good.example", "bidi"),
    ("https://good.example/\u2066x\u2069", False, "good.example", "bidi"),
    ("https://good.example/\u200f", False, "good.example", "bidi"),
    ("https://good.example/\u061c", False, "good.example", "bidi"),
    ("https://good\u200b.example/", False, "good.example", "invisible"),
    ("https://good.example/\ufeff", False, "good.example", "invisible"),
    ("https://good.example/\u00ad", False, "good.example", "invisible"),
    # backslashes: "/" to browsers for http(s), so "a.example\@b.example" opens a.example
    ("https://a.example\\@b.example", False, "a.example", "backslash"),
    ("https:\\\\evil.example/", False, "evil.example", "backslash"),
    ("http://a\\b.example/x", False, "a", "backslash"),
    ("https://ok.example/?q=a\\b", True, "ok.example", None),
    # hosts the two parsers read differently, or browsers rewrite
    ("https://a.example%40b.example", False, None, "not a valid URL"),
    ("http://0x7f.1/", False, "127.0.0.1", "host is unclear"),
    ("https://1.2.3/", False, "1.2.0.3", "host is unclear"),
    ("https://ex%61mple.com/", False, "example.com", "host is unclear"),
    ("https:///evil.example/", False, "evil.example", "host is unclear"),
    ("https://\uff41\uff42\uff43.com/", False, "abc.com", "host is unclear"),
    ("https://[0:0::1]/", False, "[::1]", "host is unclear"),
    ("https://" + "a." * 200 + "com/", False, None, "longer than a domain name"),
    ("https://xn--zz.example/", False, "xn--zz.example", "not valid punycode"),
    # homographs: a Cyrillic "а" in a Latin name is refused; a whole-Cyrillic name is shown
    # in both forms, so the reader sees it is not apple.com
    ("https://\u0430pple.com/", False, "\u0430pple.com (xn--pple-43d.com)", "mixes"),
    ("https://p\u0430ypal.example/", False, None, "Cyrillic and Latin"),
    ("https://\u0430\u0440\u0440\u04cf\u0435.com/", True, "аррӏе.com (xn--80ak6aa92e.com)", None),
    ("https://\u0261oogle.com/accounts", True, "\u0261oogle.com (xn--oogle-qmc.com)", None),
    ("https://\u1d00pple.com/", True, "\u1d00pple.com (xn--pple-k13a.com)", None),
    ("https://\u03b1pple.com/", False, None, "Greek and Latin"),
    # IDN: the Unicode name and its punycode
    ("https://例え.jp/", True, "例え.jp (xn--r8jz45g.jp)", None),
    ("https://xn--r8jz45g.jp/", True, "例え.jp (xn--r8jz45g.jp)", None),
    ("https://例え.テスト/パス", True, "例え.テスト (xn--r8jz45g.xn--zckzah)", None),
    ("https://ß.de/", True, "ß.de (xn--zca.de)", None),
    # fine links: the host shown is the host opened
    ("https://evil.example#@good.example", True, "evil.example", None),
    ("https://evil.example/?next=@good.example", True, "evil.example", None),
    ("https://good.example.evil.example/", True, "good.example.evil.example", None),
    ("HTTPS://OK.EXAMPLE", True, "ok.example", None),
    ("https://ok.example:443/path?q#f", True, "ok.example", None),
    ("http://[::1]:8080/x", True, "[::1]", None),
    ("http://[2001:db8::1]/", True, "[2001:db8::1]", None),
    ("http://192.0.2.1/x", True, "192.0.2.1", None),
    ("https://example.com/a?b=1&c=2", True, "example.com", None),
    ("https://example.com/@scope/package", True, "example.com", None),
    # not web addresses
    ("javascript:alert(1)", False, None, "not an http or https"),
    ("JaVaScRiPt:alert(1)", False, None, "not an http or https"),
    ("data:text/html,<script>alert(1)</script>", False, None, "not an http or https"),
    ("file:///etc/passwd", False, None, "not an http or https"),
    (" https://example.com/", False, None, "not an http or https"),
    ("//example.com/", False, None, "not an http or https"),
    ("urn:isbn:0451450523", False, None, "not an http or https"),
    ("https://ok.example/" + "a" * LONGEST_LINK, False, None, "longer than"),
]


def _case_id(case: tuple[str, bool, str | None, str | None]) -> str:
    return ascii(case[0])[1:-1][:60]


@pytest.mark.parametrize(("uri", "clickable", "shown", "reason"), CASES, ids=map(_case_id, CASES))
def test_the_decision(uri, clickable, shown, reason):
    decision = decide(uri)
    assert decision.clickable is clickable, decision.reason
    if shown is not None:
        assert decision.host_label == shown
    if clickable:
        assert decision.reason is None
        assert decision.href == uri
        # the host shown is the one browsers open
        assert ada_url.parse_url(uri)["hostname"] == (decision.host_ascii or decision.host)
    else:
        assert decision.href is None
        assert reason in decision.reason
        if decision.host is not None:
            assert decision.reason.endswith(f"browsers would open {decision.host_label}")


@pytest.mark.parametrize(
    ("uri", "text"),
    [
        # whole-script confusables: no script is mixed, and each reads as a Latin name
        ("https://\u0430\u0440\u0440\u04cf\u0435.com/login", "https://xn--80ak6aa92e.com/login"),
        ("https://\u0261oogle.com/accounts", "https://xn--oogle-qmc.com/accounts"),
        ("https://\u1d00pple.com/", "https://xn--pple-k13a.com/"),
        ("https://\u03b1\u03b2.com/", "https://xn--mxac.com/"),
        ("https://m\u00fcnchen.de/x", "https://xn--mnchen-3ya.de/x"),
        # names no reader takes for a Latin one read as written
        ("https://例え.jp/", None),
        ("https://xn--r8jz45g.jp/", None),
        ("https://例え.テスト/パス", None),
        ("https://\u0645\u062b\u0627\u0644.example/", None),
        ("https://ok.example/", None),
    ],
)
def test_a_link_whose_host_could_pass_for_another_reads_as_its_ascii_form(uri, text):
    """A host whose Unicode form could read as another name (Unicode TS #39's whole-script
    confusables, which mixing no scripts gives away) is clickable, and its link shows the
    address with the host's ASCII form, as a browser's address bar then does."""
    decision = decide(uri)
    assert decision.clickable and decision.href == uri
    assert decision.shown == text
    if text is not None:
        assert ada_url.parse_url(text)["hostname"] == decision.host_ascii
        assert text.isascii()


def test_not_text_is_not_a_link():
    assert decide(42).reason == "it is not text"
    assert decide(None).clickable is False


def test_a_withheld_credential_is_not_a_link():
    decision = decide("https://ok.example/?k=[redacted: looks like a credential]")
    assert not decision.clickable and "withheld" in decision.reason


def test_long_uris_cost_little():
    """A megabyte uri is refused by its length before any parser reads it."""
    decision = decide("https://ok.example/" + "é" * 1_000_000)
    assert not decision.clickable and "longer than" in decision.reason


# --- the page -----------------------------------------------------------------------------


def _document(uris: list[str]) -> bytes:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["resources"] = [{"id": f"r-{i}", "kind": "web_page", "uri": u} for i, u in enumerate(uris)]
    return json.dumps(doc, ensure_ascii=False).encode()


class _Cards(HTMLParser):
    """Each resource card's URI field: its links (href, text), its code text, its notes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: dict[str, dict] = {}
        self.hrefs: list[str] = []
        self._card: str | None = None
        self._in_uri = 0
        self._capture: list[str] | None = None
        self._stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "article" and (a.get("id") or "").startswith("obj-r-"):
            self._card = a["id"][4:]
            self.cards[self._card] = {"links": [], "code": [], "host": [], "note": []}
        if self._card is None:
            return
        if tag == "dd" and "uri" in (a.get("class") or "").split():
            self._in_uri = 1
            return
        if not self._in_uri:
            return
        self._in_uri += 1
        self._stack.append(tag)
        card = self.cards[self._card]
        classes = (a.get("class") or "").split()
        if tag == "a":
            card["links"].append([a.get("href"), ""])
            self._capture = card["links"][-1]
        elif tag == "span" and "link-host" in classes:
            card["host"].append("")
        elif tag == "span" and "link-note" in classes:
            card["note"].append("")
        elif tag == "code" and self._in_uri == 2:  # the uri's own text, not the host's
            card["code"].append("")

    def handle_endtag(self, tag):
        if self._in_uri:
            self._in_uri -= 1
            if self._stack:
                self._stack.pop()
            if tag == "a":
                self._capture = None
        if tag == "article":
            self._card = None

    def handle_data(self, data):
        if not self._in_uri or self._card is None:
            return
        card = self.cards[self._card]
        if self._capture is not None:
            self._capture[1] += data
        if self._stack and self._stack[0] == "span" and card["host"] and not card["note"]:
            card["host"][-1] += data
        if self._stack and self._stack[0] == "span" and card["note"]:
            card["note"][-1] += data
        if self._stack == ["code"] and card["code"]:
            card["code"][-1] += data


PAGE_CASES = [c for c in CASES if len(c[0]) < 1000]


@pytest.fixture(scope="module")
def shown_page() -> tuple[_Cards, list[object]]:
    """The page of one document holding every case, and each uri as the page has it: the
    secret scan may withhold one that looks like it holds a credential."""
    result = lint(_document([c[0] for c in PAGE_CASES]))
    parser = _Cards()
    parser.feed(checkpoint_html("c.ocp.json", result))
    shown = [r["uri"] for r in result.analysis.redacted["resources"]]
    return parser, shown


@pytest.mark.parametrize(
    ("index", "case"), list(enumerate(PAGE_CASES)), ids=[_case_id(c) for c in PAGE_CASES]
)
def test_the_page_links_only_what_it_decided_and_names_the_host_it_opens(shown_page, index, case):
    page, shown = shown_page
    uri, clickable, _, reason = case
    if shown[index] != uri:  # withheld by the secret scan: never a link
        uri, clickable, reason = shown[index], False, "withheld"
    card = page.cards[f"r-{index}"]
    if clickable:
        [(href, text)] = card["links"]
        decision = decide(uri)
        # the link reads as the uri, or as its ASCII form where its host could pass for another
        assert href == uri and text == (decision.shown or uri)
        # the host beside the link, in both forms when they differ: the one the href opens
        [host] = card["host"]
        if decision.shown is None:
            assert host == f"host {decision.host_label}"
        else:
            assert host == f"host {decision.host_ascii}, written {decision.host}"
        assert ada_url.parse_url(href)["hostname"] == (decision.host_ascii or decision.host)
        assert card["note"] == []
    else:
        assert card["links"] == [], "a uri decided not to be a link became one"
        assert uri not in page.hrefs
        [note] = card["note"]
        assert note.startswith("Not a link because ") and reason in note
        # shown as text, invisible characters as visible escapes
        [code] = card["code"]
        assert not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]", code)


def test_every_href_on_the_page_opens_the_host_it_shows(shown_page):
    page, _ = shown_page
    linked = 0
    for card in page.cards.values():
        for href, _ in card["links"]:
            linked += 1
            assert card["host"] and ada_url.parse_url(href)["hostname"] in card["host"][0]
    assert linked == sum(1 for c in PAGE_CASES if c[1])


def test_the_json_twin_carries_the_same_decision(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    uris = [c[0] for c in PAGE_CASES]
    data = _document(uris)
    with TestClient(create_app(Settings())) as client:
        response = client.post(
            "/view.json", files={"checkpoint_file": ("c.ocp.json", data, "application/json")}
        )
    assert response.status_code == 200
    items = {r["id"]: r for r in response.json()["view"]["resources"]["items"]}
    assert items == {
        r["id"]: r for r in checkpoint_json("c", lint(data))["view"]["resources"]["items"]
    }
    for i, (uri, clickable, _, reason) in enumerate(PAGE_CASES):
        item = items[f"r-{i}"]
        if item["uri"] != uri:  # withheld by the secret scan: never a link
            uri, clickable, reason = item["uri"], False, "withheld"
        decision = decide(uri)
        assert item["link"] is clickable
        assert item["href"] == (uri if clickable else None)
        assert item["link_host"] == decision.host
        assert item["link_host_ascii"] == decision.host_ascii
        assert item["link_text"] == decision.shown
        assert (item["link_note"] is None) is clickable
        if not clickable:
            assert reason in item["link_note"]


# --- OCP-S008 -----------------------------------------------------------------------------

USER, PASSWORD = "alice-7391", "Zq8-hunter-2c"


@pytest.mark.parametrize(
    "uri",
    [
        f"https:{USER}@evil.example/",
        f"https:{USER}:{PASSWORD}@evil.example/",
        f"HTTPS:{USER}@evil.example/",
        f"https:\\\\{USER}@evil.example/",
        f"https://{USER}\t@evil.example/",
        f"http:/{USER}@evil.example/",
        f"wss:{USER}@evil.example/",
        f"https://{USER}:{PASSWORD}@evil.example/",
    ],
)
def test_s008_reads_userinfo_as_browsers_do_and_never_repeats_it(uri):
    assert has_userinfo(uri)
    doc = json.loads(_document([uri]))
    result = lint(json.dumps(doc).encode())
    s008 = [f for f in result.findings if f.code == "OCP-S008"]
    assert [f.path for f in s008] == ["/resources/0/uri"]
    for finding in s008:
        assert USER not in finding.message and PASSWORD not in finding.message
    # nor does any output that carries the finding (the uri itself is the value, never shown)
    for output in (format_text, format_json, format_sarif):
        report = output([FileResult("c.ocp.json", result)])
        assert "OCP-S008" in report
        messages = re.findall(r"OCP-S008[^\n]*", report)
        assert messages and not any(USER in m or PASSWORD in m for m in messages)


@pytest.mark.parametrize(
    "uri",
    [
        "https://example.com/a@b",
        "https://example.com/?to=a@b",
        "https://example.com#x@y",
        "mailto:bob@example.com",
        "urn:x:y@z",
        "file:user@host",
    ],
)
def test_s008_an_at_sign_elsewhere_is_not_userinfo(uri):
    assert not has_userinfo(uri)


# --- class names --------------------------------------------------------------------------

_CLASS = re.compile(r'class="([^"]*)"')
_EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{[^{}]*\}")
_QUOTED = re.compile(r"""['"]([\w -]+)['"]""")
_FIELD_CLASS = re.compile(r"""frag\.field\([^()]*,\s*["']([\w-]+)["']\)""")


def fixed_classes() -> set[str]:
    """Every class name the templates and the Python that writes HTML (fragments, cards, the
    checklist, the statements overview) write: their literal class names, the string
    constants their expressions choose between, and the mapping's names."""
    names = set(all_classes())
    sources = [p.read_text() for p in (ROOT / "templates").glob("*.html")]
    sources += [
        (ROOT / "app/web" / name).read_text()
        for name in ("fragments.py", "cards.py", "checklist.py", "statement_overview.py")
    ]
    for source in sources:
        # frag.field's class argument: frag.field("Task status", h.task_status, "status")
        names.update(_FIELD_CLASS.findall(source))
        for value in _CLASS.findall(source):
            for expression in _EXPRESSION.findall(value):
                if "frag.cls(" not in expression:
                    for literal in _QUOTED.findall(expression):
                        names.update(literal.split())
            names.update(_EXPRESSION.sub(" ", value).split())
    return names


class _ClassTokens(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tokens: set[str] = set()
        self.attributes: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "class" and value is not None:
                self.attributes.append(value)
                self.tokens.update(value.split())


HOSTILE_ENUMS = {
    "skip": "uncertain skip",
    "quote": 'x" onmouseover="window.__pwned=1',
    "angle": "active><script>window.__pwned=1</script>",
    "hidden": "met hidden",
}


def _hostile_document(minimal: dict) -> bytes:
    doc = copy.deepcopy(minimal)
    bad = HOSTILE_ENUMS
    doc["task"]["success_criteria"] = [{"id": "c-1", "description": "d", "status": bad["hidden"]}]
    doc["statements"] = [
        {
            "id": "s-1",
            "kind": bad["quote"],
            "text": "t",
            "status": bad["skip"],
            "origin": {"type": "tool", "name": "n"},
            "verification": {"state": bad["angle"]},
        },
        {
            "id": "s-2",
            "kind": "observation",
            "text": "t",
            "status": bad["quote"],
            "origin": {"type": bad["skip"], "name": "n"},
        },
    ]
    doc["resources"] = [
        {
            "id": "r-1",
            "kind": bad["quote"],
            "uri": "https://ok.example/",
            "sensitivity": bad["skip"],
            "revision": "1",
        }
    ]
    doc["operations"] = [
        {"id": "o-1", "kind": "action", "status": bad["skip"], "effect": "none"},
        {"id": "o-2", "kind": bad["quote"], "status": bad["quote"], "effect": bad["angle"]},
    ]
    doc["continuation"] = {
        "requirements": [
            {"id": "q-1", "kind": bad["skip"], "description": "d", "necessity": bad["quote"]}
        ],
    }
    return json.dumps(doc).encode()


def test_no_class_attribute_holds_document_text(minimal):
    tokens = _ClassTokens()
    tokens.feed(checkpoint_html("c.ocp.json", lint(_hostile_document(minimal))))
    unknown = tokens.tokens - fixed_classes()
    assert not unknown, f"class names from outside the fixed set: {sorted(unknown)}"
    for attribute in tokens.attributes:
        assert not any(value in attribute for value in HOSTILE_ENUMS.values()), attribute
        # "uncertain skip" would have added "skip", the class that moves an element off screen
        assert "skip" not in attribute.split() or attribute == "skip", attribute
        assert "hidden" not in attribute.split(), attribute
    # each hostile value got its family's "other" class where the page styles it
    for expected in ("status-other", "crit-other", "ver-other", "sens-other", "nec-other"):
        assert expected in tokens.tokens


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_maps_known_values_and_nothing_else(family):
    names = FAMILIES[family]
    for value, name in names.names.items():
        assert css_class(family, value) == name
        assert re.fullmatch(r"[a-z][a-z0-9_-]*", name)
    assert css_class(family, None) == names.absent
    for hostile in [*HOSTILE_ENUMS.values(), "", 3, ["planned"], "PLANNED"]:
        assert css_class(family, hostile) == names.other
