"""The web process's worker for hints: searching takes CPU for a fraction of a second, which must
never run on the event loop (every socket of this instance would wait) nor in a request thread
(it would hold the interpreter lock). ``create_app`` makes the app's :class:`HintPool`; its one
lower-priority process starts on the first hint (most instances never give one) and ends with
the app."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar, TypeVarTuple

from app.analysis.compute import lower_priority
from app.kernel.processes import spawn_pool, stop_pool

T = TypeVar("T")
Arguments = TypeVarTuple("Arguments")


class HintPool:
    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = spawn_pool(1, lower_priority, name="hints")
            return self._executor

    async def run(self, function: Callable[[*Arguments], T], *args: *Arguments) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor(), function, *args)

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                stop_pool(self._executor)
                self._executor = None


async def run_in_pool(app: Any, function: Callable[..., T], *args: Any) -> T:
    pool: HintPool = app.state.hint_pool
    return await pool.run(function, *args)
