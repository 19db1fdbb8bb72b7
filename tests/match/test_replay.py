"""Replaying a match's move log from its seed and options reproduces the stored snapshot, for every
game (the design's persistence promise), and a rejected move changes nothing in the database."""

from __future__ import annotations

import random

import pytest
from sqlalchemy.orm import Session

from app.accounts.identity import create_guest
from app.db.models import Match
from app.kernel.errors import Invalid
from app.match.service import MatchService
from games import registry

SETUPS = [("stairs", 2, {}), ("stairs", 2, {"swap": True}), ("sight", 2, {}),
          ("sight", 2, {"priority": "movable"}), ("scalas", 2, {"size": 5}),
          ("scalas", 2, {"size": 6}), ("town", 2, {}), ("town", 3, {}), ("town", 4, {})]


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS,
                         ids=[f"{g}-{p}-{o}" for g, p, o in SETUPS])
def test_move_log_replays_to_the_snapshot(session: Session, game_id: str, players: int,
                                          options: dict) -> None:
    service = MatchService(session, lambda record: None)  # nobody listens here
    people = [create_guest(session, f"P{i}")[0] for i in range(players)]
    record = service.create(people[0], game_id, options, seat=0, players=players)
    for seat, person in enumerate(people[1:], start=1):
        record = service.join(record.id, person, seat)
    rng = random.Random(11)
    game = registry.get(game_id)
    while record.status == "active":
        state = game.from_json(record.snapshot)
        record = service.play(record.id, people[state.to_move], rng.choice(state.legal_moves()),
                              record.ply)
    stored = session.get(Match, record.id)
    assert stored is not None
    replay = game.new_state(players=players, options=stored.options, seed=stored.seed)
    for entry in service.moves(record.id):
        replay = replay.play(entry["move"])
    assert replay.to_json() == stored.snapshot
    assert replay.result is not None and replay.result.to_json() == stored.result


def test_a_rejected_move_leaves_the_match_untouched(session: Session) -> None:
    service = MatchService(session, lambda record: None)  # nobody listens here
    first, second = create_guest(session, "A")[0], create_guest(session, "B")[0]
    record = service.join(service.create(first, "stairs").id, second)
    with pytest.raises(Invalid) as error:
        service.play(record.id, first, "a1-a1", 0)
    assert error.value.code == "illegal_move"
    assert service.get(record.id) == record and service.moves(record.id) == []
