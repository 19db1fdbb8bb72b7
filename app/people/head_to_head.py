"""Head to head: how two people fared against each other, per game, and their last games together
(the crosstable of Lichess).

Every finished match where both sat counts, rated or not. Between two seats of a match, the one
placed higher won; a shared place is a draw (so a four-player Town game counts for each pair by
their places). A sealed match counts only for a viewer seated at it, as on profiles.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from sqlalchemy import and_, select
from sqlalchemy.orm import Session, aliased

from app.db.models import Match, MatchPlayer, User
from app.kernel.errors import Invalid, NotFound
from app.people.history import seat_ranks
from app.people.profiles import visible_to

LAST_GAMES = 5


class Score(TypedDict):
    wins: int
    draws: int
    losses: int


class Person(TypedDict):
    id: int
    name: str
    username: str | None


class GameTogether(TypedDict):
    """One finished match of the two, from the first person's side."""

    id: str
    game: str
    rated: bool
    outcome: str  # win, loss or draw
    finished_at: str | None


class HeadToHead(TypedDict):
    user: Person
    other: Person
    total: Score
    games: dict[str, Score]  # by game id
    last: list[GameTogether]  # the newest first


def _person(session: Session, user_id: int) -> Person:
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"There is no user {user_id}.", code="no_user")
    return {"id": user.id, "name": user.name, "username": user.username}


def _empty() -> Score:
    return {"wins": 0, "draws": 0, "losses": 0}


TALLY: dict[str, Literal["wins", "draws", "losses"]] = {
    "win": "wins", "draw": "draws", "loss": "losses"}


def _tally(score: Score, outcome: str) -> None:
    score[TALLY[outcome]] += 1


def head_to_head(session: Session, user_id: int, other_id: int, viewer_id: int | None,
                 last: int = LAST_GAMES) -> HeadToHead:
    """``user_id``'s wins, draws and losses against ``other_id``, per game and in all, and
    their ``last`` games together, as ``viewer_id`` may see them."""
    if user_id == other_id:
        raise Invalid("Head to head needs two different people.", code="same_person")
    user, other = _person(session, user_id), _person(session, other_id)
    mine, theirs = aliased(MatchPlayer), aliased(MatchPlayer)
    rows = session.execute(
        select(Match.id, Match.game, Match.rated, Match.result, Match.num_seats,
               Match.finished_at, mine.seat, theirs.seat)
        .join(mine, and_(mine.match_id == Match.id, mine.user_id == user_id))
        .join(theirs, and_(theirs.match_id == Match.id, theirs.user_id == other_id))
        .where(Match.status == "finished", visible_to(viewer_id))
        .order_by(Match.finished_at.desc(), Match.id.desc()))
    total = _empty()
    games: dict[str, Score] = {}
    together: list[GameTogether] = []
    for match_id, game, rated, result, num_seats, finished_at, seat, other_seat in rows:
        ranks = seat_ranks(result, num_seats)
        if ranks is None:
            continue
        outcome = ("draw" if ranks[seat] == ranks[other_seat]
                   else "win" if ranks[seat] < ranks[other_seat] else "loss")
        _tally(total, outcome)
        _tally(games.setdefault(game, _empty()), outcome)
        if len(together) < last:
            together.append({"id": match_id, "game": game, "rated": rated, "outcome": outcome,
                             "finished_at": f"{finished_at.isoformat()}Z" if finished_at
                             else None})
    return {"user": user, "other": other, "total": total,
            "games": dict(sorted(games.items())), "last": together}
