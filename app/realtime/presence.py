"""Who is connected right now: sockets per user and, per match, its players and spectators.

Lives on the event loop (websocket handlers call it there). When a user's last socket closes, a
grace timer starts; if they have not come back when it fires, ``on_offline(user_id)`` runs (the
lobby expires their seeks). In-process: with several instances each counts its own sockets.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from app import timesource


@dataclass(frozen=True)
class Connection:
    id: int
    user_id: int | None
    match_id: str | None
    seat: int | None


class Presence:
    def __init__(self, grace_seconds: float, on_offline: Callable[[int], None]) -> None:
        self.grace_seconds = grace_seconds
        self.on_offline = on_offline
        self._ids = itertools.count(1)
        self._by_user: Counter[int] = Counter()
        self._by_match: dict[str, dict[int, Connection]] = defaultdict(dict)
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started_at = timesource.now()
        self._left_match_at: dict[tuple[str, int], datetime] = {}

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def connect(self, user_id: int | None, match_id: str | None = None,
                seat: int | None = None) -> Connection:
        connection = Connection(next(self._ids), user_id, match_id, seat)
        if user_id is not None:
            self._by_user[user_id] += 1
            timer = self._timers.pop(user_id, None)
            if timer:
                timer.cancel()
        if match_id is not None:
            self._by_match[match_id][connection.id] = connection
        return connection

    def disconnect(self, connection: Connection) -> None:
        if connection.match_id is not None:
            sockets = self._by_match.get(connection.match_id, {})
            sockets.pop(connection.id, None)
            if connection.user_id is not None:
                self._left_match_at[(connection.match_id, connection.user_id)] = timesource.now()
            if not sockets:
                self._by_match.pop(connection.match_id, None)
        if connection.user_id is not None:
            self._by_user[connection.user_id] -= 1
            if self._by_user[connection.user_id] <= 0:
                del self._by_user[connection.user_id]
                self._start_grace(connection.user_id)

    def is_online(self, user_id: int) -> bool:
        return self._by_user.get(user_id, 0) > 0

    def watch(self, user_id: int) -> None:
        """Thread-safe: start the grace timer for a user who may have no socket at all."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._start_grace_if_offline, user_id)

    def _start_grace_if_offline(self, user_id: int) -> None:
        if not self.is_online(user_id):
            self._start_grace(user_id)

    def _start_grace(self, user_id: int) -> None:
        loop = self._loop or asyncio.get_running_loop()
        old = self._timers.pop(user_id, None)
        if old:
            old.cancel()
        self._timers[user_id] = loop.call_later(self.grace_seconds, self._expire, user_id)

    def _expire(self, user_id: int) -> None:
        self._timers.pop(user_id, None)
        if not self.is_online(user_id):
            self.on_offline(user_id)

    def match_presence(self, match_id: str, player_ids: dict[int, int]) -> dict[str, object]:
        """Spectator count and which seats are online (``player_ids``: user id -> seat)."""
        sockets = self._by_match.get(match_id, {}).values()
        spectators = {c.id for c in sockets if c.user_id not in player_ids}
        online = sorted({player_ids[c.user_id] for c in sockets if c.user_id in player_ids})
        return {"spectators": len(spectators), "online_seats": online}

    def away_seconds(self, match_id: str, user_id: int) -> float:
        """How long this user has had no socket open on this match (0 while connected)."""
        sockets = self._by_match.get(match_id, {}).values()
        if any(c.user_id == user_id for c in sockets):
            return 0.0
        left = self._left_match_at.get((match_id, user_id), self._started_at)
        return (timesource.now() - left).total_seconds()

    def spectator_counts(self) -> dict[str, int]:
        return {match_id: sum(1 for c in sockets.values() if c.seat is None)
                for match_id, sockets in self._by_match.items()}
