"""The Jinja2 environment: autoescape everywhere, undefined names are errors.

Shared by the service and by `ocp render`, which writes the same page as one file."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from app import __version__

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"
STATIC = Path(__file__).resolve().parent.parent.parent / "static"


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,  # every template, whatever its extension
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["version"] = __version__
    env.filters["json_text"] = json_text
    env.globals["txt"] = txt
    return env


REDACTED = "[redacted: looks like a credential]"
_REDACTED_HTML = Markup('<span class="redacted">{}</span>').format(REDACTED)


def txt(value: object) -> Markup:
    """A document text value for the page: escaped, and each redaction marker set apart so a
    reader sees a value was withheld. (A Python function, not a macro: it runs for every text
    on the page, and a macro call costs several times more.)"""
    if value is None:
        return Markup("")
    text = str(value)
    if REDACTED not in text:
        return escape(text)
    return _REDACTED_HTML.join(escape(part) for part in text.split(REDACTED))


def json_text(value: object) -> str:
    """A JSON value as indented text: a plain string, which autoescape then escapes."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False)


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)
