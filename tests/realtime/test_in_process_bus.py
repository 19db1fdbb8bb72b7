"""The in-process bus hands messages published from worker threads to the loop in batches: every
message arrives, in the order it was published, and a burst wakes the loop once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from app.realtime.bus import InProcessBus, new_inbox


async def _collect(inbox: asyncio.Queue[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    return [await asyncio.wait_for(inbox.get(), 30) for _ in range(count)]


def test_a_burst_from_a_thread_arrives_in_order_with_one_wake_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        bus = InProcessBus()
        match, watch = new_inbox(), new_inbox()
        await bus.join("match:1", match)
        await bus.join("live", watch)
        wake_ups: list[object] = []
        real = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any, **kwargs: Any) -> Any:
            wake_ups.append(callback)
            return real(callback, *args, **kwargs)

        monkeypatch.setattr(loop, "call_soon_threadsafe", counted)

        def publish() -> None:
            for n in range(3):
                bus.publish("match:1", {"n": n})
                bus.publish("live", {"n": n})

        thread = threading.Thread(target=publish)
        thread.start()
        thread.join()  # on the loop's thread: the loop cannot deliver until the burst is over
        assert [m["n"] for m in await _collect(match, 3)] == [0, 1, 2]
        assert [m["n"] for m in await _collect(watch, 3)] == [0, 1, 2]
        bus_wake_ups = [w for w in wake_ups if getattr(w, "__self__", None) is bus]
        assert len(bus_wake_ups) == 1
        # A later message is a new batch, and wakes the loop again.
        await asyncio.to_thread(bus.publish, "match:1", {"n": 3})
        assert [m["n"] for m in await _collect(match, 1)] == [3]
        assert len([w for w in wake_ups if getattr(w, "__self__", None) is bus]) == 2

    asyncio.run(scenario())


def test_a_message_published_on_the_loop_is_delivered_at_once() -> None:
    async def scenario() -> None:
        bus = InProcessBus()
        inbox = new_inbox()
        await bus.join("match:1", inbox)
        bus.publish("match:1", {"n": 0})
        assert inbox.get_nowait() == {"n": 0}

    asyncio.run(scenario())
