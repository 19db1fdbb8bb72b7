"""Town's playout hint (games/town/hints.py): a walker walks every later choice of its own walk
and takes the best diary it can reach; a builder prefers the placement that does the most for its
own walk so far (random walks and random building undervalue every town)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games import registry
from games.bots import Level, choose_move, levels
from games.town import hints
from games.town.engine import TownState, score_of

GAME = registry.get("town")


def built_town(seed: int, players: int = 3) -> TownState:
    rng = random.Random(seed)
    state = GAME.new_state(players, seed=seed)
    while state.phase == "build":
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
    return state


def walked(state: TownState, rng: random.Random, hint: bool) -> float:
    while not state.is_over:
        moves = state.legal_moves()
        state = state.play(state.playout_move(moves, rng) if hint
                           else moves[rng.randrange(len(moves))])
    return sum(state.result.scores)


def best_reachable(state: TownState, seat: int) -> int:
    """The best diary ``seat`` can end its walk with, trying every choice through the engine."""
    if state.is_over or state.to_move != seat or state.phase != "walk":
        return score_of(state.view(None)["diaries"][seat], seat)
    return max(best_reachable(state.play(move), seat) for move in state.legal_moves())


def walk_choices(seeds: range, players: int) -> Iterator[tuple[TownState, int, list[str]]]:
    """Every walk position with a choice met on random towns (random choices walk them on):
    (state, walker, its choices)."""
    for seed in seeds:
        state = built_town(seed, players)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            if len(moves) > 1:
                yield state, state.to_move, moves
            state = state.play(moves[rng.randrange(len(moves))])


def build_position(start: int, offer: list[str], grid: dict[str, str] | None = None,
                   players: int = 2) -> TownState:
    """A build position: seat 0 to move, its start card ``start``, ``grid`` the placed cards."""
    data = GAME.new_state(players, seed=0).to_json()
    cells: list[str | None] = [None] * 28
    for slot, card in (grid or {}).items():
        cells[(int(slot[1]) - 1) * 7 + "abcdefg".index(slot[0])] = card
    starts = [n for n in range(1, 8) if n != start][:players]
    starts[0] = start
    data.update(grid=cells, offer=offer, path_deck=[], event_deck=[], start_cards=starts,
                turn=0)
    return GAME.from_json(data)


def top_moves(state: TownState) -> set[str]:
    moves = state.legal_moves()
    scores = hints.placement_scores(state._grid, state.rules_version, 0, 4, moves)
    return {move for move, score in zip(moves, scores, strict=True) if score == max(scores)}


def score_map(state: TownState) -> dict[str, float]:
    moves = state.legal_moves()
    scores = hints.placement_scores(state._grid, state.rules_version, 0, 4, moves)
    return dict(zip(moves, scores, strict=True))


def test_hinted_walkers_score_more_than_random_ones() -> None:
    towns = [built_town(seed) for seed in range(40)]
    hinted = sum(walked(town, random.Random(i), hint=True) for i, town in enumerate(towns))
    blind = sum(walked(town, random.Random(i), hint=False) for i, town in enumerate(towns))
    assert hinted > blind * 1.08, (hinted, blind)


def test_every_walk_choice_of_the_hint_reaches_the_best_diary() -> None:
    """The hint's value of each choice is exactly the best diary the engine lets the walker end
    with after it (every later choice tried), and the hint takes a best one."""
    checked = 0
    rng = random.Random(0)
    for state, seat, moves in walk_choices(range(8), players=2):
        values = hints.choice_values(state._grid, state.rules_version, seat,
                                     state._walks[seat], state._diaries[seat], moves)
        assert values == [best_reachable(state.play(m), seat) for m in moves]
        chosen = state.playout_move(moves, rng)
        assert values[moves.index(chosen)] == max(values)
        checked += 1
    assert checked > 10


def test_a_bot_walker_takes_its_best_walk_exactly_without_searching(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A walker is alone on a finished town: its choice with the best reachable diary is best
    whatever the others hold, so a bot with heuristics plays it at once (no search, whatever the
    budget); a search scored by rank alone would be indifferent between two walks keeping the
    same place."""

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("a settled walk choice was searched")

    monkeypatch.setattr(levels, "search", no_search)
    tiny = Level("tiny", 1, None)
    checked = differing = 0
    for state, seat, moves in walk_choices(range(12), players=3):
        reach = [best_reachable(state.play(m), seat) for m in moves]
        chosen = choose_move(state, seat, tiny, seed=checked)
        assert chosen == state.settled_move()
        assert reach[moves.index(chosen)] == max(reach), (moves, reach)
        checked += 1
        differing += len(set(reach)) > 1
    assert checked > 10 and differing > 3, (checked, differing)
    assert GAME.new_state(3, seed=0).settled_move() is None  # building: the bot searches


def test_builder_puts_an_interest_event_where_its_walk_arrives() -> None:
    """Red starts on seaside 4: its walk enters c1 (UL) or e1 (UR). The cafe (red's interest)
    is worth most there; anywhere else it changes nothing for red's walk."""
    state = build_position(4, ["P13", "E1"])
    assert top_moves(state) == {"E1@c1", "E1@e1"}


def test_builder_prefers_a_climb_its_walk_can_take() -> None:
    """Red starts on seaside 4; its UL branch meets P14 on c1 (no icon for red) and waits at b1.
    On e1, entered from the left, P2's bottom-left UR lifts the walker a row towards the
    lighthouse; P7's UL sits on the bottom-right, which a walker from the left never uses."""
    state = build_position(4, ["P2", "E2"], grid={"c1": "P14"})
    scores = score_map(state)
    assert scores["P2@e1"] > scores["P2@a1"] == scores["E2@a1"]
    plain = score_map(build_position(4, ["P7", "E2"], grid={"c1": "P14"}))
    assert scores["P2@e1"] > plain["P7@e1"] == plain["P7@a1"]


def test_building_playouts_stay_legal_and_varied() -> None:
    state = GAME.new_state(2, seed=1)
    rng = random.Random(0)
    picks = {state.playout_move(state.legal_moves(), rng) for _ in range(200)}
    assert picks <= set(state.legal_moves()) and len(picks) > len(state.legal_moves()) // 2
