"""The Jinja2 environment: autoescape everywhere, undefined names are errors.

Shared by the service and by `ocp render`, which writes the same page as one file."""

from __future__ import annotations

import functools
import json
import re

import jinja2

from app import __version__
from app.render.changes import change_anchor
from app.report import at_least, omitted_sentence, verdict
from app.resources import TEMPLATES_PACKAGE
from app.visible import escaped, holds_controls, visible
from app.web import cards, checklist, docs, fragments, statement_overview


class ModelEnvironment(jinja2.Environment):
    """Jinja2 with ``a.b`` looking in a dict before its attributes.

    The pages present render models made of plain dicts. Jinja2 tries ``getattr`` first, which
    on a dict raises and catches AttributeError for every ``a.b`` in a template: a few thousand
    times per checkpoint page, the largest single cost of rendering it."""

    def getattr(self, obj: object, attribute: str) -> object:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


@functools.cache
def environment() -> jinja2.Environment:
    env = ModelEnvironment(
        loader=jinja2.PackageLoader(TEMPLATES_PACKAGE, "."),
        autoescape=True,  # every template, whatever its extension
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates ship with the code: no stat() of each template file on every include.
        auto_reload=False,
    )
    env.globals["version"] = __version__
    env.globals["verdict"] = verdict  # the one wording of a verdict (app/report.py)
    env.globals["omitted_sentence"] = omitted_sentence
    env.globals["at_least"] = at_least
    # the anchor of an object's entry on the diff page, which a child's cards link to
    env.globals["change_anchor"] = change_anchor
    env.filters["json_text"] = json_text
    env.filters["txt"] = fragments.txt
    env.filters["label"] = fragments.label
    env.filters["when"] = fragments.when
    env.filters["rule_text"] = docs.rule_text_html
    # a <title> holds text only, outside any <bdi>: a bidi override or a control there
    # reorders or hides the tab's and the history's title, so each is written as an escape
    env.filters["visible"] = visible
    env.globals["frag"] = fragments
    env.globals["cards"] = cards
    env.globals["checklist"] = checklist
    env.globals["statement_overview"] = statement_overview
    return env


def json_text(value: object) -> str:
    """A JSON value as indented text: a plain string, which autoescape then escapes."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False)


# The C0 and C1 controls but tab, line feed and carriage return. No template writes one, so each
# in a page is a document's: an ESC sequence that retitles, clears or recolours the terminal a
# page is printed on (`ocp render` to standard output), a BEL; HTML forbids them as well. Each
# is written as the escape the CLI writes for it (app/visible.py: "\e", "\x07").
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def render(
    template: str, /, *, scan_controls: bool = True, escape_bidi: bool = False, **context: object
) -> str:
    """``template`` rendered, its controls written as escapes; ``scan_controls`` False: the
    caller knows no text it shows holds one (app/visible.py, may_decode_to_controls);
    ``escape_bidi``: its bidirectional controls and hidden characters too, which no template
    writes either (app/web/fragments.py REORDERING_OR_HIDDEN): a page whose values are not each
    isolated there (a diff's) writes every one as its escape, so none reorders or hides what a
    reviewer reads."""
    page = environment().get_template(template).render(**context)
    if escape_bidi and not page.isascii():
        page = fragments.REORDERING_OR_HIDDEN.sub(escaped, page)
    if not scan_controls or not holds_controls(page.encode("utf-8", "surrogatepass")):
        return page  # nearly every page
    return _CONTROLS.sub(escaped, page)
