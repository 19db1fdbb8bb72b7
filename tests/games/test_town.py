"""Town of Stairs: one test per rule, the rules file's checks, hidden information, properties."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from games import IllegalMove, registry
from games.town import GAME, engine
from games.town import cards as town_cards
from tests.games.properties import check_random_game, play_random_game

PATHS = [f"P{i}" for i in range(1, 15)]
EVENTS = [f"E{i}" for i in range(1, 15)]
FILLER = "E2"  # bakery, no corner icons: a plain card for the parts of a town a test ignores


# -- helpers -----------------------------------------------------------------------------------


def build_state(
    rows: dict[int, list[str | None]],
    offer: list[str | None],
    path_deck: list[str] | None = None,
    event_deck: list[str] | None = None,
    players: int = 2,
) -> engine.TownState:
    """A phase-1 position: rows 1–4 given as 7 cards (or None), the offer and the decks."""
    data = GAME.new_state(players, seed=0).to_json()
    grid: list[str | None] = [None] * 28
    for row, cards in rows.items():
        grid[(row - 1) * 7 : row * 7] = cards
    data.update(grid=grid, offer=offer, path_deck=path_deck or [], event_deck=event_deck or [])
    return GAME.from_json(data)


def seaside_step(number: int) -> dict[str, Any]:
    return {
        "pos": f"{'abcdefg'[number - 1]}0",
        "col": number - 1,
        "row": 0,
        "side": None,
        "dir": None,
        "diary": None,
        "action": None,
        "chosen": False,
    }


def walk_state(
    rows: dict[int, list[str]],
    start: int,
    walker: int = 0,
    players: int = 2,
) -> engine.TownState:
    """A phase-2 position: ``walker`` stands on seaside ``start``; unnamed rows hold FILLER."""
    data = GAME.new_state(players, seed=0).to_json()
    grid = [FILLER] * 28
    for row, cards in rows.items():
        grid[(row - 1) * 7 : row * 7] = cards
    starts = [n for n in range(1, 8) if n != start][:players]
    starts[walker] = start
    walks: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for seat in range(walker):
        walks[seat] = [seaside_step(starts[seat])]
    walks[walker] = [seaside_step(start)]
    data.update(
        phase="walk",
        turn=walker,
        grid=grid,
        offer=[None, None],
        path_deck=[],
        event_deck=[],
        lighthouse=3,
        start_cards=starts,
        walks=walks,
        pending=["UR", "UL"],
        walk_end=["loop" if seat < walker else None for seat in range(players)],
    )
    return GAME.from_json(data)


def positions(state: engine.TownState, seat: int) -> list[str]:
    return [step["pos"] for step in state.view(None)["walks"][seat]]


def slots_for(state: engine.TownState, card: str) -> list[str]:
    return state.view(None)["legal_slots"][card]


ROW_FULL_ROW1 = ["P2", "E1", "P4", "E3", "P5", "E4", "E6"]  # 3 stairs, 4 others


# -- game facts and options --------------------------------------------------------------------


def test_game_facts_declare_hidden_information_and_chance():
    game = registry.get("town")
    assert game is GAME
    assert (game.min_players, game.max_players) == (2, 4)
    assert game.hidden_information and game.has_chance


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_is_refused(players):
    with pytest.raises(ValueError):
        GAME.new_state(players)


def test_seats_get_red_blue_green_yellow_in_order():
    view = GAME.new_state(4, seed=1).view(None)
    assert view["colours"] == ["red", "blue", "green", "yellow"]
    assert view["characters"][0] == {"colour": "red", "interests": ["books", "cafe", "view"]}


def test_fixed_deal_gives_the_offers_and_start_cards():
    path = PATHS[::-1]
    event = EVENTS[3:] + EVENTS[:3]
    state = GAME.new_state(3, {"path_deck": path, "event_deck": event, "start_cards": [5, 1, 7]})
    view = state.view(1)
    assert view["offer"] == ["P14", "E4"]
    assert view["deck_sizes"] == {"path": 13, "event": 13}
    assert [state.view(seat)["start_cards"][seat] for seat in range(3)] == [5, 1, 7]


def test_without_options_the_deal_is_a_seeded_shuffle():
    assert GAME.new_state(2, seed=7) == GAME.new_state(2, seed=7)
    deals = {json.dumps(GAME.new_state(2, seed=s).to_json()) for s in range(10)}
    assert len(deals) == 10
    data = GAME.new_state(4, seed=3).to_json()
    assert sorted(data["path_deck"] + [data["offer"][0]]) == sorted(PATHS)
    assert len(set(data["start_cards"])) == 4 and set(data["start_cards"]) <= set(range(1, 8))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"path_deck": PATHS[:-1]}, "missing P14"),
        ({"path_deck": [*PATHS[:-1], "P1"]}, "repeated P1"),
        ({"path_deck": [*PATHS[:-1], "E1"]}, "unknown E1"),
        ({"event_deck": PATHS}, "event_deck must list each of E1–E14"),
        ({"start_cards": [0, 3]}, "from 1 to 7"),
        ({"start_cards": [8, 3]}, "from 1 to 7"),
        ({"start_cards": [2, 2]}, "distinct"),
        ({"decks": []}, "Extra inputs"),
    ],
)
def test_invalid_options_are_refused_with_a_clear_error(options, message):
    with pytest.raises(ValidationError, match=message):
        GAME.new_state(2, options)


def test_start_cards_must_match_the_number_of_players():
    with pytest.raises(ValueError, match="one card per seat: 3 expected, 2 given"):
        GAME.new_state(3, {"start_cards": [1, 2]})


# -- phase 1: building -------------------------------------------------------------------------


def test_first_placements_go_in_row_one():
    state = GAME.new_state(2, {"path_deck": PATHS, "event_deck": EVENTS})
    assert state.legal_moves()[:7] == [f"P1@{c}1" for c in "abcdefg"]
    assert set(slots_for(state, "E1")) == {f"{c}1" for c in "abcdefg"}


def test_placement_must_touch_the_seaside_or_a_card_without_wrap_around():
    state = build_state({1: [None] * 6 + ["E3"], 2: [None] * 6 + ["E4"]}, ["P1", "E1"])
    slots = slots_for(state, "E1")
    assert "f2" in slots and "g3" in slots and "a1" in slots
    assert "a2" not in slots and "a3" not in slots and "f3" not in slots


def test_row_with_three_stairs_accepts_only_non_stairs():
    state = build_state(
        {1: ROW_FULL_ROW1, 2: ["P7", "P9", "P10", None, None, None, None]},
        ["P1", "E2"],
        ["P3"],
        ["E5"],
    )
    assert not any(slot.endswith("2") for slot in slots_for(state, "P1"))
    assert {"d2", "e2", "f2", "g2"} <= set(slots_for(state, "E2"))


def test_row_whose_empty_slots_equal_its_missing_stairs_accepts_only_stairs():
    state = build_state({1: ["E1", "E3", "E4", "E6", None, None, None]}, ["P1", "E2"])
    assert {"e1", "f1", "g1"} <= set(slots_for(state, "P1"))
    assert not any(slot.endswith("1") for slot in slots_for(state, "E2"))
    assert slots_for(state, "E2") == ["a2", "b2", "c2", "d2"]


def test_the_two_non_stairs_path_cards_do_not_count_as_stairs():
    state = build_state({1: ["P13", "P14", "E4", "E6", None, None, None]}, ["P1", "E2"])
    assert slots_for(state, "E2") == ["a2", "b2", "c2", "d2"]  # row 1 still needs 3 stairs


def test_placing_turns_up_a_replacement_from_the_same_deck():
    state = GAME.new_state(2, {"path_deck": PATHS, "event_deck": EVENTS})
    after = state.play("P1@a1")
    assert after.view(None)["offer"] == ["P2", "E1"]
    assert after.view(None)["deck_sizes"] == {"path": 12, "event": 13}
    after = after.play("E1@b1")
    assert after.view(None)["offer"] == ["P2", "E2"]
    assert after.view(None)["last_move"] == {"seat": 1, "move": "E1@b1"}


def test_when_a_deck_is_empty_only_the_other_offer_card_can_be_placed():
    state = build_state({1: ROW_FULL_ROW1}, ["P1", "E2"], [], ["E5"])
    after = state.play("P1@a2")
    assert after.view(None)["offer"] == [None, "E2"]
    assert after.legal_moves() and all(move.startswith("E2@") for move in after.legal_moves())


def test_placements_alternate_in_seat_order():
    state = GAME.new_state(3, seed=4)
    seen = []
    for _ in range(7):
        seen.append(state.to_move)
        state = state.play(state.legal_moves()[0])
    assert seen == [0, 1, 2, 0, 1, 2, 0]


def test_fallback_waives_adjacency_when_no_offer_card_has_a_slot(monkeypatch):
    # With the real tables rule 1 can never block both cards (see the report); simulate a town
    # where nothing is adjacent to anything, so only the seaside row would count.
    monkeypatch.setattr(engine, "NEIGHBOURS", tuple(() for _ in range(28)))
    monkeypatch.setattr(engine, "NEIGHBOUR_MASKS", (0,) * 28)  # the same table as bits
    state = build_state({1: ROW_FULL_ROW1}, ["P1", "E2"], ["P3"], ["E5"])
    assert state.view(None)["fallback"] is True
    assert "P1@g4" in state.legal_moves() and "E2@a3" in state.legal_moves()
    assert GAME.new_state(2, seed=1).view(None)["fallback"] is False


def test_every_row_ends_with_three_stairs_and_the_lighthouse_starts_the_walks():
    for seed in range(20):
        state = GAME.new_state(2, seed=seed)
        rng = random.Random(seed)
        while state.phase == "build":
            state = state.play(rng.choice(state.legal_moves()))
        view = state.view(None)
        assert view["fallback"] is False
        for row in view["grid"]:
            assert sum(town_cards.IS_STAIRS[card] for card in row) == 3
        assert view["lighthouse"] == "d5"
        assert view["phase"] == "walk" and view["walker"] == 0 and view["to_move"] == 0
        assert state.legal_moves() == ["UR", "UL"]


def test_moves_are_forgiving_of_case_and_spaces():
    state = GAME.new_state(2, {"path_deck": PATHS, "event_deck": EVENTS})
    assert state.play(" p1 @ A1 ") == state.play("P1@a1")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("hello", "not a placement"),
        ("P2@a1", "P2 is not on offer"),
        ("P1@a3", "P1 cannot go in a3"),
        ("P1@h1", "not a placement"),
        ("UR", "not a placement"),
    ],
)
def test_illegal_placements_are_refused_with_a_reason(move, reason):
    state = GAME.new_state(2, {"path_deck": PATHS, "event_deck": EVENTS})
    with pytest.raises(IllegalMove, match=reason):
        state.play(move)


def test_occupied_slot_is_refused():
    state = GAME.new_state(2, {"path_deck": PATHS, "event_deck": EVENTS}).play("P1@a1")
    with pytest.raises(IllegalMove, match="already built on"):
        state.play("E1@a1")


# -- phase 2: walking --------------------------------------------------------------------------


def test_a_walk_starts_with_the_choice_of_up_right_or_up_left():
    state = walk_state({}, start=3)
    assert state.legal_moves() == ["UR", "UL"]
    assert state.view(None)["pending"] == ["UR", "UL"]
    assert positions(state.play("UR"), 0)[:2] == ["c0", "d1"]
    assert positions(state.play("UL"), 0)[:2] == ["c0", "b1"]


def test_up_right_from_seaside_seven_wraps_to_a1():
    after = walk_state({}, start=7).play("UR")
    first = after.view(None)["walks"][0][1]
    assert (first["pos"], first["side"], first["dir"]) == ("a1", "left", "right")


def test_up_left_from_seaside_one_wraps_to_g1():
    after = walk_state({}, start=1).play("UL")
    first = after.view(None)["walks"][0][1]
    assert (first["pos"], first["side"], first["dir"]) == ("g1", "right", "left")


def test_walking_straight_wraps_round_the_columns():
    after = walk_state({}, start=6).play("UR")  # g1, then straight right into a1
    assert positions(after, 0)[1:3] == ["g1", "a1"]


def test_up_right_in_bottom_left_fires_from_the_left():
    after = walk_state({1: ["E2", "E2", "P2", "E2", "E2", "E2", "E2"]}, start=2).play("UR")
    walk = after.view(None)["walks"][0]
    assert walk[1]["pos"] == "c1" and walk[1]["action"] == "UR" and not walk[1]["chosen"]
    assert walk[2]["pos"] == "d2" and walk[2]["side"] == "left"


def test_up_right_in_bottom_left_does_not_fire_from_the_right():
    after = walk_state({1: ["E2", "E2", "P2", "E2", "E2", "E2", "E2"]}, start=4).play("UL")
    walk = after.view(None)["walks"][0]
    assert walk[1]["pos"] == "c1" and walk[1]["action"] == "straight"
    assert walk[2]["pos"] == "b1" and walk[2]["row"] == 1


def test_up_left_in_bottom_right_fires_from_the_right():
    after = walk_state({1: ["E2", "E2", "P7", "E2", "E2", "E2", "E2"]}, start=4).play("UL")
    assert positions(after, 0)[1:3] == ["c1", "b2"]


def test_moving_right_past_three_up_left_stairs_loops_the_row_and_ends_the_walk():
    row = ["P7", "P9", "P10", "E1", "E11", "E1", "E11"]
    after = walk_state({1: row}, start=7).play("UR")
    view = after.view(None)
    assert positions(after, 0) == ["g0", "a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    assert view["walk_end"][0] == "loop"
    assert view["diaries"][0] == ["cafe"]  # E1 and E11 are both cafés: taken once
    assert view["walker"] == 1 and after.legal_moves() == ["UR", "UL"]


def test_entering_a_card_from_its_other_side_is_not_a_loop():
    row = ["E1", "P13", "E2", "E2", "E2", "E2", "E2"]  # P13 BL rev:blue: blue turns round at b1
    after = walk_state({1: row}, start=7, walker=1).play("UR")
    walk = after.view(None)["walks"][1]
    assert [(s["pos"], s["side"]) for s in walk[1:4]] == [
        ("a1", "left"),
        ("b1", "left"),
        ("a1", "right"),
    ]
    # ... round the row leftwards, b1 again from its right, then a1 from the right would repeat.
    assert (walk[-1]["pos"], walk[-1]["side"]) == ("b1", "right")
    assert after.view(None)["walk_end"][1] == "loop"


def test_reverse_icon_turns_its_colour_round_compulsorily():
    row = ["E1", "P13", "E2", "E2", "E2", "E2", "E2"]
    after = walk_state({1: row}, start=7, walker=1).play("UR")
    step = after.view(None)["walks"][1][2]
    assert (step["pos"], step["action"], step["chosen"]) == ("b1", "rev", False)


def test_reverse_icon_of_another_colour_is_ignored():
    row = ["E1", "P13", "E3", "E2", "E2", "E2", "E2"]  # BL rev:blue; red walks on
    after = walk_state({1: row}, start=7).play("UR")
    assert positions(after, 0)[1:4] == ["a1", "b1", "c1"]


def test_p13_turns_blue_round_from_the_left_and_red_from_the_right():
    faces = town_cards.catalogue()["P13"]
    assert (faces["bl"], faces["br"]) == (["rev:blue"], ["rev:red"])
    row = ["E2", "E2", "E2", "P13", "E2", "E2", "E2"]
    red_from_right = walk_state({1: row}, start=6).play("UL")  # e1, then d1 from its right
    assert [s["pos"] for s in red_from_right.view(None)["walks"][0][1:4]] == ["e1", "d1", "e1"]
    red_from_left = walk_state({1: row}, start=2).play("UR")  # c1, then d1 from its left
    assert positions(red_from_left, 0)[1:4] == ["c1", "d1", "e1"]


def test_the_sheets_example_move_two_red_turns_round_on_card_four():
    """The sheet's 移動その2: red, moving left from the right-hand card ①, passes ② (P1: its
    icons are bottom-left, red came from the right), goes on through ③, turns round on ④ (red's
    reverse icon, bottom right), comes back through ③ (now ⑤) and climbs at ② from its left:
    the skip icon there is green's, so red must climb up-right."""
    row = ["E2", "E2", "E2", "P13", "E3", "P1", "E4"]  # ④ d1, ③ e1, ② f1, ① g1
    after = walk_state({1: row}, start=1).play("UL")  # UL from seaside 1 wraps to g1
    walk = after.view(None)["walks"][0]
    assert [(s["pos"], s["side"], s["action"]) for s in walk[1:7]] == [
        ("g1", "right", "straight"),  # ①
        ("f1", "right", "straight"),  # ②: UR sits bottom-left, red came from the right
        ("e1", "right", "straight"),  # ③
        ("d1", "right", "rev"),  # ④: red's reverse icon in the bottom-right corner
        ("e1", "left", "straight"),  # ⑤
        ("f1", "left", "UR"),  # ② again, from the left: red climbs (skip is green's)
    ]
    assert (walk[7]["pos"], walk[7]["side"], walk[7]["dir"]) == ("g2", "left", "right")
    assert not any(step["chosen"] for step in walk[1:7])


