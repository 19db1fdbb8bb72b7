"""Finding puzzles in a line of play (pure: the engines only, so it runs in a worker process).

Every position of the line where the side to move has a choice is searched for a proof
(``games.puzzles.prove``, the game's own :class:`~games.puzzles.PuzzleRules`). A position makes a
puzzle when exactly one first move proves the goal (a puzzle with two answers is a guess). One
line gives at most ``PER_LINE`` puzzles, the ones the player missed first, then the longest, and
never two of one winning run (the same side within ``RUN_PLIES`` plies: the later one is the
earlier one's continuation).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.base import Game, State
from games.bots import levels
from games.puzzles import Proof, Tree, prove, solver_moves, tree_size

PER_LINE = 2
RUN_PLIES = 4
BASE_MU = 21.0
"""A puzzle's starting rating: this, plus ``MU_PER_MOVE`` per move of the solver, plus one for a
position with ten choices or more (openskill's scale: a new person is 25 ± 8.3)."""
MU_PER_MOVE = 3.0


@dataclass(frozen=True)
class Candidate:
    """A proven position, ready to store."""

    game: str
    options: dict[str, Any]
    players: int
    rules_version: int
    moves: list[str]
    seat: int
    solution: Tree
    goal: str
    plies: int
    themes: list[str] = field(default_factory=list)
    mu: float = BASE_MU


def puzzle_game(game_id: str) -> Game | None:
    """The game if it has puzzles (perfect information, no chance, ``Game.puzzles`` set)."""
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        return None
    if game.puzzles is None or game.hidden_information or game.has_chance:
        return None
    return game


def start_state(game: Game, options: dict[str, Any], players: int, rules_version: int) -> State:
    """The start of a puzzle's line (no chance in these games: the seed plays no part)."""
    return game.replay_start(rules_version, players, options, 0)


def _themes(proof: Proof, played: str | None, choices: int) -> list[str]:
    moves = solver_moves(proof.tree)
    themes = [proof.kind, f"{proof.kind}_in_{moves}"]
    if played is not None:
        themes.append("found" if played == proof.tree["move"] else "missed")
    if choices >= 10:
        themes.append("many_choices")
    if _has_forced(proof.tree):
        themes.append("forced_pass")
    return themes


def _has_forced(tree: Tree) -> bool:
    if "move" in tree:
        return bool(tree.get("forced")) or _has_forced(tree["next"])
    if "replies" in tree:
        return any(_has_forced(node) for node in tree["replies"].values())
    return False


def candidate_at(game: Game, options: dict[str, Any], players: int, rules_version: int,
                 moves: list[str], state: State, played: str | None) -> Candidate | None:
    """The puzzle at ``state`` (reached by ``moves``) if it makes one; ``played``: the move the
    player chose there, when the line goes on."""
    rules = game.puzzles
    assert rules is not None
    if state.is_over or state.forced_move() is not None or state.to_move is None:
        return None
    choices = len(state.legal_moves())
    if choices < 2:
        return None
    proof = prove(state, rules)
    if proof is None or len(proof.winning_moves) != 1:
        return None
    solver = solver_moves(proof.tree)
    mu = BASE_MU + MU_PER_MOVE * solver + (1.0 if choices >= 10 else 0.0)
    mu += min(2.0, tree_size(proof.tree) / 50)
    return Candidate(game.id, dict(options), players, rules_version, list(moves), state.to_move,
                     proof.tree, proof.kind, proof.plies, _themes(proof, played, choices), mu)


def mine_line(game_id: str, options: dict[str, Any], players: int, rules_version: int,
              moves: list[str], limit: int = PER_LINE) -> list[Candidate]:
    """The best puzzles of one line of play (a finished game's move list)."""
    game = puzzle_game(game_id)
    if game is None:
        return []
    state = start_state(game, options, players, rules_version)
    found: list[tuple[int, Candidate]] = []
    for ply in range(len(moves) + 1):
        played = moves[ply] if ply < len(moves) else None
        candidate = candidate_at(game, options, players, rules_version, moves[:ply], state, played)
        if candidate is not None:
            found.append((ply, candidate))
        if played is None:
            break
        state = state.play(played)
    found.sort(key=lambda item: ("missed" not in item[1].themes, -item[1].plies, item[0]))
    chosen: list[tuple[int, Candidate]] = []
    for ply, candidate in found:
        if len(chosen) >= limit:
            break
        if any(c.seat == candidate.seat and abs(p - ply) <= RUN_PLIES for p, c in chosen):
            continue
        chosen.append((ply, candidate))
    return [candidate for _, candidate in sorted(chosen, key=lambda item: item[0])]


def mine_record(record: tuple[str, dict[str, Any], int, int, list[str]]) -> list[Candidate]:
    """:func:`mine_line` of (game, options, players, rules version, moves): a finished match,
    as the miner's worker process receives it."""
    game, options, players, rules_version, moves = record
    return mine_line(game, options, players, rules_version, moves)


SELF_PLAY = levels.Level("self-play", 80, None, heuristics=False)
"""The easy bot's search without its clock, so a seeded game is the same on every machine (an
easy bot leaves wins on the board: what a puzzle is made of)."""


def self_play_line(game_id: str, seed: int, options: dict[str, Any] | None = None) -> list[str]:
    """A whole game of the bot against itself, seeded: a line for the seeder to mine."""
    game = registry.get(game_id)
    state = game.new_state(game.min_players, options, 0)
    rng = random.Random(seed)
    moves: list[str] = []
    while not state.is_over and state.to_move is not None:
        move = state.forced_move() or levels.choose_move(state, state.to_move, SELF_PLAY,
                                                           rng.randrange(2**31))
        moves.append(move)
        state = state.play(move)
    return moves
