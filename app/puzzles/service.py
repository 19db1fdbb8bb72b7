"""The puzzles' use cases over the database: storing mined puzzles, choosing the next one and
the daily one, showing one, and judging an attempt (with both ratings moved, once per person).

Ratings are openskill's Plackett-Luce, like the match ratings: an attempt is a game of two,
the person against the puzzle, won by the person when the attempt is correct. Only accounts are
rated (a guest may solve, unrated); only a person's first finished attempt at a puzzle counts
(``puzzle_attempts`` is unique per puzzle and person, so a double submission rates once).
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, date, datetime, time
from typing import Any, TypedDict

from openskill.models import PlackettLuce
from sqlalchemy import exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import Match, Move, Puzzle, PuzzleAttempt, PuzzleMinedMatch, PuzzleRating, utcnow
from app.kernel import timesource
from app.kernel.errors import Conflict, Invalid, NotFound
from app.kernel.identity import Identity
from app.puzzles.judge import NotTheLine, judge
from app.puzzles.mine import Candidate, puzzle_game, start_state
from games import registry

MODEL = PlackettLuce()
RATED_KIND = "account"
NEAR = 4.0
"""How far (in mu) a chosen puzzle may sit from the person's rating before any will do."""


class RatingChange(TypedDict):
    before: float
    after: float
    change: float


class PuzzleRatingJSON(TypedDict):
    game: str
    mu: float
    sigma: float
    attempts: int
    display: float


class PuzzleJSON(TypedDict, total=False):
    """A puzzle as the API shows it; ``solution`` only where it may be shown."""

    id: int
    game: str
    options: dict[str, Any]
    players: int
    rules_version: int
    moves: list[str]
    seat: int
    goal: str
    plies: int
    themes: list[str]
    rating: float
    attempts: int
    solved: int
    source: str
    match_id: str | None
    solution: dict[str, Any]


class AttemptJSON(TypedDict):
    status: str
    reply: list[str]
    rated: bool
    rating: RatingChange | None
    puzzle_rating: RatingChange | None


