"""Seeks expire when their players have gone: a user with no socket open on ANY instance for
longer than the grace period leaves the seeks they joined, and the seeks they created expire.

Presence is shared (app/realtime/presence.py), so a seek created through instance A stays open while
its creator's lobby socket is on instance B. A seek's age counts as time its players were seen:
a seek made by a program that never opens a socket lives for the grace period, and after a
restart or a failover everyone gets the grace period to come back.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Seek
from app.kernel import timesource
from app.kernel.metrics import JOB_PASSES
from app.lobby.service import LobbyService, Publish
from app.match import MatchService
from app.realtime.presence import Presence

MAX_INTERVAL_SECONDS = 1.0
log = logging.getLogger(__name__)


def _open_seekers(session_factory: sessionmaker[Session]) -> dict[int, datetime]:
    """user id -> creation time of the newest open seek they are in."""
    with session_factory() as session:
        rows = session.execute(select(Seek.joined, Seek.created_at).where(Seek.status == "open"))
        newest: dict[int, datetime] = {}
        for joined, created_at in rows:
            for user_id in joined:
                newest[user_id] = max(newest.get(user_id, created_at), created_at)
        return newest


def _expire(session_factory: sessionmaker[Session], publish: Publish, user_id: int) -> int:
    with session_factory() as session:
        return LobbyService(session, MatchService.read_only(session), publish).expire_user(user_id)


async def sweep_once(session_factory: sessionmaker[Session], presence: Presence,
                     publish: Publish, started_at: datetime) -> list[int]:
    """Expire the seeks of every seeker gone longer than the grace period; returns their ids."""
    seekers = await asyncio.to_thread(_open_seekers, session_factory)
    if not seekers:
        return []
    absent = await presence.absent_since(seekers)
    now = timesource.now()
    gone = []
    for user_id, created_at in seekers.items():
        if user_id in absent and absent[user_id] is None:
            continue  # a socket is open somewhere
        seen = max(absent.get(user_id) or created_at, created_at, started_at)
        if (now - seen).total_seconds() > presence.grace_seconds:
            gone.append(user_id)
    for user_id in gone:
        await asyncio.to_thread(_expire, session_factory, publish, user_id)
    return gone


async def expire_absent_seekers(session_factory: sessionmaker[Session], presence: Presence,
                                publish: Publish) -> None:
    started_at = timesource.now()
    while True:
        try:
            await sweep_once(session_factory, presence, publish, started_at)
            JOB_PASSES.labels("seek_expiry", "done").inc()
        except Exception:  # the next sweep retries
            JOB_PASSES.labels("seek_expiry", "failed").inc()
            log.exception("seek expiry sweep failed")
        await asyncio.sleep(min(MAX_INTERVAL_SECONDS, max(0.05, presence.grace_seconds / 2)))