def test_a_repeated_entry_ends_the_walk_when_no_climb_was_declined():
    row = ["E2", "E2", "P1", "E2", "E2", "E2", "E2"]  # red: P1's UR is compulsory, skip is green's
    rows = {1: row, 2: ["P7", "P9", "P10", "E2", "E2", "E2", "E2"]}
    after = walk_state(rows, start=7).play("UR")
    assert positions(after, 0) == ["g0", "a1", "b1", "c1", "d2", "e2", "f2", "g2", "a2",
                                   "b2", "c2"]
    assert after.view(None)["walk_end"][0] == "loop"


def test_after_declining_a_climb_with_skip_the_walker_walks_on_and_must_climb_there():
    """Rule A4: green skips at c1, walks round the row (a1 and b1 entered again from the left:
    it walks on), and on re-entering c1 from the left the climb is compulsory."""
    row = ["E2", "E2", "P1", "E2", "E2", "E2", "E2"]
    state = walk_state({1: row}, start=7, walker=2, players=3).play("UR")
    assert positions(state, 2)[-1] == "c1" and state.legal_moves() == ["UR", "straight"]
    after = state.play("straight")
    walk = after.view(None)["walks"][2]
    assert [s["pos"] for s in walk] == [
        "g0", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "a1", "b1", "c1", "d2", "e2", "f2",
        "g2", "a2", "b2", "c2",
    ]
    assert (walk[10]["action"], walk[10]["chosen"]) == ("UR", False)  # no skip offered again
    assert after.view(None)["walk_end"][2] == "loop"  # row 2 has no stairs: an ordinary loop


