"""The push job: turns match changes, challenges and correspondence clocks into web pushes.

A leader job (app/jobs/runner.py), so it runs once across every instance and the worker. It
follows the bus's ``live`` channel (every match change, public header only) and its ``notices``
channel (challenges), and scans for correspondence clocks about to run out every
``push_reminder_scan_seconds``. For each notice:

1. **Presence first**: a person with a page of that match open on any instance (shared presence,
   app/realtime/presence.py) gets nothing: the page tells them.
2. **Their switch** (app/notices/preferences.py) and **their devices**: none, nothing is sent.
3. **Claimed once**: a row in ``notice_deliveries`` (unique per person, kind, match, ply) is
   inserted before sending; whoever fails to insert it (a relay's repeated announcement, a new
   leader, a second change at the same ply) sends nothing. So at most one push per match per turn,
   even if a retry later fails: a notice is sent at most once, never twice.
4. **Sent** to each device by :class:`PushSender`, off the loop, with retries.

A message the bus lost (Redis away) is a notice not sent; the match page and the account stream
still tell the person when they come back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app.accounts import followers_to_tell
from app.db.models import Match, NoticeDelivery, PushSubscription
from app.http.paging import moment
from app.kernel import timesource
from app.kernel.json_types import JSONObject
from app.kernel.settings import Settings
from app.mail import queue_reminder
from app.match import MatchChange, MatchHeader, MatchService, to_move_of
from app.notices import push_texts
from app.notices.messages import PushPayload
from app.notices.preferences import Kind, wants
from app.notices.push_sender import Device, PushSender
from app.notices.push_subscriptions import forget
from app.notices.vapid import vapid_key
from app.realtime.bus import LIVE_CHANNEL, NOTICES_CHANNEL, EventBus, new_inbox
from app.realtime.presence import Presence

log = logging.getLogger(__name__)

CONCURRENT_SENDS = 8
FOLLOWED_FRESH_SECONDS = 300
"""A ``followedGame`` notice goes out only for a game that started this recently (the relay
may announce an old match again; the delivery row keeps it to once anyway)."""
FOLLOWED_REMEMBERED = 10_000
"""Matches whose followers were looked up already, remembered so each costs one query."""
REMINDER_SHARE = 0.25
"""A reminder comes when less than this share of a move's time is left (or less than
``push_reminder_hours``, whichever is shorter)."""

Payload = Callable[[], PushPayload]
"""Builds a notice's payload; called once per device language, inside ``written_in``."""


@dataclass(frozen=True, slots=True)
class Notice:
    user_id: int
    kind: Kind
    subject: str
    """The match (or challenge) it is about: with ``step``, what makes it sent at most once."""
    step: int
    payload: Payload
    match_id: str | None = None
    """Checked for presence: no push to someone with this match's page open."""
    urgency: str = "normal"
    by_mail: MailedReminder | None = None
    """What a mail says instead when no device of the person took the push (reminders only)."""


@dataclass(frozen=True, slots=True)
class MailedReminder:
    game: str
    opponents: list[str]
    hours: int


def _opponents(change: MatchHeader, user_id: int) -> list[str]:
    return [s.name or "?" for s in change.seats if s.user_id not in (None, user_id)]


def _outcome(change: MatchChange, seat: int) -> str:
    result = change.result or {}
    winners = result.get("winners") or []
    if not winners or len(winners) >= change.num_seats:
        return "draw" if change.status == "finished" else "ended"
    return "won" if seat in winners else "lost"


