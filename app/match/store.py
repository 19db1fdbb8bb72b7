"""Loading, locking and committing matches: the only module that touches the match tables.

``load`` reads a match with its seats and their users in one statement. ``commit`` applies a
change under the core invariant (the version read must still be current) and appends move rows,
then builds the new record from what it just wrote — no re-reading. A move therefore costs three
statements: load, update, insert (plus the ratings, once, when a rated game ends).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from app.db.models import Match, MatchPlayer, Move
from app.match import clocks
from app.match.records import MatchRecord, iso, record_of
from app.services.errors import Conflict, Forbidden, NotFound
from app.services.identity import Identity
from app.services.ratings import apply_rated_result
from app.timesource import now
from games import State, registry

Publish = Callable[[MatchRecord], None]


def load(session: Session, match_id: str, *, lock: bool = False) -> Match:
    """The match with its seats and users (one statement).

    ``lock`` first takes the row lock in a statement of its own: under READ COMMITTED a locking
    read that waited sees the locked row anew but the joined seats as they were when it started,
    so the seats must be read after the lock is held (two joins racing would pick one seat)."""
    if lock:
        session.execute(select(Match.id).where(Match.id == match_id).with_for_update())
    query = (select(Match).where(Match.id == match_id)
             .options(joinedload(Match.players).joinedload(MatchPlayer.user)))
    match = session.scalars(query).unique().one_or_none()
    if match is None:
        raise NotFound(f"There is no match {match_id!r}.", code="no_match")
    return match


def seat_of(match: Match, user: Identity) -> int:
    """The user's seat (the first, for a bot filling several); 403 for anyone else."""
    for player in match.players:
        if player.user_id == user.id:
            return player.seat
    raise Forbidden("You are not a player in this match.", code="not_a_player")


def check_seat(match: Match, user: Identity, seat: int) -> int:
    if not any(p.seat == seat and p.user_id == user.id for p in match.players):
        raise Forbidden("You do not hold that seat.", code="not_a_player")
    return seat


def state_of(match: Match | MatchRecord) -> State:
    """The engine state of a stored match or of a record (the one place that rebuilds it)."""
    return registry.get(match.game).from_json(match.snapshot)


def require_active(match: Match) -> None:
    if match.status != "active":
        raise Conflict(f"The match is {match.status}, not in play.", code="match_not_active")


def start_if_full(match: Match) -> None:
    """Start the clocks of a waiting match whose last seat was just taken (caller commits)."""
    if match.status == "waiting" and len(match.players) == match.num_seats:
        moment = now()
        match.status = "active"
        match.started_at = match.updated_at = moment
        match.clock = clocks.new_clock(match.time_control, match.num_seats, moment)
        match.deadline_at = clocks.deadline(match.time_control, match.clock,
                                            state_of(match).to_move)


def last_move(session: Session, match: Match) -> dict[str, Any] | None:
    if match.ply == 0:
        return None
    row = session.execute(select(Move.ply, Move.seat, Move.move).where(
        Move.match_id == match.id, Move.ply == match.ply)).first()
    return None if row is None else {"ply": row.ply, "seat": row.seat, "move": row.move}


def record(session: Session, match: Match) -> MatchRecord:
    return record_of(match, last_move(session, match))


_ISO_FIELDS = ("finished_at", "started_at")
_RECORD_FIELDS = ("status", "ply", "snapshot", "result", "clock", "offers", "eliminated")


def _record_after(before: MatchRecord, values: dict[str, Any],
                  moves: list[dict[str, Any]]) -> MatchRecord:
    """The record as the database now holds it, from the record before and the values written."""
    changes: dict[str, Any] = {k: values[k] for k in _RECORD_FIELDS if k in values}
    changes |= {k: iso(values[k]) for k in _ISO_FIELDS if k in values}
    if moves:
        changes["last_move"] = {k: moves[-1][k] for k in ("ply", "seat", "move")}
    elif "ply" in values and values["ply"] != before.ply:
        changes["last_move"] = None  # a takeback: the caller passes the new last move
    return replace(before, **changes, version=values["version"])


def commit(session: Session, match: Match, values: dict[str, Any],
           moves: list[dict[str, Any]] | None = None, *, delete_after_ply: int | None = None,
           last_move_after: dict[str, Any] | None = None) -> MatchRecord:
    """Apply ``values`` if nobody changed the match since it was read (its version), append
    ``moves`` (dicts of Move columns), rate a rated game that just finished, and commit.

    Raises Conflict ``stale_ply`` and changes nothing when another change got there first.
    """
    before = record_of(match, None if moves else last_move(session, match))
    values = {"updated_at": now(), **values, "version": match.version + 1}
    updated = session.execute(
        update(Match).where(Match.id == match.id, Match.version == match.version)
        .values(**values).execution_options(synchronize_session=False))
    if updated.rowcount != 1:
        session.rollback()
        raise Conflict("The match changed meanwhile: refresh and try again.", code="stale_ply")
    try:
        if delete_after_ply is not None:
            session.execute(delete(Move).where(Move.match_id == match.id,
                                               Move.ply > delete_after_ply))
        if moves:
            session.execute(insert(Move), moves)
        if values.get("status") == "finished":
            session.refresh(match)
            apply_rated_result(session, match)
        session.commit()
    except IntegrityError:
        session.rollback()
        raise Conflict("Another move was played first: refresh and try again.",
                       code="stale_ply") from None
    after = _record_after(before, values, moves or [])
    if last_move_after is not None or delete_after_ply is not None:
        after = replace(after, last_move=last_move_after)
    return after


def move_row(match: Match, ply: int, seat: int, move: str, spent_ms: int,
             moment: datetime) -> dict[str, Any]:
    return {"match_id": match.id, "ply": ply, "seat": seat, "move": move,
            "time_spent_ms": spent_ms, "created_at": moment}
