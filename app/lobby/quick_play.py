"""Quick-play pairing: windows widen with waiting time, so waiting seekers are re-paired often."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.json_types import JSONObject
from app.kernel.metrics import JOB_PASSES
from app.lobby.service import LobbyService
from app.match import MatchService, Publish
from app.realtime.presence import Presence

INTERVAL_SECONDS = 2.0
log = logging.getLogger(__name__)


def pair_once(session_factory: sessionmaker[Session], publish_record: Publish,
              publish: Callable[[str, dict[str, Any]], None],
              gone: Callable[[Iterable[int]], set[int]] | None = None) -> int:
    with session_factory() as session:
        return LobbyService(session, MatchService(session, publish_record), publish,
                            gone=gone).pair_waiting()


async def pair_quick_play(session_factory: sessionmaker[Session], publish_record: Publish,
                          publish: Callable[[str, JSONObject], None],
                          presence: Presence | None = None,
                          interval: float = INTERVAL_SECONDS) -> None:
    """Pair the waiting seekers every ``interval``; ``presence`` tells who has left (they wait)."""
    gone = presence.gone_users if presence is not None else None
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(pair_once, session_factory, publish_record, publish, gone)
            JOB_PASSES.labels("quick_play", "done").inc()
        except Exception:  # a failed round must not stop pairing; the next round retries
            JOB_PASSES.labels("quick_play", "failed").inc()
            log.exception("quick-play pairing failed")
