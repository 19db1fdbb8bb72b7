"""Read models for people: a user's profile (ratings, games, recent results) and live games.

A sealed match (a duplicate round's table, app/match/sealing.py) is listed only to its own
players until the round ends: everyone else's view of a profile leaves it out, count included.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, case, exists, func, or_, select
from sqlalchemy.orm import Session, aliased

from app.db.models import Match, MatchPlayer, Rating, User
from app.kernel.errors import NotFound
from app.match import rating_json, record_of
from games import registry

RECENT_GAMES = 20


def outcome_for(result: dict[str, Any] | None, seat: int) -> str | None:
    if not result:
        return None
    winners = result.get("winners", [])
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def _visible_to(viewer_id: int | None) -> Any:
    """Unsealed matches, and sealed ones where ``viewer_id`` sits."""
    if viewer_id is None:
        return Match.sealed.is_(False)
    seat = aliased(MatchPlayer)  # not the listing's own seat: that one is the profile's user
    seated = exists().where(and_(seat.match_id == Match.id, seat.user_id == viewer_id))
    return or_(Match.sealed.is_(False), seated)


def _matches_of(session: Session, user_id: int, statuses: tuple[str, ...],
                viewer_id: int | None) -> list[tuple[Match, int]]:
    """The user's most recently changed matches in these states that the viewer may see, with
    the seat the user holds."""
    rows = session.execute(
        select(Match, MatchPlayer.seat).join(MatchPlayer)
        .where(MatchPlayer.user_id == user_id, Match.status.in_(statuses),
               _visible_to(viewer_id))
        .order_by(Match.updated_at.desc()).limit(RECENT_GAMES)).all()
    return [(match, seat) for match, seat in rows]


def profile(session: Session, user_id: int, viewer_id: int | None) -> dict[str, Any]:
    """``user_id``'s profile as ``viewer_id`` (None: a visitor) may see it."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"There is no user {user_id}.", code="no_user")
    ratings = {r.game: rating_json(r) for r in session.scalars(
        select(Rating).where(Rating.user_id == user_id))}
    played = session.scalar(
        select(func.count()).select_from(MatchPlayer).join(Match)
        .where(MatchPlayer.user_id == user_id, Match.status == "finished",
               _visible_to(viewer_id))) or 0
    recent = []
    for match, seat in _matches_of(session, user_id, ("active", "finished"), viewer_id):
        record = record_of(match)
        recent.append({
            "id": match.id, "game": match.game, "status": match.status, "rated": match.rated,
            "seat": seat, "outcome": outcome_for(match.result, seat),
            "opponents": [s.name for s in record.seats if s.user_id != user_id],
            "finished_at": record.finished_at, "started_at": record.started_at,
        })
    return {
        "user": {"id": user.id, "name": user.name, "kind": user.kind, "username": user.username,
                 "member_since": user.created_at.isoformat() + "Z",
                 "builtin_bot": user.builtin_bot is not None},
        "ratings": ratings, "games_played": played, "recent": recent,
    }


def games_in_play(session: Session, user_id: int) -> list[dict[str, Any]]:
    """The user's matches in play, theirs to move first (the home page's "your games")."""
    games = []
    for match, seat in _matches_of(session, user_id, ("active", "waiting"), user_id):
        record = record_of(match)
        to_move = registry.get(match.game).from_json(match.snapshot).to_move
        games.append({"id": match.id, "game": match.game, "status": match.status,
                      "your_turn": match.status == "active" and to_move == seat,
                      "opponents": [s.name or "…" for s in record.seats if s.user_id != user_id]})
    games.sort(key=lambda g: not g["your_turn"])
    return games


SEARCH_LIMIT = 20


def search_users(session: Session, query: str, limit: int = SEARCH_LIMIT) -> list[dict[str, Any]]:
    """Accounts and bots whose username or name contains ``query`` (case-insensitive), exact and
    prefix matches first: how a player finds someone to challenge (guests cannot be challenged).
    """
    text = query.strip().lower()
    if not text or "\x00" in text:  # PostgreSQL refuses NUL in a query; nobody's name holds one
        return []
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    username, name = func.lower(User.username), func.lower(User.name)

    def like(column: Any, pattern: str) -> Any:
        return column.like(pattern, escape="\\")

    closeness = case(
        (or_(username == text, name == text), 0),
        (or_(like(username, f"{escaped}%"), like(name, f"{escaped}%")), 1),
        else_=2)
    users = session.scalars(
        select(User)
        .where(User.kind.in_(("account", "bot")),
               or_(like(username, f"%{escaped}%"), like(name, f"%{escaped}%")))
        .order_by(closeness, func.coalesce(username, name), User.id)
        .limit(limit)).all()
    return [{"id": u.id, "name": u.name, "username": u.username, "kind": u.kind,
             "builtin_bot": u.builtin_bot is not None}
            for u in users]
