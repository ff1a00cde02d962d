"""Our own documentation pages (docs/rules/CODE.md) as HTML, through markdown-it-py with raw
HTML disabled. This is the one place that marks HTML as safe: it is never document data."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import cast

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup

from app.resources import rule_doc

_RULE_LINK = re.compile(r"^(?:\./)?([A-Za-z0-9-]+)\.md(#.*)?$")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    # The default renderer_cls makes a RendererHTML; MarkdownIt types it as the protocol any
    # renderer meets, which has no rules.
    renderer = cast(RendererHTML, md.renderer)
    default_link_open = renderer.rules.get("link_open")

    # markdown-it-py binds a render rule to the renderer: it is called as a method.
    def link_open(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        href = str(tokens[idx].attrGet("href") or "")
        match = _RULE_LINK.match(href)
        if match:  # a sibling page: its route, not the file
            tokens[idx].attrSet("href", f"/rules/{match.group(1)}{match.group(2) or ''}")
        if default_link_open is not None:
            return str(default_link_open(tokens, idx, options, env))
        return self.renderToken(tokens, idx, options, env)

    md.add_render_rule("link_open", link_open)
    return md


@functools.cache
def rule_page_html(code: str) -> Markup:
    doc = rule_doc(code)
    if not doc.is_file():
        return Markup("")
    text = doc.read_text(encoding="utf-8")
    # The page's own title is the template's <h1>.
    text = re.sub(r"\A# .*\n", "", text)
    return Markup(_markdown().render(text))  # our own docs, raw HTML disabled


@functools.cache
def rule_text_html(text: str) -> Markup:
    """A rule's one-line summary (the registry's own words, Markdown with `code` spans) as
    inline HTML: the /rules table and a rule's page show its code spans as code, not as
    backticks. Only the rule registry's text comes here, never document data."""
    return Markup(_markdown().renderInline(text))  # our own text, raw HTML disabled
