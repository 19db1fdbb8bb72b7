"""The analysis search: proofs in perfect information, none through hidden cards, and the
same verdict for the same seed."""

from __future__ import annotations

import random

from games import registry
from games.bots.analysis import evaluate
from games.bots.policies import game_policy
from tests.analysis.games import BLUNDER_GAME, BLUNDER_PLY


def _stairs_after(moves: list[str]):  # type: ignore[no-untyped-def]
    state = registry.get("stairs").new_state(2, {}, 0)
    for move in moves:
        state = state.play(move)
    return state


def test_a_won_stairs_position_is_proven_and_its_winning_move_preferred() -> None:
    before = _stairs_after(BLUNDER_GAME[:BLUNDER_PLY - 1])
    found = evaluate(before, random.Random(1), 500, game_policy)
    assert found.proven and found.values[before.to_move] == 1.0
    assert found.best is not None and found.best != BLUNDER_GAME[BLUNDER_PLY - 1]
    after = _stairs_after(BLUNDER_GAME[:BLUNDER_PLY])
    lost = evaluate(after, random.Random(1), 500, game_policy)
    assert lost.proven and lost.values[before.to_move] == 0.0


def test_a_finished_game_is_its_result() -> None:
    state = _stairs_after(BLUNDER_GAME)
    found = evaluate(state, random.Random(0), 100)
    assert found.proven and found.best is None and found.values == (1.0, 0.0)


def test_town_is_searched_through_determinizations_and_never_proven() -> None:
    state = registry.get("town").new_state(2, {}, 7)
    first = evaluate(state, random.Random(3), 60, game_policy)
    again = evaluate(state, random.Random(3), 60, game_policy)
    assert first == again and not first.proven and first.best in state.legal_moves()
    assert abs(sum(first.values) - 1.0) < 1e-9  # two seats: the rewards of each playout sum to 1


def _town_walk_choices(seeds: range, players: int = 3):  # type: ignore[no-untyped-def]
    """Town positions where a walker chooses between two or more ways on (random builders)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = registry.get("town").new_state(players, {}, seed)
        while not state.is_over:
            moves = state.legal_moves()
            if len(moves) > 1 and state.settled_move() is not None:
                yield state
            state = state.play(rng.choice(moves))


def test_a_town_walk_choice_prefers_the_walk_to_the_best_diary() -> None:
    """A search scored by rank is indifferent between walks that keep the same place; the
    preferred move shown in an analysis is the walk to the best diary, as the bots play it."""
    positions = list(_town_walk_choices(range(12)))
    assert len(positions) >= 10
    for state in positions:
        found = evaluate(state, random.Random(0), 30, game_policy)
        assert found.best == state.settled_move()