def notices_of_change(change: MatchChange) -> list[Notice]:
    """What a committed change may notify: the mover's turn, or every person's game over."""
    people = [s for s in change.seats if s.user_id is not None and s.kind != "bot"]
    if change.status == "finished":
        return [Notice(s.user_id, "gameOver", change.id, 0,
                       _game_over_payload(change, s.seat, s.user_id), match_id=change.id)
                for s in people if s.user_id is not None]
    if change.status != "active":
        return []
    if change.tournament and change.ply == 0:  # a round's new game: one notice, the tournament's
        return [Notice(s.user_id, "tournament", change.id, 0, _tournament_payload(change, s.user_id),
                       match_id=change.id, urgency="high") for s in people if s.user_id is not None]
    mover = change.to_move
    if mover is None or mover in change.eliminated:
        return []
    seat = next((s for s in people if s.seat == mover), None)
    if seat is None or seat.user_id is None:
        return []
    user_id = seat.user_id
    return [Notice(user_id, "yourTurn", change.id, change.ply,
                   lambda: push_texts.your_turn(change.id, change.game, _opponents(change, user_id)),
                   match_id=change.id, urgency="high")]


def _game_over_payload(change: MatchChange, seat: int, user_id: int) -> Payload:
    return lambda: push_texts.game_over(change.id, change.game, _opponents(change, user_id),
                                        _outcome(change, seat))


def _tournament_payload(change: MatchChange, user_id: int) -> Payload:
    return lambda: push_texts.tournament_game(change.tournament or "", change.id, change.game,
                                              _opponents(change, user_id))


def notices_of_followed_start(session: Session, change: MatchHeader) -> list[Notice]:
    """One ``followedGame`` notice per follower who asked to hear of a person seated in a match
    that just started (not to someone who plays in it; not for a sealed table; once per match
    whichever of the people they follow it names)."""
    if change.status != "active" or change.sealed:
        return []
    seated = {s.user_id: s.name or "?" for s in change.seats if s.user_id is not None}
    told: dict[int, int] = {}
    for followee, followers in followers_to_tell(session, list(seated)).items():
        for follower in followers:
            if follower not in seated:
                told.setdefault(follower, followee)
    return [Notice(follower, "followedGame", change.id, 0,
                   _followed_payload(change, seated[followee], followee))
            for follower, followee in told.items()]


def _followed_payload(change: MatchHeader, name: str, followee: int) -> Payload:
    return lambda: push_texts.followed_game(change.id, change.game, name,
                                            _opponents(change, followee))


def notices_of_challenge(message: dict[str, Any]) -> list[Notice]:
    """One notice per invited player who has not accepted yet (built-in bots accept at once)."""
    seek = message.get("seek") or {}
    if seek.get("kind") != "challenge":
        return []
    targets = seek.get("targets") or [seek.get("target") or {}]
    joined = {j.get("id") for j in seek.get("joined") or []}
    challenger = (seek.get("creator") or {}).get("name") or "?"
    seek_id, game = str(seek.get("id")), str(seek.get("game"))
    return [Notice(target, "challenge", seek_id, 0,
                   lambda: push_texts.challenge(seek_id, game, challenger), urgency="high")
            for target in (invited.get("id") for invited in targets)
            if isinstance(target, int) and target not in joined]


def _claimed(session: Session, notice: Notice, channel: str) -> bool:
    """Write the notice's delivery row on ``channel`` (the caller commits): False when another
    sender (an earlier pass, another leader) wrote it first, so each notice goes out once."""
    session.add(NoticeDelivery(user_id=notice.user_id, kind=notice.kind, subject=notice.subject,
                               step=notice.step, channel=channel))
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        return False
    return True


