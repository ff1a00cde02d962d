"""The files the program reads at run time, as package resources.

The source tree keeps them at the top level (`templates/`, `static/`, `schema/`, `docs/`);
`pyproject.toml` maps each folder to a package, so a wheel, an sdist and an editable install
all find them through `importlib.resources`, never through paths computed from this file.
``app.schema`` is the schema stage's module, so the schema folder ships as ``app.schemas``.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from importlib.resources.abc import Traversable

TEMPLATES_PACKAGE = "app.templates"
STATIC_PACKAGE = "app.static"
SCHEMAS_PACKAGE = "app.schemas"
DOCS_PACKAGE = "app.docs"
# The schema of the one version this tool implements, by its file name in `schema/`.
SCHEMA_FILE = "opencheckpoint-0.1.schema.json"


def static_file(name: str) -> Traversable:
    """A file of `static/`, by its path there (``vendor/htmx-2.0.11.min.js``)."""
    return _join(files(STATIC_PACKAGE), name)


# The checkpoint the empty form's "Load an example" shows, in `static/examples/`.
EXAMPLE_FILE = "examples/invoice-handoff.ocp.json"


def example_bytes() -> bytes:
    """The bundled example checkpoint's exact bytes."""
    return static_file(EXAMPLE_FILE).read_bytes()


def schema_file(name: str) -> Traversable:
    return _join(files(SCHEMAS_PACKAGE), name)


@functools.cache
def schema_bytes() -> bytes:
    """The schema file's exact bytes (as served at the path of its ``$id``), read once."""
    return schema_file(SCHEMA_FILE).read_bytes()


def rule_doc(code: str) -> Traversable:
    """`docs/rules/CODE.md`, the one page of documentation of a rule."""
    return files(DOCS_PACKAGE) / "rules" / f"{code}.md"


@functools.cache
def rule_markdown(code: str) -> str | None:
    """The rule's page as Markdown, without its title line; None for a code with no page."""
    doc = rule_doc(code)
    if not doc.is_file():
        return None
    text = doc.read_text(encoding="utf-8")
    first, newline, rest = text.partition("\n")
    return rest.lstrip("\n") if first.startswith("# ") and newline else text


@functools.cache
def static_text(name: str) -> str:
    return static_file(name).read_text(encoding="utf-8")


def _join(root: Traversable, name: str) -> Traversable:
    node = root
    for part in name.split("/"):
        node = node / part
    return node
