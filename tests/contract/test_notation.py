"""One parser per notation, for every registered game: ``State.parse_move`` turns any spelling of a
legal move into its canonical form, refuses everything else with ``IllegalMove``, and ``play``
accepts exactly what it accepts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import Game, IllegalMove, State, registry
from games.base import move_key
from tests.notation import cosmetic_edits, edits, junk, mutate


def random_position(game: Game, seed: int, plies: int) -> State:
    """The position after up to ``plies`` random legal moves from a seeded start."""
    rng = random.Random(seed)
    players = rng.randint(game.min_players, game.max_players)
    state = game.new_state(players=players, seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


GAMES = pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)


@GAMES
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 80))
def test_every_legal_move_parses_to_itself_and_has_its_own_key(game: Game, seed: int,
                                                                plies: int) -> None:
    state = random_position(game, seed, plies)
    legal = state.legal_moves()
    assert [state.parse_move(move) for move in legal] == legal
    keys = [move_key(move) for move in legal]
    assert len(set(keys)) == len(keys), "two legal moves differ only in case, spaces or dashes"


@GAMES
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 80), edits=cosmetic_edits,
       where=st.integers(0, 2**32))
def test_case_spaces_and_dashes_name_the_same_move(game: Game, seed: int, plies: int,
                                                    edits: list[str], where: int) -> None:
    state = random_position(game, seed, plies)
    for move in state.legal_moves():
        text = mutate(move, edits, "", where)
        assert state.parse_move(text) == move, f"{text!r} should read as {move!r}"
        assert state.play(text) == state.play(move)


@GAMES
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 80), edits=edits, junk=junk,
       where=st.integers(0, 2**32))
def test_a_misspelt_move_is_a_legal_move_or_an_illegal_move_error(
        game: Game, seed: int, plies: int, edits: list[str], junk: str, where: int) -> None:
    state = random_position(game, seed, plies)
    legal = state.legal_moves()
    for move in legal or ["a1"]:
        text = mutate(move, edits, junk, where)
        try:
            parsed = state.parse_move(text)
        except IllegalMove as error:
            assert error.reason
            with pytest.raises(IllegalMove):
                state.play(text)
            continue
        assert parsed in legal
        assert state.play(text) == state.play(parsed)


@GAMES
@pytest.mark.parametrize("text", [None, 3, "", " ", "-", "zz-not-a-move", "\x00", "a1" * 30])
def test_garbage_is_an_illegal_move(game: Game, text: object) -> None:
    state = game.new_state(players=game.min_players, seed=1)
    with pytest.raises(IllegalMove):
        state.parse_move(text)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove):
        state.play(text)  # type: ignore[arg-type]


@GAMES
def test_every_game_reads_its_notation_with_the_one_shared_parser(game: Game) -> None:
    """A game declares how it spells and refuses moves; the parser itself is written once."""
    state = game.new_state(players=game.min_players, seed=1)
    assert type(state).parse_move is State.parse_move
