"""Every committed match change is announced, even when the process dies right after the commit.

The design, a transactional outbox whose entries live on the match row itself:

- **The fact "to announce" is written by the change's own transaction, for free.** Every change
  bumps ``matches.version`` (the optimistic-concurrency guard); ``announced_version`` is the last
  version whose announcement reached the bus. ``version > announced_version`` *is* the outbox
  entry, so the move's transaction is exactly what it was: no extra statement, no extra round
  trip (a separate outbox table would have cost an INSERT per move and a DELETE per
  announcement, on the request path).
- **The publisher announces right after the commit, as before** (``publish.MatchPublisher``), and
  once the bus says the messages left the process (``EventBus.after_sent``: Redis took them) it
  notes ``(match, version)`` in :class:`Announced`. A background task writes those notes in
  batches, off the request path, every ``FLUSH_SECONDS``: one statement for every change of that
  interval. A publish that Redis refused is never noted, so it stays in the outbox.
- **The relay** (:class:`Relay`) reads the outbox through a partial index that holds only the
  matches still to announce (``ix_matches_unannounced``), and announces again a match whose
  ``announced_version`` has not moved for ``GRACE_SECONDS`` while a change waited, and whose
  version has not moved since its previous scan (a younger change is its own publisher's to
  announce): its publisher died (kill -9) or lost its bus. Ages are measured by the relay's own
  monotonic clock between its scans, never from timestamps written by other machines (no clock
  skew; and ``updated_at`` is not bumped by every change). The worker's leader runs it every
  ``RELAY_SECONDS`` (``relay_unannounced``), and each web instance runs it once as it starts
  (``relay_at_start``). It announces the match as the database holds it now, through the same
  publisher (so its announcement is noted like any other), and only if nothing newer was
  committed since its scan.

What it costs: per change, one callback queued behind the publish; per batch, one statement
(PostgreSQL: ``unnest`` arrays, outside a transaction). The partial index names ``version``, so
on PostgreSQL a move's UPDATE is no longer a HOT update where it was one (an untimed game), and
the note is a second row version per change: database work, never a round trip of the move.

Announcing is at least once: a relay that races a publisher whose note is late (the database
slow for more than the grace) announces a change twice. That is harmless by construction: every
announcement carries the match's ``version``; the sockets and streams drop a version they have
shown (``MatchFeed.newer``), so the browser never sees it twice; the account stream tells a turn
once per ply; the Watch list replaces a card by id; and the bot runner re-reads the match and
thinks only if it is still at that ply and nobody is thinking about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from dataclasses import dataclass

from sqlalchemy import bindparam, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match
from app.kernel.errors import NotFound
from app.kernel.metrics import OUTBOX_OLDEST_SECONDS, OUTBOX_RELAYED, OUTBOX_UNANNOUNCED
from app.match import store
from app.match.store import Publish

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.2
"""How often the notes of announced changes are written (one statement for all of them: its
fixed cost, ~0.45 ms of CPU on PostgreSQL, shared by every change of the interval)."""
GRACE_SECONDS = 1.5
"""How long a change may wait for its publisher's note before the relay announces it."""
RELAY_SECONDS = 0.5
"""How often the leader's relay reads the outbox."""
SCAN_LIMIT = 1000
"""Matches one scan reads at most (the oldest changes come back on the next scans)."""

MATCHES = Match.__table__
_UNANNOUNCED = (select(MATCHES.c.id, MATCHES.c.version, MATCHES.c.announced_version)
                .where(MATCHES.c.version > MATCHES.c.announced_version)  # the index's predicate
                .limit(SCAN_LIMIT))
_MARK = (update(MATCHES)
         .where(MATCHES.c.id == bindparam("m_id"),
                MATCHES.c.announced_version < bindparam("m_version"))
         .values(announced_version=bindparam("m_version")))
_MARK_ALL = text(
    "UPDATE matches SET announced_version = noted.version"
    " FROM unnest(CAST(:ids AS varchar[]), CAST(:versions AS integer[])) AS noted(id, version)"
    " WHERE matches.id = noted.id AND matches.announced_version < noted.version")
"""PostgreSQL: a batch in one statement and one round trip (an ``executemany`` of ``_MARK``
cost a round trip per row, holding the batch's row locks the while)."""
_NOT_DURABLE = text("SET LOCAL synchronous_commit = off")
"""A note lost in a crash only makes the relay announce that change again: its commit need not
wait for the disk, and the rows it locks are free again at once for the next moves."""


def mark_announced(session: Session, versions: dict[str, int]) -> None:
    """Note that each match's change up to ``versions[id]`` was announced (never moving a note
    back). SQLite: one statement per row, in id order, in one transaction (no round trips)."""
    if not versions:
        return
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        ids = sorted(versions)
        connection.execute(_NOT_DURABLE)
        connection.execute(_MARK_ALL, {"ids": ids, "versions": [versions[i] for i in ids]})
    else:
        connection.execute(_MARK, [{"m_id": match_id, "m_version": version}
                                   for match_id, version in sorted(versions.items())])
    session.commit()


