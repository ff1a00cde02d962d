"""read_checkpoint_for_model within a token budget, through the SDK's own client over stdio
(issue 28: a 2 MB document was read as 2.1 million characters, where a client caps a tool
answer near 25,000 tokens)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal
from mcp import ClientSession

from app.model_pages import estimate_tokens
from bench.lint import generate
from tests.test_mcp import HANDOFF, Shared, session

BIG = generate(2_000_000).decode()
TOOL = "read_checkpoint_for_model"


@pytest.fixture(scope="module")
def budget_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    """One `ocp mcp` for the module, as tests/test_mcp.py keeps one."""
    folder = tmp_path_factory.mktemp("mcp-budget")
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(session(folder)) as client,
    ):
        yield Shared(portal, client)


async def read(client: ClientSession, **arguments: Any) -> tuple[str, dict[str, Any], bool]:
    result = await client.call_tool(TOOL, arguments)
    assert result.structured_content is not None, result.content
    return result.content[0].text, result.structured_content, bool(result.is_error)


def resolve(document: dict[str, Any], parts: dict[str, Any]) -> dict[str, Any]:
    """The document put back together from its parts (JSON Pointers of depth 1 to 3)."""
    rebuilt: dict[str, Any] = {}
    for pointer, value in parts.items():
        names = [n.replace("~1", "/").replace("~0", "~") for n in pointer.split("/")[1:]]
        here: Any = rebuilt
        source: Any = document
        for name in names[:-1]:
            source = source[int(name)] if isinstance(source, list) else source[name]
            if isinstance(here, dict) and name not in here:
                here[name] = [] if isinstance(source, list) else {}
            here = here[name]
        last = names[-1]
        if isinstance(here, list):
            assert int(last) == len(here), pointer  # items arrive in order
            here.append(value)
        else:
            here[last] = value
    return rebuilt


def parts_in(text: str) -> dict[str, Any]:
    """The parts in a page's data block, in order: a line each, its pointer and its value."""
    block = text.split("----- BEGIN OPENCHECKPOINT DATA", 1)[1].split("\n", 2)[2]
    parts: dict[str, Any] = {}
    for line in block.rsplit("\n----- END OPENCHECKPOINT DATA", 1)[0].splitlines():
        ((pointer, value),) = json.loads("{" + line + "}").items()
        parts[pointer] = value
    return parts


def test_a_2_mb_document_is_read_within_the_default_budget_in_pages(budget_server: Shared):
    document = json.loads(BIG)

    async def body(client: ClientSession) -> None:
        text, answer, failed = await read(client, checkpoint=BIG)
        assert not failed
        page = answer["page"]
        assert page["max_tokens"] == 20_000 and page["number"] == 1 and page["pages"] > 1
        # the document is ASCII: four characters a token, counted here without the estimator
        assert len(text) <= 4 * 20_000 and estimate_tokens(text) <= 20_000
        assert len(json.dumps(answer)) < 4 * 2_000  # the structure holds no second copy
        # page 1 keeps the summary, the stop conditions and the open operations first, whole
        head = text.split("----- BEGIN")[0]
        assert "Verify first, each in the system of record:" in head
        assert "Stop conditions in force" in head and '"stop-0"' in head
        assert "Restoration steps (§10.7), in order:" in head
        pointers = answer["parts"]
        assert pointers[:6] == [
            "/opencheckpoint",
            "/id",
            "/created_at",
            "/source",
            "/task",
            "/continuation/stop_conditions/0",
        ]
        assert all(p.startswith("/operations/") for p in pointers[6:])
        # what it left out, by section, and how to page on
        assert answer["left_out"]["statements"] == len(document["statements"])
        assert answer["left_out"]["resources"] == len(document["resources"])
        assert '"statements" 1,123 of 1,123' in head
        assert page["next_page"] == 2 and "page=2" in head

    budget_server.run(body)


def test_every_part_is_on_exactly_one_page_and_they_make_the_document(budget_server: Shared):
    document = json.loads(BIG)

    async def body(client: ClientSession) -> None:
        seen: dict[str, Any] = {}
        number, pages = 1, None
        while number is not None:
            text, answer, failed = await read(
                client, checkpoint=BIG, max_tokens=150_000, page=number
            )
            assert not failed and estimate_tokens(text) <= 150_000
            assert len(text) <= 4 * 150_000
            pages = pages or answer["page"]["pages"]
            assert answer["page"]["pages"] == pages  # the same cut on every call
            on_page = parts_in(text)
            assert list(on_page) == answer["parts"]
            assert not set(on_page) & set(seen), "a part on two pages"
            seen |= on_page
            number = answer["page"]["next_page"]
        assert pages is not None and pages > 1
        assert resolve(document, seen) == document
        # past the last page: an error naming how many there are
        _, error, failed = await read(client, checkpoint=BIG, max_tokens=150_000, page=pages + 1)
        assert failed and f"has {pages} pages" in error["error"]["message"]

    budget_server.run(body)


def test_a_document_that_fits_is_whole_and_the_budget_is_bounded(budget_server: Shared):
    async def body(client: ClientSession) -> None:
        text, answer, failed = await read(client, checkpoint=HANDOFF)
        assert not failed and answer["page"]["pages"] == 1 and answer["parts"] == [""]
        assert answer["left_out"] == {}
        document = text.split("-----\n", 1)[1].rsplit("\n-----", 1)[0]
        assert json.loads(document)["id"] == json.loads(HANDOFF)["id"]
        for wrong in (10, 10_000_000):
            _, error, failed = await read(client, checkpoint=HANDOFF, max_tokens=wrong)
            assert failed and error["error"]["arguments"][0]["argument"] == "max_tokens"
        _, error, failed = await read(client, checkpoint=HANDOFF, page=0)
        assert failed and error["error"]["arguments"][0]["argument"] == "page"
        # a smaller budget pages the 17 KB handoff too, still within it
        text, answer, failed = await read(client, checkpoint=HANDOFF, max_tokens=4_000)
        assert not failed and answer["page"]["pages"] > 1
        assert estimate_tokens(text) <= 4_000

    budget_server.run(body)


def test_non_ascii_text_counts_heavier_and_a_huge_part_is_clipped_saying_so(budget_server: Shared):
    doc = json.loads(HANDOFF)
    doc["statements"][0]["text"] = "検証済みの払い戻し記録。" * 40_000  # 480,000 characters
    given = json.dumps(doc, ensure_ascii=False)

    async def body(client: ClientSession) -> None:
        for number in (1, 2):
            text, _, failed = await read(client, checkpoint=given, page=number)
            assert not failed
            # one token a character past ASCII: the page holds at most 20,000 of them
            assert len(text) - len(text.encode("ascii", "ignore")) <= 20_000
        first = (await read(client, checkpoint=given, page=1))[0]
        pages = (await read(client, checkpoint=given))[1]["page"]["pages"]
        texts = [first] + [
            (await read(client, checkpoint=given, page=n))[0] for n in range(2, pages + 1)
        ]
        clipped = [t for t in texts if '"/statements/0"' in t.split("----- BEGIN")[1]]
        assert len(clipped) == 1 and "more characters left out]" in clipped[0]

    budget_server.run(body)
