"""Forced passes are played by the server (the rules make them automatic) and recorded."""

from __future__ import annotations

import random

from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.db.models import Match
from app.match.service import MatchService
from games import State, registry


def _position_before_a_forced_pass() -> tuple[State, str]:
    """A Stairs position and a move after which the opponent can only pass."""
    game = registry.get("stairs")
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            following = state.play(move)
            if following.legal_moves() == ["pass"]:
                return state, move
            state = following
    raise AssertionError("no forced pass found")


def test_the_server_plays_a_forced_pass(session: Session) -> None:
    state, move = _position_before_a_forced_pass()
    service = MatchService(session, lambda record: None)  # nobody listens here
    light, dark = create_guest(session, "L")[0], create_guest(session, "D")[0]
    record = service.join(service.create(light, "stairs", seat=0).id, dark)
    stored = session.get(Match, record.id)
    assert stored is not None
    stored.snapshot = state.to_json()
    session.commit()
    mover = light if state.to_move == 0 else dark
    after = service.play(record.id, mover, move, record.ply)
    log = service.moves(record.id)
    assert [entry["move"] for entry in log] == [move, "pass"]
    assert log[1]["seat"] == 1 - log[0]["seat"] and after.ply == 2
    final = registry.get("stairs").from_json(after.snapshot)
    assert final.is_over or final.to_move == state.to_move, "the passer's opponent moves again"
