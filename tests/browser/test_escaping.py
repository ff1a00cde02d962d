"""Hostile text in every kind of text field, rendered by Chromium: no script runs, no dialog
opens, no CSP violation, and every string is shown literally where it was put.

Many strings go into one document (statement s-<i>, resource r-<i>, operation op-<i>, …), so a
handful of pages cover the 515 strings of the Big List of Naughty Strings plus our own."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page

from app.links import decide
from app.visible import visible
from app.web.fragments import TEXT_CHARS
from app.web.pages import PAGE_LIST_LIMIT
from tests.browser.conftest import conformance, submit_file
from tests.conftest import BLNS, manifest

pytestmark = pytest.mark.browser

REDACTED = "[redacted: looks like a credential]"
OWN = [
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=1">',
    "javascript:window.__pwned=1",
    "JaVaScRiPt:window.__pwned=1",
    '"><svg onload="window.__pwned=1">',
    "'><svg/onload=window.__pwned=1>",
    "</textarea><script>window.__pwned=1</script>",
    "</pre><script>window.__pwned=1</script><pre>",
    "</code></dd></dl><script>window.__pwned=1</script>",
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    '<a href="javascript:window.__pwned=1">click me</a>',
    '<object data="javascript:window.__pwned=1"></object>',
    '<base href="https://evil.example/">',
    '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">',
    "<style>*{display:none!important}</style>",
    '<form action="https://evil.example/"><button>send</button></form>',
    "<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>",
    '<noscript><p title="</noscript><img src=x onerror=window.__pwned=1>">',
    "<!-- an unclosed comment",
    "--> <![CDATA[ ]]> <?php echo 1; ?>",
    "&lt;script&gt;window.__pwned=1&lt;/script&gt; &amp; &#x3C;b&#x3E; &#60;i&#62;",
    "{{ 7*7 }} {% raw %}{% endraw %} ${window.__pwned=1} #{1+1} <%= 7*7 %>",
    "**bold** [link](javascript:window.__pwned=1) ![img](x) `code`",
    "%3Cscript%3Ewindow.__pwned=1%3C/script%3E",
    "\u2028\u2029 line separators \u202e)1(trela\u202c",
    "carriage\r\nreturn\rand line\nfeed",
    "nul\u0000byte",
    "\nstarts with a newline",
    "\r\nstarts with CRLF",
    "ends with a backslash \\",
]
STRINGS = list(dict.fromkeys(json.loads(BLNS.read_text()) + OWN))


# U+FDD0–U+FDEF, U+xFFFE, U+xFFFF and lone surrogates make the JSON itself invalid (I-JSON).
def _forbidden(s: str) -> bool:
    return any(
        0xD800 <= ord(c) <= 0xDFFF or 0xFDD0 <= ord(c) <= 0xFDEF or (ord(c) & 0xFFFE) == 0xFFFE
        for c in s
    )


RENDERABLE = [s for s in STRINGS if not _forbidden(s)]
UNRENDERABLE = [s for s in STRINGS if _forbidden(s)]
MARK = "\u27e6{}\u27e7"  # ⟦i⟧ between the strings of a single-valued field
# The page shows at most PAGE_LIST_LIMIT items of a list (the JSON twin has all of them), and
# resources take two per string (a urn: and an https: uri): one document per CHUNK strings.
CHUNK = PAGE_LIST_LIMIT // 2
CHUNKS = [range(i, min(i + CHUNK, len(RENDERABLE))) for i in range(0, len(RENDERABLE), CHUNK)]


# The C0 and C1 controls but tab, line feed and carriage return, which every page writes as the
# CLI's escapes ("\e", "\x07": app/visible.py), so that none reaches a terminal or the parser.
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def controls_escaped(s: str) -> str:
    return CONTROLS.sub(lambda m: visible(m.group()), s)


# The bidirectional embeddings, overrides and isolates, which a page writes as escapes in a
# text value (app/web/fragments.py `_isolated`): they would reorder the value itself; and the
# hidden characters (a zero-width space, a word joiner, a byte-order mark: `_HIDDEN`).
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]")


def shown(s: str) -> str:
    """What a reader sees of `s` as element text: its controls and bidirectional controls as
    escapes, then CR LF and CR made LF by the HTML parser (input preprocessing)."""
    escaped = BIDI_CONTROLS.sub(lambda m: visible(m.group()), controls_escaped(s))
    return escaped.replace("\r\n", "\n").replace("\r", "\n")


def on_page(s: str) -> str:
    """`shown` of a text value as a card shows it: past TEXT_CHARS characters, clipped with a
    count of the rest (the JSON view has it whole)."""
    left = len(s) - TEXT_CHARS
    if left <= 0:
        return shown(s)
    return (
        shown(s[:TEXT_CHARS]) + f" … {left:,} more character{'' if left == 1 else 's'}, not "
        "shown on this page; the JSON view has the whole text"
    )


def shown_attr(s: str) -> str:
    """In an attribute value, as in text: controls as escapes, CR LF and CR as LF."""
    return controls_escaped(s).replace("\r\n", "\n").replace("\r", "\n")


def joined(strings: list[tuple[int, str]]) -> str:
    return "".join(MARK.format(i) + s for i, s in strings)


def base() -> dict:
    return json.loads(conformance("valid-minimal.ocp.json"))


# --- the documents ------------------------------------------------------------------------


def naughty_document(chunk: range) -> dict:
    """Every string of `chunk` (global index i) in every kind of text field: the single-valued
    fields hold them all, joined and marked; each list has one object per string, with ids
    s-<i>, r-<i>, u-<i>, op-<i>, req-<i>, sc-<i>, om-<i>, extension key com.example.n-<i>.
    Fields of type text are never empty, so the empty string goes only where strings may be
    empty (excerpt, call arguments, extension data)."""
    every = [(i, RENDERABLE[i]) for i in chunk]
    text = [(i, s) for i, s in every if s]
    doc = base()
    doc["task"]["objective"] = joined(text)
    doc["task"]["outcome"] = joined(text)
    doc["source"]["producer"] = joined(text)
    doc["progress"] = {"focus": {"description": joined(text)}}
    doc["statements"] = [
        {
            "id": f"s-{i}",
            "kind": "observation",
            "text": s,
            "origin": {"type": "tool", "name": s},
            "rationale": s,
            "resolution": s,
        }
        for i, s in text
    ]
    doc["resources"] = [
        {"id": f"r-{i}", "uri": "urn:x-naughty:" + s, "excerpt": s}
        | ({"title": s, "description": s} if s else {})
        for i, s in every
    ] + [{"id": f"u-{i}", "uri": "https://example.com/?q=" + s} for i, s in text]
    doc["operations"] = [
        {
            "id": f"op-{i}",
            "kind": "action",
            "status": "planned",
            "effect": "none",
            "description": s or "(the empty string is in the call arguments only)",
            "call": {
                "tool": s or "t",
                "arguments": {"value": s, "by key": {s: "the key is the string"}},
            },
        }
        for i, s in every
    ]
    doc["continuation"] = {
        "requirements": [
            {"id": f"req-{i}", "kind": "tool", "description": s, "necessity": "optional"}
            | {"fallback": s}
            for i, s in text
        ],
        "stop_conditions": [{"id": f"sc-{i}", "description": s} for i, s in text],
    }
    doc["derivation"] = {
        "method": "captured",
        "omissions": [{"id": f"om-{i}", "description": s, "reason": "irrelevant"} for i, s in text],
    }
    doc["extensions"] = {f"com.example.n-{i}": {s: s} for i, s in every}
    return doc


# --- reading the page ---------------------------------------------------------------------

READ_PAGE = """
() => {
  const text = (el) => (el == null ? null : el.textContent);
  const dd = (root, label) => {
    if (root === null) return null;
    for (const dt of root.querySelectorAll(":scope > dl > dt, :scope dl.fields > dt")) {
      if (dt.textContent === label) return dt.nextElementSibling;
    }
    return null;
  };
  const byId = (id) => document.getElementById(id);
  const out = {};
  const header = byId("header");
  if (header) {
    out.objective = text(byId("header-h"));
    out.outcome = text(dd(header, "Outcome"));
    out.header_producer = text(dd(header, "Producer / agent / model")?.querySelector("span.text"));
    out.title = document.title;
  }
  out.focus = text(document.querySelector("#progress .focus > p.text"));
  out.producer = text(dd(byId("session-refs"), "Producer"));
  const cards = {};
  for (const el of document.querySelectorAll("[id^='obj-']")) {
    const id = el.id.slice(4);
    const card = { text: text(el.querySelector(":scope > p.text, :scope > blockquote > p.text")) };
    if (el.matches(".statement")) {
      card.origin_name = text(dd(el, "Origin")?.querySelector("span.text"));
      card.rationale = text(dd(el, "Rationale"));
      card.resolution = text(dd(el, "Resolution"));
    } else if (el.matches(".resource")) {
      card.title = text(el.querySelector("h3"));
      const uri = el.querySelector("dd.uri");
      card.uri_code = text(uri?.querySelector(":scope > code"));
      const link = uri?.querySelector(":scope > a");
      card.uri_link = text(link);
      card.href = link ? link.getAttribute("href") : null;
      card.excerpt = text(el.querySelector("pre.excerpt"));
    } else if (el.matches(".operation")) {
      const call = dd(el, "Call");
      card.tool = text(call?.querySelector(":scope > code"));
      card.arguments = text(call?.querySelector("pre.json"));
    } else {
      card.fallback = text(dd(el, "Fallback"));
    }
    cards[id] = card;
  }
  out.cards = cards;
  const extensions = {};
  for (const li of document.querySelectorAll("#extensions li.extension")) {
    extensions[text(li.querySelector("code.ext-key"))] = text(li.querySelector("pre.json"));
  }
  out.extensions = extensions;
  // every link on the page: only http(s) and same-page fragments may be followed
  out.bad_links = [...document.querySelectorAll("a[href]")]
    .filter((a) => !["http:", "https:"].includes(a.protocol))
    .map((a) => a.getAttribute("href"));
  out.more = document.querySelectorAll(".more").length;
  out.pwned = typeof window.__pwned;
  out.parentPwned = typeof window.parent.__pwned;
  // elements the document's text could have become, were it markup
  out.frames = document.querySelectorAll(
    "iframe, object, embed, img, svg, math, base, meta[http-equiv], " +
    "form:not([action='/share']):not(form.filters[action='#statements'])" +
    ":not(form.page-search[data-page-search]):not(dialog#shortcuts form[method='dialog']), " +
    "style, noscript"
  ).length;
  return out;
}
"""


class Mismatches:
    def __init__(self) -> None:
        self.items: list[str] = []

    def check(self, where: str, actual: str | None, expected: str, flagged: bool = False) -> None:
        if actual == expected or (flagged and actual == REDACTED):
            return
        if actual is not None and expected.startswith("\u27e6"):
            # a joined value: name the first string that is not on the page ("<i>⟧<string>")
            for part in expected.split("\u27e6")[1:]:
                if "\u27e6" + part not in actual:
                    expected, actual = part, "(not found)"
                    break
        self.items.append(f"{where}: expected {expected!r}, page shows {actual!r}")

    def assert_none(self) -> None:
        assert not self.items, f"{len(self.items)} strings not shown literally:\n" + "\n".join(
            self.items[:40]
        )


def render(page: Page, doc: dict) -> tuple[dict, set[str]]:
    """Submit `doc` through the form; the page's texts and the pointers the secret scan
    flagged (from the JSON twin)."""
    data = json.dumps(doc, ensure_ascii=False, indent=2).encode("utf-8")
    twin = page.request.post(
        "/view.json",
        multipart={
            "checkpoint_file": {
                "name": "c.ocp.json",
                "mimeType": "application/json",
                "buffer": data,
            }
        },
    )
    assert twin.ok, twin.text()[:500]
    report = twin.json()["report"]
    assert report["valid"], [f for f in report["findings"] if f["severity"] == "error"][:5]
    flagged = {f["path"] for f in report["findings"] if f["code"] == "secret"}
    submit_file(page, data)
    return page.evaluate(READ_PAGE), flagged


def assert_no_script(texts: dict) -> None:
    assert texts["pwned"] == "undefined", "a script from the document ran"
    assert texts["parentPwned"] == "undefined", "a script from the document ran"
    assert texts["bad_links"] == [], "links that are not http(s)"
    assert texts["frames"] == 0, "the document's text became elements"


def under(pointer: str, flagged: set[str]) -> bool:
    return any(pointer == f or pointer.startswith(f + "/") for f in flagged)


def object_pointers(doc: dict) -> dict[str, str]:
    """id -> JSON pointer of every object with an id."""
    return {v: p[: -len("/id")] for p, v in string_values(doc) if p.endswith("/id")}


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: f"strings-{c.start}-{c.stop - 1}")
def test_naughty_strings_in_every_text_field_are_shown_literally(open_page, chunk):
    page = open_page()
    doc = naughty_document(chunk)
    texts, flagged = render(page, doc)
    assert_no_script(texts)
    assert texts["more"] == 0, "the page left items out; keep each list under PAGE_LIST_LIMIT"
    m = Mismatches()
    where = object_pointers(doc)

    def check(label: str, actual: str | None, expected: str, pointer: str) -> None:
        m.check(label, actual, expected, under(pointer, flagged))

    text = [(i, RENDERABLE[i]) for i in chunk if RENDERABLE[i]]
    whole = on_page(joined(text))
    check("task.objective", texts["objective"], whole, "/task/objective")
    check("task.outcome", texts["outcome"], whole, "/task/outcome")
    check("progress.focus.description", texts["focus"], whole, "/progress/focus/description")
    check("source.producer", texts["producer"], whole, "/source/producer")
    check("source.producer in the header", texts["header_producer"], whole, "/source/producer")
    assert MARK.format(text[0][0]) in texts["title"]

    cards = texts["cards"]
    for i in chunk:
        s = RENDERABLE[i]
        missing = [f"{p}-{i}" for p in ("r", "op") if f"{p}-{i}" not in cards]
        if s:
            ids = ("s", "u", "req", "sc", "om")
            missing += [f"{p}-{i}" for p in ids if f"{p}-{i}" not in cards]
        assert not missing, f"no element with id obj-… for {missing}"
        # resources: the urn: uri and the excerpt always, title and description when not empty
        r, p = cards[f"r-{i}"], where[f"r-{i}"]
        # a uri that is not a link is shown with its invisible characters as escapes
        check(f"r-{i} uri", r["uri_code"], visible("urn:x-naughty:" + s), p + "/uri")
        assert r["uri_link"] is None, f"r-{i}: a urn: uri became a link"
        # the template's &#10; keeps a leading newline in <pre>
        check(f"r-{i} excerpt", r["excerpt"], shown(s), p + "/excerpt")
        # operations: description, call tool, call arguments (a value and a key) as JSON
        op, o, p = cards[f"op-{i}"], doc["operations"][i - chunk.start], where[f"op-{i}"]
        check(f"op-{i} description", op["text"], shown(o["description"]), p + "/description")
        check(f"op-{i} call.tool", op["tool"], shown(o["call"]["tool"]), p + "/call/tool")
        arguments = json.dumps(o["call"]["arguments"], indent=2, ensure_ascii=False)
        check(f"op-{i} call.arguments", op["arguments"], shown(arguments), p + "/call")
        # extension data: the string as a member name and as its value, as JSON
        key = f"com.example.n-{i}"
        value = json.dumps({s: s}, indent=2, ensure_ascii=False)
        check(f"extension {key}", texts["extensions"].get(key), shown(value), f"/extensions/{key}")
        if not s:
            continue
        check(f"r-{i} title", r["title"], shown(s), where[f"r-{i}"] + "/title")
        check(f"r-{i} description", r["text"], shown(s), where[f"r-{i}"] + "/description")
        u, p, uri = cards[f"u-{i}"], where[f"u-{i}"] + "/uri", "https://example.com/?q=" + s
        if decide(uri).clickable:  # app/links.py: no whitespace, control or bidi characters
            check(f"u-{i} link text", u["uri_link"], shown(uri), p)
            check(f"u-{i} href", u["href"], shown_attr(uri), p)
        else:
            check(f"u-{i} uri", u["uri_code"], visible(uri), p)
            assert u["uri_link"] is None, f"u-{i}: a uri decided not to be a link became one"
        st, p = cards[f"s-{i}"], where[f"s-{i}"]
        check(f"s-{i} text", st["text"], shown(s), p + "/text")
        check(f"s-{i} origin.name", st["origin_name"], shown(s), p + "/origin/name")
        check(f"s-{i} rationale", st["rationale"], shown(s), p + "/rationale")
        check(f"s-{i} resolution", st["resolution"], shown(s), p + "/resolution")
        req, p = cards[f"req-{i}"], where[f"req-{i}"]
        check(f"req-{i} description", req["text"], shown(s), p + "/description")
        check(f"req-{i} fallback", req["fallback"], shown(s), p + "/fallback")
        check(f"sc-{i} description", cards[f"sc-{i}"]["text"], shown(s), where[f"sc-{i}"])
        check(f"om-{i} description", cards[f"om-{i}"]["text"], shown(s), where[f"om-{i}"])
    m.assert_none()


def string_values(node: object, pointer: str = "") -> list[tuple[str, str]]:
    if isinstance(node, dict):
        return [
            pair
            for k, v in node.items()
            for pair in string_values(v, f"{pointer}/{k.replace('~', '~0').replace('/', '~1')}")
        ]
    if isinstance(node, list):
        return [pair for i, v in enumerate(node) for pair in string_values(v, f"{pointer}/{i}")]
    return [(pointer, node)] if isinstance(node, str) else []


ESCAPING = [c["file"] for c in manifest() if c["note"] == "escaping"]


@pytest.mark.parametrize("name", ESCAPING)
def test_conformance_escaping_cases(open_page, name):
    page = open_page()
    doc = json.loads(conformance(name))
    texts, flagged = render(page, doc)
    assert_no_script(texts)
    # every string of the document is on the page outside the numbered source: as text, or
    # (extension data and call arguments) inside the pretty-printed JSON, or (a timestamp,
    # shown in local time) as recorded in its title
    shown_text = page.evaluate(
        """() => { const main = document.querySelector("main").cloneNode(true);
                   main.querySelector("#source").remove();
                   const times = [...main.querySelectorAll("time.when")].map((t) => t.title);
                   return main.textContent + " " + times.join(" "); }"""
    )
    missing = []
    for pointer, s in string_values(doc):
        if under(pointer, flagged):
            continue
        if (
            shown(s) not in shown_text
            and shown(json.dumps(s, ensure_ascii=False)) not in shown_text
        ):
            missing.append((pointer, s))
    assert not missing, missing


def test_a_document_that_is_not_json_shows_a_json_error_and_runs_nothing(open_page):
    """Noncharacters and lone surrogates make the JSON invalid: a json finding, no script."""
    assert UNRENDERABLE, "the naughty strings should include a noncharacter"
    page = open_page()
    doc = base()
    doc["task"]["objective"] = OWN[0] + OWN[1]
    doc["statements"] = [
        {"id": f"s-{i}", "kind": "observation", "text": s + OWN[0], "origin": {"type": "tool"}}
        for i, s in enumerate(UNRENDERABLE)
    ]
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    # and a lone surrogate, which can only be written as an escape
    text = text.replace('"objective": "', '"objective": "\\ud800', 1)
    submit_file(page, text.encode("utf-8"))
    texts = page.evaluate(READ_PAGE)
    assert_no_script(texts)
    assert page.text_content(".page-header .verdict strong") == "invalid"
    codes = page.locator("#findings li a.code").all_text_contents()
    assert codes and set(codes) == {"json"}, codes
    source = page.text_content("#source ol")
    # the submitted text, shown as text (JSON-escaped, as it was submitted)
    assert OWN[0] in source and json.dumps(OWN[1])[1:-1] in source
