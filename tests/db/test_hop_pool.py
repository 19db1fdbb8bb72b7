"""The loop's worker threads (``HopPool``) and the app's own hop (``hop``): what
``asyncio.to_thread`` did, on at most the pool's threads."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

import pytest

from app.db.one_hop import HopPool, hop, limit_worker_threads

LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("language", default="en")


def _run(main):  # type: ignore[no-untyped-def]
    return asyncio.run(main())


def test_a_hop_runs_in_a_worker_thread_with_the_callers_context() -> None:
    async def main() -> tuple[str, str, int]:
        limit_worker_threads(2)
        LANGUAGE.set("ja")
        return await hop(lambda a, b=0: (threading.current_thread().name, LANGUAGE.get(), a + b),
                         40, b=2)

    name, language, total = _run(main)
    assert name.startswith("stepwell-db") and language == "ja" and total == 42


def test_a_hop_raises_what_the_call_raised() -> None:
    def fail() -> None:
        raise KeyError("nope")

    async def main() -> None:
        limit_worker_threads(2)
        await hop(fail)

    with pytest.raises(KeyError, match="nope"):
        _run(main)


def test_without_a_pool_a_hop_is_to_thread() -> None:
    async def main() -> str:
        return await hop(lambda: threading.current_thread().name)

    assert not _run(main).startswith("stepwell-db")


def test_hops_and_the_loops_executor_share_the_cap() -> None:
    running = 0
    most = 0
    lock = threading.Lock()

    def work() -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        return 1

    async def main() -> int:
        limit_worker_threads(3)
        loop = asyncio.get_running_loop()
        calls = [hop(work) for _ in range(10)]
        calls += [asyncio.to_thread(work) for _ in range(5)]
        calls += [loop.run_in_executor(None, work) for _ in range(5)]
        return sum(await asyncio.gather(*calls))

    assert _run(main) == 20
    assert most == 3


def test_a_cancelled_hop_that_has_not_started_is_not_run() -> None:
    ran: list[int] = []
    gate = threading.Event()

    async def main() -> None:
        limit_worker_threads(1)
        blocker = asyncio.ensure_future(hop(gate.wait, 5))
        await asyncio.sleep(0.05)  # the only thread is busy
        queued = asyncio.ensure_future(hop(ran.append, 1))
        await asyncio.sleep(0)
        queued.cancel()
        await asyncio.sleep(0.01)
        gate.set()
        await blocker
        await asyncio.sleep(0.05)

    _run(main)
    assert ran == []


def test_shutdown_stops_the_threads_and_refuses_new_calls() -> None:
    pool = HopPool(2, "test-hops")
    assert pool.submit(lambda: 7).result(timeout=5) == 7
    workers = list(pool._workers)
    pool.shutdown(wait=True)
    assert workers and not any(thread.is_alive() for thread in workers)
    with pytest.raises(RuntimeError):
        pool.submit(lambda: 1)
