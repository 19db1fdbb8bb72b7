"""Properties every engine must have, checked over random games (shared by each game's tests).

Each game's test module calls :func:`check_random_game` from a hypothesis ``@given``, so the same
contract holds for all four games: every move legal, ``play`` never mutates, games end, the JSON
round trip is exact, replaying the record reproduces the state, and a finished game has a result.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games import Game, IllegalMove, Result, State

MAX_PLIES = 2000


def play_random_game(game: Game, seed: int, players: int = 2, options: dict[str, Any] | None = None,
                     ) -> tuple[State, list[str], list[State]]:
    """A random game: (final state, moves, every state from the initial one to the final one)."""
    rng = random.Random(seed)
    state = game.new_state(players=players, options=options, seed=seed)
    states = [state]
    moves: list[str] = []
    while not state.is_over:
        assert len(moves) < MAX_PLIES, "game did not end"
        legal = state.legal_moves()
        assert legal, "a game that is not over must offer a move (a forced pass is a move)"
        move = rng.choice(legal)
        moves.append(move)
        state = state.play(move)
        states.append(state)
    return state, moves, states


def check_capabilities(game: Game, state: State, legal: list[str], rng: random.Random) -> None:
    """What a state in play declares: its game, its forced move, its playout hint, early scoring."""
    assert state.game_id == game.id
    forced = state.forced_move()
    assert forced is None or legal == [forced], "a forced move is the only legal move"
    assert state.playout_move(legal, random.Random(rng.random())) in legal
    early = state.score_now()
    if game.can_score_early:
        assert isinstance(early, Result) and early.ranking
    else:
        assert early is None, "a game that cannot score early must not offer a result"


def check_random_game(game: Game, seed: int, players: int = 2,
                      options: dict[str, Any] | None = None) -> State:
    """Play one random game, asserting the shared contract at every ply; returns the final state."""
    rng = random.Random(seed)
    state = game.new_state(players=players, options=options, seed=seed)
    initial_json = json.dumps(state.to_json(), sort_keys=True)
    moves: list[str] = []
    while not state.is_over:
        assert len(moves) < MAX_PLIES, "game did not end"
        assert state.result is None
        assert state.to_move is not None and 0 <= state.to_move < players
        legal = state.legal_moves()
        assert legal and len(legal) == len(set(legal)), "legal moves must be non-empty and distinct"
        assert legal == state.legal_moves(), "legal_moves must be deterministic"
        check_capabilities(game, state, legal, rng)
        before = copy.deepcopy(state.to_json())
        move = rng.choice(legal)
        following = state.play(move)
        assert state.to_json() == before, "play must not mutate the state"
        restored = game.from_json(json.loads(json.dumps(following.to_json())))
        assert restored == following and restored.legal_moves() == following.legal_moves()
        for seat in [None, *range(players)]:
            json.dumps(following.view(seat))  # every view is JSON-able
        with pytest.raises(IllegalMove):
            state.play("zz-not-a-move")
        moves.append(move)
        state = following
    assert state.to_move is None and state.legal_moves() == []
    result = state.result
    assert result is not None
    seats = sorted(seat for group in result.ranking for seat in group)
    assert seats == list(range(players)), "the ranking must place every seat once"
    assert set(result.winners) == set(result.ranking[0]) or not result.winners
    assert state.forced_move() is None
    # Replaying the record from the same seed reproduces the final state exactly.
    replay = game.new_state(players=players, options=options, seed=seed)
    assert json.dumps(replay.to_json(), sort_keys=True) == initial_json
    for move in moves:
        replay = replay.play(move)
    assert replay == state
    return state
