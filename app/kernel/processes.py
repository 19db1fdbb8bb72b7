"""Process pools that end with the server: the bots', the analyses' and the hints' worker
processes."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_SECONDS = 1.0


def spawn_pool(workers: int, initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """A pool of spawned processes that end with this one, even when it is killed outright (kill
    -9, the OOM killer), where no shutdown runs: a pool worker waiting for work does not notice
    its parent's death, and each one left behind kept its memory (~87 MB) for good.
    ``initializer`` (module-level, so it can be pickled) then runs in each worker as usual."""
    return ProcessPoolExecutor(max_workers=max(1, workers),
                               mp_context=multiprocessing.get_context("spawn"),
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


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: its processes are terminated (a search under way is dropped) and waited
    for. ``shutdown(wait=False)`` left them running after the server exited; ``wait=True`` alone
    would wait for a search that a low-priority process may not finish for seconds."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
