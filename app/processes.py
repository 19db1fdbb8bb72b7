"""Process pools that end with the server: the bots' and the analyses' worker processes."""

from __future__ import annotations

import contextlib
from concurrent.futures import ProcessPoolExecutor


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: its processes are terminated (a search under way is dropped) and waited
    for. ``shutdown(wait=False)`` left them running after the server exited; ``wait=True`` alone
    would wait for a search that a low-priority process may not finish for seconds."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
