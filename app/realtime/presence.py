"""Who is connected right now: sockets per user and, per match, its players and spectators.

Websocket handlers call ``connect``/``disconnect`` on the event loop; those only touch memory and
mark the match "dirty". A flusher publishes at most one ``{"type": "presence", "spectators": n,
"online_seats": [...]}`` per match every ``BATCH_SECONDS`` on the match's channel, whatever the
number of sockets that came and went (so presence costs O(changes), never one message per socket
per socket). Every socket on the match forwards that one message as it is.

Two implementations of one interface:

- :class:`Presence` — one process: everything in memory (``make run``).
- :class:`SharedPresence` — several instances over Redis: each instance writes its own part of a
  match (spectator count, seated users online) into a hash field named after the instance, and
  refreshes a heartbeat; readers sum the parts of live instances. A dead instance's parts are
  ignored at once and swept by the leader (:meth:`SharedPresence.sweep_dead_instances`), which
  publishes the corrected presence. claim-victory (``away_seconds``), seek expiry
  (``absent_since``), the spectator counts of the Watch page and the online dots all read the
  shared view.

Memory is given back when sockets close: a match with no socket left has no entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import orjson
from redis.exceptions import RedisError

from app.kernel import timesource
from app.kernel.cancellation import cancel_and_wait, repeat, reraise_if_cancelled
from app.kernel.errors import ServerBusy
from app.realtime.bus import match_channel
from app.realtime.messages import PresenceMessage, bus_form

_T = TypeVar("_T")

BATCH_SECONDS = 0.25
FORGET_AFTER = timedelta(hours=6)
log = logging.getLogger(__name__)
Publish = Callable[[str, dict[str, Any]], None]


def presence_message(view: dict[str, Any]) -> dict[str, Any]:
    """A match's presence as its channel carries it (``PresenceMessage``)."""
    return bus_form(PresenceMessage(type="presence", spectators=view["spectators"],
                                    online_seats=view["online_seats"]))


@dataclass(frozen=True, slots=True)
class Connection:
    id: int
    user_id: int | None
    match_id: str | None
    seat: int | None


def _epoch(moment: datetime) -> float:
    return moment.replace(tzinfo=UTC).timestamp()


def _moment(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC).replace(tzinfo=None)