def test_a_third_entry_from_the_same_side_always_ends_the_walk():
    """Green declines at c1, turns round on P14 (BL rev:green) and circles leftwards: every card
    is entered from its right a second time (allowed after the decline), and the third entry into
    d1 from its right ends the walk before green is ever back at c1's left corner."""
    row = ["E2", "E2", "P1", "E2", "P14", "E2", "E2"]
    after = walk_state({1: row}, start=2, walker=2, players=3).play("UR").play("straight")
    walk = after.view(None)["walks"][2]
    assert [s["pos"] for s in walk] == [
        "b0", "c1", "d1", "e1", "d1", "c1", "b1", "a1", "g1", "f1", "e1",
        "d1", "c1", "b1", "a1", "g1", "f1", "e1",
    ]
    assert after.view(None)["walk_end"][2] == "loop"


def test_a_climb_clears_the_decline_for_the_next_row():
    """Green skips in row 1 and climbs later; in row 2 (no skip declined there) a repeated entry
    ends the walk again."""
    rows = {1: ["E2", "E2", "P1", "P2", "E2", "E2", "E2"], 2: ["E2"] * 7}
    after = walk_state(rows, start=7, walker=2, players=3).play("UR").play("straight")
    walk = after.view(None)["walks"][2]
    assert [s["pos"] for s in walk] == [
        "g0", "a1", "b1", "c1", "d1", "e2", "f2", "g2", "a2", "b2", "c2", "d2",
    ]
    assert after.view(None)["walk_end"][2] == "loop"


