"""Flag players whose time ran out, whether or not anyone is connected.

Deadlines live in the database (``matches.deadline_at``), so after a restart the next sweep finds
every overdue match and flags it at its stored deadline: no timeout is missed, and the guarded
commit (match version) means none is applied twice.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match
from app.kernel.errors import Conflict
from app.kernel.timesource import now
from app.match.service import MatchService
from app.match.store import Publish


def flag_overdue(session_factory: sessionmaker[Session], publish: Publish) -> list[str]:
    """Flag every active match past its deadline; returns their ids."""
    with session_factory() as session:
        overdue = list(session.scalars(select(Match.id).where(
            Match.status == "active", Match.deadline_at.is_not(None), Match.deadline_at <= now())))
    flagged = []
    for match_id in overdue:
        with session_factory() as session:
            try:
                if MatchService(session, publish).flag(match_id) is not None:
                    flagged.append(match_id)
            except Conflict:
                pass  # a move or another sweeper got there first; the next sweep re-checks
    return flagged


def next_deadline(session_factory: sessionmaker[Session]) -> datetime | None:
    with session_factory() as session:
        return session.scalar(select(func.min(Match.deadline_at)).where(Match.status == "active"))


