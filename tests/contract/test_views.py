"""Every game documents its view (``Game.view_model``, from the game's own ``view.py``), and the
views of real positions fit it: every seat's and the spectator's, at every ply of random games
with each player count and each choice of its simple options. The model forbids fields it does
not name, so a view that gains a field fails here until its model (the API docs) says it."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import Game, registry
from games.views import GameView
from tests.games.properties import play_random_game

GAMES = pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)


def simple_options(game: Game) -> list[dict[str, Any]]:
    """Every combination of the game's options that take a few fixed values (booleans, enums)."""
    choices: dict[str, list[Any]] = {}
    for name, field in game.options.model_json_schema().get("properties", {}).items():
        if field.get("type") == "boolean":
            choices[name] = [False, True]
        elif "enum" in field:
            choices[name] = list(field["enum"])
    names = list(choices)
    return [dict(zip(names, values, strict=True))
            for values in itertools.product(*(choices[n] for n in names))]


@GAMES
def test_the_game_publishes_a_view_model_with_a_real_example(game: Game) -> None:
    assert game.view_model is not None and issubclass(game.view_model, GameView)
    assert game.view_model.__module__ == f"games.{game.id}.view"
    example = game.example_view()
    assert game.view_model.model_validate(example).model_dump(mode="json") == example


@GAMES
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_every_view_of_random_games_fits_the_model(game: Game, seed: int,
                                                   data: st.DataObject) -> None:
    assert game.view_model is not None
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    options = data.draw(st.sampled_from(simple_options(game)), label="options")
    _, moves, states = play_random_game(game, seed, players=players, options=options)
    for state in states:
        for seat in [None, *range(players)]:
            view = state.view(seat)
            assert game.view_model.model_validate(view).model_dump(mode="json") == view, (
                f"{game.id}: the view after {len(moves)} moves")
