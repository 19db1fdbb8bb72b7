"""Read models for people: a user's profile (ratings, games, recent results) and live games.

A sealed match (a duplicate round's table, app/match/sealing.py) is listed only to its own
players until the round ends: everyone else's view of a profile leaves it out, count included.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import ColumnElement, and_, case, exists, func, or_, select
from sqlalchemy.orm import Session, aliased

from app.db.models import Match, MatchPlayer, Rating, User
from app.http.paging import Key, PageRequest, moment
from app.kernel.errors import Invalid, NotFound
from app.kernel.json_types import JSONObject
from app.match import RatingJSON, rating_json, record_of
from games import registry

RECENT_GAMES = 20


class RecentGame(TypedDict):
    id: str
    game: str
    status: str
    rated: bool
    seat: int
    outcome: str | None  # win, loss or draw, once finished
    opponents: list[str | None]
    finished_at: str | None
    started_at: str | None


class ProfileUser(TypedDict):
    id: int
    name: str
    kind: str
    username: str | None
    member_since: str
    builtin_bot: bool


class Profile(TypedDict):
    """A user's profile as a viewer may see it (the API's and the profile page's)."""

    user: ProfileUser
    ratings: dict[str, RatingJSON]  # by game
    games_played: int
    recent: list[RecentGame]


class GameInPlay(TypedDict):
    """One of a user's matches in play (the home page's "your games")."""

    id: str
    game: str
    status: str
    your_turn: bool
    opponents: list[str]
    updated_at: str


class FoundUser(TypedDict):
    id: int
    name: str
    username: str | None
    kind: str
    builtin_bot: bool


def outcome_for(result: JSONObject | None, seat: int) -> str | None:
    if not result:
        return None
    winners = result.get("winners", [])
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def visible_to(viewer_id: int | None) -> ColumnElement[bool]:
    """Unsealed matches, and sealed ones where ``viewer_id`` sits."""
    if viewer_id is None:
        return Match.sealed.is_(False)
    seat = aliased(MatchPlayer)  # not the listing's own seat: that one is the profile's user
    seated = exists().where(and_(seat.match_id == Match.id, seat.user_id == viewer_id))
    return or_(Match.sealed.is_(False), seated)


def _matches_of(session: Session, user_id: int, statuses: tuple[str, ...],
                viewer_id: int | None, limit: int | None = RECENT_GAMES,
                after: Key | None = None) -> list[tuple[Match, int]]:
    """The user's most recently changed matches in these states that the viewer may see, with
    the seat the user holds; ``after``: only those after that (``changed_key``) in this order."""
    query = (select(Match, MatchPlayer.seat).join(MatchPlayer)
             .where(MatchPlayer.user_id == user_id, Match.status.in_(statuses),
                    visible_to(viewer_id))
             .order_by(Match.updated_at.desc(), Match.id.desc()).limit(limit))
    if after is not None:
        changed, match_id = _changed_at(after), str(after[1])
        query = query.where(or_(Match.updated_at < changed,
                                and_(Match.updated_at == changed, Match.id < match_id)))
    return [(match, seat) for match, seat in session.execute(query).all()]


def changed_key(match: Match) -> Key:
    """A match's place in a list of the most recently changed first (a cursor's key)."""
    return match.updated_at.isoformat(), match.id


def _changed_at(key: Key) -> datetime:
    if len(key) != 2 or not isinstance(key[0], str) or not isinstance(key[1], str):
        raise Invalid("That cursor belongs to another list.", code="invalid_cursor")
    try:
        return datetime.fromisoformat(key[0])
    except ValueError:
        raise Invalid("That cursor belongs to another list.", code="invalid_cursor") from None


def profile(session: Session, user_id: int, viewer_id: int | None) -> Profile:
    """``user_id``'s profile as ``viewer_id`` (None: a visitor) may see it."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"There is no user {user_id}.", code="no_user")
    ratings = {r.game: rating_json(r) for r in session.scalars(
        select(Rating).where(Rating.user_id == user_id))}
    played = session.scalar(
        select(func.count()).select_from(MatchPlayer).join(Match)
        .where(MatchPlayer.user_id == user_id, Match.status == "finished",
               visible_to(viewer_id))) or 0
    recent = _recent(_matches_of(session, user_id, ("active", "finished"), viewer_id), user_id)
    return {
        "user": {"id": user.id, "name": user.name, "kind": user.kind, "username": user.username,
                 "member_since": user.created_at.isoformat() + "Z",
                 "builtin_bot": user.builtin_bot is not None},
        "ratings": ratings, "games_played": played, "recent": recent,
    }


def _recent(rows: list[tuple[Match, int]], user_id: int) -> list[RecentGame]:
    recent: list[RecentGame] = []
    for match, seat in rows:
        record = record_of(match)
        recent.append({
            "id": match.id, "game": match.game, "status": match.status, "rated": match.rated,
            "seat": seat, "outcome": outcome_for(match.result, seat),
            "opponents": [s.name for s in record.seats if s.user_id != user_id],
            "finished_at": record.finished_at, "started_at": record.started_at,
        })
    return recent


def recent_games(session: Session, user_id: int, page: PageRequest
                 ) -> tuple[list[RecentGame], Key | None]:
    """A page of the user's matches in play or finished, the most recently changed first (a
    match that changes while you page moves to the front), and the next page's key."""
    rows = _matches_of(session, user_id, ("active", "finished"), user_id, page.limit + 1,
                       page.after)
    following = changed_key(rows[page.limit - 1][0]) if len(rows) > page.limit else None
    return _recent(rows[:page.limit], user_id), following


def games_in_play(session: Session, user_id: int, limit: int | None = RECENT_GAMES
                  ) -> list[GameInPlay]:
    """The user's matches in play, theirs to move first (the home page's "your games");
    ``limit``: the most recently changed only (None: all)."""
    games: list[GameInPlay] = []
    for match, seat in _matches_of(session, user_id, ("active", "waiting"), user_id, limit):
        record = record_of(match)
        to_move = registry.get(match.game).from_json(match.snapshot).to_move
        games.append({"id": match.id, "game": match.game, "status": match.status,
                      "your_turn": match.status == "active" and to_move == seat,
                      "opponents": [s.name or "…" for s in record.seats if s.user_id != user_id],
                      "updated_at": match.updated_at.isoformat() + "Z"})
    games.sort(key=lambda g: not g["your_turn"])
    return games


def in_play_key(game: GameInPlay) -> Key:
    """A game's place in ``games_in_play``'s order (a cursor's key)."""
    return int(not game["your_turn"]), -moment(game["updated_at"]), game["id"]


SEARCH_LIMIT = 20


def search_users(session: Session, query: str, limit: int = SEARCH_LIMIT) -> list[FoundUser]:
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
