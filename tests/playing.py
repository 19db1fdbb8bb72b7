"""Playing a stored match to its end below the HTTP layer, through the match service (every
move checked and stored as in play): for tests that need finished games, not the moves."""

from __future__ import annotations

import random
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.identity import Identity
from app.match import MatchRecord, MatchService
from games import registry
from games.base import State

Chooser = Callable[[State, int, int], str]
"""``(state, seat, ply) -> move`` for the seat to move."""


def random_moves(seed: object) -> Chooser:
    """Random legal moves from a seeded generator."""
    rng = random.Random(seed)  # type: ignore[arg-type]
    return lambda state, seat, ply: rng.choice(state.legal_moves())


def play_out(factory: sessionmaker[Session], match_id: str, choose: Chooser,
             publish: Callable[[MatchRecord], None] = lambda record: None,
             max_plies: int = 2000) -> None:
    """Every seat plays ``choose``'s moves until the game ends (fails after ``max_plies``)."""
    with factory() as session:
        service = MatchService(session, publish)
        for _ in range(max_plies):
            record = service.get(match_id)
            if record.status != "active":
                return
            state = registry.get(record.game).from_json(record.snapshot)
            seat = state.to_move
            assert seat is not None
            user = record.seats[seat]
            service.play(match_id, Identity(id=user.user_id or 0, name="x", kind="guest"),
                         choose(state, seat, record.ply), record.ply, seat=seat)
    raise AssertionError(f"{match_id} did not end")
