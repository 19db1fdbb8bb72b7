"""Process pools that end with the server: the bots', the analyses' and the hints' worker
processes. Each one reports its size, its busy workers and its waiting jobs to the metrics."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from app.kernel.metrics import POOL_BUSY, POOL_QUEUED, POOL_WORKERS

PARENT_CHECK_SECONDS = 1.0


class MeteredPool(ProcessPoolExecutor):
    """A process pool that keeps the pool gauges current: a job counts from its submission to
    its end; the first ``workers`` of them are busy workers, the rest wait in the queue (each
    worker runs one job at a time)."""

    def __init__(self, name: str, workers: int, **options: Any) -> None:
        super().__init__(max_workers=workers, **options)
        self.name = name
        self.workers = workers
        self.jobs = 0
        self._count = threading.Lock()
        self._open = True
        POOL_WORKERS.labels(name).inc(workers)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        self._moved(1)
        future.add_done_callback(lambda _: self._moved(-1))
        return future

    def _moved(self, delta: int) -> None:
        with self._count:
            before = self.jobs
            self.jobs = after = before + delta
        busy = min(after, self.workers) - min(before, self.workers)
        queued = max(0, after - self.workers) - max(0, before - self.workers)
        if busy:
            POOL_BUSY.labels(self.name).inc(busy)
        if queued:
            POOL_QUEUED.labels(self.name).inc(queued)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        with self._count:
            was_open, self._open = self._open, False
        if was_open:
            POOL_WORKERS.labels(self.name).dec(self.workers)


def idle_priority() -> None:
    """Pool initializer for background computing (analyses, luck reports, puzzle mining): run
    only on CPU time nobody else wants (Linux ``SCHED_IDLE``), else at the lowest priority, so
    moves in live games (the web server, the bots) always go first. bench/analysis.py measured
    niceness 10 beside live games: delivery p95 grew fivefold."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):
            os.nice(19)


class LazyPool:
    """A pool spawned when a job first needs it: a background job that may never have work (no
    finished game to study yet) costs no process, and no process start, until it does."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None, name: str) -> None:
        self.workers, self.initializer, self.name = workers, initializer, name
        self._pool: MeteredPool | None = None

    def get(self) -> MeteredPool:
        if self._pool is None:
            self._pool = spawn_pool(self.workers, self.initializer, name=self.name)
        return self._pool

    def stop(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


def spawn_pool(workers: int, initializer: Callable[[], None] | None = None, *,
               name: str = "other") -> MeteredPool:
    """A pool of spawned processes that end with this one, even when it is killed outright (kill
    -9, the OOM killer), where no shutdown runs: a pool worker waiting for work does not notice
    its parent's death, and each one left behind kept its memory (~87 MB) for good.
    ``initializer`` (module-level, so it can be pickled) then runs in each worker as usual;
    ``name`` labels the pool's metrics (``bots``, ``analysis``, ``hints``)."""
    return MeteredPool(name, max(1, workers), mp_context=multiprocessing.get_context("spawn"),
                       initializer=_start_worker, initargs=(os.getpid(), initializer))


def _start_worker(parent: int, initializer: Callable[[], None] | None) -> None:
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent",
                     daemon=True).start()
    if initializer is not None:
        initializer()


def _exit_with_parent(parent: int) -> None:
    """Once the parent is gone the worker is re-parented (``getppid`` changes): exit at once,
    dropping any search under way, as :func:`stop_pool` would."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


STOP_SECONDS = 5.0
"""How long a terminated pool process is given to end before it is killed."""


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: its processes are terminated (a search under way is dropped) and waited
    for. ``shutdown(wait=False)`` left them running after the server exited; ``wait=True`` alone
    would wait for a search that a low-priority process may not finish for seconds."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    # Not shutdown(wait=True): a process terminated while it held the pool's call queue lock
    # (one still starting, say) can leave the pool's manager thread waiting forever. The
    # processes themselves are waited for, and killed if a terminate was not enough.
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(STOP_SECONDS)