# -- rules versions: stored matches replay under the rules they were played with ---------------


def test_new_games_are_played_under_rules_version_three():
    state = GAME.new_state(2, seed=1)
    assert GAME.rules_version == 3 and state.rules_version == 3
    assert state.to_json()["rules_version"] == 3
    assert GAME.from_json(state.to_json()) == state


def test_a_stored_state_without_a_rules_version_is_version_one():
    data = GAME.replay_start(2, 2, None, 1).to_json()
    del data["rules_version"]
    old = GAME.from_json(data)
    assert old.rules_version == 1 and "rules_version" not in old.to_json()
    assert old.view(None)["cards"]["P13"]["bl"] == ["rev:red"]
    assert GAME.replay_start(1, 2, None, 1) == old
    assert GAME.replay_start(3, 2, None, 1) == GAME.new_state(2, seed=1)


def test_an_unknown_rules_version_is_refused():
    data = GAME.new_state(2, seed=1).to_json()
    with pytest.raises(ValueError, match="rules version"):
        GAME.from_json({**data, "rules_version": 9})
    with pytest.raises(ValueError, match="rules version"):
        GAME.replay_start(9, 2, None, 1)


def version_one(state: engine.TownState) -> engine.TownState:
    data = state.to_json()
    del data["rules_version"]
    return GAME.from_json(data)


