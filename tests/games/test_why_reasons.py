"""Every illegal-move reason is a code with parameters, worded in English and Japanese.

Each game's positions come from a few seeded random games (and the start); at every position
every candidate tap or move is asked ``why_not``. Every code of the game's ``words.illegal`` must
come up, the English sentence must be its template filled in, the Japanese must fill in too, and
legal moves must have no reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from app.kernel import i18n
from app.match.why import COMMON_WORDS, reason_text
from games import COMMON_ILLEGAL, Game, IllegalMove, State, registry
from games.sight.board import NEIGHBOURS as SIGHT_NEIGHBOURS
from games.sight.board import POINT_NAMES
from games.stairs.engine import NEIGHBOURS as STAIRS_NEIGHBOURS
from games.stairs.engine import SQUARES as SQUARES6
from games.town.engine import SLOT_NAMES, WALK_ACTIONS


def _steps(names, neighbours) -> list[str]:
    """From every square: to each neighbour, to itself and to one square far away."""
    return [f"{names[i]}-{names[j]}" for i in range(len(names))
            for j in (*neighbours[i], i, (i + 2 * len(names) // 3) % len(names))]


STAIRS_STEPS = _steps(SQUARES6, STAIRS_NEIGHBOURS)
SIGHT_STEPS = _steps(POINT_NAMES, SIGHT_NEIGHBOURS)


def stairs_candidates(state: State) -> list[str]:
    return ["pass", "swap", "zz", *SQUARES6, *STAIRS_STEPS]


def sight_candidates(state: State) -> list[str]:
    return ["pass", "zz", *POINT_NAMES, *SIGHT_STEPS]


def scalas_candidates(state: State) -> list[str]:
    return ["pass", "zz", *(f"{f}{r}" for r in range(1, 6) for f in "abcde")]


def town_candidates(state: State) -> list[str]:
    view = state.view(0)
    cards = [c for c in view["offer"] if c] + ["P1", "E1"]
    return ["zz", "P1@h9", *WALK_ACTIONS, *SLOT_NAMES,
            *(f"{card}@{slot}" for card in cards for slot in SLOT_NAMES)]


TOWN_PATHS = [f"P{n}" for n in range(1, 15)]
CASES = {
    "stairs": (stairs_candidates, [({}, 0), ({"swap": True}, 1), ({"swap": True}, 2)], 2),
    "sight": (sight_candidates, [({}, 0), ({}, 1), ({"priority": "movable"}, 2)], 2),
    "scalas": (scalas_candidates, [({"size": 5}, seed) for seed in range(4)], 2),
    "town": (town_candidates, [({}, 0), ({}, 1)], 2),
}


def positions(game: Game, options: dict, seed: int, players: int, every: int = 1
              ) -> Iterator[State]:
    """The positions of a seeded random game: the first three, every ``every``-th, each forced
    pass and the end."""
    rng = random.Random(seed)
    state = game.new_state(players=players, options=options, seed=seed)
    ply = 0
    while True:
        if ply < 3 or ply % every == 0 or state.is_over or state.legal_moves() == ["pass"]:
            yield state
        if state.is_over:
            return
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
        ply += 1


def stuck(game_id: str) -> State:
    """A position where the player to move must pass (the service plays such passes by itself,
    so random games seldom show one; Scalas in practice never)."""
    if game_id == "stairs":  # light's a1 and a6 are alone at height 1; dark can move d1-e1
        board = ["L", "", "", "D", "D"] + [""] * 25 + ["L"] + [""] * 5
        arrivals = {"light": [[0, 0]], "dark": [[0, 0]]}
        return registry.get("stairs").from_json(
            {"board": board, "colour_to_move": "light", "seat_colours": ["light", "dark"],
             "ply": 20, "last_move": None, "arrivals": arrivals, "options": {"swap": False}})
    # Scalas: a1 and e5 empty, every other square two cubes high: nowhere to place.
    columns = [[] if i in (0, 24) else [0, 0] for i in range(25)]
    return registry.get("scalas").from_json(
        {"size": 5, "columns": columns, "hands": [2, 2], "to_move": 1, "pending": []})


def reasons_of(game_id: str) -> list[tuple[State, str, IllegalMove]]:
    game = registry.get(game_id)
    candidates, setups, players = CASES[game_id]
    found = []
    if game_id in ("stairs", "scalas"):
        state = stuck(game_id)
        assert state.legal_moves() == ["pass"]
        found += [(state, move, state.why_not(move)) for move in ("a1-b2", "c3", "b2")
                  if state.why_not(move) is not None]
    for options, seed in setups:
        for state in positions(game, options, seed, players, every=4):
            legal = set(state.legal_moves())
            for move in candidates(state):
                error = state.why_not(move)
                if error is None:
                    continue
                assert move not in legal, (move, error.reason)
                found.append((state, move, error))
    return found


@pytest.fixture(scope="module", params=list(CASES))
def found(request) -> tuple[str, list[tuple[State, str, IllegalMove]]]:
    return request.param, reasons_of(request.param)


def test_every_reason_code_comes_up_and_reads_as_its_template(found) -> None:
    game_id, errors = found
    game = registry.get(game_id)
    seen = {error.code for _, _, error in errors}
    assert set(game.words.illegal) <= seen, sorted(set(game.words.illegal) - seen)
    assert seen <= set(game.words.illegal) | set(COMMON_ILLEGAL), sorted(seen)
    for _, _, error in errors:
        template = game.words.illegal.get(error.code) or COMMON_ILLEGAL[error.code]
        assert error.reason == template.format(**error.params)
        assert all(isinstance(v, str | int) for v in error.params.values()), error.params


def test_every_reason_reads_in_japanese(found) -> None:
    game_id, errors = found
    game = registry.get(game_id)
    japanese = i18n.game_catalog(game, "ja")
    by_code = {}
    for _, _, error in errors:
        by_code.setdefault(error.code, error)
    token = i18n.current_language.set("ja")
    try:
        for code, error in by_code.items():
            text = reason_text(game, error)
            if code in game.words.illegal:
                assert text == japanese[game.words.illegal[code]].format(**error.params)
            assert text != error.reason, code  # really translated
            assert all(str(value) in text for value in error.params.values()), (code, text)
    finally:
        i18n.current_language.reset(token)


def test_legal_moves_and_pickable_pieces_have_no_reason() -> None:
    for game_id, (_, setups, players) in CASES.items():
        game = registry.get(game_id)
        options, seed = setups[0]
        for state in positions(game, options, seed, players):
            for move in state.legal_moves():
                assert state.why_not(move) is None, (game_id, move)
            for first, step in state.view(state.to_move).get("clicks", {}).items():
                if isinstance(step, dict):  # a piece that may be picked up (Stairs, Sight)
                    assert state.why_not(first) is None or game_id == "town", (game_id, first)


def test_examples_of_the_issue() -> None:
    stairs = registry.get("stairs").new_state().play("a1-b2").play("b1-c2")
    assert stairs.why_not("c2-d3").code == "not_your_piece"  # c2 is dark's
    lower = stairs.why_not("b2-c2")
    assert lower.code == "lower_piece_first" and "c1, e1" in lower.params["squares"]
    assert lower.reason.startswith("lowest first: a lower piece can move: c1, e1")
    assert stairs.why_not("b2").code == "lower_piece_first"  # a tap on a piece that may not move
    assert stairs.why_not("c1") is None
    town = registry.get("town").new_state(2, {"path_deck": TOWN_PATHS})
    for move in ("P1@a1", "P2@b1", "P3@c1"):
        town = town.play(move) if move in town.legal_moves() else town
    assert [c for c in town.to_json()["grid"][:7] if c] == ["P1", "P2", "P3"]
    row = town.why_not("P4@d1")
    assert row.code == "row_has_stairs" and row.reason.endswith("row 1 already has 3 stairs")
    assert town.why_not("d1").code == "choose_card"  # the event card may go there


def test_the_common_reasons_are_marked_for_the_site_catalog() -> None:
    assert COMMON_WORDS == COMMON_ILLEGAL
    japanese = i18n.catalog("ja")
    assert all(text in japanese for text in COMMON_ILLEGAL.values())


def test_an_old_style_reason_without_a_code_still_reads() -> None:
    error = IllegalMove("a sentence from an older engine")
    assert error.code == "illegal" and error.params == {} and error.to_json()["code"] == "illegal"
    assert reason_text(registry.get("stairs"), error) == "a sentence from an older engine"


def test_town_reasons_never_depend_on_hidden_cards() -> None:
    """A reason reads only what every seat sees: the same in every determinization."""
    game = registry.get("town")
    rng = random.Random(5)
    for state in positions(game, {}, 3, 3):
        if state.is_over:
            break
        seat = state.to_move
        other = state.determinize(seat, rng)
        for move in town_candidates(state)[::7]:
            mine, theirs = state.why_not(move), other.why_not(move)
            assert (mine and mine.to_json()) == (theirs and theirs.to_json()), move
