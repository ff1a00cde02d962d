"""The files the program reads at run time, as package resources.

The source tree keeps them at the top level (`templates/`, `static/`, `schema/`, `docs/`);
`pyproject.toml` maps each folder to a package, so a wheel, an sdist and an editable install
all find them through `importlib.resources`, never through paths computed from this file.
``app.schema`` is the schema stage's module, so the schema folder ships as ``app.schemas``.
"""

from __future__ import annotations

import functools
import os
import sys

from app import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from typing import Any

TEMPLATES_PACKAGE = "app.templates"
STATIC_PACKAGE = "app.static"
SCHEMAS_PACKAGE = "app.schemas"
DOCS_PACKAGE = "app.docs"
# The schema of the one version this tool implements, by its file name in `schema/`, and
# the `$id` it is published under.
SCHEMA_FILE = "opencheckpoint-0.1.schema.json"
SCHEMA_ID = "https://opencheckpoint.org/schema/opencheckpoint-0.1.schema.json"
# The JSON Schema of the lint report (docs/report.md): the CLI's JSON, the API's and MCP's.
REPORT_SCHEMA_FILE = "lint-report.schema.json"


def _package_bytes(package: str, name: str) -> bytes:
    """A file of a package's folder, read by the package's own loader, as `pkgutil.get_data`
    reads it; OSError when there is none.

    What `ocp lint` reads takes this way: importing `importlib.resources` would import
    tempfile, shutil, zipfile and three compressors first, some twenty modules of its start-up
    (issue 13), to read a file. The loader is the one that found the package, so a wheel, an
    editable install and a zip archive each read from where the package is.
    """
    __import__(package)  # (not importlib.import_module: ocp lint loads importlib for nothing else)
    module = sys.modules[package]
    get_data = getattr(module.__spec__.loader if module.__spec__ else None, "get_data", None)
    if module.__file__ is None or get_data is None:
        raise FileNotFoundError(f"{package} has no loader that reads its files")
    data: bytes = get_data(os.path.join(os.path.dirname(module.__file__), *name.split("/")))
    return data


def static_file(name: str) -> Traversable:
    """A file of `static/`, by its path there (``vendor/htmx-2.0.11.min.js``)."""
    from importlib.resources import files

    return _join(files(STATIC_PACKAGE), name)


# The checkpoint the empty form's "Load an example" shows, in `static/examples/`.
EXAMPLE_FILE = "examples/invoice-handoff.ocp.json"


def example_bytes() -> bytes:
    """The bundled example checkpoint's exact bytes."""
    return static_file(EXAMPLE_FILE).read_bytes()


@functools.cache
def schema_bytes() -> bytes:
    """The schema file's exact bytes (as served at the path of its ``$id``), read once."""
    return _package_bytes(SCHEMAS_PACKAGE, SCHEMA_FILE)


@functools.cache
def load_schema() -> dict[str, Any]:
    """The schema as it ships, parsed once for every reader (the layout's enumerations, the
    screen, jsonschema-rs); its `$id` is the published one (§5.1)."""
    import json

    schema: dict[str, Any] = json.loads(schema_bytes())
    if schema.get("$id") != SCHEMA_ID:
        raise RuntimeError(f"{SCHEMA_FILE} has $id {schema.get('$id')!r}, expected {SCHEMA_ID}")
    return schema


def report_schema_bytes() -> bytes:
    """The lint report's JSON Schema, exactly as it ships (served beside the checkpoint's)."""
    return _package_bytes(SCHEMAS_PACKAGE, REPORT_SCHEMA_FILE)


def rule_doc(code: str) -> Traversable:
    """`docs/rules/CODE.md`, the one page of documentation of a rule."""
    from importlib.resources import files

    return files(DOCS_PACKAGE) / "rules" / f"{code}.md"


@functools.cache
def rule_markdown(code: str) -> str | None:
    """The rule's page as Markdown, without its title line; None for a code with no page."""
    try:
        text = _package_bytes(DOCS_PACKAGE, f"rules/{code}.md").decode("utf-8")
    except OSError:
        return None
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