def unannounced(session: Session) -> list[tuple[str, int, int]]:
    """(id, version, announced version) of the matches with a change still to announce."""
    return [(row.id, row.version, row.announced_version)
            for row in session.connection().execute(_UNANNOUNCED)]


class Announced:
    """The changes this process announced and has not noted yet. ``add`` is called on the loop
    (``after_sent``) or from any thread; ``flush`` writes them in one statement."""

    def __init__(self, session_factory: sessionmaker[Session],
                 flush_seconds: float = FLUSH_SECONDS) -> None:
        self.session_factory = session_factory
        self.flush_seconds = flush_seconds
        self._pending: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, match_id: str, version: int) -> None:
        with self._lock:
            if self._pending.get(match_id, -1) < version:
                self._pending[match_id] = version

    def flush(self) -> int:
        """Write the pending notes; on failure they wait for the next flush. Returns how many."""
        with self._lock:
            pending, self._pending = self._pending, {}
        if not pending:
            return 0
        try:
            with self.session_factory() as session:
                mark_announced(session, pending)
        except Exception:
            for match_id, version in pending.items():
                self.add(match_id, version)
            raise
        return len(pending)

    async def run(self) -> None:
        """Flush forever (cancel to stop: what is still pending is written once more)."""
        try:
            while True:
                await asyncio.sleep(self.flush_seconds)
                if self._pending:
                    try:
                        await asyncio.to_thread(self.flush)
                    except Exception:  # the database away: the notes wait, the relay may repeat
                        log.warning("noting announced match changes failed", exc_info=True)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.flush)


@dataclass(slots=True)
class _Waiting:
    """A match the relay found with a change to announce: its announced version then, since
    when (the relay's monotonic clock) that note has not moved, and its version at the last
    scan."""

    announced: int
    since: float
    version: int


class Relay:
    """Announces the changes whose publisher never noted them (see the module's docstring).
    ``publish`` is the process's match publisher, which notes what it announces."""

    def __init__(self, session_factory: sessionmaker[Session], publish: Publish,
                 grace_seconds: float = GRACE_SECONDS) -> None:
        self.session_factory = session_factory
        self.publish = publish
        self.grace_seconds = grace_seconds
        self._waiting: dict[str, _Waiting] = {}
        self._scanning = threading.Lock()  # a start-up pass and the leader's job may share it
        self.relayed = 0
        """Changes this relay announced again (for tests and logs)."""

    def scan(self) -> int:
        """One pass: read the outbox, announce every match whose note has not moved for the
        grace. Returns how many it announced."""
        with self._scanning:
            return self._scan()

    def _scan(self) -> int:
        with self.session_factory() as session:
            rows = unannounced(session)
        moment = time.monotonic()
        waiting: dict[str, _Waiting] = {}
        due: list[tuple[str, int]] = []
        for match_id, version, announced in rows:
            known = self._waiting.get(match_id)
            if known is None or known.announced != announced:
                known = _Waiting(announced, moment, version)  # new, or a publisher noted one
            elif moment - known.since >= self.grace_seconds and known.version == version:
                due.append((match_id, version))
            known.version = version  # a change since the last scan is its publisher's, for now
            waiting[match_id] = known
        self._waiting = waiting
        OUTBOX_UNANNOUNCED.set(len(rows))
        OUTBOX_OLDEST_SECONDS.set(max((moment - w.since for w in waiting.values()), default=0.0))
        relayed = 0
        for match_id, version in due:
            if self._announce(match_id, version):
                relayed += 1
            waiting[match_id].since = time.monotonic()  # the note gets a grace of its own
        return relayed

    def _announce(self, match_id: str, version: int) -> bool:
        """Announce the match as stored, unless a newer change was committed since the scan
        (its own publisher announces that one; the next scans watch it)."""
        with self.session_factory() as session:
            try:
                record = store.record(session, store.read(session, match_id))
            except NotFound:
                return False
        if record.version != version:
            return False
        log.warning("announcing match %s version %d again: its publisher never noted it",
                    match_id, version)
        self.publish(record)
        self.relayed += 1
        OUTBOX_RELAYED.inc()
        return True


async def relay_unannounced(relay: Relay, period_seconds: float = RELAY_SECONDS) -> None:
    """The leader's job: scan the outbox forever."""
    while True:
        try:
            await asyncio.to_thread(relay.scan)
        except Exception:  # the database away: the next scan tries again
            log.warning("outbox relay scan failed", exc_info=True)
        await asyncio.sleep(period_seconds)


async def relay_at_start(relay: Relay) -> int:
    """Once as an instance starts: whatever was committed and never announced (an instance
    killed before it announced), found twice a grace apart. Returns how many it announced."""
    try:
        await asyncio.to_thread(relay.scan)
        await asyncio.sleep(relay.grace_seconds)
        return await asyncio.to_thread(relay.scan)
    except Exception:
        log.warning("outbox relay at start failed", exc_info=True)
        return 0
