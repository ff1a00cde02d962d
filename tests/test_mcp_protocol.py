"""What `ocp mcp` advertises is what it honours, and every tool's answer validates against the
output schema it declares: the SDK's own client (`mcp.Client`) over stdio, at a handshake
protocol version (initialize) and at 2026-07-28 (server/discover), as issue 28 probed it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from tests.test_mcp import CHILD, HANDOFF, OCP, PARENT, TOOLS, in_thread

METHOD_NOT_FOUND = -32601


def params(tmp_path: Path) -> StdioServerParameters:
    env = {**os.environ, "OCP_DATABASE_URL": str(tmp_path / "store.sqlite3")}
    return StdioServerParameters(command=str(OCP), args=["mcp"], env=env)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_the_capabilities_are_exactly_what_the_server_honours(tmp_path: Path, mode: str):
    log = tmp_path / "stderr.log"

    async def main() -> None:
        with log.open("w") as errlog:
            transport = stdio_client(params(tmp_path), errlog=errlog)
            async with Client(transport, mode=mode) as client:
                if mode == "auto":  # the client probed server/discover, and the server served it
                    assert client.protocol_version == "2026-07-28"
                    assert client.session.discover_result is not None
                else:
                    assert client.protocol_version != "2026-07-28"
                capabilities = client.server_capabilities
                assert capabilities is not None
                assert capabilities.prompts is None  # there are no prompts
                assert capabilities.logging is None and capabilities.completions is None
                assert capabilities.tools is not None and not capabilities.tools.list_changed
                resources = capabilities.resources
                assert resources is not None
                assert not resources.subscribe and not resources.list_changed
                for call in (
                    client.session.list_prompts(),
                    client.session.get_prompt("resume"),
                ):
                    with pytest.raises(MCPError) as refused:
                        await call
                    assert refused.value.error.code == METHOD_NOT_FOUND
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS

    in_thread(main)
    assert "Traceback" not in log.read_text()


def test_a_handshake_client_s_subscribe_is_method_not_found_as_advertised(tmp_path: Path):
    async def main() -> None:
        async with Client(params(tmp_path), mode="legacy") as client:
            # the SDK warns that 2026-07-28 removed the method, and sends it
            with pytest.warns(MCPDeprecationWarning), pytest.raises(MCPError) as refused:
                await client.session.subscribe_resource("opencheckpoint://schema/0.1")
            assert refused.value.error.code == METHOD_NOT_FOUND

    in_thread(main)


def test_every_tool_declares_an_output_schema_that_its_answers_validate_against(tmp_path: Path):
    """Each tool's answer and its failure, validated with jsonschema against the outputSchema
    the tool lists (the SDK's client validates only answers that are no failure)."""

    async def main() -> None:
        async with Client(params(tmp_path), mode="legacy") as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            validators = {}
            for name, tool in listed.items():
                schema = tool.output_schema
                assert schema is not None and schema["type"] == "object", name
                jsonschema.Draft202012Validator.check_schema(schema)
                validators[name] = jsonschema.Draft202012Validator(schema)
            answered: dict[str, list[bool]] = {name: [] for name in listed}

            async def check(tool: str, **arguments: Any) -> dict[str, Any]:
                result = await client.call_tool(tool, arguments)
                content = result.structured_content
                assert content is not None, (tool, result.content)
                problems = [e.message for e in validators[tool].iter_errors(content)]
                assert not problems, (tool, problems[:3], json.dumps(content)[:300])
                answered[tool].append(bool(result.is_error))
                return content

            created = await check("store_checkpoint", checkpoint=HANDOFF)
            storage_id = created["storage_id"]
            await check("store_checkpoint", checkpoint="{")
            await check("lint_checkpoint", checkpoint=HANDOFF)
            await check("lint_checkpoint", storage_id=storage_id)
            await check("lint_checkpoint")
            await check("read_checkpoint_for_model", checkpoint=HANDOFF)
            await check("read_checkpoint_for_model", checkpoint=HANDOFF, max_tokens=4_000, page=2)
            await check("read_checkpoint_for_model", checkpoint=HANDOFF, page=99)
            await check("diff_checkpoints", child=CHILD, parent=PARENT)
            await check("diff_checkpoints", child=CHILD)
            await check("check_call", checkpoint=HANDOFF, call={"tool": "x"})
            await check("check_call", storage_id=storage_id, call={"tool": "x"})
            await check("check_call", checkpoint=HANDOFF, call={"tool": ""})
            await check("get_checkpoint", storage_id=storage_id)
            await check("get_checkpoint", storage_id="nope")
            await check("checkpoint_lineage", storage_id=storage_id)
            await check("checkpoint_lineage")
            await check("delete_checkpoint", storage_id=storage_id, deletion_token="wrong")
            token = created["deletion_token"]
            await check("delete_checkpoint", storage_id=storage_id, deletion_token=token)
            # every tool answered once at least, and failed once at least, each validated
            for name, outcomes in answered.items():
                assert False in outcomes and True in outcomes, (name, outcomes)

    in_thread(main)