def test_version_one_ends_a_walk_at_the_first_repeated_entry_even_after_a_skip():
    row = ["E2", "E2", "P1", "E2", "E2", "E2", "E2"]
    state = version_one(walk_state({1: row}, start=7, walker=2, players=3)).play("UR")
    after = state.play("straight")
    assert positions(after, 2) == ["g0", "a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    assert after.view(None)["walk_end"][2] == "loop"


def test_version_one_keeps_p13_reversing_red_from_the_left():
    row = ["E1", "P13", "E2", "E2", "E2", "E2", "E2"]
    after = version_one(walk_state({1: row}, start=7)).play("UR")
    assert after.view(None)["walks"][0][2]["action"] == "rev"
    assert after.rules_version == 1


@pytest.mark.parametrize("seed", range(12))
def test_a_version_one_game_replays_to_the_same_snapshot_from_its_start(seed):
    """What the app does with a stored match: rebuild from the seed under its rules version and
    replay the log; the result must equal the snapshot stored as it was played."""
    rng = random.Random(seed)
    state = GAME.replay_start(1, 3, None, seed)
    log = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        log.append(move)
        state = GAME.from_json(json.loads(json.dumps(state.play(move).to_json())))
    replayed = GAME.replay_start(1, 3, None, seed)
    for move in log:
        replayed = replayed.play(move)
    assert replayed.to_json() == state.to_json() and "rules_version" not in state.to_json()


def test_reverse_icon_on_an_event_card_applies_from_its_corner_side():
    row = ["E3", "E5", "E2", "E2", "E2", "E2", "E2"]  # E5: BL rev:blue
    after = walk_state({1: row}, start=7, walker=1).play("UR")
    walk = after.view(None)["walks"][1]
    assert walk[2]["pos"] == "b1" and walk[2]["diary"] == "shrine" and walk[2]["action"] == "rev"
    assert walk[3]["pos"] == "a1" and walk[3]["side"] == "right"


def test_skip_icon_gives_its_colour_the_choice_to_go_straight():
    row = ["P1", "E3", "E2", "E2", "E2", "E2", "E2"]  # P1: UR, skip:green
    state = walk_state({1: row}, start=7, walker=2, players=3).play("UR")
    assert state.to_move == 2 and state.legal_moves() == ["UR", "straight"]
    assert state.view(None)["pending"] == ["UR", "straight"]
    straight = state.play("straight")
    assert positions(straight, 2)[1:3] == ["a1", "b1"]
    assert straight.view(None)["walks"][2][1]["chosen"] is True
    assert positions(state.play("UR"), 2)[1:3] == ["a1", "b2"]


def test_skip_icon_of_another_colour_leaves_the_up_move_compulsory():
    row = ["P1", "E3", "E2", "E2", "E2", "E2", "E2"]
    after = walk_state({1: row}, start=7).play("UR")  # red
    assert positions(after, 0)[1:3] == ["a1", "b2"]


def test_several_applicable_icons_are_the_walkers_choice():
    assert town_cards._options(["UR", "rev:red"], "red") == ("UR", "rev")
    assert town_cards._options(["UR", "UL"], "blue") == ("UR", "UL")
    assert town_cards._options(["skip:red"], "red") == ("straight",)  # nothing to skip
    assert town_cards._options([], "red") == ("straight",)


def test_a_choice_is_refused_when_not_offered():
    state = walk_state({}, start=3)
    with pytest.raises(IllegalMove, match="walker may choose: UR, UL"):
        state.play("straight")
    with pytest.raises(IllegalMove, match="not a walk choice"):
        state.play("P1@a1")
    assert state.play(" ur ") == state.play("UR")


def test_event_icon_gives_its_diary_card_from_either_side():
    left = walk_state({1: ["E2"] * 6 + ["E10"]}, start=6).play("UR")
    right = walk_state({1: ["E10"] + ["E2"] * 6}, start=2).play("UL")
    assert left.view(None)["walks"][0][1]["diary"] == "view"
    assert right.view(None)["walks"][0][1]["diary"] == "view"


def test_duplicate_diary_cards_are_not_taken():
    row = ["E1", "E11", "E1", "E2", "E2", "E2", "E2"]
    after = walk_state({1: row}, start=7).play("UR")
    diaries = [step["diary"] for step in after.view(None)["walks"][0]]
    assert diaries[1:5] == ["cafe", None, None, "bakery"]
    assert after.view(None)["diaries"][0] == ["cafe", "bakery"]


def test_fifth_diary_card_ends_the_walk_at_once():
    row = ["E1", "E2", "E3", "E4", "P2", "E7", "E8"]
    rows = {1: row, 2: ["E6"] * 7}
    after = walk_state(rows, start=7).play("UR")
    view = after.view(None)
    assert positions(after, 0) == ["g0", "a1", "b1", "c1", "d1", "e1", "f2"]
    assert view["diaries"][0] == ["cafe", "bakery", "cat", "flowers", "books"]
    assert view["walk_end"][0] == "fifth diary card"
    assert view["walks"][0][-1]["action"] is None


def test_lighthouse_gives_the_sunset_and_ends_the_walk():
    rows = {
        1: ["P2"] + ["E2"] * 6,
        2: ["E2", "P4"] + ["E2"] * 5,
        3: ["E2", "E2", "P5"] + ["E2"] * 4,
        4: ["E2", "E2", "E2", "P11"] + ["E2"] * 3,
    }
    after = walk_state(rows, start=7).play("UR")
    view = after.view(None)
    assert positions(after, 0) == ["g0", "a1", "b2", "c3", "d4", "e5"]
    assert view["walks"][0][-1]["diary"] == "sunset"
    assert view["diaries"][0] == ["sunset"]
    assert view["walk_end"][0] == "lighthouse" and view["scores"][0] == 3


def test_walks_follow_seat_order_and_the_last_ends_the_game():
    row = ["P7", "P9", "P10", "E1", "E11", "E1", "E11"]
    state = walk_state({1: row}, start=7, walker=0, players=2).play("UR")
    assert state.to_move == 1 and not state.is_over
    done = state.play("UL")
    assert done.is_over and done.to_move is None and done.legal_moves() == []
    assert done.view(None)["phase"] == "over"


# -- scoring -----------------------------------------------------------------------------------


def test_diary_cards_score_two_for_an_interest_one_otherwise_and_three_for_sunset():
    assert engine.score_of(["cafe", "books", "view", "market", "sunset"], 0) == 10
    assert engine.score_of(["cafe", "books", "view", "market", "sunset"], 1) == 7


def finished(diaries: list[list[str]]) -> engine.TownState:
    data = GAME.new_state(len(diaries), seed=0).to_json()
    data.update(phase="over", turn=None, diaries=diaries, walk_end=["loop"] * len(diaries))
    return GAME.from_json(data)


def test_highest_score_wins():
    result = finished([["cafe", "books"], ["cafe"]]).result
    assert result.winners == (0,) and result.scores == (4, 1) and result.ranking == ((0,), (1,))


def test_tied_players_share_the_win_and_ranking_groups_by_score():
    result = finished([["cafe", "bakery"], ["sunset"], ["flowers"]]).result
    assert result.scores == (3, 3, 2)
    assert result.winners == (0, 1)
    assert result.ranking == ((0, 1), (2,))
    assert result.reason == "shared_win"


def test_live_scores_show_during_the_walks():
    after = walk_state({1: ["E1"] * 7}, start=7).play("UR")
    assert after.view(None)["scores"] == [2, 0]


# -- hidden information ------------------------------------------------------------------------


def secret_ids(state: engine.TownState) -> list[str]:
    data = state.to_json()
    return data["path_deck"] + data["event_deck"]


def assert_view_hides_secrets(state: engine.TownState, seat: int | None) -> None:
    view = state.view(seat)
    data = state.to_json()
    for other in range(state.num_players):
        begun = bool(data["walks"][other])
        if other != seat and not begun:
            assert view["start_cards"][other] is None
        else:
            assert view["start_cards"][other] == data["start_cards"][other]
    scanned = {key: value for key, value in view.items() if key != "cards"}  # the static faces
    text = json.dumps(scanned)
    for card in secret_ids(state):  # no card still face down in a deck appears anywhere
        assert re.search(f'"{card}"', text) is None, card
    assert "deck" not in "".join(k for k in view if k != "deck_sizes")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_view_reveals_a_deck_order_or_another_seats_start_card(players):
    for seed in range(15):
        _, _, states = play_random_game(GAME, seed, players)
        for state in states:
            for seat in [None, *range(players)]:
                assert_view_hides_secrets(state, seat)


def disguise(state: engine.TownState, seat: int | None, rng: random.Random) -> engine.TownState:
    """The same public position with every secret ``seat`` cannot see changed."""
    data = state.to_json()
    rng.shuffle(data["path_deck"])
    rng.shuffle(data["event_deck"])
    hidden = [s for s in range(state.num_players) if s != seat and not data["walks"][s]]
    known = {data["start_cards"][s] for s in range(state.num_players) if s not in hidden}
    spare = [n for n in range(1, 8) if n not in known]
    rng.shuffle(spare)
    for other, number in zip(hidden, spare, strict=False):
        data["start_cards"][other] = number
    return GAME.from_json(data)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_do_not_depend_on_the_secrets_a_seat_cannot_see(players):
    rng = random.Random(players)
    for seed in range(8):
        _, _, states = play_random_game(GAME, 100 + seed, players)
        for state in states:
            for seat in [None, *range(players)]:
                assert disguise(state, seat, rng).view(seat) == state.view(seat)


def test_a_start_card_becomes_public_exactly_when_its_owners_walk_begins():
    _, _, states = play_random_game(GAME, 5, 3, {"start_cards": [2, 6, 4]})
    for state in states:
        view = state.view(None)
        for seat, number in enumerate([2, 6, 4]):
            begun = view["phase"] == "over" or (view["phase"] == "walk" and view["walker"] >= seat)
            assert view["start_cards"][seat] == (number if begun else None)
            assert state.view(seat)["start_cards"][seat] == number


def test_a_seat_sees_its_own_start_card_from_the_deal():
    state = GAME.new_state(2, {"start_cards": [3, 6]})
    assert state.view(0)["start_cards"] == [3, None]
    assert state.view(1)["start_cards"] == [None, 6]
    assert state.view(None)["start_cards"] == [None, None]


def test_views_carry_what_the_renderer_needs():
    view = GAME.new_state(2, seed=2).view(0)
    assert set(view) >= {
        "phase",
        "to_move",
        "grid",
        "offer",
        "legal_slots",
        "deck_sizes",
        "walker",
        "walks",
        "walk_end",
        "pending",
        "diaries",
        "scores",
        "characters",
        "start_cards",
        "cards",
        "lighthouse",
        "last_move",
        "result",
    }
    assert len(view["grid"]) == 4 and all(len(row) == 7 for row in view["grid"])
    assert view["cards"]["P1"]["bl"] == ["UR", "skip:green"]
    assert sorted(view["legal_slots"]) == sorted(view["offer"])


# -- shared properties -------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_two_player_games_keep_the_contract(seed):
    check_random_game(GAME, seed, players=2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_three_player_games_keep_the_contract(seed):
    check_random_game(GAME, seed, players=3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_four_player_games_keep_the_contract(seed):
    check_random_game(GAME, seed, players=4)


# -- determinization (what a bot may search) -----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_determinized_state_keeps_everything_the_seat_sees(players):
    rng = random.Random(players)
    for seed in range(6):
        _, _, states = play_random_game(GAME, 200 + seed, players)
        for state in states[::3]:
            for seat in range(players):
                det = state.determinize(seat, rng)
                assert det.view(seat) == state.view(seat)
                assert det.legal_moves() == state.legal_moves()


def test_determinizing_samples_the_deck_orders_and_the_unseen_start_cards():
    state = GAME.new_state(4, seed=3)
    rng = random.Random(0)
    samples = [state.determinize(1, rng).to_json() for _ in range(30)]
    assert len({tuple(s["path_deck"]) for s in samples}) > 1
    assert len({tuple(s["event_deck"]) for s in samples}) > 1
    assert all(s["start_cards"][1] == state.to_json()["start_cards"][1] for s in samples)
    for other in (0, 2, 3):
        assert len({s["start_cards"][other] for s in samples}) > 1
    assert all(len(set(s["start_cards"])) == 4 for s in samples)


def test_a_determinized_state_does_not_depend_on_the_true_secrets():
    state = GAME.new_state(3, seed=4).play(GAME.new_state(3, seed=4).legal_moves()[0])
    other = disguise(state, 0, random.Random(1))
    assert other.to_json() != state.to_json()
    mine = state.determinize(0, random.Random(9)).to_json()
    assert other.determinize(0, random.Random(9)).to_json() == mine


def test_revealed_start_cards_are_kept_by_determinization():
    _, _, states = play_random_game(GAME, 9, 3, {"start_cards": [2, 6, 4]})
    walking = next(s for s in states if s.phase == "walk" and s.to_move == 1)
    det = walking.determinize(1, random.Random(0))
    assert det.to_json()["start_cards"][:2] == [2, 6]


def test_perfect_information_games_determinize_to_themselves():
    for game_id in [g.id for g in registry.all_games() if not g.hidden_information]:
        state = registry.get(game_id).new_state()
        assert state.determinize(0, random.Random(0)) is state


@pytest.mark.parametrize("seed", range(40))
def test_every_walk_ends_within_the_bound_the_rules_give(seed):
    """Rows never go down and each (card, side) is entered at most twice per row: at most
    4 × 28 + 1 steps after the seaside card (the lighthouse being the +1)."""
    rng = random.Random(seed)
    state = GAME.new_state(4, seed=seed)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    for walk in state.view(None)["walks"]:
        assert 2 <= len(walk) <= 1 + 4 * 28 + 1


def test_a_copy_keeps_every_field():
    """``_copy`` names the fields one by one (for speed): a field added later must be copied."""
    state = GAME.new_state(3, seed=2)
    state.legal_moves()  # fills the cache, which a copy must drop
    other = state._copy()
    for name in engine.TownState.__slots__:
        if name != "_legal":
            assert getattr(other, name) is getattr(state, name), name
    assert other._legal is None
