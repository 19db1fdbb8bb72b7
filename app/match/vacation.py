"""Vacation: days of the year during which a person's correspondence clocks stand still.

A person starts and ends a vacation themselves (account page, API); it ends by itself when the
year's allowance (``Settings.vacation_days_per_year``) is used up. The person's row says whether
they are away (``users.vacation_since``) and when the allowance runs out (``vacation_ends_at``);
the time used is counted per calendar year (a vacation over New Year counts its days to the year
they fall in).

What the opponent sees, and what the clocks do, lives on each active correspondence match: its
clock lists the seats away (``clocks.with_away``), which pauses the clock of a seat to move that is
away and drops its deadline, so the flag job never flags it. :func:`apply` brings a person's
matches in line with their row, through ``MatchService.commit`` (version-guarded, announced like
any change); the clocks job (app/match/clock_keeper.py, once across instances) ends vacations
whose allowance ran out and repairs any match that missed an update (:func:`sweep`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match, MatchPlayer, User
from app.kernel.errors import Conflict, NotFound
from app.kernel.timesource import now
from app.match import clocks, store
from app.match.service import MatchService
from app.match.store import Publish

DAY_MS = clocks.DAY_MS
RETRIES = 5
"""Attempts to update one match whose version moved on meanwhile (a move, another update)."""
log = logging.getLogger(__name__)

CORRESPONDENCE = Match.time_control["kind"].as_string() == "correspondence"


@dataclass(frozen=True)
class Vacation:
    """A person's vacation as they and the API see it."""

    on_vacation: bool
    since: datetime | None
    ends_at: datetime | None
    used_ms: int  # this calendar year, the running vacation included
    allowance_ms: int

    def to_json(self) -> VacationJSON:
        def iso(moment: datetime | None) -> str | None:
            return None if moment is None else moment.isoformat() + "Z"

        return {"on_vacation": self.on_vacation, "since": iso(self.since),
                "ends_at": iso(self.ends_at),
                "used_days": round(self.used_ms / DAY_MS, 2),
                "allowance_days": round(self.allowance_ms / DAY_MS, 2),
                "left_days": round(max(0, self.allowance_ms - self.used_ms) / DAY_MS, 2)}


class VacationJSON(TypedDict):
    """A player's vacation as the API and the pages show it."""

    on_vacation: bool
    since: str | None
    ends_at: str | None
    used_days: float
    allowance_days: float
    left_days: float


def allowance_ms(days_per_year: float) -> int:
    return int(days_per_year * DAY_MS)


def _year_start(year: int) -> datetime:
    return datetime(year, 1, 1)


def _used_in(user: User, year: int) -> int:
    return int(user.vacation_used_ms or 0) if user.vacation_year == year else 0


def _charged(user: User, until: datetime) -> int:
    """The time used in ``until``'s year once the running vacation is counted up to ``until``."""
    used = _used_in(user, until.year)
    if user.vacation_since is None:
        return used
    since = max(user.vacation_since, _year_start(until.year))
    return used + max(0, int((until - since).total_seconds() * 1000))


def status(session: Session, user_id: int, days_per_year: float) -> Vacation:
    user = _user(session, user_id)
    moment = now()
    if user.vacation_ends_at is not None:
        moment = min(moment, user.vacation_ends_at)
    return Vacation(user.vacation_since is not None, user.vacation_since, user.vacation_ends_at,
                    _charged(user, moment), allowance_ms(days_per_year))


def _user(session: Session, user_id: int, lock: bool = False) -> User:
    query = select(User).where(User.id == user_id)
    if lock:
        query = query.with_for_update()
    user = session.scalars(query).one_or_none()
    if user is None:
        raise NotFound("There is no such person.", code="no_user")
    return user


def start(session: Session, publish: Publish, user_id: int, days_per_year: float) -> Vacation:
    """Stop the person's correspondence clocks until they come back or the year's allowance is
    used up. 409 ``already_on_vacation``, ``no_vacation_left``."""
    user = _user(session, user_id, lock=True)
    moment = now()
    if user.vacation_since is not None:
        session.rollback()
        raise Conflict("You are already on vacation.", code="already_on_vacation")
    used = _used_in(user, moment.year)
    left = allowance_ms(days_per_year) - used
    if left <= 0:
        session.rollback()
        raise Conflict("You have no vacation left this year.", code="no_vacation_left")
    user.vacation_since = moment
    user.vacation_ends_at = moment + timedelta(milliseconds=left)
    user.vacation_year, user.vacation_used_ms = moment.year, used
    session.commit()
    apply(session, publish, user_id, moment)
    return status(session, user_id, days_per_year)


