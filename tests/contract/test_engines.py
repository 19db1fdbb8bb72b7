"""The engine contract, for every registered game (a new game is covered without opting in):
legal moves, immutability, JSON round trip, replay, results and the declared capabilities."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import Game, registry
from tests.games.properties import check_random_game

GAMES = pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)


@GAMES
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_random_games_keep_the_engine_contract(game: Game, seed: int, data: st.DataObject) -> None:
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    check_random_game(game, seed, players=players)


@GAMES
def test_the_game_describes_itself(game: Game) -> None:
    described = game.describe()
    assert described["id"] == game.id and game.id in registry.ids()
    assert 1 <= game.min_players <= game.max_players
    json.dumps(described)
    assert game.new_state(players=game.min_players).game_id == game.id
    with pytest.raises(ValueError):
        game.check_players(game.max_players + 1)


@GAMES
def test_views_hold_no_secret_of_another_seat(game: Game) -> None:
    """A view depends only on what its seat may see: states that differ only in secrets (as
    ``determinize`` samples them) give that seat the same view."""
    state = game.new_state(players=game.min_players, seed=3)
    for seat in [None, *range(game.min_players)]:
        if seat is None:
            continue
        other = state.determinize(seat, random.Random(11))
        assert other.view(seat) == state.view(seat)
