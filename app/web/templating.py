"""The Jinja2 environment: autoescape everywhere, undefined names are errors.

Shared by the service and by `ocp render`, which writes the same page as one file."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jinja2

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
    return env


def json_text(value: object) -> str:
    """A JSON value as indented text: a plain string, which autoescape then escapes."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False)


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)
