"""Playban: escalating waits before the next rated game for people who abandon rated games, as
on Lichess (its ``modules/playban``), with the rules written out here and in docs/security.md
("Fair play").

Only rated real-time games count, and only for people (accounts and bot accounts, never a
built-in bot). When such a game ends — or a seat drops out of it — each player's *outcome* is
recorded once (``playban_outcomes``, unique per person and match):

- ``sitting``: flagged after letting a whole turn run out, a turn that had at least
  :func:`sitting_seconds` on the clock (a tenth of the game's estimated length, 30 s to 3 min);
- ``rage_quit``: gone from a game without resigning, the opponent claimed the win;
- ``no_start``: never made a first move, the game was aborted at the first-move limit;
- ``abort``: called a game off after an opponent had already moved in it;
- ``good``: anything else (a win, a loss, a draw, resigning, flagging in a real time scramble).

After a bad outcome, with no wait in effect, the outcomes since the last wait decide (the
window holds at most ``WINDOW`` of them): a wait starts when their bad weight (1 each,
``no_start`` and ``abort`` 0.8) reaches ``max(tolerance × outcomes, least bad)``, or when the
last ``streak`` outcomes are all bad. The thresholds tighten with earlier waits; finishing games
properly dilutes the bad ones. The first wait is 10 minutes; the next one is the previous one
times 3 (right after it ended) falling to 1 (three days later), then halved for every further
week: repeats grow, and time forgives.

Everything is in the database and read afresh at every door that starts a rated game, so every
instance applies a wait the moment it is recorded. The outcome rows, each person's row lock
(``SELECT … FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite) and the unique outcome
per match keep two instances that end two games of one person at once from starting two waits.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.json_shapes import StoredClock, StoredTimeControl
from app.db.models import Playban, PlaybanOutcome, User
from app.kernel import i18n
from app.kernel.errors import Conflict, Forbidden
from app.kernel.timesource import now
from app.match.store import AnyMatch

log = logging.getLogger(__name__)

GOOD, SITTING, RAGE_QUIT, NO_START, ABORT = "good", "sitting", "rage_quit", "no_start", "abort"
BAD_WEIGHTS = {SITTING: 1.0, RAGE_QUIT: 1.0, NO_START: 0.8, ABORT: 0.8}
"""How much each way of abandoning a game weighs (a no-start or an abort may be a slip)."""
REASONS = {
    SITTING: i18n.N_("letting your clock run out instead of moving"),
    RAGE_QUIT: i18n.N_("leaving games without resigning"),
    NO_START: i18n.N_("not making your first move"),
    ABORT: i18n.N_("aborting games your opponent had started"),
}
"""Why a wait was earned, as the person reads it."""
WINDOW = 30
"""The most outcomes that count (the newest since the last wait)."""
BASE_MINUTES = 10
MAX_MINUTES = 3 * 24 * 60
GROWTH_HOURS = 72
"""A repeat within this many hours of the previous wait's end multiplies it by 3 falling to 1."""
DECAY_HOURS = 7 * 24
"""After that, the previous wait counts half for every further this many hours."""
SITTING_LIMITS = (30.0, 180.0)
"""Seconds: the shortest and longest turn that counts as sitting out the clock."""
PLAYERS = ("account", "bot")
"""User kinds whose outcomes count (a built-in bot never abandons a game)."""

class PlaybanJSON(TypedDict):
    """A wait in effect, as its person sees it (``GET /api/v1/me/playban``, the 403)."""

    reason: str
    """The outcome that earned it: ``sitting``, ``rage_quit``, ``no_start`` or ``abort``."""
    started_at: str
    until: str
    minutes: int
    """How long the wait is, in all."""
    minutes_left: int
    message: str
    """Why and until when, in the caller's language."""


def _iso(moment: datetime) -> str:
    return moment.isoformat() + "Z"


# -- which games count ---------------------------------------------------------------------------

def counts(rated: bool, time_control: StoredTimeControl | None) -> bool:
    """Whether outcomes of this match count: rated and real-time."""
    return rated and time_control is not None and time_control.get("kind") == "realtime"


