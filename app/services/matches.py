"""Match use cases: create, join, play a move, resign, read the record and the move log.

Each call is one transaction. A move is appended together with the new snapshot, guarded by the
expected ply (optimistic concurrency), so a stale or duplicate submission changes nothing.
After a commit the change is published on the event bus for websocket subscribers.
"""

from __future__ import annotations

import random
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models import Match, MatchPlayer, Move, utcnow
from app.services.errors import Conflict, Forbidden, Invalid, NotFound
from app.services.identity import Identity
from app.services.ratings import apply_rated_result
from app.services.records import MatchRecord, record_of
from games import Game, IllegalMove, Result, registry

MATCH_ID_ALPHABET = string.ascii_letters + string.digits
MATCH_ID_LENGTH = 8

Publish = Callable[[MatchRecord], None]


def _new_match_id() -> str:
    return "".join(secrets.choice(MATCH_ID_ALPHABET) for _ in range(MATCH_ID_LENGTH))


def _validation_message(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "options"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


@dataclass(frozen=True)
class MatchSetup:
    """A game with validated options and a seat count: everything a new match needs."""

    game: Game
    options: dict[str, Any]
    num_seats: int


def validate_setup(game_id: str, options: dict[str, Any] | None,
                   players: int | None = None) -> MatchSetup:
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        raise NotFound(f"There is no game {game_id!r}.", code="no_game") from None
    num_seats = players or game.min_players
    try:
        game.check_players(num_seats)
        parsed = game.parse_options(options)
    except ValidationError as error:
        raise Invalid(_validation_message(error), code="invalid_options") from None
    except ValueError as error:
        raise Invalid(str(error), code="invalid_options") from None
    return MatchSetup(game, parsed.model_dump(mode="json"), num_seats)


class MatchService:
    """The match use cases over one database session; ``publish`` announces committed changes."""

    def __init__(self, session: Session, publish: Publish | None = None) -> None:
        self.session = session
        self.publish = publish or (lambda record: None)

    # -- reading ---------------------------------------------------------------------------

    def _load(self, match_id: str, *, lock: bool = False) -> Match:
        query = select(Match).where(Match.id == match_id)
        if lock:
            query = query.with_for_update()
        match = self.session.scalar(query)
        if match is None:
            raise NotFound(f"There is no match {match_id!r}.", code="no_match")
        return match

    def _last_move(self, match: Match) -> dict[str, Any] | None:
        if match.ply == 0:
            return None
        move = self.session.scalar(
            select(Move).where(Move.match_id == match.id, Move.ply == match.ply)
        )
        return None if move is None else {"ply": move.ply, "seat": move.seat, "move": move.move}

    def _record(self, match: Match) -> MatchRecord:
        return record_of(match, self._last_move(match))

    def get(self, match_id: str) -> MatchRecord:
        return self._record(self._load(match_id))

    def moves(self, match_id: str) -> list[dict[str, Any]]:
        self._load(match_id)
        rows = self.session.scalars(
            select(Move).where(Move.match_id == match_id).order_by(Move.ply)
        )
        return [
            {
                "ply": row.ply,
                "seat": row.seat,
                "move": row.move,
                "time_spent_ms": row.time_spent_ms,
                "at": row.created_at.isoformat() + "Z",
            }
            for row in rows
        ]

    def live(self, limit: int = 60) -> list[MatchRecord]:
        """Matches in play, most recently active first (for the Watch page)."""
        rows = self.session.scalars(
            select(Match).where(Match.status == "active").order_by(Match.updated_at.desc())
            .limit(limit))
        return [self._record(match) for match in rows]

    def replay(self, match_id: str) -> list[dict[str, Any]]:
        """The public (spectator) view after every ply, from the seed and the move log."""
        match = self._load(match_id)
        game = registry.get(match.game)
        state = game.new_state(players=match.num_seats, options=match.options, seed=match.seed)
        frames = [{"ply": 0, "move": None, "seat": None, "view": state.view(None)}]
        for entry in self.moves(match_id):
            state = state.play(entry["move"])
            frames.append({"ply": entry["ply"], "move": entry["move"], "seat": entry["seat"],
                           "view": state.view(None)})
        return frames

    # -- creating and joining ----------------------------------------------------------------

    def _new_match(self, setup: MatchSetup, creator_id: int | None, rated: bool = False,
                   time_control: dict[str, Any] | None = None) -> Match:
        seed = secrets.randbelow(2**31)
        try:
            state = setup.game.new_state(players=setup.num_seats, options=setup.options, seed=seed)
        except (ValueError, IllegalMove) as error:
            raise Invalid(str(error), code="invalid_options") from None
        match = Match(id=_new_match_id(), game=setup.game.id, options=setup.options, seed=seed,
                      num_seats=setup.num_seats, status="waiting", ply=0,
                      snapshot=state.to_json(), created_by=creator_id, rated=rated,
                      time_control=time_control)
        self.session.add(match)
        return match

    def create(
        self,
        creator: Identity,
        game_id: str,
        options: dict[str, Any] | None = None,
        seat: int | str | None = None,
        players: int | None = None,
    ) -> MatchRecord:
        """A new private match with the creator seated; it starts once every seat is taken."""
        setup = validate_setup(game_id, options, players)
        match = self._new_match(setup, creator.id)
        chosen_seat = self._choose_seat(seat, set(), setup.num_seats)
        match.players.append(MatchPlayer(seat=chosen_seat, user_id=creator.id))
        self._start_if_full(match)
        self.session.commit()
        record = self._record(match)
        self.publish(record)
        return record

    def create_started(self, setup: MatchSetup, seated: list[int], rated: bool = False,
                       time_control: dict[str, Any] | None = None,
                       creator_id: int | None = None) -> Match:
        """A match with every seat already taken (``seated[seat]`` = user id), not committed:
        the lobby commits it together with the seek it fulfils."""
        match = self._new_match(setup, creator_id, rated, time_control)
        for seat, user_id in enumerate(seated):
            match.players.append(MatchPlayer(seat=seat, user_id=user_id))
        self._start_if_full(match)
        return match

    def announce(self, match: Match) -> MatchRecord:
        record = self._record(match)
        self.publish(record)
        return record

    @staticmethod
    def _choose_seat(seat: int | str | None, taken: set[int], num_seats: int) -> int:
        free = [s for s in range(num_seats) if s not in taken]
        if not free:
            raise Conflict("Every seat of this match is taken.", code="match_full")
        if seat is None:
            return free[0]
        if seat == "random":
            return random.choice(free)
        if not isinstance(seat, int) or not 0 <= seat < num_seats:
            raise Invalid(f"Seat must be 0–{num_seats - 1} or 'random'.", code="invalid_seat")
        if seat in taken:
            raise Conflict(f"Seat {seat} is taken.", code="seat_taken")
        return seat

    def _start_if_full(self, match: Match) -> None:
        if match.status == "waiting" and len(match.players) == match.num_seats:
            match.status = "active"
            match.started_at = match.updated_at = utcnow()

    def join(self, match_id: str, user: Identity, seat: int | str | None = None) -> MatchRecord:
        match = self._load(match_id, lock=True)
        if any(p.user_id == user.id for p in match.players):
            raise Conflict("You already play in this match.", code="already_joined")
        if match.status != "waiting":
            raise Conflict("This match has already started.", code="match_full")
        chosen = self._choose_seat(seat, {p.seat for p in match.players}, match.num_seats)
        match.players.append(MatchPlayer(seat=chosen, user_id=user.id))
        self._start_if_full(match)
        try:
            self.session.commit()
        except IntegrityError:
            self.session.rollback()
            raise Conflict("Someone took that seat first.", code="seat_taken") from None
        record = self._record(match)
        self.publish(record)
        return record

    # -- playing ------------------------------------------------------------------------------

    def _seat_of(self, match: Match, user: Identity) -> int:
        for player in match.players:
            if player.user_id == user.id:
                return player.seat
        raise Forbidden("You are not a player in this match.", code="not_a_player")

    def play(self, match_id: str, user: Identity, move: str, expected_ply: int) -> MatchRecord:
        """Validate and append one move, or change nothing and raise."""
        match = self._load(match_id)
        seat = self._seat_of(match, user)
        if match.status != "active":
            raise Conflict(f"The match is {match.status}, not in play.", code="match_not_active")
        if expected_ply != match.ply:
            raise Conflict(
                f"The match is at ply {match.ply}, not {expected_ply}: refresh and try again.",
                code="stale_ply",
            )
        game = registry.get(match.game)
        state = game.from_json(match.snapshot)
        if state.to_move != seat:
            raise Forbidden("It is not your turn.", code="not_your_turn")
        try:
            following = state.play(move)
        except IllegalMove as error:
            raise Invalid(error.reason, code="illegal_move") from None
        canonical = state.canonical_move(move)
        now = utcnow()
        values: dict[str, Any] = {"ply": match.ply + 1, "snapshot": following.to_json(),
                                  "updated_at": now}
        if following.is_over:
            assert following.result is not None
            values |= {"status": "finished", "finished_at": now,
                       "result": following.result.to_json()}
        updated = self.session.execute(
            update(Match)
            .where(Match.id == match.id, Match.ply == expected_ply, Match.status == "active")
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if updated.rowcount != 1:
            self.session.rollback()
            raise Conflict("Another move was played first: refresh and try again.",
                           code="stale_ply")
        spent = int((now - (match.updated_at or now)).total_seconds() * 1000)
        self.session.add(Move(match_id=match.id, ply=expected_ply + 1, seat=seat,
                              move=canonical, time_spent_ms=max(spent, 0), created_at=now))
        if following.is_over:
            self.session.refresh(match)
            apply_rated_result(self.session, match)
        try:
            self.session.commit()
        except IntegrityError:
            self.session.rollback()
            raise Conflict("Another move was played first: refresh and try again.",
                           code="stale_ply") from None
        self.session.refresh(match)
        record = self._record(match)
        self.publish(record)
        return record

    def resign(self, match_id: str, user: Identity) -> MatchRecord:
        """The resigning seat loses; the others share the win (clocks and offers come later)."""
        match = self._load(match_id)
        seat = self._seat_of(match, user)
        if match.status == "finished":
            raise Conflict("The match is already over.", code="match_not_active")
        others = tuple(s for s in range(match.num_seats) if s != seat)
        result = Result(winners=others, ranking=(others, (seat,)), reason="resignation",
                        details={"resigned": seat})
        now = utcnow()
        updated = self.session.execute(
            update(Match)
            .where(Match.id == match.id, Match.ply == match.ply, Match.status == match.status)
            .values(status="finished", result=result.to_json(), finished_at=now, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        if updated.rowcount != 1:
            self.session.rollback()
            raise Conflict("The match changed meanwhile: try again.", code="stale_ply")
        self.session.refresh(match)
        apply_rated_result(self.session, match)
        self.session.commit()
        self.session.refresh(match)
        record = self._record(match)
        self.publish(record)
        return record

