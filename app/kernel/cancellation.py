"""Cancelling the loops that outlive a failing service.

Background loops catch ``Exception`` and go on, so that Redis or the database being away only
delays them. A library that turns a cancellation into another error (redis-py's asyncio
connection may raise ``ConnectionError`` from a read that was cancelled) would then keep a
cancelled loop alive, and a shutdown awaiting it would wait forever. A periodic loop is
``repeat()``; a loop of another shape calls ``reraise_if_cancelled()`` in each such ``except``.
Shutdowns end their tasks with ``cancel_and_wait()``, which is bounded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import NoReturn

log = logging.getLogger(__name__)


def reraise_if_cancelled() -> None:
    """Raise CancelledError when the running task was asked to stop, whatever was caught."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def repeat(step: Callable[[], Awaitable[object]], pause: Callable[[], float], *,
                 failure: str, logger: logging.Logger, pause_first: bool = False) -> NoReturn:
    """Run ``step`` forever, ``pause()`` seconds apart; a failed step is logged (as ``failure``)
    and the next one runs on time, while a cancellation always ends the loop."""
    if pause_first:
        await asyncio.sleep(pause())
    while True:
        try:
            await step()
        except Exception:
            reraise_if_cancelled()
            logger.warning(failure, exc_info=True)
        await asyncio.sleep(pause())


async def cancel_and_wait(tasks: Iterable[asyncio.Task[object]], timeout: float = 5.0) -> None:
    """Cancel the tasks and wait for them to end, at most ``timeout`` seconds (a task that
    ignores its cancellation is logged and left behind rather than holding the shutdown)."""
    pending = [task for task in tasks if not task.done()]
    for task in pending:
        task.cancel()
    if not pending:
        return
    _, stuck = await asyncio.wait(pending, timeout=timeout)
    for task in stuck:
        log.error("task %s did not end within %.0f s of its cancellation", task.get_name(), timeout)
    for task in pending:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: its failure was logged where it happened
