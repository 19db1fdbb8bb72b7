"""Scalas rules, one behaviour per test, plus the shared engine properties on every board size."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalMove, registry
from games.scalas import GAME, ScalasState
from games.scalas.board import INDEX, NAMES, NEIGHBOURS, staircase_squares
from tests.games.properties import check_random_game, play_random_game

RED, BLUE = 0, 1


def position(
    cubes: dict[str, str],
    *,
    size: int = 5,
    hands: tuple[int, int] = (10, 10),
    to_move: int | None = RED,
    pending: tuple[str, ...] = (),
) -> ScalasState:
    """A position from columns written bottom to top with ``r`` (red) and ``b`` (blue)."""
    columns: list[list[int]] = [[] for _ in range(size * size)]
    for name, column in cubes.items():
        columns[INDEX[size][name]] = ["rb".index(c) for c in column]
    return GAME.from_json(
        {
            "size": size,
            "columns": columns,
            "hands": list(hands),
            "to_move": to_move,
            "pending": list(pending),
            "last_move": None,
            "last_seat": None,
            "ply": 0,
        }
    )


def from_heights(heights: list[int], *, size: int = 5, **kwargs) -> ScalasState:
    """A position with the given heights, every column blue (so red placements force nothing)."""
    cubes = {NAMES[size][i]: "b" * h for i, h in enumerate(heights) if h}
    return position(cubes, size=size, **kwargs)


def column(state: ScalasState, name: str) -> str:
    return "".join("rb"[c] for c in state.to_json()["columns"][INDEX[state.size][name]])


# --- the staircase principle, by its definition --------------------------------------------------


def _descends(heights: list[int], size: int, start: int) -> bool:
    """A forward search straight from the definition: never up, never down by two or more."""
    bottom = min(heights)
    seen, stack = {start}, [start]
    while stack:
        square = stack.pop()
        if heights[square] == bottom:
            return True
        for nxt in NEIGHBOURS[size][square]:
            if nxt not in seen and heights[square] - 1 <= heights[nxt] <= heights[square]:
                seen.add(nxt)
                stack.append(nxt)
    return False


def _staircase_by_definition(heights: list[int], size: int) -> list[int]:
    legal = []
    for square in range(size * size):
        after = list(heights)
        after[square] += 1
        if _descends(heights, size, square) and _descends(after, size, square):
            legal.append(square)
    return legal


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_staircase_squares_match_the_definition(data):
    size = data.draw(st.sampled_from([5, 6, 7]))
    top = data.draw(st.integers(1, 5))
    heights = data.draw(st.lists(st.integers(0, top), min_size=size * size, max_size=size * size))
    assert staircase_squares(heights, size) == _staircase_by_definition(heights, size)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_staircase_squares_match_the_definition_in_played_games(seed):
    _, _, states = play_random_game(GAME, seed)
    for state in states:
        heights = list(state.heights)
        assert staircase_squares(heights, 5) == _staircase_by_definition(heights, 5)


def test_first_move_may_go_anywhere():
    for size in (5, 6, 7):
        state = GAME.new_state(options={"size": size})
        assert state.legal_moves() == list(NAMES[size])


def test_red_seat_zero_moves_first_and_turns_alternate():
    state = GAME.new_state()
    assert state.to_move == RED
    state = state.play("c3")
    assert column(state, "c3") == "r" and state.to_move == BLUE
    state = state.play("a1")
    assert column(state, "a1") == "b" and state.to_move == RED


def test_cube_may_not_go_on_a_height_two_square_whose_neighbours_are_all_empty():
    state = position({"c3": "rb"})
    assert "c3" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="staircase"):
        state.play("c3")


def test_after_check_rejects_a_placement_that_passes_the_before_check():
    # c3 at height 1 steps down to the board, but at height 2 it would drop two levels.
    state = position({"c3": "r"})
    assert "c3" not in state.legal_moves()
    assert "c2" in state.legal_moves()


def test_after_check_ignores_a_descent_through_the_placed_square():
    # a2 only gets down through a1; once a1 is raised, neither a1 nor a2 has a way down.
    state = from_heights([1, 0, 0, 0, 0, 2, 4] + [0] * 3 + [4] + [0] * 14)
    assert "a1" not in state.legal_moves()


def test_after_check_recomputes_the_bottom_level():
    # c3 is the only square at the bottom level and walled in by taller towers: raised, it
    # becomes the new bottom level itself, so it still has a descent (of no steps).
    heights = [3] * 25
    heights[INDEX[5]["c3"]] = 1
    assert from_heights(heights).legal_moves() == ["c3"]


def test_descent_steps_down_one_level_at_a_time():
    # a1 (height 2) -> b1 (2) -> c1 (1) -> d1 (0) is a staircase, even from a1 raised to 3;
    # a3 (height 2) stands over a cliff of empty squares.
    state = from_heights([2, 2, 1, 0, 0, 0] + [0] * 4 + [2] + [0] * 14)
    legal = state.legal_moves()
    assert "a1" in legal and "a3" not in legal


# --- forced placements ---------------------------------------------------------------------------


def test_forced_cube_fills_the_square_between_equal_same_colour_tops_even_against_the_staircase():
    state = position({"a1": "rr", "b2": "bb", "c1": "b", "d1": "b"})
    assert "c1" in state.legal_moves()
    state = state.play("c1")
    # b1 at the bottom level would have no way down once raised: not a normal placement.
    assert NAMES[5].index("b1") not in staircase_squares(state.heights, 5)
    assert state.to_move == RED and state.view(RED)["phase"] == "forced"
    assert state.legal_moves() == ["b1"]
    state = state.play("b1")
    assert column(state, "b1") == "r"
    assert state.to_move == BLUE and state.view(None)["phase"] == "normal"


def test_forced_placement_needs_the_same_colour_and_height():
    state = position({"a1": "bb", "c1": "b", "d1": "b", "e1": "rrr"}).play("c1")
    assert state.to_move == BLUE  # a1 is blue and e1 is taller: nothing is forced
    assert state.to_json()["pending"] == []


def test_forced_cubes_chain():
    state = position({"a1": "rr", "b2": "bb", "b3": "r", "c1": "b", "d1": "b"})
    state = state.play("c1").play("b1")
    # b1 is now red at height 1, as is b3: the forced cube forces b2 in turn.
    assert state.to_move == RED and state.legal_moves() == ["b2"]
    state = state.play("b2")
    assert column(state, "b2") == "bbr" and state.to_move == BLUE


def test_each_forced_cube_is_its_own_move_by_the_same_player():
    state = position({"a1": "rr", "b2": "bb", "c1": "b", "d1": "b"}, hands=(10, 10))
    after = state.play("c1")
    assert after.ply == 1 and after.hands == (9, 10) and after.to_move == RED
    forced = after.play("b1")
    assert forced.ply == 2 and forced.hands == (8, 10)
    assert forced.view(None)["last_move"] == {"move": "b1", "seat": RED}


DOUBLE_TARGET = {"a2": "r", "b3": "r", "c3": "r", "d1": "r"}


def test_player_chooses_the_order_of_pending_forced_cubes():
    state = position(DOUBLE_TARGET).play("b1")  # targets b2 (b1-b3) and c1 (b1-d1)
    assert state.legal_moves() == ["c1", "b2"]
    assert state.view(RED)["pending"] == ["c1", "b2"]
    assert state.play("b2").legal_moves() == ["c1"]
    assert state.play("c1").legal_moves() == ["b2", "c2"]


def test_normal_placement_is_refused_while_forced_cubes_are_pending():
    state = position(DOUBLE_TARGET).play("b1")
    with pytest.raises(IllegalMove, match="forced"):
        state.play("e5")


def test_a_square_targeted_twice_gets_two_cubes():
    state = position(DOUBLE_TARGET).play("b1").play("c1").play("c2")
    # b2 was targeted by b1-b3 and again by c2-a2: pending holds it twice, offered once.
    assert state.view(RED)["pending"] == ["b2", "b2"]
    assert state.legal_moves() == ["b2"]
    state = state.play("b2")
    assert state.to_move == RED and state.legal_moves() == ["b2"]
    state = state.play("b2")
    assert column(state, "b2") == "rr" and state.to_move == BLUE


def test_running_out_of_cubes_drops_the_remaining_forced_targets():
    state = position(DOUBLE_TARGET, hands=(2, 10)).play("b1").play("c1")
    assert state.hands == (0, 10) and state.to_move == BLUE
    assert state.to_json()["pending"] == []
    assert column(state, "b2") == "" and column(state, "c2") == ""


def test_last_cube_in_a_normal_placement_drops_its_forced_targets():
    state = position({"a1": "rr", "b2": "bb", "c1": "b", "d1": "b"}, hands=(1, 10)).play("c1")
    assert state.hands == (0, 10) and state.to_move != RED
    assert column(state, "b1") == "" and state.to_json()["pending"] == []


# --- one hand empty ------------------------------------------------------------------------------


def test_when_one_hand_is_empty_the_other_player_moves_again():
    state = position({"a1": "b", "b1": "b", "c1": "b", "d1": "b"}, hands=(5, 0), to_move=RED)
    legal = state.legal_moves()
    assert legal and all(state.heights[INDEX[5][m]] > 0 for m in legal)
    state = state.play(legal[0])
    assert state.to_move == RED


def test_normal_placement_never_goes_on_an_empty_square_once_a_hand_is_empty():
    state = position({"c3": "b", "c2": "b"}, hands=(5, 0))
    with pytest.raises(IllegalMove, match="empty square"):
        state.play("a1")
    assert position({"c3": "b", "c2": "b"}, hands=(5, 5)).play("a1").to_move == BLUE


def test_forced_cube_may_go_on_an_empty_square_once_a_hand_is_empty():
    state = position({"a1": "b", "a2": "b", "c1": "br"}, hands=(3, 0))
    assert state.legal_moves() == ["a1", "a2"]
    state = state.play("a1")  # red on top of a1 at height 2, like c1
    assert state.legal_moves() == ["b1"] and column(state, "b1") == ""
    state = state.play("b1")
    assert column(state, "b1") == "r" and state.to_move == RED


def test_game_ends_when_both_hands_are_empty():
    state = position({"c3": "b", "c2": "b"}, hands=(1, 0)).play("c3")
    assert state.is_over and state.legal_moves() == [] and state.to_move is None


# --- pass and the end ----------------------------------------------------------------------------

DEAD_HEIGHTS = [1 if (i % 5 + i // 5) % 2 == 0 else 3 for i in range(25)]


def test_game_ends_when_neither_player_can_place_even_with_cubes_in_hand():
    heights = list(DEAD_HEIGHTS)
    heights[INDEX[5]["c3"]] = 0
    state = from_heights(heights)
    assert state.legal_moves() == ["c3"]
    state = state.play("c3")
    assert state.is_over and state.hands == (9, 10)
    assert state.result is not None


def test_pass_is_the_only_move_of_a_player_with_cubes_but_no_placement():
    # Both players share the staircase squares while both hold cubes, so play never reaches this;
    # the engine still answers with a pass when asked.
    state = from_heights(DEAD_HEIGHTS, to_move=RED)
    assert state.legal_moves() == ["pass"] and state.forced_move() == "pass"
    state = state.play("PASS")
    assert state.view(None)["last_move"] == {"move": "pass", "seat": RED}
    assert state.is_over  # blue cannot place either


def test_pass_is_illegal_while_a_placement_exists():
    assert GAME.new_state().forced_move() is None
    with pytest.raises(IllegalMove, match="pass"):
        GAME.new_state().play("pass")


def test_more_squares_topped_wins():
    result = position({"a1": "r", "b1": "r", "c1": "bbb"}, to_move=None).result
    assert result.winners == (RED,) and result.ranking == ((RED,), (BLUE,))
    assert result.scores == (2, 1) and result.reason == "most_tops"


def test_tie_goes_to_the_colour_topping_more_of_the_tallest_towers():
    result = position({"a1": "r", "b1": "r", "c1": "rb", "d1": "b"}, to_move=None).result
    assert result.winners == (BLUE,) and result.details["decided_at_height"] == 2


def test_tie_on_the_tallest_towers_goes_to_the_next_lower_height():
    cubes = {"a1": "rrr", "b1": "bbb", "c1": "rr", "d1": "b"}
    result = position(cubes, to_move=None).result
    assert result.winners == (RED,) and result.details["decided_at_height"] == 2
    assert result.ranking == ((RED,), (BLUE,))


def test_all_equal_is_a_draw():
    result = position({"a1": "rr", "b1": "bb", "c1": "r", "d1": "b"}, to_move=None).result
    assert result.winners == () and result.ranking == ((0, 1),) and result.is_draw
    assert result.reason == "draw"


# --- variants, notation, view --------------------------------------------------------------------


@pytest.mark.parametrize(("size", "cubes"), [(5, 25), (6, 36), (7, 49)])
def test_each_board_size_gives_size_squared_cubes(size, cubes):
    state = GAME.new_state(options={"size": size})
    assert state.hands == (cubes, cubes) and len(state.legal_moves()) == size * size


def test_unknown_sizes_are_refused():
    with pytest.raises(ValueError):
        GAME.new_state(options={"size": 4})


def test_registered_as_scalas():
    assert registry.get("scalas") is GAME


def test_moves_are_forgiving_of_case_and_spaces():
    state = GAME.new_state().play(" C 3 ")
    assert state.last_move == "c3" and column(state, "c3") == "r"


@pytest.mark.parametrize("move", ["zz", "f6", "", "c3-d4", "a0", None, ["c3"]])
def test_garbage_moves_raise_illegal_move(move):
    with pytest.raises(IllegalMove):
        GAME.new_state().play(move)


def test_view_has_towers_hands_phase_and_score():
    state = position(DOUBLE_TARGET).play("b1")
    view = state.view(BLUE)
    json.dumps(view)
    assert view["size"] == 5 and view["to_move"] == RED and view["phase"] == "forced"
    squares = {square["name"]: square for square in view["squares"]}
    assert squares["b1"] == {
        "name": "b1",
        "file": 1,
        "rank": 0,
        "height": 1,
        "column": [RED],
        "top": RED,
    }
    assert squares["e5"]["top"] is None
    assert view["hands"] == [9, 10] and view["score"] == [5, 0]
    assert view["legal_squares"] == ["c1", "b2"] and view["last_move"]["move"] == "b1"
    assert view == state.view(RED) | {"seat": BLUE}  # no secrets: every seat sees the same


def test_play_never_mutates_and_json_round_trips():
    state = position(DOUBLE_TARGET)
    before = state.to_json()
    after = state.play("b1")
    assert state.to_json() == before
    assert GAME.from_json(json.loads(json.dumps(after.to_json()))) == after


# --- shared properties ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_games_keep_the_contract_on_5x5(seed):
    final = check_random_game(GAME, seed, options={"size": 5})
    assert final.result is not None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_games_keep_the_contract_on_6x6(seed):
    check_random_game(GAME, seed, options={"size": 6})


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_games_keep_the_contract_on_7x7(seed):
    check_random_game(GAME, seed, options={"size": 7})