def position_key(game: str, options: dict[str, Any], moves: list[str]) -> str:
    text = json.dumps([game, options, moves], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def puzzle_json(puzzle: Puzzle, *, solution: bool) -> PuzzleJSON:
    shown: PuzzleJSON = {
        "id": puzzle.id, "game": puzzle.game, "options": puzzle.options, "players": puzzle.players,
        "rules_version": puzzle.rules_version, "moves": list(puzzle.moves), "seat": puzzle.seat,
        "goal": puzzle.goal, "plies": puzzle.plies, "themes": list(puzzle.themes),
        "rating": round(puzzle.mu, 1), "attempts": puzzle.attempts, "solved": puzzle.solved,
        "source": puzzle.source, "match_id": puzzle.match_id,
    }
    if solution:
        shown["solution"] = puzzle.solution
    return shown


def rating_json(game: str, rating: PuzzleRating | None) -> PuzzleRatingJSON:
    if rating is None:
        fresh = MODEL.rating()
        return {"game": game, "mu": fresh.mu, "sigma": fresh.sigma, "attempts": 0,
                "display": round(fresh.mu, 1)}
    return {"game": game, "mu": rating.mu, "sigma": rating.sigma, "attempts": rating.attempts,
            "display": round(rating.mu, 1)}


def _rated(viewer: Identity | None) -> bool:
    return viewer is not None and viewer.kind == RATED_KIND


def day_start(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC).replace(tzinfo=None)


class PuzzleService:
    def __init__(self, session: Session) -> None:
        self.session = session

    # --- storing ----------------------------------------------------------------------------

    def store(self, candidates: list[Candidate], source: str, match_id: str | None = None) -> int:
        """Insert the candidates not stored yet; how many were new."""
        added = 0
        for candidate in candidates:
            key = position_key(candidate.game, candidate.options, candidate.moves)
            if self.session.scalar(select(Puzzle.id).where(Puzzle.position_key == key)):
                continue
            puzzle = Puzzle(
                game=candidate.game, options=candidate.options, players=candidate.players,
                rules_version=candidate.rules_version, moves=candidate.moves,
                seat=candidate.seat, solution=candidate.solution, goal=candidate.goal,
                plies=candidate.plies, themes=candidate.themes, mu=candidate.mu,
                sigma=MODEL.rating().sigma, attempts=0, solved=0, source=source,
                match_id=match_id, position_key=key)
            try:
                with self.session.begin_nested():
                    self.session.add(puzzle)
            except IntegrityError:  # stored meanwhile by another miner
                continue
            added += 1
        self.session.commit()
        return added

    def unmined_matches(self, limit: int) -> list[str]:
        """Finished matches of the puzzle games not searched yet, oldest first."""
        games = _puzzle_game_ids()
        rows = self.session.scalars(
            select(Match.id).where(
                Match.status == "finished", Match.game.in_(games), Match.sealed.is_(False),
                ~exists().where(PuzzleMinedMatch.match_id == Match.id))
            .order_by(Match.finished_at, Match.id).limit(limit))
        return list(rows)

    def match_line(self, match_id: str) -> tuple[str, dict[str, Any], int, int, list[str]] | None:
        """(game, options, players, rules version, moves) of a finished match."""
        match = self.session.get(Match, match_id)
        if match is None or match.status != "finished":
            return None
        moves = list(self.session.scalars(
            select(Move.move).where(Move.match_id == match_id).order_by(Move.ply)))
        return match.game, dict(match.options or {}), match.num_seats, match.rules_version, moves

    def mark_mined(self, match_id: str, found: int) -> None:
        try:
            with self.session.begin_nested():
                self.session.add(PuzzleMinedMatch(match_id=match_id, found=found))
        except IntegrityError:
            pass
        self.session.commit()

    # --- reading ----------------------------------------------------------------------------

    def get(self, puzzle_id: int) -> Puzzle:
        puzzle = self.session.get(Puzzle, puzzle_id)
        if puzzle is None:
            raise NotFound("There is no such puzzle.", code="no_puzzle")
        return puzzle

    def show(self, puzzle_id: int, *, solution: bool) -> PuzzleJSON:
        return puzzle_json(self.get(puzzle_id), solution=solution)

    def next_for(self, game: str, viewer: Identity | None, after: int | None = None) -> PuzzleJSON:
        """A puzzle of ``game`` for ``viewer``: for a rated person one not attempted yet, near
        their rating; for anyone else any, at random (``after``: not that one again)."""
        if puzzle_game(game) is None:
            raise Invalid("That game has no puzzles.", code="no_puzzle_game")
        query = select(Puzzle).where(Puzzle.game == game)
        if after is not None:
            query = query.where(Puzzle.id != after)
        if _rated(viewer):
            assert viewer is not None
            query = query.where(~exists().where(PuzzleAttempt.puzzle_id == Puzzle.id,
                                                PuzzleAttempt.user_id == viewer.id))
            mu = self.rating(viewer.id, game)["mu"]
            near = self.session.scalars(
                query.where(Puzzle.mu.between(mu - NEAR, mu + NEAR)).order_by(Puzzle.id)
                .limit(50)).all()
            pool = list(near) or list(self.session.scalars(
                query.order_by(func.abs(Puzzle.mu - mu), Puzzle.id).limit(20)))
        else:
            pool = list(self.session.scalars(query.order_by(Puzzle.id).limit(200)))
        if not pool:
            raise NotFound("No puzzle of that game is left for you.", code="no_puzzle")
        return puzzle_json(random.choice(pool), solution=False)

    def daily(self, day: date | None = None) -> Puzzle | None:
        """The puzzle of a UTC day, the same for everyone: drawn by the day from the puzzles
        stored before it began (the first puzzle stored while there are none yet)."""
        day = day or timesource.now().date()
        before = select(Puzzle.id).where(Puzzle.created_at < day_start(day)).order_by(Puzzle.id)
        ids = list(self.session.scalars(before))
        if not ids:
            first = self.session.scalar(select(Puzzle).order_by(Puzzle.id).limit(1))
            return first
        digest = hashlib.sha256(day.isoformat().encode()).digest()
        return self.session.get(Puzzle, ids[int.from_bytes(digest[:8], "big") % len(ids)])

    def daily_json(self, day: date | None = None) -> PuzzleJSON | None:
        """The daily puzzle as the home page shows it (no solution)."""
        puzzle = self.daily(day)
        return None if puzzle is None else puzzle_json(puzzle, solution=False)

    def rating(self, user_id: int, game: str) -> PuzzleRatingJSON:
        return rating_json(game, self.session.get(PuzzleRating, (user_id, game)))

    def ratings(self, user_id: int) -> list[PuzzleRatingJSON]:
        rows = self.session.scalars(select(PuzzleRating).where(PuzzleRating.user_id == user_id)
                                    .order_by(PuzzleRating.game))
        return [rating_json(row.game, row) for row in rows]

    # --- attempts ---------------------------------------------------------------------------

    def _verdict(self, puzzle: Puzzle, line: list[str]) -> tuple[str, list[str], str | None]:
        game = puzzle_game(puzzle.game)
        if game is None or game.puzzles is None:
            raise NotFound("That game has no puzzles any more.", code="no_puzzle")
        state = start_state(game, puzzle.options, puzzle.players, puzzle.rules_version)
        for move in puzzle.moves:
            state = state.play(move)
        try:
            verdict = judge(state, puzzle.solution, puzzle.plies, game.puzzles, line)
        except NotTheLine as error:
            raise Invalid(str(error), code=error.code) from None
        return verdict.status, verdict.reply, verdict.expected

    def hint(self, puzzle_id: int, line: list[str]) -> str:
        """The square the solver's next move starts from (or is played on)."""
        status, _, expected = self._verdict(self.get(puzzle_id), line)
        if status != "continue" or expected is None:
            raise Invalid("The puzzle is over: no hint to give.", code="puzzle_over")
        return expected.split("-")[0]

    def attempt(self, puzzle_id: int, line: list[str], viewer: Identity | None,
                gave_up: bool = False) -> AttemptJSON:
        """Judge ``line``; a finished attempt (correct, incorrect, or given up) moves both
        ratings when it is the person's first at this puzzle."""
        puzzle = self.get(puzzle_id)
        status, reply, _ = self._verdict(puzzle, line)
        if gave_up and status == "continue":
            status = "incorrect"
        answer: AttemptJSON = {"status": status, "reply": [] if gave_up else reply,
                               "rated": False, "rating": None, "puzzle_rating": None}
        if status == "continue" or not _rated(viewer):
            return answer
        assert viewer is not None
        return self._rate(puzzle, viewer.id, status == "correct", line, answer)

    def _rate(self, puzzle: Puzzle, user_id: int, correct: bool, line: list[str],
              answer: AttemptJSON) -> AttemptJSON:
        session = self.session
        if session.scalar(select(PuzzleAttempt.id).where(PuzzleAttempt.puzzle_id == puzzle.id,
                                                         PuzzleAttempt.user_id == user_id)):
            return answer
        row = session.get(PuzzleRating, (user_id, puzzle.game), with_for_update=True)
        fresh = MODEL.rating()
        person = MODEL.rating(mu=row.mu if row else fresh.mu,
                              sigma=row.sigma if row else fresh.sigma)
        riddle = MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)
        ranks = [1.0, 2.0] if correct else [2.0, 1.0]
        [[person_after], [riddle_after]] = MODEL.rate([[person], [riddle]], ranks=ranks)
        try:
            with session.begin_nested():
                session.add(PuzzleAttempt(puzzle_id=puzzle.id, user_id=user_id, correct=correct,
                                          moves=line, rating_before=person.mu,
                                          rating_after=person_after.mu))
        except IntegrityError:  # the same first attempt, submitted twice at once
            session.rollback()
            return answer
        if row is None:
            session.add(PuzzleRating(user_id=user_id, game=puzzle.game, mu=person_after.mu,
                                     sigma=person_after.sigma, attempts=1))
        else:
            row.mu, row.sigma = person_after.mu, person_after.sigma
            row.attempts += 1
            row.updated_at = utcnow()
        session.execute(update(Puzzle).where(Puzzle.id == puzzle.id).values(
            mu=riddle_after.mu, sigma=riddle_after.sigma, attempts=Puzzle.attempts + 1,
            solved=Puzzle.solved + (1 if correct else 0)))
        try:
            session.commit()
        except IntegrityError:  # the person's first rating, created at once by another attempt
            session.rollback()
            raise Conflict("Another attempt was being rated; send this one again.",
                           code="attempt_conflict") from None
        answer["rated"] = True
        answer["rating"] = _change(person.mu, person_after.mu)
        answer["puzzle_rating"] = _change(riddle.mu, riddle_after.mu)
        return answer


def _change(before: float, after: float) -> RatingChange:
    return {"before": round(before, 2), "after": round(after, 2), "change": round(after - before, 2)}


def _puzzle_game_ids() -> list[str]:
    return [game.id for game in registry.all_games() if puzzle_game(game.id) is not None]
