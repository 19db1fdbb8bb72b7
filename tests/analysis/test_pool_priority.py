"""The analysis pool runs only on CPU time nobody else wants (so it never delays moves
in other games): its worker processes are SCHED_IDLE on Linux (app/analysis/compute.py)."""

from __future__ import annotations

import os
import sys

import pytest

from app.analysis.jobs import make_pool
from app.kernel.processes import stop_pool


def _priority() -> tuple[int, int]:
    return os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SCHED_IDLE is Linux's")
def test_analysis_workers_are_idle_priority() -> None:
    pool = make_pool(1)
    try:
        policy, _ = pool.submit(_priority).result(timeout=60)
    finally:
        stop_pool(pool)
    assert policy == os.SCHED_IDLE

