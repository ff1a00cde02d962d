"""The MCP Inspector's CLI (npm @modelcontextprotocol/inspector, pinned and fetched by
scripts/fetch-mcp-inspector.sh) against `ocp mcp` over stdio and against /mcp of a real `ocp
serve`: it lists the tools (with --strict: no schema portability problem), the resources and
the resource templates, reads the schema and calls every tool, each with no error (issue 28:
"the MCP Inspector CLI lists and calls everything with no capability it cannot honour")."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.serve import Server
from tests.test_mcp import CHILD, HANDOFF, OCP, PARENT, TOOLS

pytestmark = pytest.mark.slow  # node and a server for each call: half a minute a transport

ROOT = Path(__file__).resolve().parent.parent
FETCH = ROOT / "scripts" / "fetch-mcp-inspector.sh"

Inspect = Callable[..., dict[str, Any]]


@pytest.fixture(scope="module")
def inspector() -> str:
    done = subprocess.run(["sh", str(FETCH)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def inspecting(
    inspector: str, tmp_path: Path, target: list[str], settings: tuple[str, ...] = ()
) -> Inspect:
    """Runs the Inspector's CLI with ``target`` (a command, or an URL) and its ``settings``
    (the server's environment, the transport) for one method: its JSON answer, once it has
    exited 0 and warned of nothing."""
    env = {**os.environ, "MCP_CATALOG_PATH": str(tmp_path / "catalog.json")}

    def inspect(method: str, *options: str, **tool_args: Any) -> dict[str, Any]:
        arguments = [f"{k}={json.dumps(v)}" for k, v in tool_args.items()]
        command = [inspector, "--cli", *settings, "--method", method, *options]
        if arguments:
            command += ["--tool-arg", *arguments]
        done = subprocess.run(
            [*command, "--", *target], env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (method, tool_args.keys(), done.stdout[-800:], done.stderr)
        assert "Warning" not in done.stderr and "rror" not in done.stderr, done.stderr
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    return inspect


def lists_and_calls_everything(inspect: Inspect) -> None:
    tools = inspect("tools/list", "--strict")["tools"]
    assert {t["name"] for t in tools} == TOOLS
    assert all(t.get("outputSchema") for t in tools)
    templates = inspect("resources/templates/list")["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == ["opencheckpoint://stored/{storage_id}"]
    listed = inspect("resources/list")["resources"]
    assert "opencheckpoint://schema/0.1" in [r["uri"] for r in listed]
    schema = inspect("resources/read", "--uri", "opencheckpoint://schema/0.1")
    assert json.loads(schema["contents"][0]["text"])["title"]

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        result = inspect("tools/call", "--tool-name", tool, **arguments)
        assert not result.get("isError"), (tool, result)
        content: dict[str, Any] = result["structuredContent"]
        return content

    created = call("store_checkpoint", checkpoint=HANDOFF)
    storage_id = created["storage_id"]
    stored = inspect("resources/read", "--uri", f"opencheckpoint://stored/{storage_id}")
    assert stored["contents"][0]["text"] == HANDOFF
    called = {"store_checkpoint"}
    assert call("lint_checkpoint", checkpoint=HANDOFF)["results"][0]["valid"] is True
    reading = call("read_checkpoint_for_model", storage_id=storage_id, max_tokens=4000, page=2)
    assert reading["page"]["number"] == 2
    assert call("diff_checkpoints", child=CHILD, parent=PARENT)["patch"] is not None
    answer = call("check_call", storage_id=storage_id, call={"tool": "crm.add_note"})
    assert answer["outcome"] in ("refuse", "determine_first", "nothing_against")
    assert call("get_checkpoint", storage_id=storage_id)["stored"]["storage_id"] == storage_id
    assert call("checkpoint_lineage", storage_id=storage_id)["entries"]
    deleted = call(
        "delete_checkpoint", storage_id=storage_id, deletion_token=created["deletion_token"]
    )
    assert deleted["deleted"] is True
    called |= {
        "lint_checkpoint",
        "read_checkpoint_for_model",
        "diff_checkpoints",
        "check_call",
        "get_checkpoint",
        "checkpoint_lineage",
        "delete_checkpoint",
    }
    assert called == TOOLS


def test_the_inspector_lists_and_calls_everything_over_stdio(inspector: str, tmp_path: Path):
    store = f"OCP_DATABASE_URL={tmp_path / 'store.sqlite3'}"
    inspect = inspecting(inspector, tmp_path, [str(OCP), "mcp"], ("-e", store))
    lists_and_calls_everything(inspect)


def test_the_inspector_lists_and_calls_everything_over_http(inspector: str, tmp_path: Path):
    env = {"OCP_DATABASE_URL": str(tmp_path / "store.sqlite3")}
    with Server(tmp_path, env) as running:
        target = [f"{running.base}/mcp"]
        inspect = inspecting(inspector, tmp_path, target, ("--transport", "http"))
        lists_and_calls_everything(inspect)
