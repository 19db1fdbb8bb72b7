"""Town's playout hint: a walker looks ahead through its own walk, so playouts score walks the
way a player would walk them (random walk choices undervalue every town)."""

from __future__ import annotations

import random

from games import registry
from games.town.engine import TownState

GAME = registry.get("town")


def built_town(seed: int, players: int = 3) -> TownState:
    rng = random.Random(seed)
    state = GAME.new_state(players, seed=seed)
    while state.phase == "build":
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
    return state


def walked(state: TownState, rng: random.Random, hint: bool) -> float:
    while not state.is_over:
        moves = state.legal_moves()
        state = state.play(state.playout_move(moves, rng) if hint
                           else moves[rng.randrange(len(moves))])
    return sum(state.result.scores)


def test_hinted_walkers_score_more_than_random_ones() -> None:
    towns = [built_town(seed) for seed in range(40)]
    hinted = sum(walked(town, random.Random(i), hint=True) for i, town in enumerate(towns))
    blind = sum(walked(town, random.Random(i), hint=False) for i, town in enumerate(towns))
    assert hinted > blind * 1.08, (hinted, blind)


def test_every_walk_choice_of_the_hint_is_a_best_one() -> None:
    """Every walk choice the hint makes is one whose best reachable diary is the best there is."""
    for seed in range(6):
        state = built_town(seed, players=2)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            seat = state.to_move
            chosen = state.playout_move(moves, rng)
            values = {m: state.play(m)._walk_value(seat, 2) for m in moves}
            assert values[chosen] == max(values.values())
            state = state.play(chosen)


def test_building_playouts_stay_legal_and_uniform() -> None:
    state = GAME.new_state(2, seed=1)
    rng = random.Random(0)
    picks = {state.playout_move(state.legal_moves(), rng) for _ in range(200)}
    assert picks <= set(state.legal_moves()) and len(picks) > len(state.legal_moves()) // 2
