"""A person's rating history per game, and their standout results: the best win (the
highest-rated opponent beaten) and the worst loss (the lowest-rated opponent lost to).

Each step is a ``rating_history`` row, written with the rating change itself
(app/match/ratings.py). A step of a sealed match (a duplicate round's table) is shown only to
its seated players until the round ends, like the match on the profile; the history therefore
shows nothing that the person's games (their archive) do not already show the viewer.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from sqlalchemy import and_, select
from sqlalchemy.orm import Session, aliased

from app.db.models import Match, MatchPlayer, RatingHistory, User
from app.kernel.json_types import JSONObject
from app.people.profiles import visible_to


class RatingPoint(TypedDict):
    """Where one rated match left the person's rating."""

    match_id: str
    at: str  # when the match finished (ISO 8601, UTC)
    rating: float  # mu, rounded as pages show it
    delta: float  # the change of the shown rating
    mu: float
    sigma: float | None  # null on steps rebuilt from results older than the history


class Opponent(TypedDict):
    id: int
    name: str
    username: str | None


class Standout(TypedDict):
    """A rated result worth showing: whom, their rating before the match, when, which match."""

    match_id: str
    at: str
    opponent: Opponent
    opponent_rating: float


class GameHistory(TypedDict):
    game: str
    points: list[RatingPoint]
    best_win: Standout | None
    worst_loss: Standout | None


def _iso(moment: datetime) -> str:
    return f"{moment.isoformat()}Z"


def seat_ranks(result: JSONObject | None, num_seats: int) -> list[int] | None:
    """Each seat's place in a finished match (1 = first; a shared place is a shared rank), from
    its ranking, or from its winners when a result has no ranking; None without a result."""
    if not result:
        return None
    ranking = result.get("ranking")
    if isinstance(ranking, list) and ranking:
        ranks = [len(ranking) + 1] * num_seats
        for place, group in enumerate(ranking, start=1):
            for seat in group if isinstance(group, list) else [group]:
                if isinstance(seat, int) and 0 <= seat < num_seats:
                    ranks[seat] = place
        return ranks
    winners = result.get("winners") or []
    return [1 if seat in winners or not winners else 2 for seat in range(num_seats)]


def _points(session: Session, user_id: int, viewer_id: int | None,
            game: str | None) -> dict[str, list[RatingPoint]]:
    query = (select(RatingHistory).join(Match, Match.id == RatingHistory.match_id)
             .where(RatingHistory.user_id == user_id, visible_to(viewer_id))
             .order_by(RatingHistory.game, RatingHistory.at, RatingHistory.id))
    if game is not None:
        query = query.where(RatingHistory.game == game)
    points: dict[str, list[RatingPoint]] = {}
    for step in session.scalars(query):
        shown, before = round(step.mu, 1), round(step.mu_before, 1)
        points.setdefault(step.game, []).append({
            "match_id": step.match_id, "at": _iso(step.at), "rating": shown,
            "delta": round(shown - before, 1), "mu": step.mu, "sigma": step.sigma})
    return points


def _standouts(session: Session, user_id: int, viewer_id: int | None, game: str | None
               ) -> dict[str, tuple[Standout | None, Standout | None]]:
    """Per game, the best win and the worst loss among the visible rated matches."""
    mine, theirs = aliased(RatingHistory), aliased(RatingHistory)
    my_seat, their_seat = aliased(MatchPlayer), aliased(MatchPlayer)
    query = (select(mine.game, mine.match_id, mine.at, Match.result, Match.num_seats,
                    my_seat.seat, their_seat.seat, theirs.mu_before, User.id, User.name,
                    User.username)
             .join(Match, Match.id == mine.match_id)
             .join(theirs, and_(theirs.match_id == mine.match_id, theirs.user_id != user_id))
             .join(my_seat, and_(my_seat.match_id == mine.match_id, my_seat.user_id == user_id))
             .join(their_seat, and_(their_seat.match_id == mine.match_id,
                                    their_seat.user_id == theirs.user_id))
             .join(User, User.id == theirs.user_id)
             .where(mine.user_id == user_id, visible_to(viewer_id))
             .order_by(mine.at, mine.id))
    if game is not None:
        query = query.where(mine.game == game)
    best: dict[str, Standout] = {}
    worst: dict[str, Standout] = {}
    for (game_id, match_id, at, result, num_seats, seat, other_seat, other_mu, other_id,
         other_name, other_username) in session.execute(query):
        ranks = seat_ranks(result, num_seats)
        if ranks is None or ranks[seat] == ranks[other_seat]:
            continue
        found: Standout = {"match_id": match_id, "at": _iso(at),
                           "opponent": {"id": other_id, "name": other_name,
                                        "username": other_username},
                           "opponent_rating": round(other_mu, 1)}
        if ranks[seat] < ranks[other_seat]:
            held = best.get(game_id)
            if held is None or found["opponent_rating"] > held["opponent_rating"]:
                best[game_id] = found
        else:
            held = worst.get(game_id)
            if held is None or found["opponent_rating"] < held["opponent_rating"]:
                worst[game_id] = found
    return {game_id: (best.get(game_id), worst.get(game_id))
            for game_id in best.keys() | worst.keys()}


def rating_history(session: Session, user_id: int, viewer_id: int | None,
                   game: str | None = None) -> list[GameHistory]:
    """``user_id``'s rating steps per game (of ``game`` only, if given), oldest first, with the
    best win and worst loss, as ``viewer_id`` may see them; games in id order."""
    points = _points(session, user_id, viewer_id, game)
    standouts = _standouts(session, user_id, viewer_id, game)
    return [{"game": game_id, "points": steps,
             "best_win": standouts.get(game_id, (None, None))[0],
             "worst_loss": standouts.get(game_id, (None, None))[1]}
            for game_id, steps in sorted(points.items())]
