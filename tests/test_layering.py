"""The program's structure, read from its imports (every import, at module level or inside a
function): its parts depend on each other one way only, the MCP server is a consumer of the
web service and never part of it, and the domain core imports no web framework."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from tests.conftest import ROOT

APP = ROOT / "app"
FRAMEWORKS = {"starlette", "jinja2", "uvicorn", "mcp", "mcp_types", "anyio", "markupsafe"}
# The front ends and the service: everything else under app/ is the domain core.
FRONT_ENDS = {"app.cli", "app.mcp_server", "app.mcp_http", "app.mcp_refusals", "app.web"}
MCP = {"app.mcp_server", "app.mcp_http", "app.mcp_refusals"}


@cache
def modules() -> dict[str, Path]:
    found = {}
    for path in APP.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str) -> set[str]:
    """Every module ``name`` imports, as written (absolute), at any depth of its code."""
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


def own(module: str) -> str | None:
    """The module of this program that an import names (``app.web.views.x`` → app.web.views)."""
    while module and module not in modules():
        module = module.rpartition(".")[0]
    return module or None


def unit(module: str) -> str:
    """A part of the program: a top-level module, or a whole subpackage (app.web, app.store)."""
    return ".".join(module.split(".")[:2])


def unit_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name in modules():
        targets = {own(m) for m in imported(name)} - {None, name}
        graph.setdefault(unit(name), set()).update(
            unit(t) for t in targets if t is not None and unit(t) != unit(name)
        )
    return graph


def test_the_parts_of_the_program_import_each_other_one_way_only():
    try:
        order = list(TopologicalSorter(unit_graph()).static_order())
    except CycleError as exc:
        raise AssertionError(
            f"an import circle between parts of the program: {exc.args[1]}"
        ) from None
    assert "app.web" in order and "app.mcp_server" in order


def test_the_service_never_imports_the_mcp_server():
    """The MCP server is a consumer of the service: it is given to the service as a mount."""
    for name in modules():
        if unit(name) == "app.web":
            reached = {own(m) for m in imported(name)}
            assert not reached & MCP, f"{name} imports {sorted(reached & MCP)}"
    code = (
        "import sys, app.web\n"
        "loaded = {'app.mcp_server', 'app.mcp_http'} & set(sys.modules)\n"
        "sys.exit(f'importing app.web imports {sorted(loaded)}' if loaded else None)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_domain_core_imports_no_web_framework():
    for name in modules():
        if unit(name) in FRONT_ENDS or name in FRONT_ENDS:
            continue
        frameworks = {m.split(".")[0] for m in imported(name)} & FRAMEWORKS
        assert not frameworks, f"{name} imports {sorted(frameworks)}"


def test_the_circle_check_sees_a_circle():
    """The check itself: a graph with a circle is refused (the check could otherwise pass
    whatever the imports)."""
    graph = {**unit_graph(), "app.web": {*unit_graph()["app.web"], "app.mcp_server"}}
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError:
        return
    raise AssertionError("a circle through app.web and app.mcp_server was not found")
