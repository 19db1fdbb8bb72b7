"""Run a websocket's jobs (forwarding events, answering the client) until one of them ends.

The client reader ends when the client goes away, which stops the forwarders too: a socket that
only forwarded would otherwise hang until its next event, and keep a server from shutting down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from app.realtime.messages import PONG, send

Job = Callable[[], Coroutine[Any, Any, None]]
EXPECTED_ENDINGS = (WebSocketDisconnect, RuntimeError, ValueError)


async def answer_pings(websocket: WebSocket) -> None:
    """Answer ``{"type": "ping"}`` with ``{"type": "pong"}`` and ignore every other client
    message; returns when the client disconnects."""
    while True:
        text = await websocket.receive_text()
        with contextlib.suppress(ValueError):
            message = json.loads(text)
            if isinstance(message, dict) and message.get("type") == "ping":
                await send(websocket, PONG)


async def run_jobs(websocket: WebSocket, *jobs: Job) -> None:
    tasks = [asyncio.create_task(job()) for job in jobs]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            error = task.exception()
            if error and not isinstance(error, EXPECTED_ENDINGS):
                raise error
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await websocket.close()
