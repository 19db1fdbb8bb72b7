"""Sight: each test is one rule from rules/sight.md, on positions built directly."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from games import IllegalMove, registry
from games.sight import GAME, SightState
from games.sight.board import EDGES, NEIGHBOURS, POINT_INDEX, POINT_NAMES
from tests.games.properties import check_random_game, play_random_game

LIGHT, DARK = 0, 1


def position(
    pieces: dict[str, int], turn: int = LIGHT, priority: str = "absolute", ply: int = 0
) -> SightState:
    """A position from ``{"c3": 2, "a1": -1}``: positive heights are light, negative dark."""
    board = [0] * 25
    for name, height in pieces.items():
        board[POINT_INDEX[name]] = height
    return GAME.from_json(
        {
            "board": board,
            "turn": turn,
            "ply": ply,
            "options": {"priority": priority},
            "last_move": None,
            "last_grown": [],
        }
    )


def heights(state: SightState) -> dict[str, int]:
    """The occupied points as signed heights (light positive), like :func:`position` takes."""
    board = state.to_json()["board"]
    return {POINT_NAMES[i]: h for i, h in enumerate(board) if h}


# -- the board -----------------------------------------------------------------------------------


def test_game_is_registered_as_sight() -> None:
    assert registry.get("sight") is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 2)


def test_board_is_an_alquerque_board_with_56_lines() -> None:
    assert len(POINT_NAMES) == 25 and POINT_NAMES[0] == "a1" and POINT_NAMES[-1] == "e5"
    assert len(EDGES) == 40 + 16  # 40 orthogonal segments, 16 diagonal ones


def test_odd_point_is_joined_only_orthogonally() -> None:
    names = {POINT_NAMES[q] for q in NEIGHBOURS[POINT_INDEX["b1"]]}
    assert names == {"a1", "c1", "b2"}
    names = {POINT_NAMES[q] for q in NEIGHBOURS[POINT_INDEX["c2"]]}
    assert names == {"b2", "d2", "c1", "c3"}


def test_even_point_is_joined_in_all_eight_directions() -> None:
    names = {POINT_NAMES[q] for q in NEIGHBOURS[POINT_INDEX["c3"]]}
    assert names == {"b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"}
    assert {POINT_NAMES[q] for q in NEIGHBOURS[POINT_INDEX["a1"]]} == {"a2", "b1", "b2"}


def test_diagonals_run_straight_across_the_board() -> None:
    state = position({"a3": 1, "c1": 1}).play("b2")  # a3–b2–c1 is a line through b2
    assert heights(state) == {"a3": 2, "c1": 2, "b2": 1}


# -- sight ---------------------------------------------------------------------------------------


def test_odd_point_has_no_diagonal_sight() -> None:
    state = position({"a2": 1, "c2": 1}).play("b1")  # a2 and c2 are b1's diagonal neighbours
    assert heights(state) == {"a2": 1, "c2": 1, "b1": 1}
    assert state.view(None)["sight"]["b1"] == []


def test_even_point_sees_along_all_eight_directions() -> None:
    corners = ["a1", "c1", "e1", "a3", "e3", "a5", "c5", "e5"]
    state = position({name: 1 for name in corners}).play("c3")
    assert heights(state) == {**{name: 2 for name in corners}, "c3": 1}
    assert state.to_json()["last_grown"] == sorted(corners)


def test_sight_reaches_the_first_occupied_point_at_any_distance() -> None:
    state = position({"a1": 1}).play("a5")
    assert heights(state) == {"a1": 2, "a5": 1}


def test_sight_is_blocked_by_an_enemy_piece() -> None:
    state = position({"a1": 1, "b2": -1}).play("c3")
    assert heights(state) == {"a1": 1, "b2": -1, "c3": 1}


def test_sight_is_blocked_by_a_friendly_piece() -> None:
    state = position({"c1": 1, "c2": 1}).play("c3")
    assert heights(state) == {"c1": 1, "c2": 2, "c3": 1}


def test_enemy_pieces_never_grow() -> None:
    state = position({"b3": -1, "d3": -2, "c4": 1}).play("c3")
    assert heights(state) == {"b3": -1, "d3": -2, "c4": 2, "c3": 1}


# -- case A: placement ---------------------------------------------------------------------------


def test_light_moves_first_on_an_empty_board() -> None:
    state = GAME.new_state()
    assert state.to_move == LIGHT
    assert state.phase == "place"
    assert state.legal_moves() == list(POINT_NAMES)


def test_placing_on_an_empty_board_adds_nothing() -> None:
    state = GAME.new_state().play("c3")
    assert heights(state) == {"c3": 1}
    assert state.to_move == DARK
    assert state.view(None)["last_grown"] == []


def test_placing_with_two_friendly_singles_in_sight_makes_both_two_stacks() -> None:
    state = position({"a1": 1, "c5": 1, "e1": -1}).play("c3")
    assert heights(state) == {"a1": 2, "c5": 2, "e1": -1, "c3": 1}
    assert state.view(None)["last_grown"] == ["a1", "c5"]


def test_player_without_a_stack_places_even_if_the_opponent_has_stacks() -> None:
    state = position({"a1": -3, "e5": 1})
    assert state.phase == "place"
    assert "c3" in state.legal_moves() and all("-" not in m for m in state.legal_moves())


def test_placement_must_be_on_an_empty_point() -> None:
    with pytest.raises(IllegalMove, match="not empty"):
        position({"c3": -1}).play("c3")


def test_player_without_a_stack_may_not_step() -> None:
    with pytest.raises(IllegalMove, match="no stack"):
        position({"c3": 1}).play("c3-c4")


# -- case B: moving the top piece ----------------------------------------------------------------


def test_player_with_a_stack_never_places() -> None:
    state = position({"a1": 2, "e5": -1})
    assert state.phase == "move"
    assert state.legal_moves() == ["a1-a2", "a1-b1", "a1-b2"]
    with pytest.raises(IllegalMove, match="must move"):
        state.play("c3")


def test_moving_off_a_two_stack_leaves_a_single_and_the_source_gets_nothing() -> None:
    state = position({"c3": 2}).play("c3-c4")
    assert heights(state) == {"c3": 1, "c4": 1}  # c3 is adjacent to c4 and in sight, yet unchanged
    assert state.view(None)["last_grown"] == []
    assert state.to_json()["last_move"] == "c3-c4"


def test_moving_grows_every_friendly_piece_or_stack_in_sight_of_the_new_point() -> None:
    state = position({"c3": 3, "c5": 1, "a4": 2, "e4": -1, "c1": 1}).play("c3-c4")
    assert heights(state) == {"c3": 2, "c4": 1, "c5": 2, "a4": 3, "e4": -1, "c1": 1}
    assert state.view(None)["last_grown"] == ["a4", "c5"]


def test_the_source_blocks_sight_beyond_it() -> None:
    state = position({"c3": 2, "c1": 1}).play("c3-c4")  # c1 is behind the source c3
    assert heights(state) == {"c3": 1, "c4": 1, "c1": 1}


def test_the_step_goes_to_an_adjacent_empty_point_along_a_line() -> None:
    state = position({"b1": 2, "a1": -1})
    assert state.legal_moves() == ["b1-b2", "b1-c1"]  # no diagonal from the odd point b1
    with pytest.raises(IllegalMove, match="not adjacent"):
        state.play("b1-b3")
    with pytest.raises(IllegalMove, match="not adjacent"):
        state.play("b1-c2")
    with pytest.raises(IllegalMove, match="not empty"):
        state.play("b1-a1")


def test_only_the_tallest_stack_may_move() -> None:
    state = position({"a1": 3, "e5": 2})
    assert state.legal_moves() == ["a1-a2", "a1-b1", "a1-b2"]
    assert state.view(LIGHT)["tallest"] == ["a1"]
    with pytest.raises(IllegalMove, match="tallest"):
        state.play("e5-e4")


def test_among_equally_tall_stacks_the_player_chooses() -> None:
    state = position({"a1": 2, "e5": 2, "c3": 1})
    assert state.legal_moves() == ["a1-a2", "a1-b1", "a1-b2", "e5-d4", "e5-d5", "e5-e4"]


def test_a_single_piece_may_not_step_when_the_player_has_a_stack() -> None:
    with pytest.raises(IllegalMove, match="no stack of yours"):
        position({"a1": 2, "c3": 1}).play("c3-c4")


def test_an_enemy_stack_may_not_be_moved() -> None:
    with pytest.raises(IllegalMove, match="no stack of yours"):
        position({"a1": 2, "c3": -3}).play("c3-c4")


# -- priority option -----------------------------------------------------------------------------

BLOCKED_TALLEST = {"a1": 3, "a2": -1, "b1": -1, "b2": -1, "e5": 2}


def test_absolute_priority_a_blocked_tallest_stack_means_no_move_and_a_loss() -> None:
    state = position(BLOCKED_TALLEST)
    assert state.legal_moves() == []
    assert state.is_over and state.to_move is None
    assert state.result is not None
    assert state.result.winners == (DARK,)
    assert state.result.reason == "no_legal_move"


def test_movable_priority_lets_the_tallest_movable_stack_move() -> None:
    state = position(BLOCKED_TALLEST, priority="movable")
    assert state.legal_moves() == ["e5-d4", "e5-d5", "e5-e4"]
    assert state.view(LIGHT)["tallest"] == ["e5"]


def test_movable_priority_without_any_movable_stack_loses_instead_of_placing() -> None:
    state = position({"a1": 2, "a2": -1, "b1": -1, "b2": -1}, priority="movable")
    assert state.legal_moves() == []
    assert state.result is not None and state.result.winners == (DARK,)


def test_priority_defaults_to_absolute_and_rejects_unknown_values() -> None:
    assert GAME.parse_options(None).priority == "absolute"  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):
        GAME.new_state(options={"priority": "lowest"})
    with pytest.raises(ValidationError):
        GAME.new_state(options={"supply": 12})


# -- end of the game -----------------------------------------------------------------------------


def test_full_board_loses_for_a_player_who_must_place() -> None:
    pieces = {name: (1 if i % 2 else -1) for i, name in enumerate(POINT_NAMES)}
    state = position(pieces, turn=LIGHT)
    assert state.legal_moves() == []
    assert state.result is not None
    assert state.result.winners == (DARK,) and state.result.details["board_full"]


def test_full_board_loses_for_a_player_who_must_move() -> None:
    pieces = {name: (2 if i % 2 else -1) for i, name in enumerate(POINT_NAMES)}
    state = position(pieces, turn=DARK)
    assert state.phase is None and state.legal_moves() == []
    assert state.result is not None
    assert state.result.winners == (LIGHT,)
    assert state.result.ranking == ((LIGHT,), (DARK,))


def test_there_is_no_pass() -> None:
    with pytest.raises(IllegalMove, match="no pass"):
        GAME.new_state().play("pass")


def test_a_finished_game_accepts_no_move() -> None:
    with pytest.raises(IllegalMove, match="over"):
        position(BLOCKED_TALLEST).play("e5-e4")


@pytest.mark.parametrize("priority", ["absolute", "movable"])
def test_games_last_at_most_25_plies_and_never_draw(priority: str) -> None:
    for seed in range(200):
        final, moves, _ = play_random_game(GAME, seed, options={"priority": priority})
        assert len(moves) <= 25
        assert final.result is not None and len(final.result.winners) == 1


def test_every_turn_occupies_one_more_point() -> None:
    state = GAME.new_state()
    rng = random.Random(7)
    while not state.is_over:
        occupied = len(heights(state))
        state = state.play(rng.choice(state.legal_moves()))
        assert len(heights(state)) == occupied + 1


# -- notation, json, view ------------------------------------------------------------------------


def test_notation_is_forgiving_and_canonical() -> None:
    state = position({"c3": 2})
    assert state.play(" C3 - d4 ").to_json()["last_move"] == "c3-d4"
    assert GAME.new_state().play("B 2").to_json()["last_move"] == "b2"


@pytest.mark.parametrize("garbage", ["", "z9", "c3-", "c3-c3", "c3d4e5", "f1", "pass me"])
def test_garbage_is_an_illegal_move(garbage: str) -> None:
    with pytest.raises(IllegalMove):
        position({"c3": 2}).play(garbage)


def test_play_never_mutates_and_json_round_trips() -> None:
    state = position({"c3": 2, "a1": -1}, ply=4)
    before = state.to_json()
    following = state.play("c3-b2")
    assert state.to_json() == before
    assert GAME.from_json(json.loads(json.dumps(following.to_json()))) == following
    assert following.to_json()["ply"] == 5


def test_view_lists_sources_destinations_and_growth_per_move() -> None:
    state = position({"c3": 2, "e5": 2, "a5": 1, "e1": -1})
    view = state.view(LIGHT)
    assert view["phase"] == "move" and view["to_move"] == LIGHT
    assert view["sources"] == {
        "c3": ["b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"],
        "e5": ["d4", "d5", "e4"],
    }
    assert view["growth"]["c3-b4"] == ["a5"]
    assert view["growth"]["e5-d5"] == ["a5"]  # the source e5 is excluded
    assert view["growth"]["c3-d2"] == []
    assert view["board"]["c3"] == {"colour": "light", "height": 2}
    assert view["board"]["e1"] == {"colour": "dark", "height": 1}
    assert view["board"]["a1"] is None
    assert view["sight"]["c1"] == ["c3", "e1"]
    assert set(view["growth"]) == set(view["legal_moves"]) == set(state.legal_moves())
    for move, grown in view["growth"].items():
        assert state.growth(move) == grown


def test_view_is_the_same_for_every_seat_since_nothing_is_secret() -> None:
    state = GAME.new_state().play("c3").play("c4")
    assert (
        state.view(LIGHT) | {"seat": None} == state.view(None) == state.view(DARK) | {"seat": None}
    )


def test_sight_needs_exactly_two_players() -> None:
    with pytest.raises(ValueError):
        GAME.new_state(players=3)


# -- shared properties ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_games_keep_the_engine_contract_absolute(seed: int) -> None:
    check_random_game(GAME, seed, options={"priority": "absolute"})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_games_keep_the_engine_contract_movable(seed: int) -> None:
    check_random_game(GAME, seed, options={"priority": "movable"})
