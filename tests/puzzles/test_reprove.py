"""Every mined puzzle, checked by an independent search: its move list replayed from the start
with the engine, its solution tree walked (every defence present, every leaf the goal), and its
value re-proved by a plain minimax written here (no transposition table, no node limit, no code
of the miner's), which also confirms the first move is the only one that works.

``mined.json`` is the collection ``python -m app.puzzles.seed`` stores from the bot's self-play
(seeds 0–11 of each game); ``test_freshly_mined_puzzles_reprove`` mines new lines too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.puzzles.mine import mine_line, self_play_line
from games import registry
from games.base import State

MINED = json.loads((Path(__file__).parent / "mined.json").read_text())
SCALAS_GAIN = 3  # the decisive gain of Scalas' rules, restated here on purpose


def _tops(state: State) -> list[int]:
    """Squares each colour tops, counted from the public view (not the engine's counter)."""
    counts = [0, 0]
    for square in state.view(None)["squares"]:
        if square["column"]:
            counts[square["column"][-1]] += 1
    return counts


def goal(game: str, start: State, state: State, seat: int) -> bool:
    if state.is_over:
        result = state.result
        assert result is not None
        return list(result.winners) == [seat]
    if game != "scalas" or state.to_move != seat or state is start:
        return False
    before, after = _tops(start), _tops(state)
    return (after[seat] - after[1 - seat]) - (before[seat] - before[1 - seat]) >= SCALAS_GAIN


def minimax(game: str, start: State, state: State, seat: int, plies: int, root: bool = False
            ) -> bool:
    """Whether ``seat`` forces the goal within ``plies`` plies of choice (a move that is the
    only legal one is free): plain AND-OR minimax."""
    if not root and goal(game, start, state, seat):
        return True
    if state.is_over:
        return False
    moves = state.legal_moves()
    if len(moves) == 1 and state.forced_move() is not None:
        return minimax(game, start, state.play(moves[0]), seat, plies)
    if plies == 0:
        return False
    outcomes = (minimax(game, start, state.play(m), seat, plies - 1) for m in moves)
    return any(outcomes) if state.to_move == seat else all(outcomes)


def replay(puzzle: dict[str, Any]) -> State:
    game = registry.get(puzzle["game"])
    state = game.replay_start(puzzle["rules_version"], puzzle["players"], puzzle["options"], 0)
    for move in puzzle["moves"]:
        assert move in state.legal_moves(), f"{move} is not legal at ply {state}"
        state = state.play(move)
    return state


def walk(game: str, start: State, state: State, seat: int, tree: dict[str, Any]) -> int:
    """Check the tree node by node; the plies of its longest line."""
    if not tree:
        assert goal(game, start, state, seat)
        return 0
    if "move" in tree:
        assert state.to_move == seat
        assert tree["move"] in state.legal_moves()
        if tree.get("forced"):
            assert state.legal_moves() == [tree["move"]]
        return 1 + walk(game, start, state.play(tree["move"]), seat, tree["next"])
    assert state.to_move not in (None, seat)
    assert sorted(tree["replies"]) == sorted(state.legal_moves()), "a defence is missing"
    return 1 + max(walk(game, start, state.play(m), seat, node)
                   for m, node in tree["replies"].items())


def check(puzzle: dict[str, Any]) -> None:
    game = puzzle["game"]
    start = replay(puzzle)
    seat = puzzle["seat"]
    assert start.to_move == seat
    walk(game, start, start, seat, puzzle["solution"])
    plies = puzzle["plies"]
    assert minimax(game, start, start, seat, plies, root=True)
    if plies > 1:
        assert not minimax(game, start, start, seat, plies - 1, root=True), "a shorter proof"
    winners = [m for m in start.legal_moves()
               if minimax(game, start, start.play(m), seat, plies - 1)]
    assert winners == [puzzle["solution"]["move"]]


@pytest.mark.parametrize("index", range(len(MINED)),
                         ids=[f"{p['game']}-{i}" for i, p in enumerate(MINED)])
def test_every_stored_puzzle_reproves(index: int) -> None:
    check(MINED[index])


def test_the_collection_covers_the_three_games() -> None:
    assert {p["game"] for p in MINED} == {"stairs", "sight", "scalas"}
    assert any(p["goal"] == "gain" for p in MINED) and any("missed" in p["themes"] for p in MINED)


@pytest.mark.parametrize(("game", "seed"), [("sight", 3), ("scalas", 1)])
def test_freshly_mined_puzzles_reprove(game: str, seed: int) -> None:
    moves = self_play_line(game, seed)
    found = mine_line(game, {}, 2, 1, moves)
    assert found
    for candidate in found:
        check({"game": candidate.game, "options": candidate.options,
               "players": candidate.players, "rules_version": candidate.rules_version,
               "moves": candidate.moves, "seat": candidate.seat,
               "solution": candidate.solution, "plies": candidate.plies})
