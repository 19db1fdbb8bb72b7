"""Per-game ratings with openskill's Plackett-Luce model (default parameters: mu 25, sigma 25/3).

It handles 2–4 player rankings and ties (a shared place is a shared rank). Ratings change in the
same transaction that finishes a rated match, so a result and its rating change never part.
"""

from __future__ import annotations

from typing import Any, TypedDict

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Match, Rating, RatingHistory, User, utcnow
from app.match.records import MatchHeader

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 10


class RatingJSON(TypedDict):
    """A player's rating in one game, as every page, payload and API answer shows it."""

    mu: float
    sigma: float
    games: int
    provisional: bool  # fewer than PROVISIONAL_GAMES rated games
    display: float  # mu, rounded


class RatedUser(TypedDict):
    id: int
    name: str
    username: str | None
    kind: str


class LeaderRow(RatingJSON):
    """One line of a game's leaderboard."""

    rank: int
    user: RatedUser


def rating_json(rating: Rating | None) -> RatingJSON:
    if rating is None:
        fresh = MODEL.rating()
        return {"mu": fresh.mu, "sigma": fresh.sigma, "games": 0, "provisional": True,
                "display": round(fresh.mu, 1)}
    return {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
            "provisional": rating.games < PROVISIONAL_GAMES, "display": round(rating.mu, 1)}


def get_rating(session: Session, user_id: int, game: str) -> Rating | None:
    return session.scalar(select(Rating).where(Rating.user_id == user_id, Rating.game == game))


def seat_ratings(session: Session, record: MatchHeader) -> dict[int, RatingJSON]:
    """The ratings shown beside account players' names in a match (seat -> rating)."""
    return {seat.seat: rating_json(get_rating(session, seat.user_id, record.game))
            for seat in record.seats if seat.user_id is not None and seat.kind in ("account", "bot")}


def ranks_from_ranking(ranking: list[list[int]], num_seats: int) -> list[int]:
    """Rank per seat (1 = best; seats sharing a place share a rank)."""
    ranks = [0] * num_seats
    for place, group in enumerate(ranking, start=1):
        for seat in group:
            ranks[seat] = place
    return ranks


def apply_rated_result(session: Session, match: Match) -> dict[int, dict[str, float]] | None:
    """Update the players' ratings for a finished rated match, and append each player's step to
    the rating history, in the caller's transaction (caller commits). Returns changes."""
    if not match.rated or not match.result:
        return None
    players = sorted(match.players, key=lambda p: p.seat)
    ratings = []
    for player in players:
        rating = get_rating(session, player.user_id, match.game)
        if rating is None:
            fresh = MODEL.rating()
            rating = Rating(user_id=player.user_id, game=match.game, mu=fresh.mu,
                            sigma=fresh.sigma, games=0)
            session.add(rating)
        ratings.append(rating)
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in ratings]
    ranks = ranks_from_ranking(match.result["ranking"], match.num_seats)
    rated = MODEL.rate(teams, ranks=[ranks[p.seat] for p in players])
    changes = {}
    moment = match.finished_at or utcnow()
    for player, rating, (new,) in zip(players, ratings, rated, strict=True):
        changes[player.seat] = {"before": rating.mu, "after": new.mu}
        session.add(RatingHistory(user_id=player.user_id, game=match.game, match_id=match.id,
                                  mu_before=rating.mu, mu=new.mu, sigma=new.sigma, at=moment))
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.games += 1
        rating.updated_at = utcnow()
    return changes


def changes_json(changes: dict[int, dict[str, float]]) -> list[dict[str, Any]]:
    """``apply_rated_result``'s changes as the result carries them (``ResultOut.rating_changes``):
    the delta is the difference of the shown (rounded) ratings, so old + delta = new on screen."""
    rows = []
    for seat, change in sorted(changes.items()):
        before, after = round(change["before"], 1), round(change["after"], 1)
        rows.append({"seat": seat, "before": before, "after": after,
                     "delta": round(after - before, 1)})
    return rows


def leaderboard(session: Session, game: str, limit: int | None = 50) -> list[LeaderRow]:
    """Established players (not provisional) first by conservative skill (mu - 3 sigma); closed
    accounts keep their ratings but leave the board."""
    rows = sorted(session.execute(
        select(Rating, User).join(User, User.id == Rating.user_id)
        .where(Rating.game == game, User.closed_at.is_(None))
    ).all(), key=lambda row: (row[0].games < PROVISIONAL_GAMES, -(row[0].mu - 3 * row[0].sigma)))
    return [
        {"rank": index, "user": {"id": user.id, "name": user.name, "username": user.username,
                                 "kind": user.kind},
         **rating_json(rating)}
        for index, (rating, user) in enumerate(rows[:limit], start=1)
    ]
