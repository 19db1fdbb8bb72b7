"""Per-game ratings with openskill's Plackett-Luce model (default parameters: mu 25, sigma 25/3).

It handles 2–4 player rankings and ties (a shared place is a shared rank). Ratings change in the
same transaction that finishes a rated match, so a result and its rating change never part.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Match, Rating, User, utcnow
from app.match.records import MatchHeader

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 10


def rating_json(rating: Rating | None) -> dict[str, Any]:
    if rating is None:
        fresh = MODEL.rating()
        return {"mu": fresh.mu, "sigma": fresh.sigma, "games": 0, "provisional": True,
                "display": round(fresh.mu, 1)}
    return {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
            "provisional": rating.games < PROVISIONAL_GAMES, "display": round(rating.mu, 1)}


def get_rating(session: Session, user_id: int, game: str) -> Rating | None:
    return session.scalar(select(Rating).where(Rating.user_id == user_id, Rating.game == game))


def seat_ratings(session: Session, record: MatchHeader) -> dict[int, dict[str, Any]]:
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
    """Update the players' ratings for a finished rated match (caller commits). Returns changes."""
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
    for player, rating, (new,) in zip(players, ratings, rated, strict=True):
        changes[player.seat] = {"before": rating.mu, "after": new.mu}
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.games += 1
        rating.updated_at = utcnow()
    return changes


def leaderboard(session: Session, game: str, limit: int = 50) -> list[dict[str, Any]]:
    """Established players (not provisional) first by conservative skill (mu - 3 sigma)."""
    rows = sorted(session.execute(
        select(Rating, User).join(User, User.id == Rating.user_id).where(Rating.game == game)
    ).all(), key=lambda row: (row[0].games < PROVISIONAL_GAMES, -(row[0].mu - 3 * row[0].sigma)))
    return [
        {"rank": index, "user": {"id": user.id, "name": user.name, "username": user.username,
                                 "kind": user.kind},
         **rating_json(rating)}
        for index, (rating, user) in enumerate(rows[:limit], start=1)
    ]
