"""The web process's worker for hints: searching takes CPU for a fraction of a second, which must
never run on the event loop (every socket of this instance would wait) nor in a request thread
(it would hold the interpreter lock). One lower-priority process, started on first use and shut
down with the app."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from app.analysis.compute import lower_priority
from app.kernel.processes import spawn_pool, stop_pool

T = TypeVar("T")
_lock = threading.Lock()


def pool_for(app: Any) -> ProcessPoolExecutor:
    pool = getattr(app.state, "hint_pool", None)
    if pool is None:
        with _lock:
            pool = getattr(app.state, "hint_pool", None)
            if pool is None:
                pool = spawn_pool(1, lower_priority)
                app.state.hint_pool = pool
    return pool


async def run_in_pool(app: Any, function: Callable[..., T], *args: Any) -> T:
    return await asyncio.get_running_loop().run_in_executor(pool_for(app), function, *args)


def shutdown(app: Any) -> None:
    pool = getattr(app.state, "hint_pool", None)
    if pool is not None:
        stop_pool(pool)
        app.state.hint_pool = None
