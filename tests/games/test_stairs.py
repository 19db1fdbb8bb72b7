"""Stairs rules, one behaviour per test; positions are built from small pictures of the board."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from games import IllegalMove, registry
from games.stairs import GAME
from games.stairs.engine import SQUARES
from tests.games.properties import check_random_game, play_random_game


def position(
    rows: list[str],
    to_move: str = "light",
    seat_colours: tuple[str, str] = ("light", "dark"),
    ply: int = 10,
    arrivals: dict[str, list[list[int]]] | None = None,
    swap: bool = False,
    last_move: str | None = None,
):
    """A state from six rows (rank 6 first), stacks written bottom to top, '.' for an empty square.

    Without ``arrivals`` every piece is taken to have reached its height at ply 0.
    """
    assert len(rows) == 6
    board = [""] * 36
    for r, row in enumerate(rows):
        cells = row.split()
        assert len(cells) == 6
        for f, cell in enumerate(cells):
            board[(5 - r) * 6 + f] = "" if cell == "." else cell
    if arrivals is None:
        arrivals = {"light": [], "dark": []}
        for stack in board:
            for level, letter in enumerate(stack, start=1):
                plies = arrivals["light" if letter == "L" else "dark"]
                while len(plies) < level:
                    plies.append([])
                plies[level - 1].append(0)
    return GAME.from_json(
        {
            "board": board,
            "colour_to_move": to_move,
            "seat_colours": list(seat_colours),
            "ply": ply,
            "last_move": last_move,
            "arrivals": arrivals,
            "options": {"swap": swap},
        }
    )


def height(state, square: str) -> int:
    return state.view(None)["heights"][SQUARES.index(square)]


def top(state, square: str) -> str | None:
    stack = state.view(None)["board"][SQUARES.index(square)]
    return stack[-1] if stack else None


# ----- setup -----------------------------------------------------------------------------------


def test_game_is_registered_for_two_players():
    assert registry.get("stairs") is GAME
    with pytest.raises(ValueError):
        GAME.new_state(players=3)


def test_unknown_option_is_refused():
    with pytest.raises(ValidationError):
        GAME.new_state(options={"pie": True})


def test_setup_is_checkered_with_a1_light():
    view = GAME.new_state().view(None)
    board = dict(zip(view["squares"], view["board"], strict=True))
    assert board["a1"] == ["L"] and board["f6"] == ["L"]
    assert board["a6"] == ["D"] and board["f1"] == ["D"] and board["b1"] == ["D"]
    assert view["heights"] == [1] * 36
    assert sum(stack == ["L"] for stack in view["board"]) == 18
    assert sum(stack == ["D"] for stack in view["board"]) == 18


def test_light_moves_first_then_turns_alternate():
    state = GAME.new_state()
    assert state.to_move == 0 and state.view(0)["colour_to_move"] == "light"
    state = state.play(state.legal_moves()[0])
    assert state.to_move == 1 and state.view(0)["colour_to_move"] == "dark"
    state = state.play(state.legal_moves()[0])
    assert state.to_move == 0


def test_start_light_has_18_candidates_and_every_move_reaches_height_2():
    state = GAME.new_state()
    movable = state.view(0)["movable"]
    assert len(movable) == 18
    assert all(top(state, square) == "L" for square in movable)
    for move in state.legal_moves():
        target = move.split("-")[1]
        after = state.play(move)
        assert height(after, target) == 2 and top(after, target) == "L"


# ----- moving ----------------------------------------------------------------------------------


def test_height_2_piece_moves_only_onto_neighbouring_height_2_stacks():
    state = position(
        [
            ". . . . . LD",
            ". . . . . .",
            ". D LD DDL . .",
            ". LD DL . . .",
            ". L LD LDD . .",
            ". . . . . .",
        ]
    )
    assert state.legal_moves() == ["c3-c2", "c3-b3", "c3-c4"]
    with pytest.raises(IllegalMove, match="height 3"):
        state.play("c3-d2")
    with pytest.raises(IllegalMove, match="height 1"):
        state.play("c3-b2")


def test_lowest_first_only_the_two_dark_pieces_at_height_2_may_move():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            "LLD LLL . . . .",
            ". . . . . .",
            ". . . . . .",
            "LD LL . LD DL .",
        ],
        to_move="dark",
    )
    assert state.legal_moves() == ["a1-b1", "d1-e1"]
    assert state.view(None)["movable"] == {"a1": ["b1"], "d1": ["e1"]}
    with pytest.raises(IllegalMove, match="lowest first"):
        state.play("a4-b4")


def test_lowest_first_ignores_low_pieces_that_cannot_move():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            "LLD LLL . . . .",
            ". . . . . .",
            ". . . . . .",
            "D . . . . .",
        ],
        to_move="dark",
    )
    assert state.legal_moves() == ["a4-b4"]


def test_only_the_top_piece_of_your_colour_moves():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "DL LL DD LD . .",
        ],
        to_move="dark",
    )
    # a1's dark piece is buried under light; c1 and d1 hold dark tops at height 2.
    assert state.legal_moves() == ["c1-b1", "c1-d1", "d1-c1"]
    with pytest.raises(IllegalMove, match="not yours"):
        state.play("a1-b1")
    with pytest.raises(IllegalMove, match="not yours"):
        state.play("b1-a1")


def test_moves_go_to_any_of_the_eight_neighbours_of_either_colour():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". L D L . .",
            ". D L D . .",
            ". L D L . .",
            ". . . . . .",
        ]
    )
    assert state.view(None)["movable"]["c3"] == ["b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"]


def test_leaving_a_height_1_stack_empties_the_square_and_nothing_lands_there():
    state = GAME.new_state().play("a1-b1")
    assert height(state, "a1") == 0 and top(state, "a1") is None
    for destinations in state.view(None)["movable"].values():
        assert "a1" not in destinations
    with pytest.raises(IllegalMove, match="no piece on a1"):
        state.play("a1-a2")
    with pytest.raises(IllegalMove, match="height 0"):
        state.play("a2-a1")


def test_a_move_raises_the_piece_exactly_one_level():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "DLL DDL . . . .",
        ]
    )
    after = state.play("a1-b1")
    assert after.view(None)["board"][:2] == [["D", "L"], ["D", "D", "L", "L"]]
    assert after.view(None)["heights"][:2] == [2, 4]


def test_legal_moves_are_ordered_by_source_then_target_square():
    moves = GAME.new_state().legal_moves()
    index = {name: i for i, name in enumerate(SQUARES)}
    keys = [tuple(index[s] for s in move.split("-")) for move in moves]
    assert keys == sorted(keys)


# ----- passing and the end ---------------------------------------------------------------------


def test_pass_is_forced_when_you_have_no_legal_move():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "L . D D . L",
        ]
    )
    assert state.legal_moves() == ["pass"]
    assert state.forced_move() == "pass"  # the service plays it without asking
    assert state.view(0)["must_pass"] is True
    with pytest.raises(IllegalMove, match="must pass"):
        state.play("f1-e1")
    after = state.play("pass")
    assert after.to_move == 1 and after.view(0)["last_move"] == "pass"
    assert after.view(None)["board"] == state.view(None)["board"]
    assert after.legal_moves() == ["c1-d1", "d1-c1"]


def test_pass_is_refused_while_a_legal_move_exists():
    state = GAME.new_state()
    assert "pass" not in state.legal_moves() and state.forced_move() is None
    with pytest.raises(IllegalMove, match="only when you have no legal move"):
        state.play("pass")


def test_game_ends_when_neither_player_can_move():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "L . D . LD .",
        ]
    )
    assert state.is_over and state.to_move is None and state.legal_moves() == []
    assert state.result is not None and state.result.winners == (1,)
    with pytest.raises(IllegalMove, match="over"):
        state.play("a1-b1")


def test_random_games_end_and_never_draw():
    for seed in range(30):
        final, moves, _ = play_random_game(GAME, seed)
        assert final.is_over and len(moves) < 36 * 8
        assert len(final.result.winners) == 1 and not final.result.is_draw


# ----- winner ----------------------------------------------------------------------------------


def test_the_player_with_a_piece_at_the_greatest_height_wins():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "LLLD LLL LLL . . .",
        ]
    )
    result = state.score_now()
    assert result.winners == (1,) and result.ranking == ((1,), (0,))
    assert result.reason == "highest_piece" and result.details["max_height"] == 4


def test_more_pieces_at_the_greatest_height_wins():
    state = position(
        [
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            ". . . . . .",
            "LLD DDL DDL . . .",
        ]
    )
    result = state.score_now()
    assert result.winners == (0,) and result.reason == "most_at_top"
    assert result.details["counts"] == [2, 1]


def test_tie_at_the_greatest_height_goes_to_who_reached_it_first():
    rows = [
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        "LLD DDL . . . .",
    ]
    early_dark = {"light": [[0, 0, 0], [0, 0], [7]], "dark": [[0, 0, 0], [0, 0], [5]]}
    early_light = {"light": [[0, 0, 0], [0, 0], [3]], "dark": [[0, 0, 0], [0, 0], [5]]}
    assert position(rows, arrivals=early_dark).score_now().winners == (1,)
    result = position(rows, arrivals=early_light).score_now()
    assert result.winners == (0,) and result.reason == "first_to_top"
    assert result.details["arrival_plies"] == [3, 5]


def test_tie_break_compares_the_ply_of_the_c_th_arrival():
    rows = [
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        "LLD DDL LLD DDL . .",
    ]
    # Light reached height 3 first, but dark completed its pair earlier (ply 8 against 9).
    arrivals = {"light": [[0] * 6, [0] * 4, [4, 9]], "dark": [[0] * 6, [0] * 4, [5, 8]]}
    result = position(rows, arrivals=arrivals).score_now()
    assert result.winners == (1,) and result.details["arrival_plies"] == [9, 8]


def test_arrival_plies_are_recorded_as_pieces_climb():
    state = GAME.new_state().play("a1-b1").play("a2-b2").play("c1-c2")
    arrivals = state.to_json()["arrivals"]
    assert arrivals["light"][1] == [1, 3] and arrivals["dark"][1] == [2]


def test_start_position_scores_as_a_light_win_since_arrival_plies_cannot_separate():
    result = GAME.new_state().score_now()
    assert result.winners == (0,) and result.details["arrival_plies"] == [0, 0]


def test_scoring_early_applies_the_winner_rules_to_the_current_position():
    state = GAME.new_state()
    for move in ["a1-b1", "a2-b2", "c1-c2", "f1-f2"]:
        state = state.play(move)
    assert not state.is_over and state.result is None
    early = state.score_now()
    # Heights 2: light b1, c2; dark b2, f2 — light's second piece arrived at ply 3, dark's at 4.
    assert early.winners == (0,) and early.reason == "first_to_top"
    assert early.details["final"] is False and early.details["arrival_plies"] == [3, 4]


def test_normal_end_uses_the_same_scoring_as_an_early_end():
    final, _, _ = play_random_game(GAME, 7)
    assert final.result == final.score_now() and final.result.details["final"] is True


# ----- pie rule --------------------------------------------------------------------------------


def test_swap_is_not_offered_without_the_option():
    state = GAME.new_state().play("a1-b1")
    assert "swap" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="not enabled"):
        state.play("swap")


def test_swap_is_offered_only_as_darks_first_reply():
    state = GAME.new_state(options={"swap": True})
    assert "swap" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="only as dark's reply"):
        state.play("swap")
    state = state.play("a1-b1")
    assert state.legal_moves()[-1] == "swap" and state.view(1)["can_swap"] is True
    later = state.play("a2-b2")
    assert "swap" not in later.legal_moves()
    assert "swap" not in later.play(later.legal_moves()[0]).legal_moves()


def test_swap_gives_the_first_player_dark_and_the_move_again():
    state = GAME.new_state(options={"swap": True}).play("a1-b1")
    swapped = state.play("swap")
    view = swapped.view(0)
    assert view["colours"] == ["dark", "light"] and view["your_colour"] == "dark"
    assert swapped.to_move == 0 and view["colour_to_move"] == "dark"
    assert view["board"] == state.view(0)["board"] and view["ply"] == 2
    assert view["last_move"] == "swap" and "swap" not in swapped.legal_moves()
    assert swapped.legal_moves() == state.legal_moves()[:-1]  # dark's piece moves, now for seat 0
    after = swapped.play(swapped.legal_moves()[0])
    assert after.to_move == 1 and after.view(1)["your_colour"] == "light"


def test_result_speaks_of_seats_after_a_swap():
    rows = [
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        ". . . . . .",
        "LLLD LLL . . . .",
    ]
    state = position(rows, seat_colours=("dark", "light"), swap=True)
    assert state.is_over and state.result.winners == (0,)
    assert state.view(1)["leader"] == 0


# ----- notation and illegal moves --------------------------------------------------------------


def test_notation_is_forgiving_of_case_and_spaces():
    state = GAME.new_state(options={"swap": True})
    expected = state.play("a1-b1")
    for spelling in ["A1-B1", " a1 - b1 ", "a1b1", "A1 B1"]:
        assert state.play(spelling) == expected
    assert expected.play(" SWAP ") == expected.play("swap")
    lonely = position(
        [". . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", "L . D D . L"]
    )
    assert lonely.play("Pass") == lonely.play("pass")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("zz-not-a-move", "not a move"),
        ("g1-h2", "not a move"),
        ("", "not a move"),
        ("a1-a1", "neighbouring square"),
        ("a1-c3", "not next to a1"),
        ("b1-c1", "not yours"),
    ],
)
def test_illegal_moves_come_with_a_reason(move, reason):
    with pytest.raises(IllegalMove, match=reason):
        GAME.new_state().play(move)


def test_a_non_string_move_is_illegal():
    with pytest.raises(IllegalMove):
        GAME.new_state().play(None)  # type: ignore[arg-type]


# ----- view ------------------------------------------------------------------------------------


def test_every_seat_gets_the_same_view_apart_from_its_own_seat():
    state = GAME.new_state().play("a1-b1")
    views = [state.view(seat) for seat in (None, 0, 1)]
    strip = [{k: v for k, v in view.items() if k not in ("seat", "your_colour")} for view in views]
    assert strip[0] == strip[1] == strip[2]
    assert views[1]["your_colour"] == "light" and views[2]["your_colour"] == "dark"


def test_view_lists_movable_pieces_matching_the_legal_moves():
    state = GAME.new_state().play("a1-b1")
    view = state.view(1)
    movable = view["movable"].items()
    pairs = [f"{source}-{target}" for source, targets in movable for target in targets]
    assert pairs == view["legal_moves"] == state.legal_moves()
    assert view["max_height"] == 2 and view["max_height_counts"] == [1, 0]
    assert view["last_move"] == "a1-b1" and view["ply"] == 1 and view["to_move"] == 1
    json.dumps(view)


def test_play_never_mutates_and_json_round_trips():
    state = GAME.new_state(options={"swap": True})
    before = state.to_json()
    following = state.play("a1-b1").play("swap")
    assert state.to_json() == before
    assert GAME.from_json(json.loads(json.dumps(following.to_json()))) == following


# ----- shared properties -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_games_keep_the_engine_contract(seed):
    final = check_random_game(GAME, seed)
    assert len(final.result.winners) == 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_games_with_the_pie_rule_keep_the_engine_contract(seed):
    check_random_game(GAME, seed, options={"swap": True})


def test_random_swap_games_place_the_first_player_on_dark():
    rng = random.Random(5)
    state = GAME.new_state(options={"swap": True})
    state = state.play(rng.choice(state.legal_moves())).play("swap")
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assert state.view(0)["colours"] == ["dark", "light"]
    assert len(state.result.winners) == 1


# ----- bot playout hint ----------------------------------------------------------------------


def test_the_playout_hint_climbs_onto_its_own_stacks():
    """In a position where few moves climb onto one's own stacks, the hint picks those most of
    the time (a quarter of its picks stay uniformly random)."""
    rng = random.Random(2)
    state = GAME.new_state()
    while True:
        moves = state.legal_moves()
        actions = state._legal()
        own = [m for m in moves
               if isinstance(actions[m], tuple) and state._tops[actions[m][1]] == state._colour]
        if own and len(own) / len(moves) < 0.4:
            break
        state = state.play(moves[rng.randrange(len(moves))])
    picks = [state.playout_move(moves, rng) for _ in range(400)]
    share = sum(pick in own for pick in picks) / len(picks)
    assert share > 0.75, share  # uniformly random would give under 0.4