class Presence:
    """Presence of one process (no Redis)."""

    def __init__(self, grace_seconds: float, publish: Publish | None = None) -> None:
        self.grace_seconds = grace_seconds
        """How long a seek outlives its creator's last open connection (read by the seek job)."""
        self.publish: Publish = publish or (lambda channel, message: None)
        self._ids = itertools.count(1)
        self._by_user: Counter[int] = Counter()
        self._by_match: dict[str, dict[int, Connection]] = defaultdict(dict)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started_at = timesource.now()
        self._left_match_at: dict[tuple[str, int], datetime] = {}
        self._left_at: dict[int, datetime] = {}
        self._dirty: set[str] = set()
        self._wake: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []

    # -- lifecycle --------------------------------------------------------------------------------

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the batching flusher on the server's loop."""
        self._loop = loop
        self._wake = asyncio.Event()
        self._tasks = [loop.create_task(self._flush_forever())]

    async def aclose(self) -> None:
        await cancel_and_wait(self._tasks)
        self._tasks = []

    async def _flush_forever(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            dirty, self._dirty = self._dirty, set()
            try:
                await self._flush(dirty)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away: publish again with the next change
                reraise_if_cancelled()
                log.exception("presence flush failed")
                self._dirty |= dirty
            self._forget_old()
            await asyncio.sleep(BATCH_SECONDS)  # at most one presence message per match per batch

    def _touch(self, match_id: str) -> None:
        self._dirty.add(match_id)
        if self._wake is not None:
            self._wake.set()

    async def _flush(self, dirty: set[str]) -> None:
        for match_id in dirty:
            self.publish(match_channel(match_id),
                         presence_message(self._local_view(match_id)))

    def _forget_old(self) -> None:
        horizon = timesource.now() - FORGET_AFTER
        for key in [k for k, at in self._left_match_at.items() if at < horizon]:
            del self._left_match_at[key]
        for user in [u for u, at in self._left_at.items() if at < horizon]:
            del self._left_at[user]

    # -- sockets ----------------------------------------------------------------------------------

    def connect(self, user_id: int | None, match_id: str | None = None,
                seat: int | None = None) -> Connection:
        connection = Connection(next(self._ids), user_id, match_id, seat)
        if user_id is not None:
            self._by_user[user_id] += 1
            self._left_at.pop(user_id, None)
        if match_id is not None:
            self._by_match[match_id][connection.id] = connection
            self._touch(match_id)
        return connection

    def disconnect(self, connection: Connection) -> None:
        if connection.match_id is not None:
            sockets = self._by_match.get(connection.match_id, {})
            sockets.pop(connection.id, None)
            if connection.user_id is not None:
                self._left_match_at[(connection.match_id, connection.user_id)] = timesource.now()
            if not sockets:
                self._by_match.pop(connection.match_id, None)
            self._touch(connection.match_id)
        if connection.user_id is not None:
            self._by_user[connection.user_id] -= 1
            if self._by_user[connection.user_id] <= 0:
                del self._by_user[connection.user_id]
                self._left_at[connection.user_id] = timesource.now()
                self._user_left(connection.user_id)

    def reseat(self, connection: Connection, seat: int | None) -> Connection:
        """The same socket, now showing ``seat`` (a watcher who sat down, or a seat left): it
        counts for that seat from the next batch on. Returns the connection to keep."""
        sockets = self._by_match.get(connection.match_id or "")
        if connection.seat == seat or sockets is None or connection.id not in sockets:
            return connection
        moved = replace(connection, seat=seat)
        sockets[connection.id] = moved
        self._touch(moved.match_id or "")
        return moved

    def _user_left(self, user_id: int) -> None:
        """Hook for the shared implementation."""

    def watch(self, user_id: int) -> None:
        """Kept for callers that announce a new seek: the seek-expiry job counts a seek's age as
        time its creator was seen, so there is nothing to start here."""

    # -- reading ----------------------------------------------------------------------------------

    def is_online(self, user_id: int) -> bool:
        return self._by_user.get(user_id, 0) > 0

    def _local_view(self, match_id: str, player_ids: dict[int, int] | None = None
                    ) -> dict[str, Any]:
        sockets = self._by_match.get(match_id, {}).values()
        if player_ids is None:
            spectators = sum(1 for c in sockets if c.seat is None)
            online = sorted({c.seat for c in sockets if c.seat is not None})
        else:
            spectators = sum(1 for c in sockets if c.user_id not in player_ids)
            online = sorted({player_ids[c.user_id] for c in sockets
                             if c.user_id is not None and c.user_id in player_ids})
        return {"spectators": spectators, "online_seats": online}

    def match_presence(self, match_id: str, player_ids: dict[int, int] | None = None
                       ) -> dict[str, Any]:
        """Spectator count and which seats are online, as this process sees them."""
        return self._local_view(match_id, player_ids)

    async def match_presence_async(self, match_id: str) -> dict[str, Any]:
        """The same across every instance."""
        return self._local_view(match_id)

    def away_seconds(self, match_id: str, user_id: int) -> float:
        """How long this user has had no socket open on this match (0 while connected)."""
        sockets = self._by_match.get(match_id, {}).values()
        if any(c.user_id == user_id for c in sockets):
            return 0.0
        left = self._left_match_at.get((match_id, user_id), self._started_at)
        return (timesource.now() - left).total_seconds()

    async def away_seconds_async(self, match_id: str, user_id: int) -> float:
        return self.away_seconds(match_id, user_id)

    async def absent_since(self, user_ids: Iterable[int]) -> dict[int, datetime | None]:
        """For each user seen: None while they have a socket open, else when they left.
        Users never seen are left out."""
        out: dict[int, datetime | None] = {}
        for user_id in user_ids:
            if self.is_online(user_id):
                out[user_id] = None
            elif user_id in self._left_at:
                out[user_id] = self._left_at[user_id]
        return out

    def online_users(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these users have a socket or stream open (the follow lists' online dots)."""
        return {u for u in user_ids if self.is_online(u)}

    async def online_users_async(self, user_ids: Iterable[int]) -> set[int]:
        return self.online_users(user_ids)

    def gone_users(self, user_ids: Iterable[int]) -> set[int]:
        """Users whose last socket has closed (those never seen are not gone): quick play pairs
        nobody who has left, however recently."""
        return {u for u in user_ids if not self.is_online(u) and u in self._left_at}

    def spectator_counts(self) -> dict[str, int]:
        return {match_id: sum(1 for c in sockets.values() if c.seat is None)
                for match_id, sockets in self._by_match.items()}

    def tracked_matches(self) -> int:
        """Matches with sockets in this process (memory is given back when they close)."""
        return len(self._by_match)


class SharedPresence(Presence):
    """Presence shared by every instance through Redis (see the module docstring for the keys).

    ``client`` returns the bus's bounded async Redis client; methods run on the bound loop, and
    the sync ``away_seconds`` (called from worker threads) hops onto it."""

    HEARTBEAT_SECONDS = 1.0

    def __init__(self, grace_seconds: float, publish: Publish, client: Callable[[], Any],
                 prefix: str, instance: str, heartbeat_seconds: float | None = None,
                 register: bool = True) -> None:
        super().__init__(grace_seconds, publish)
        self.client = client
        self.prefix = f"{prefix}presence:"
        self.instance = instance
        self.heartbeat = heartbeat_seconds or self.HEARTBEAT_SECONDS
        self.dead_after = 5 * self.heartbeat + 5.0  # generous: a busy host may beat late
        self.register = register
        self._flushed: dict[str, dict[str, Any]] = {}  # match -> our part as last written
        self._gone_users: set[int] = set()
        self._counts: dict[str, int] = {}
        self._healed_at: float | None = None

    def rewrite(self) -> None:
        """Redis was away (restarted, perhaps, with every key gone): write this instance's whole
        presence again, and from now on count nobody absent from before this moment, so no
        claim, seek expiry or pause is decided from presence the other instances have not yet
        rewritten."""
        self._healed_at = _epoch(timesource.now())
        self._flushed = {}
        for match_id in list(self._by_match):
            self._touch(match_id)

    # keys
    def _part_key(self, match_id: str) -> str:
        return f"{self.prefix}m:{match_id}"

    def _left_key(self, match_id: str) -> str:
        return f"{self.prefix}left:{match_id}"

    def _matches_key(self, instance: str) -> str:
        return f"{self.prefix}im:{instance}"

    def _online_key(self, instance: str) -> str:
        """The users with a socket open on ``instance`` (rewritten by its heartbeat and when one
        leaves): who is online anywhere is the union over the live instances."""
        return f"{self.prefix}iu:{instance}"

    @property
    def _instances_key(self) -> str:
        return f"{self.prefix}instances"

    @property
    def _users_key(self) -> str:
        return f"{self.prefix}users"

    @property
    def _counts_key(self) -> str:
        return f"{self.prefix}spectators"

    @property
    def _born_key(self) -> str:
        """When this Redis's presence began: stamped by the first instance to find it missing,
        so every instance knows when a restart wiped the keys (and counts no absence from
        before it)."""
        return f"{self.prefix}born"

    async def _born(self) -> float:
        redis = self.client()
        async with redis.pipeline(transaction=False) as pipe:
            pipe.set(self._born_key, _epoch(timesource.now()), nx=True)
            pipe.get(self._born_key)
            _created, born = await pipe.execute()
        return float(born)

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        super().bind_loop(loop)
        self._tasks.append(loop.create_task(self._heartbeat_forever()))

    async def aclose(self) -> None:
        await super().aclose()
        if self.register:
            with contextlib.suppress(Exception):
                await self._leave()

    async def _leave(self) -> None:
        """A clean shutdown removes our parts at once (a killed instance is swept instead)."""
        redis = self.client()
        now = _epoch(timesource.now())
        async with redis.pipeline(transaction=False) as pipe:
            for match_id, part in self._flushed.items():
                pipe.hdel(self._part_key(match_id), self.instance)
                for user in part["p"]:
                    pipe.hset(self._left_key(match_id), user, now)
            pipe.zrem(self._instances_key, self.instance)
            pipe.delete(self._matches_key(self.instance))
            pipe.delete(self._online_key(self.instance))
            if self._by_user:
                pipe.zadd(self._users_key, {str(u): now for u in self._by_user})
            await pipe.execute()
        for match_id in list(self._flushed):
            self.publish(match_channel(match_id),
                         presence_message(await self.match_presence_async(match_id)))
        self._flushed.clear()

    def _user_left(self, user_id: int) -> None:
        self._gone_users.add(user_id)
        if self._wake is not None:  # the flusher writes who is online now, without a match
            self._wake.set()

    def _write_online(self, pipe: Any) -> None:
        key = self._online_key(self.instance)
        pipe.delete(key)
        if self._by_user:
            pipe.sadd(key, *(str(u) for u in self._by_user))
            pipe.expire(key, int(self.dead_after) + 60)

    def _local_part(self, match_id: str) -> dict[str, Any]:
        sockets = self._by_match.get(match_id, {}).values()
        seated = {str(c.user_id): c.seat for c in sockets
                  if c.seat is not None and c.user_id is not None}
        return {"s": sum(1 for c in sockets if c.seat is None), "p": seated}

    async def _heartbeat_forever(self) -> None:
        await repeat(self._beat, lambda: self.heartbeat, failure="presence heartbeat failed",
                     logger=log)

    async def _beat(self) -> None:
        redis = self.client()
        now = _epoch(timesource.now())
        async with redis.pipeline(transaction=True) as pipe:
            pipe.set(self._born_key, now, nx=True)
            if self.register:
                pipe.zadd(self._instances_key, {self.instance: now})
                if self._by_user:
                    pipe.zadd(self._users_key, {str(u): now for u in self._by_user})
                self._write_online(pipe)
            pipe.hgetall(self._counts_key)
            replies = await pipe.execute()
        self._counts = {k.decode(): int(v) for k, v in replies[-1].items() if int(v) > 0}

    async def _flush(self, dirty: set[str]) -> None:
        redis = self.client()
        now = _epoch(timesource.now())
        async with redis.pipeline(transaction=True) as pipe:
            pipe.zadd(self._instances_key, {self.instance: now})
            for match_id in dirty:
                part = self._local_part(match_id)
                before = self._flushed.get(match_id, {"s": 0, "p": {}})
                for user in set(before["p"]) - set(part["p"]):
                    pipe.hset(self._left_key(match_id), user, now)
                pipe.expire(self._left_key(match_id), 86400)
                if part["s"] or part["p"]:
                    pipe.hset(self._part_key(match_id), self.instance, orjson.dumps(part))
                    pipe.expire(self._part_key(match_id), 86400)
                    pipe.sadd(self._matches_key(self.instance), match_id)
                    self._flushed[match_id] = part
                else:
                    pipe.hdel(self._part_key(match_id), self.instance)
                    pipe.srem(self._matches_key(self.instance), match_id)
                    self._flushed.pop(match_id, None)
            if self._gone_users:
                pipe.zadd(self._users_key, {str(u): now for u in self._gone_users})
                self._gone_users = set()
                if self.register:
                    self._write_online(pipe)
            await pipe.execute()
        for match_id in dirty:
            view = await self.match_presence_async(match_id)
            await self._store_count(match_id, view["spectators"])
            self.publish(match_channel(match_id), presence_message(view))

    async def _store_count(self, match_id: str, spectators: int) -> None:
        redis = self.client()
        if spectators:
            await redis.hset(self._counts_key, match_id, spectators)
            self._counts[match_id] = spectators
        else:
            await redis.hdel(self._counts_key, match_id)
            self._counts.pop(match_id, None)

    async def _read(self, match_id: str) -> tuple[list[dict[str, Any]], list[tuple[float, dict[
            str, Any]]], dict[str, float]]:
        """(live parts, [(last heartbeat, part)] of dead instances, left times by user)."""
        redis = self.client()
        async with redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self._part_key(match_id))
            pipe.zrange(self._instances_key, 0, -1, withscores=True)
            pipe.hgetall(self._left_key(match_id))
            parts, instances, left = await pipe.execute()
        beats = {name.decode(): score for name, score in instances}
        horizon = _epoch(timesource.now()) - self.dead_after
        live, dead = [], []
        for name, data in parts.items():
            part = orjson.loads(data)
            beat = beats.get(name.decode(), 0.0)
            if beat >= horizon:
                live.append(part)
            else:
                dead.append((beat, part))
        return live, dead, {k.decode(): float(v) for k, v in left.items()}

    async def match_presence_async(self, match_id: str) -> dict[str, Any]:
        live, _dead, _left = await self._read(match_id)
        seats = {seat for part in live for seat in part["p"].values()}
        return {"spectators": sum(part["s"] for part in live), "online_seats": sorted(seats)}

    def match_presence(self, match_id: str, player_ids: dict[int, int] | None = None
                       ) -> dict[str, Any]:
        return self._on_loop(self.match_presence_async(match_id),
                             lambda: super(SharedPresence, self).match_presence(match_id,
                                                                                player_ids))

    async def away_seconds_async(self, match_id: str, user_id: int) -> float:
        """How long ``user_id`` has been away from the match, for claims and expiries. With Redis
        away nobody can tell: the caller is told to retry (503), nothing is decided."""
        try:
            live, dead, left = await self._read(match_id)
            key = str(user_id)
            if any(key in part["p"] for part in live):
                return 0.0
            born = await self._born()
        except (RedisError, OSError) as away:
            raise ServerBusy("Who is at the board cannot be told while the live service "
                             "reconnects: retry in a moment.", code="presence_unavailable") from away
        since = max([left.get(key, _epoch(self._started_at)), self._healed_at or 0.0,
                     born, *(beat for beat, part in dead if key in part["p"])])
        return max(0.0, _epoch(timesource.now()) - since)

    def away_seconds(self, match_id: str, user_id: int) -> float:
        return self._on_loop(self.away_seconds_async(match_id, user_id),
                             lambda: super(SharedPresence, self).away_seconds(match_id, user_id))

    def _on_loop(self, coroutine: Coroutine[Any, Any, _T], fallback: Callable[[], _T]) -> _T:
        """Run a Redis read from a worker thread on the bound loop (one connection pool)."""
        loop = self._loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is None or loop.is_closed() or running is loop:
            coroutine.close()
            return fallback()  # on the loop itself: callers there use the *_async forms
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=10)

    async def absent_since(self, user_ids: Iterable[int]) -> dict[int, datetime | None]:
        ids = list(user_ids)
        if not ids:
            return {}
        scores = await self.client().zmscore(self._users_key, [str(u) for u in ids])
        horizon = _epoch(timesource.now()) - self.dead_after
        healing = max(self._healed_at or 0.0, await self._born()) >= horizon
        out: dict[int, datetime | None] = {}
        for user_id, score in zip(ids, scores, strict=True):
            if self.is_online(user_id):
                out[user_id] = None
            elif score is not None:
                out[user_id] = None if score >= horizon else _moment(score)
            elif healing:  # unknown only because Redis lost it: present until shown otherwise
                out[user_id] = None
        return out

    async def gone_users_async(self, user_ids: Iterable[int]) -> set[int]:
        """Users seen on some instance who have no socket open on any live one now. Users never
        seen, and everyone while the presence heals after Redis came back, are not gone."""
        ids = [u for u in user_ids if not self.is_online(u)]
        if not ids:
            return set()
        redis = self.client()
        horizon = _epoch(timesource.now()) - self.dead_after
        if max(self._healed_at or 0.0, await self._born()) >= horizon:
            return set()
        live = [name.decode() for name in
                await redis.zrangebyscore(self._instances_key, horizon, "+inf")]
        keys = [str(u) for u in ids]
        async with redis.pipeline(transaction=False) as pipe:
            pipe.zmscore(self._users_key, keys)
            for instance in live:
                pipe.smismember(self._online_key(instance), keys)
            seen, *online = await pipe.execute()
        return {u for i, u in enumerate(ids)
                if seen[i] is not None and not any(flags[i] for flags in online)}

    async def online_users_async(self, user_ids: Iterable[int]) -> set[int]:
        """Users with a socket open on this instance or on any live one (the union of the live
        instances' online sets, as their heartbeats last wrote them)."""
        ids = list(user_ids)
        found = {u for u in ids if self.is_online(u)}
        rest = [u for u in ids if u not in found]
        if not rest:
            return found
        redis = self.client()
        horizon = _epoch(timesource.now()) - self.dead_after
        live = [name.decode() for name in
                await redis.zrangebyscore(self._instances_key, horizon, "+inf")]
        if not live:
            return found
        keys = [str(u) for u in rest]
        async with redis.pipeline(transaction=False) as pipe:
            for instance in live:
                pipe.smismember(self._online_key(instance), keys)
            online = await pipe.execute()
        return found | {u for i, u in enumerate(rest) if any(flags[i] for flags in online)}

    def online_users(self, user_ids: Iterable[int]) -> set[int]:
        ids = list(user_ids)
        return self._on_loop(self.online_users_async(ids),
                             lambda: super(SharedPresence, self).online_users(ids))

    def gone_users(self, user_ids: Iterable[int]) -> set[int]:
        ids = list(user_ids)
        return self._on_loop(self.gone_users_async(ids),
                             lambda: super(SharedPresence, self).gone_users(ids))

    def spectator_counts(self) -> dict[str, int]:
        """Across instances, as of the last heartbeat (and this instance's own flushes)."""
        return dict(self._counts)

    async def sweep_dead_instances(self) -> list[str]:
        """Leader's job: drop the parts of instances that stopped beating (killed, partitioned)
        and publish the corrected presence of their matches."""
        redis = self.client()
        horizon = _epoch(timesource.now()) - self.dead_after
        dead = [name.decode() for name in
                await redis.zrangebyscore(self._instances_key, "-inf", horizon)]
        for instance in dead:
            beat = await redis.zscore(self._instances_key, instance) or horizon
            matches = [m.decode() for m in await redis.smembers(self._matches_key(instance))]
            for match_id in matches:
                data = await redis.hget(self._part_key(match_id), instance)
                if data:
                    users = orjson.loads(data)["p"]
                    if users:
                        await redis.hset(self._left_key(match_id),
                                         mapping={u: beat for u in users})
                await redis.hdel(self._part_key(match_id), instance)
                view = await self.match_presence_async(match_id)
                await self._store_count(match_id, view["spectators"])
                self.publish(match_channel(match_id), presence_message(view))
            await redis.delete(self._matches_key(instance))
            await redis.zrem(self._instances_key, instance)
        return dead
