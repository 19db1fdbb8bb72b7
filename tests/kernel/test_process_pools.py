"""The bots', analyses' and hints' worker processes end with the process that started them, even
when it is killed outright (kill -9, the OOM killer): a spawned pool worker does not notice its
parent's death by itself, and each one left behind held ~87 MB for good."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The parent: start each of the app's pools, make them spawn a worker, print the workers' pids,
# then wait to be killed.
PARENT = textwrap.dedent("""
    import os, sys, time
    from app.analysis.pool import HintPool
    from app.analysis.jobs import make_pool
    from app.match.bot_runner import BotRunner

    pools = [make_pool(1), BotRunner(None, None).executor, HintPool().executor()]
    print(" ".join(str(p.submit(os.getpid).result(timeout=60)) for p in pools), flush=True)
    time.sleep(600)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended; only its entry is left
        return stat.read().split()[2] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_pool_workers_end_when_their_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    workers: list[int] = []
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 3 and all(_alive(pid) for pid in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived their parent"
    finally:
        parent.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_lazy_pool_starts_no_process_until_a_job_needs_one() -> None:
    from app.kernel.processes import LazyPool, idle_priority, stop_pool

    pool = LazyPool(1, idle_priority, name="test")
    pool.stop()  # never spawned: nothing to stop
    assert pool._pool is None
    spawned = pool.get()
    try:
        assert pool.get() is spawned  # one pool, however often asked
        worker = spawned.submit(os.getpid).result(timeout=60)
        assert worker != os.getpid()
        assert spawned.submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_IDLE
    finally:
        pool.stop()
    assert pool._pool is None
    stop_pool(spawned)  # stopping again is harmless