def end(session: Session, publish: Publish, user_id: int, days_per_year: float,
        at: datetime | None = None) -> Vacation:
    """Come back: the clocks run on from where they stood. ``at``: when the vacation ended
    (the job passes the moment the allowance ran out). 409 ``not_on_vacation``."""
    user = _user(session, user_id, lock=True)
    if user.vacation_since is None:
        session.rollback()
        raise Conflict("You are not on vacation.", code="not_on_vacation")
    moment = at or now()
    if user.vacation_ends_at is not None:
        moment = min(moment, user.vacation_ends_at)
    moment = max(moment, user.vacation_since)
    user.vacation_used_ms, user.vacation_year = _charged(user, moment), moment.year
    user.vacation_since = user.vacation_ends_at = None
    session.commit()
    apply(session, publish, user_id, moment)
    return status(session, user_id, days_per_year)


def _away_seats(session: Session, match_id: str) -> list[int]:
    return list(session.scalars(
        select(MatchPlayer.seat).join(User, User.id == MatchPlayer.user_id)
        .where(MatchPlayer.match_id == match_id, User.vacation_since.is_not(None))))


def _bring_in_line(session: Session, publish: Publish, match_id: str, moment: datetime) -> bool:
    """Update one match's clock to its seats' vacations (``moment``: when the change took
    effect); True if it changed. Retries when a move got there first."""
    service = MatchService(session, publish)
    for _attempt in range(RETRIES):
        match = store.read(session, match_id)
        if match.status != "active":
            session.rollback()
            return False
        away = _away_seats(session, match_id)
        to_move = store.state_of(match).to_move
        clock = clocks.with_away(match.time_control, match.clock, to_move, away, moment)
        if clock == match.clock:
            session.rollback()
            return False
        try:
            service.commit(match, {"clock": clock, "deadline_at": clocks.deadline(
                match.time_control, clock, to_move)})
            return True
        except Conflict:
            session.rollback()
    log.warning("match %s: vacation not applied after %d attempts", match_id, RETRIES)
    return False


def apply(session: Session, publish: Publish, user_id: int, moment: datetime) -> int:
    """Bring every active correspondence match of the person in line with their vacation."""
    match_ids = list(session.scalars(
        select(Match.id).join(MatchPlayer, MatchPlayer.match_id == Match.id)
        .where(MatchPlayer.user_id == user_id, Match.status == "active", CORRESPONDENCE)))
    session.rollback()
    return sum(_bring_in_line(session, publish, match_id, moment) for match_id in match_ids)


def sweep(session_factory: sessionmaker[Session], publish: Publish) -> int:
    """The clocks job's pass: end every vacation whose allowance ran out (at that moment), then
    repair any active correspondence match whose clock disagrees with its seats' vacations (a
    match that started during a vacation, an update that lost its race). Returns the matches
    changed."""
    changed = 0
    with session_factory() as session:
        expired = list(session.scalars(select(User.id).where(
            User.vacation_since.is_not(None), User.vacation_ends_at <= now())))
    for user_id in expired:
        with session_factory() as session:
            changed += _expire(session, publish, user_id)
    with session_factory() as session:
        rows = session.execute(
            select(Match.id, Match.clock, MatchPlayer.seat, User.vacation_since)
            .join(MatchPlayer, MatchPlayer.match_id == Match.id)
            .join(User, User.id == MatchPlayer.user_id)
            .where(Match.status == "active", CORRESPONDENCE)).all()
    wrong = {row.id for row in rows
             if (row.seat in ((row.clock or {}).get("away") or ()))
             != (row.vacation_since is not None)}
    for match_id in sorted(wrong):
        with session_factory() as session:
            changed += _bring_in_line(session, publish, match_id, now())
    return changed


def _expire(session: Session, publish: Publish, user_id: int) -> int:
    user = _user(session, user_id, lock=True)
    if user.vacation_since is None or user.vacation_ends_at is None:
        session.rollback()
        return 0
    moment = user.vacation_ends_at
    user.vacation_used_ms, user.vacation_year = _charged(user, moment), moment.year
    user.vacation_since = user.vacation_ends_at = None
    session.commit()
    return apply(session, publish, user_id, moment)

