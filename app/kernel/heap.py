"""The garbage collector's part in the server's latency.

CPython's oldest-generation collection walks every container object the process holds, with the
event loop stopped. A running app is hundreds of thousands of them (modules, routes, SQLAlchemy's
compiled caches, pydantic's validators), and every open socket adds about a hundred more (the
ASGI chain's coroutines, websockets' handshake headers, asyncio events): measured with
``gc.callbacks`` under ``bench/load.py``, full collections took 70–160 ms at 500 sockets and
130–440 ms at 2,000–10,000, every few seconds under load: they were the fan-out's p99.

Objects that survive a full collection are mostly there to stay (the app, the open sockets), so
:class:`Collector` moves them out of the collector's sight after each one (``gc.freeze``, as
Instagram does for its Django workers): later full collections walk only what came since. Cycles
that die among frozen objects are not reclaimed while frozen, so now and then (every
``reclaim_seconds``, or sooner when the frozen set has tripled) everything is unfrozen and
the next full collection walks and reclaims it all: one long pause every few minutes instead of
one every few seconds.

Young collections are spaced out too (:data:`THRESHOLDS`): at CPython's default (one every 700
net allocations) a server holding 2,000 sockets ran thousands a second, and the 1,000 × 2
PostgreSQL fan-out's p99 was 124–242 ms; with the first threshold at 20,000 it was 25.5 ms
(p95 14 ms against 44–70), and the 100 × 5 fan-out did not get worse (2.14× the bare server).
A young collection then walks at most 20,000 new objects, about a millisecond.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

RECLAIM_SECONDS = 600.0
GROWTH = 3.0
THRESHOLDS = (20_000, 20, 20)
"""``gc.set_threshold``: net allocations before a young collection, then young collections per
middle one and middle ones per full one (CPython's defaults: 700, 10, 10)."""


class Collector:
    """Freezes the survivors of each full collection; unfreezes them for a reclaiming one now
    and then. Install once per process (:func:`install`)."""

    def __init__(self, reclaim_seconds: float = RECLAIM_SECONDS, growth: float = GROWTH,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.reclaim_seconds = reclaim_seconds
        self.growth = growth
        self.clock = clock
        self.reclaiming = False
        self.reclaims = 0
        self._since = clock()
        self._base: int | None = None  # the frozen set after the last reclaim (or the first freeze)

    def after_full_collection(self) -> None:
        """Called when a full collection ends: freeze what survived it, or, when a reclaim is
        due, unfreeze everything so that the next full collection walks it all."""
        if self.reclaiming:  # that was the reclaiming walk: start afresh from its survivors
            self.reclaiming = False
            self.reclaims += 1
            self._since = self.clock()
            gc.freeze()
            self._base = gc.get_freeze_count()
            return
        gc.freeze()
        frozen = gc.get_freeze_count()
        if self._base is None:
            self._base = frozen
            return
        due = self.clock() - self._since >= self.reclaim_seconds
        if due or frozen > self._base * self.growth:
            gc.unfreeze()
            self.reclaiming = True

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            self.after_full_collection()


_installed: Collector | None = None


def install() -> Collector:
    """Collect once, freeze what is left (the app as built), and keep freezing the survivors of
    full collections from now on. Once per process: a process that builds several apps (the test
    suite) keeps the first one's collector."""
    global _installed
    if _installed is None:
        gc.set_threshold(*THRESHOLDS)
        gc.collect()
        gc.freeze()
        _installed = Collector()
        gc.callbacks.append(_installed)
    return _installed
