"""Large documents take turns in a lane of their own: a small lint is answered while many large
ones are still being checked (45 uploads of 250 KB made a 5 KB lint wait 74 s), and a large one
that gets no turn within the wait is refused with 503 and Retry-After, never queued forever."""

import json

import anyio
import httpx
import pytest

from app.config import Settings
from app.parse import MIB, Limits
from app.web import create_app
from app.web.work import SMALL_DOCUMENT, CpuLanes
from tests.conftest import CONFORMANCE

SMALL = (CONFORMANCE / "valid-support-handoff.ocp.json").read_bytes()


def _large(size: int) -> bytes:
    document = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    statement = {
        "kind": "observation",
        "text": "An ordinary sentence about the task, long enough to take some room.",
        "origin": {"type": "tool", "name": "ledger"},
    }
    count = size // 170
    document["statements"] = [{"id": f"s-{i}", **statement} for i in range(count)]
    return json.dumps(document, indent=1).encode()


LARGE = _large(250 * 1024)


def test_the_documents_are_in_the_lanes_they_claim() -> None:
    assert len(SMALL) <= SMALL_DOCUMENT < len(LARGE)


@pytest.mark.anyio
async def test_a_small_lint_is_answered_while_large_ones_wait_their_turn() -> None:
    app = create_app(Settings(limits=Limits(max_bytes=5 * MIB)))
    app.state.cpu_lanes = CpuLanes(small=4, large=2, wait=600)
    order: list[str] = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:

        async def post(name: str, data: bytes) -> None:
            response = await client.post(
                "/api/v1/lint", content=data, headers={"content-type": "application/json"}
            )
            assert response.status_code == 200
            order.append(name)

        async with anyio.create_task_group() as tasks:
            for i in range(24):
                tasks.start_soon(post, f"large-{i}", LARGE)
            await anyio.sleep(0.2)  # the large ones have taken their lane and queue behind it
            tasks.start_soon(post, "small", SMALL)
    # answered before most of the large documents that were sent first
    assert order.index("small") < 12, order


@pytest.mark.anyio
async def test_no_turn_within_the_wait_is_503_with_retry_after() -> None:
    app = create_app(Settings(limits=Limits(max_bytes=5 * MIB)))
    app.state.cpu_lanes = CpuLanes(small=4, large=1, wait=0.01)
    big = _large(3 * MIB)
    statuses: list[int] = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:

        async def post() -> None:
            response = await client.post(
                "/api/v1/lint", content=big, headers={"content-type": "application/json"}
            )
            statuses.append(response.status_code)
            if response.status_code == 503:
                assert response.headers["retry-after"] == "5"
                assert "busy" in response.json()["error"]

        async with anyio.create_task_group() as tasks:
            for _ in range(3):
                tasks.start_soon(post)
    assert sorted(statuses) == [200, 503, 503]
