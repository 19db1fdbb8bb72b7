"""A web instance's way out on SIGTERM, so a rolling restart shows no client an error.

uvicorn alone, on SIGTERM, stops listening, closes every websocket at once with 1012 (a move
being played then loses its ack), lets HTTP requests in flight finish (``--timeout-graceful-
shutdown`` bounds that wait; unbounded by default), and only then runs the lifespan shutdown:
too late for the app to do anything first. So the app puts its own handler in front of
uvicorn's while it runs (the lifespan installs it, in uvicorn's main thread) and, on SIGTERM:

1. **draining**: ``/readyz`` answers 503 ``draining`` while everything is still served for
   ``drain_grace_seconds``, so a load balancer or orchestrator stops sending new clients here;
2. **closing**: every socket and stream ends for a restart (:meth:`LiveConnections.drain`): a
   socket once its moves in flight are acknowledged, with close code 1012; a socket that opens
   now is closed with 1012 at once; this waits at most ``drain_timeout_seconds``;
3. hands the signal to uvicorn, whose shutdown stops listening, finishes the HTTP requests in
   flight and runs the lifespan shutdown.

A second SIGTERM goes straight to uvicorn. SIGINT (Ctrl+C) is uvicorn's alone. Where the
server installed no Python handler of its own (another server, or the app run in a thread by
tests), nothing is installed: :meth:`Drain.run` can still be called directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, Literal

from app.http.live_connections import LiveConnections

log = logging.getLogger(__name__)
Phase = Literal["serving", "draining", "closing"]
Handler = Callable[[int, FrameType | None], Any]


class Drain:
    """The shutdown sequence of one app (``app.state.drain``)."""

    def __init__(self, connections: LiveConnections, grace_seconds: float,
                 timeout_seconds: float) -> None:
        self.connections = connections
        self.grace_seconds = grace_seconds
        self.timeout_seconds = timeout_seconds
        self.phase: Phase = "serving"
        self._server_handler: Handler | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def draining(self) -> bool:
        return self.phase != "serving"

    def install(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Put the drain in front of the server's SIGTERM handler; False when there is none to
        chain to (then SIGTERM stays the server's)."""
        if threading.current_thread() is not threading.main_thread():
            return False
        current = signal.getsignal(signal.SIGTERM)
        if not callable(current):
            return False
        self._loop = loop
        self._server_handler = current
        signal.signal(signal.SIGTERM, self._on_sigterm)
        return True

    def uninstall(self) -> None:
        """Give SIGTERM back to the server (the lifespan is ending) and stop a drain under way."""
        handler, self._server_handler = self._server_handler, None
        if handler is not None and threading.current_thread() is threading.main_thread():
            with contextlib.suppress(ValueError):
                if signal.getsignal(signal.SIGTERM) == self._on_sigterm:
                    signal.signal(signal.SIGTERM, handler)
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()

    def _on_sigterm(self, sig: int, frame: FrameType | None) -> None:
        """Runs in the main thread between two bytecodes of whatever the loop was doing: only
        schedule the drain on the loop."""
        if self.draining or self._loop is None:
            self._hand_over(sig, frame)
            return
        self.phase = "draining"
        self._loop.call_soon_threadsafe(self._begin)

    def _begin(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(hand_over=True))

    def _hand_over(self, sig: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
        if self._server_handler is not None:
            self._server_handler(sig, frame)

    async def run(self, hand_over: bool = False) -> None:
        """Not ready, the grace period, then every connection ended; with ``hand_over``,
        SIGTERM is passed on to the server afterwards, whatever happened."""
        try:
            self.phase = "draining"
            log.info("draining: not ready; closing sockets in %.1f s", self.grace_seconds)
            await asyncio.sleep(self.grace_seconds)
            self.phase = "closing"
            total = self.connections.open_count
            left = await self.connections.drain(self.timeout_seconds)
            log.info("drained: %d of %d connections closed", total - left, total)
        except Exception:
            log.exception("draining failed; shutting down anyway")
        finally:
            if hand_over:
                self._hand_over()
