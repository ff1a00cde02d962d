"""Large documents take turns in a lane of their own: a small lint is answered while every
large turn is taken (45 uploads of 250 KB made a 5 KB lint wait 74 s), large ones are checked a
few at a time, and one that gets no turn within the wait is refused with 503 and Retry-After,
never queued forever."""

import json
import threading
from collections.abc import Awaitable, Callable

import anyio
import httpx

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


async def _post(client: httpx.AsyncClient, data: bytes) -> httpx.Response:
    return await client.post(
        "/api/v1/lint", content=data, headers={"content-type": "application/json"}
    )


def _run(test: Callable[[], Awaitable[None]]) -> None:
    """Run an async test on an event loop of its own thread: the browser tests' Playwright
    keeps a loop running in the main thread for the whole session."""
    failure: list[BaseException] = []

    def body() -> None:
        try:
            anyio.run(test)
        except BaseException as exc:  # reported in the test's own thread below
            failure.append(exc)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the test's event loop did not finish"
    if failure:
        raise failure[0]


def test_a_small_lint_is_answered_while_every_large_turn_is_taken() -> None:
    _run(_small_while_large_held)


def test_large_documents_take_turns_never_more_than_the_lane_at_once() -> None:
    _run(_large_take_turns)


async def _small_while_large_held() -> None:
    """The large lane held (as 45 large uploads hold it), a small document still gets a
    turn: its lane is its own."""
    app = create_app(Settings(limits=Limits(max_bytes=5 * MIB)))
    app.state.cpu_lanes = lanes = CpuLanes(small=4, large=2, wait=0.5)
    _, large_lane, _ = lanes.limiters()
    holders = [object(), object()]
    for holder in holders:
        await large_lane.acquire_on_behalf_of(holder)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        small = await _post(client, SMALL)
        assert small.status_code == 200
        assert small.json()["results"][0]["valid"] is True
        # a large one waits its turn, and gets 503 with Retry-After when none comes in time
        busy = await _post(client, LARGE)
        assert busy.status_code == 503
        assert busy.headers["retry-after"] == "5"
        assert "busy" in busy.json()["error"]
        for holder in holders:
            large_lane.release_on_behalf_of(holder)
        assert (await _post(client, LARGE)).status_code == 200


async def _large_take_turns() -> None:
    app = create_app(Settings(limits=Limits(max_bytes=5 * MIB)))
    app.state.cpu_lanes = lanes = CpuLanes(small=4, large=2, wait=600)
    _, large_lane, _ = lanes.limiters()
    most = 0
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:

        async def post() -> None:
            response = await _post(client, LARGE)
            assert response.status_code == 200

        async def watch() -> None:
            nonlocal most
            while True:
                most = max(most, int(large_lane.borrowed_tokens))
                await anyio.sleep(0.001)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watch)
            async with anyio.create_task_group() as posts:
                for _ in range(8):
                    posts.start_soon(post)
            tasks.cancel_scope.cancel()
    assert most == 2  # all eight were checked, two at a time


def test_a_large_job_pauses_the_collector_and_leaves_it_running() -> None:
    _run(_large_jobs_and_the_collector)


async def _large_jobs_and_the_collector() -> None:
    """A large document's job runs with the cyclic collector waiting (each collection would
    walk the document again, app/collector.py), a small one's with it running; however large
    jobs overlap, it runs again once they are done."""
    import gc

    from app.web import work

    seen: dict[str, list[bool]] = {"small": [], "large": []}

    def job(kind: str) -> str:
        seen[kind].append(gc.isenabled())
        return kind

    app = create_app(Settings(limits=Limits(max_bytes=5 * MIB)))
    app.state.cpu_lanes = CpuLanes(small=4, large=2, wait=600)

    class _Request:
        pass

    request = _Request()
    request.app = app  # type: ignore[attr-defined]
    assert gc.isenabled()
    assert await work.run_cpu(request, len(SMALL), job, "small") == "small"  # type: ignore[arg-type]
    assert await work.run_cpu(request, len(LARGE), job, "large") == "large"  # type: ignore[arg-type]
    assert seen == {"small": [True], "large": [False]}
    transport = httpx.ASGITransport(app=app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
        anyio.create_task_group() as posts,
    ):
        for _ in range(6):
            posts.start_soon(_post, client, LARGE)
    assert gc.isenabled()