class PushJob:
    def __init__(self, settings: Settings, session_factory: sessionmaker[Session], bus: EventBus,
                 presence: Presence) -> None:
        self.settings = settings
        self.session_factory = session_factory
        self.bus = bus
        self.presence = presence
        self.sender = PushSender(vapid_key(settings.vapid_private_key), settings.vapid_subject,
                                 settings.push_retry_seconds, self._forget, self._note_sent)
        self.slots = asyncio.Semaphore(CONCURRENT_SENDS)
        self.tasks: set[asyncio.Task[None]] = set()
        self.sent = 0
        """Pushes the push services accepted (for tests and logs)."""
        self.followed_seen: OrderedDict[str, None] = OrderedDict()

    # -- database (in threads) --------------------------------------------------------------
    def _forget(self, subscription_id: int) -> None:
        with self.session_factory() as session:
            forget(session, subscription_id)

    def _note_sent(self, subscription_id: int) -> None:
        with self.session_factory() as session:
            session.execute(update(PushSubscription).where(PushSubscription.id == subscription_id)
                            .values(last_sent_at=timesource.now()))
            session.commit()

    def _claim(self, notice: Notice) -> list[tuple[Device, str]]:
        """The devices to send ``notice`` to, with their languages, once the notice is claimed;
        [] if the person does not want it, has no device, or it was claimed already."""
        with self.session_factory() as session:
            rows = session.scalars(select(PushSubscription).where(  # most people: none, one query
                PushSubscription.user_id == notice.user_id)).all()
            if not rows or not wants(session, notice.user_id, notice.kind, "push") \
                    or not _claimed(session, notice, "push"):
                return []
            session.commit()
            return [(Device(r.id, r.endpoint, r.p256dh, r.auth), r.language) for r in rows]

    # -- one notice -------------------------------------------------------------------------
    async def _on_page(self, notice: Notice) -> bool:
        if notice.match_id is None:
            return False
        try:
            return await self.presence.away_seconds_async(notice.match_id, notice.user_id) <= 0
        except Exception:  # who is on the page cannot be told: do not risk a push to them
            log.warning("presence unknown; push for %s skipped", notice.match_id, exc_info=True)
            return True

    async def deliver(self, notice: Notice) -> int:
        """Send ``notice`` if it should be; returns how many devices accepted it."""
        if await self._on_page(notice):
            return 0
        targets = await asyncio.to_thread(self._claim, notice)
        accepted = 0
        for device, language in targets:
            with push_texts.written_in(language):
                payload = notice.payload()
            async with self.slots:
                if await self.sender.send(device, payload, notice.urgency):
                    accepted += 1
        self.sent += accepted
        if not accepted and notice.by_mail is not None:
            await asyncio.to_thread(self._mail_instead, notice, notice.by_mail)
        return accepted

    def _mail_instead(self, notice: Notice, reminder: MailedReminder) -> bool:
        """Queue the reminder by mail (once per turn, like a push) for a person who wants it
        there and whose address is confirmed; whether it was queued."""
        with self.session_factory() as session:
            if not wants(session, notice.user_id, notice.kind, "mail") \
                    or not _claimed(session, notice, "mail"):
                return False
            if not queue_reminder(session, self.settings, notice.user_id, notice.subject,
                                  reminder.game, reminder.opponents, reminder.hours):
                session.rollback()  # no confirmed address (or mail not set up): nothing claimed
                return False
            session.commit()
            return True

    def _spawn(self, notice: Notice) -> None:
        task = asyncio.create_task(self._deliver_logged(notice))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _deliver_logged(self, notice: Notice) -> None:
        try:
            await self.deliver(notice)
        except Exception:
            log.exception("push for %s %s failed", notice.kind, notice.subject)

    # -- followed people's new games ----------------------------------------------------------
    def _fresh_start(self, change: MatchChange) -> bool:
        """Whether ``change`` is a game that just started and was not looked at yet."""
        if change.status != "active" or change.sealed or change.started_at is None \
                or change.id in self.followed_seen:
            return False
        age = (moment(timesource.now().isoformat()) - moment(change.started_at)) / 1e6
        if age > FOLLOWED_FRESH_SECONDS:
            return False
        self.followed_seen[change.id] = None
        while len(self.followed_seen) > FOLLOWED_REMEMBERED:
            self.followed_seen.popitem(last=False)
        return True

    def _followed_notices(self, change: MatchChange) -> list[Notice]:
        with self.session_factory() as session:
            return notices_of_followed_start(session, change)

    async def _tell_followers(self, change: MatchChange) -> None:
        try:
            for notice in await asyncio.to_thread(self._followed_notices, change):
                self._spawn(notice)
        except Exception:
            log.exception("followers of %s could not be read", change.id)

    # -- the job ----------------------------------------------------------------------------
    def consider(self, channel: str, message: JSONObject) -> None:
        notices: list[Notice] = []
        if channel == LIVE_CHANNEL and message.get("type") == "change":
            change = MatchChange.from_json(message["change"])
            notices = notices_of_change(change)
            if self._fresh_start(change):
                task = asyncio.create_task(self._tell_followers(change))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
        elif channel == NOTICES_CHANNEL and message.get("type") == "challenge":
            notices = notices_of_challenge(message)
        for notice in notices:
            self._spawn(notice)

    async def _follow(self, channel: str) -> None:
        async with self.bus.subscribe(channel, new_inbox()) as messages:
            async for message in messages:
                try:
                    self.consider(channel, message)
                except Exception:
                    log.exception("push job could not read a %s message", channel)

    async def run(self) -> None:
        """Follow the bus and scan the clocks until cancelled."""
        followers = [asyncio.create_task(self._follow(LIVE_CHANNEL)),
                     asyncio.create_task(self._follow(NOTICES_CHANNEL)),
                     asyncio.create_task(self._remind_forever())]
        try:
            await asyncio.gather(*followers)
        finally:
            for task in [*followers, *self.tasks]:
                task.cancel()
            for task in [*followers, *self.tasks]:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.sender.close()

    # -- correspondence reminders -----------------------------------------------------------
    def reminders(self) -> list[Notice]:
        """A notice for each correspondence clock now within its reminder window."""
        moment = timesource.now()
        window = timedelta(hours=self.settings.push_reminder_hours)
        found: list[Notice] = []
        with self.session_factory() as session:
            due = session.execute(select(Match.id, Match.deadline_at).where(
                Match.status == "active", Match.deadline_at.is_not(None),
                Match.deadline_at <= moment + window, Match.deadline_at > moment)).all()
            service = MatchService.read_only(session)
            for match_id, deadline in due:
                record = service.get(match_id)
                control = record.time_control
                if (control is None or control.get("kind") != "correspondence"
                        or record.clock is None or deadline is None):
                    continue
                left = deadline - moment
                share = timedelta(milliseconds=control.get("per_move_ms", 0) * REMINDER_SHARE)
                if left > min(window, share):
                    continue
                mover = to_move_of(record)
                seat = next((s for s in record.seats if s.seat == mover), None)
                if seat is None or seat.user_id is None or seat.kind == "bot":
                    continue
                found.append(self._reminder(record.id, record.game, record.ply, seat.user_id,
                                            [s.name or "?" for s in record.seats
                                             if s.user_id not in (None, seat.user_id)],
                                            left.total_seconds() / 3600))
        return found

    @staticmethod
    def _reminder(match_id: str, game: str, ply: int, user_id: int, opponents: list[str],
                  hours: float) -> Notice:
        return Notice(user_id, "clockReminder", match_id, ply,
                      lambda: push_texts.clock_reminder(match_id, game, opponents, hours),
                      match_id=match_id, urgency="high",
                      by_mail=MailedReminder(game, opponents, max(1, round(hours))))

    async def _remind_forever(self) -> None:
        while True:
            try:
                for notice in await asyncio.to_thread(self.reminders):
                    self._spawn(notice)
            except Exception:
                log.warning("clock reminder scan failed", exc_info=True)
            await asyncio.sleep(self.settings.push_reminder_scan_seconds)


async def run_push(settings: Settings, session_factory: sessionmaker[Session], bus: EventBus,
                   presence: Presence) -> None:
    """The leader job (app/jobs/runner.py)."""
    await PushJob(settings, session_factory, bus, presence).run()