def sitting_seconds(time_control: StoredTimeControl) -> float:
    """A turn at least this long that ends in a flag is sitting: a tenth of the game's estimated
    length (initial time + 40 increments), between 30 s and 3 min."""
    estimate = (time_control.get("initial_ms", 0) + 40 * time_control.get("increment_ms", 0)) / 1000
    low, high = SITTING_LIMITS
    return min(max(estimate / 10, low), high)


def flag_outcome(time_control: StoredTimeControl | None, clock: StoredClock | None,
                 moment: datetime) -> str:
    """The outcome of a seat flagged at ``moment``: ``sitting`` when its whole turn ran out and
    that turn was long (it had time to move and did not), else ``good`` (a scramble)."""
    if time_control is None or clock is None or time_control.get("kind") != "realtime":
        return GOOD
    started = datetime.fromisoformat(clock["turn_started_at"])
    turn = (moment - started).total_seconds()
    return SITTING if turn >= sitting_seconds(time_control) else GOOD


# -- recording outcomes --------------------------------------------------------------------------

def _counted_players(match: AnyMatch) -> dict[int, int]:
    """seat -> user id of the seats whose outcomes count."""
    found: dict[int, int] = {}
    for player in match.players:
        user = player.user
        if user.kind in PLAYERS and user.builtin_bot is None:
            found[player.seat] = player.user_id
    return found


def judge(session: Session, match: AnyMatch, blame: dict[int, str], finished: bool) -> list[int]:
    """Record the outcomes of a committed change to a rated real-time match: ``blame`` (seat ->
    bad outcome) for the seats that abandoned it, and ``good`` for every other counted seat
    when it ``finished``; then start the waits they earn. Returns the ids of people who got one.
    Its own transaction, after the match's: a failure here is logged, never the caller's."""
    if not counts(match.rated, match.time_control):
        return []
    seats = _counted_players(match)
    outcomes: dict[int, str] = {}
    for seat, outcome in blame.items():
        if seat in seats:
            outcomes[seats[seat]] = outcome
    if finished:
        for user_id in seats.values():
            outcomes.setdefault(user_id, GOOD)
    if not outcomes:
        return []
    try:
        return _record(session, match.id, outcomes)
    except Exception:  # the match's change is committed whatever happens here
        session.rollback()
        log.exception("recording playban outcomes of match %s failed", match.id)
        return []


def _record(session: Session, match_id: str, outcomes: dict[int, str]) -> list[int]:
    banned: list[int] = []
    for user_id in sorted(outcomes):  # one order everywhere: two recorders never deadlock
        _lock_person(session, user_id)
        row = PlaybanOutcome(user_id=user_id, match_id=match_id, outcome=outcomes[user_id],
                             created_at=now())
        session.add(row)
        try:
            session.flush()
        except IntegrityError:  # recorded already (a retried or repeated change)
            session.rollback()
            continue
        if row.outcome != GOOD and _consider(session, user_id, row.id) is not None:
            banned.append(user_id)
        session.commit()
    return banned


def _lock_person(session: Session, user_id: int) -> None:
    """Hold the person's row until the transaction ends, so their outcomes are judged one at a
    time across instances (PostgreSQL; SQLite's transactions are serial already)."""
    session.execute(select(User.id).where(User.id == user_id).with_for_update())


def _latest_ban(session: Session, user_id: int) -> Playban | None:
    return session.scalar(select(Playban).where(Playban.user_id == user_id)
                          .order_by(Playban.id.desc()).limit(1))


def _consider(session: Session, user_id: int, outcome_id: int) -> Playban | None:
    """Start a wait if the outcomes since the last one earn it (none while one is in effect)."""
    moment = now()
    latest = _latest_ban(session, user_id)
    if latest is not None and latest.ends_at > moment:
        return None
    since = latest.last_outcome_id if latest is not None else 0
    window = list(reversed(session.scalars(
        select(PlaybanOutcome.outcome).where(PlaybanOutcome.user_id == user_id,
                                             PlaybanOutcome.id > since)
        .order_by(PlaybanOutcome.id.desc()).limit(WINDOW)).all()))
    bans = session.scalars(select(Playban.started_at).where(Playban.user_id == user_id)).all()
    this_week = sum(1 for started in bans if started > moment - timedelta(days=7))
    if not bannable(window, len(bans), this_week):
        return None
    minutes = next_minutes(latest, moment)
    ban = Playban(user_id=user_id, reason=window[-1], minutes=minutes, started_at=moment,
                  ends_at=moment + timedelta(minutes=minutes), last_outcome_id=outcome_id)
    session.add(ban)
    session.flush()
    return ban


