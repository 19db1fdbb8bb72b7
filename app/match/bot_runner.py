"""Makes the built-in bots move: watches every match change, and when a bot is to move, thinks in
a worker process (never on the event loop, so other matches' websockets stay instant) and
submits the move like any player, guarded by the ply.

A bot never moves twice for one ply: the runner runs in one process across all instances (the
job leader, app/jobs/leadership.py), a (match, ply) is thought about once there, and the database
refuses a second move for the same ply. ``catch_up`` finds every match waiting for a bot and
thinks again: at start (a restart, a failover) and then every ``rescan_seconds``, so a bot move
that failed (the database away, a worker process lost) is tried again and no game waits for a
change that will not come. Every computation is counted (``computations``, and in Redis
when ``count`` is given) so tests can check "once per ply" across instances.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.errors import ServiceError
from app.kernel.identity import Identity
from app.kernel.metrics import BOT_MOVES
from app.kernel.processes import spawn_pool, stop_pool
from app.match.bots import active_matches_with_bots, bot_levels_by_user, bot_move
from app.match.payloads import Known, MatchChange, to_move_of
from app.match.records import MatchRecord
from app.match.service import MatchService
from app.match.store import Publish
from app.realtime.bus import LIVE_CHANNEL, RESYNC, EventBus

log = logging.getLogger(__name__)


class BotRunner:
    def __init__(self, session_factory: sessionmaker[Session], publish: Publish,
                 workers: int = 1, executor: Executor | None = None,
                 count: Callable[[str, int], Awaitable[None]] | None = None,
                 rescan_seconds: float = 5.0) -> None:
        self.session_factory = session_factory
        self.rescan_seconds = rescan_seconds
        self.count = count
        self.computations = 0
        self.publish = publish
        self.executor = executor or spawn_pool(workers)
        self.thinking: set[tuple[str, int]] = set()
        self.not_bots_turn: set[tuple[str, int]] = set()
        """(match, ply) a scan found waiting for a person: not read again until the ply moves."""
        self.levels: dict[int, str] = {}  # bot user id -> level; bot users never change level
        self.tasks: set[asyncio.Task[None]] = set()

    def _load_levels(self) -> dict[int, str]:
        with self.session_factory() as session:
            return bot_levels_by_user(session)

    async def _level_of(self, user_id: int) -> str | None:
        """Cached: the database is asked again only for a bot user not seen before."""
        if user_id not in self.levels:
            self.levels = await asyncio.to_thread(self._load_levels)
        return self.levels.get(user_id)

    async def run(self, bus: EventBus) -> None:
        async with bus.subscribe(LIVE_CHANNEL) as events:
            await self.catch_up()
            rescans = asyncio.create_task(self._rescan_forever())
            try:
                async for message in events:
                    if message.get("type") == "change":  # public: the snapshot is read when needed
                        await self.consider(MatchChange.from_json(message["change"]))
                    elif message.get("type") == RESYNC:  # changes may have gone unheard
                        await self.catch_up()
            finally:
                rescans.cancel()

    async def _rescan_forever(self) -> None:
        while True:
            await asyncio.sleep(self.rescan_seconds)
            try:
                await self.catch_up()
            except Exception:  # the database away: the next scan tries again
                log.warning("bot re-scan failed", exc_info=True)

    async def catch_up(self) -> None:
        """Every active match with a bot, in one query; only those whose ply changed since a scan
        found them waiting for a person (or never seen) are read and considered."""
        def scan() -> list[tuple[str, int]]:
            with self.session_factory() as session:
                return active_matches_with_bots(session)

        def load(match_ids: list[str]) -> list[MatchRecord]:
            with self.session_factory() as session:
                service = MatchService.read_only(session)
                return [service.get(match_id) for match_id in match_ids]

        active = await asyncio.to_thread(scan)
        self.not_bots_turn &= set(active)  # forget finished matches and past plies
        unsettled = [match_id for match_id, ply in active
                     if (match_id, ply) not in self.not_bots_turn
                     and (match_id, ply) not in self.thinking]
        for record in await asyncio.to_thread(load, unsettled):
            if not await self.consider(record) and (record.id, record.ply) not in self.thinking:
                self.not_bots_turn.add((record.id, record.ply))

    async def consider(self, record: Known) -> bool:
        """Start thinking if a bot is to move (True), or say it is not (False)."""
        if record.status != "active" or not any(s.kind == "bot" for s in record.seats):
            return False
        to_move = to_move_of(record)
        if to_move is None or to_move in record.eliminated:
            return False
        seat = record.seats[to_move]
        if seat.kind != "bot" or seat.user_id is None or (record.id, record.ply) in self.thinking:
            return False
        level = await self._level_of(seat.user_id)
        if level is None:
            return False
        self.thinking.add((record.id, record.ply))
        task = asyncio.create_task(self._think(record, to_move, seat.user_id, level))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return True

    def _load(self, match_id: str) -> MatchRecord:
        with self.session_factory() as session:
            return MatchService.read_only(session).get(match_id)

    async def _think(self, known: Known, seat: int, user_id: int, level: str) -> None:
        loop = asyncio.get_running_loop()
        record = known
        try:
            if not isinstance(record, MatchRecord):  # the bus carries no snapshot: read it
                record = await asyncio.to_thread(self._load, known.id)
                if record.ply != known.ply or record.status != "active":
                    return  # moved on meanwhile; the newer change is considered on its own
            move = await loop.run_in_executor(self.executor, bot_move, record.game,
                                              record.snapshot, seat, level, record.ply)
            self.computations += 1
            if self.count is not None:
                with contextlib.suppress(Exception):  # a lost count never costs a move
                    await self.count(record.id, record.ply)
            await asyncio.to_thread(self._submit, record, seat, user_id, move)
            BOT_MOVES.labels("played").inc()
        except ServiceError as error:
            BOT_MOVES.labels("refused").inc()
            log.info("bot move for %s ply %s not played: %s", record.id, record.ply, error.message)
        except Exception:
            BOT_MOVES.labels("failed").inc()
            log.exception("bot failed to move in %s at ply %s", record.id, record.ply)
        finally:
            self.thinking.discard((known.id, known.ply))

    def _submit(self, record: MatchRecord, seat: int, user_id: int, move: str) -> None:
        with self.session_factory() as session:
            bot = Identity(id=user_id, name=record.seats[seat].name or "bot", kind="bot")
            MatchService(session, self.publish).play(record.id, bot, move, record.ply, seat=seat)

    def shutdown(self) -> None:
        for task in self.tasks:
            task.cancel()
        if isinstance(self.executor, ProcessPoolExecutor):
            stop_pool(self.executor)  # shutdown(wait=False) left bot processes behind
        else:
            self.executor.shutdown(wait=False, cancel_futures=True)