def bannable(window: Sequence[str], bans: int, bans_this_week: int) -> bool:
    """Whether these outcomes (oldest first, since the last wait) earn a wait, for someone with
    ``bans`` earlier waits (``bans_this_week`` of them in the last seven days)."""
    if not window or window[-1] == GOOD:
        return False
    tolerance = 0.4 if bans < 3 else 0.3
    least_bad = 4 if bans_this_week <= 1 else 3 if bans_this_week <= 3 else 2
    streak = 6 if bans == 0 else 5 if bans < 3 else 4 if bans < 10 else 3
    weight = sum(BAD_WEIGHTS.get(outcome, 0.0) for outcome in window)
    if weight >= max(tolerance * len(window), least_bad):
        return True
    return len(window) >= streak and all(outcome != GOOD for outcome in window[-streak:])


def next_minutes(previous: Playban | None, moment: datetime) -> int:
    """The length of a new wait: 10 minutes first; then the previous one ×3 falling to ×1 over
    the three days after it ended, then halved for every further week; 10 min to 3 days."""
    if previous is None:
        return BASE_MINUTES
    hours = max((moment - previous.ends_at).total_seconds() / 3600, 0.0)
    if hours < GROWTH_HOURS:
        minutes = previous.minutes * (3 - 2 * hours / GROWTH_HOURS)
    else:
        minutes = previous.minutes / 2 ** ((hours - GROWTH_HOURS) / DECAY_HOURS)
    return int(min(max(round(minutes), BASE_MINUTES), MAX_MINUTES))


# -- the doors -----------------------------------------------------------------------------------

def current(session: Session, user_id: int) -> Playban | None:
    """The person's wait in effect, if any (one indexed read: call it at every door)."""
    return session.scalar(select(Playban).where(Playban.user_id == user_id,
                                                Playban.ends_at > now())
                          .order_by(Playban.ends_at.desc()).limit(1))


MESSAGE = i18n.N_("You left rated games unfinished ({reason}): you may start a rated game "
                  "again at {until} UTC, in {minutes} min.")


def playban_json(ban: Playban) -> PlaybanJSON:
    left = max(1, int((ban.ends_at - now()).total_seconds() + 59) // 60)
    message = i18n.gettext(MESSAGE).format(
        reason=i18n.gettext(REASONS.get(ban.reason, ban.reason)),
        until=ban.ends_at.strftime("%Y-%m-%d %H:%M"), minutes=left)
    return {"reason": ban.reason, "started_at": _iso(ban.started_at), "until": _iso(ban.ends_at),
            "minutes": ban.minutes, "minutes_left": left, "message": message}


def current_json(session: Session, user_id: int) -> PlaybanJSON | None:
    ban = current(session, user_id)
    return None if ban is None else playban_json(ban)


def playban_error(ban: Playban) -> Forbidden:
    """403 ``playban`` with ``until`` (and the reason), worded in the caller's language."""
    shown = playban_json(ban)
    return Forbidden(shown["message"], code="playban",
                     extra={"until": shown["until"], "reason": ban.reason,
                            "minutes_left": shown["minutes_left"]})


def refuse_playban(session: Session, caller_id: int, others: Iterable[int] = ()) -> None:
    """The door check before a rated game starts: 403 ``playban`` (with ``until``) when the
    caller has a wait in effect; 409 ``opponent_playban`` when one of ``others`` has."""
    ban = current(session, caller_id)
    if ban is not None:
        raise playban_error(ban)
    if playbanned_among(session, [uid for uid in others if uid != caller_id]):
        raise Conflict(i18n.gettext("Another player of this game may not start a rated game "
                                    "now."), code="opponent_playban")


def playbanned_among(session: Session, user_ids: Iterable[int]) -> set[int]:
    """Which of these people have a wait in effect (one query)."""
    ids = sorted(set(user_ids))
    if not ids:
        return set()
    return set(session.scalars(select(Playban.user_id).where(Playban.user_id.in_(ids),
                                                              Playban.ends_at > now())))
