"""Judging an attempt: the moves played from a puzzle's position against its solution tree.

Pure (the engines only). The line sent is every ply from the puzzle's position: the solver's
moves, the defences (the ones the server answered, or any other defence the tree holds) and the
moves the rules made by themselves. The solver may leave the stored line for another move that
also proves the goal within the plies left (searched again here, from the puzzle's start, so a
scored goal is measured from the same position); any other move is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import IllegalMove, State
from games.puzzles import Prover, PuzzleRules, Tree, best_defence


class NotTheLine(ValueError):
    """The line sent is not a line of this puzzle (an illegal move, or a defence or forced
    move the tree does not hold where the server plays)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Verdict:
    """``status``: ``continue`` (the solver's move is awaited), ``correct`` or ``incorrect``.
    ``reply``: the plies the server plays next (the longest defence and forced moves), to
    append to the line. ``expected``: the solver's move the tree holds where the person went
    wrong or is to move (the server keeps it for a hint; never sent before a finish)."""

    status: str
    reply: list[str]
    expected: str | None = None


def judge(start: State, tree: Tree, plies: int, rules: PuzzleRules, line: list[str]) -> Verdict:
    """Walk ``line`` from ``start`` through ``tree``, a proof within ``plies`` plies of choice."""
    state = start
    node = tree
    used = 0  # plies of choice played
    index = 0
    while True:
        if not node:
            return Verdict("correct", [])
        if "move" in node:
            if index >= len(line):
                if node.get("forced"):
                    return _server_turn(node)
                return Verdict("continue", [], node["move"])
            sent = line[index]
            try:
                move = state.parse_move(sent)
            except IllegalMove as error:
                raise NotTheLine(error.reason, "illegal_move") from None
            if move == node["move"]:
                following = node["next"]
            elif node.get("forced"):
                raise NotTheLine(f"{node['move']} is played by the rules here", "not_the_line")
            else:
                found = Prover(start, rules).solve(state.play(move), plies - used - 1)
                if found is None:
                    return Verdict("incorrect", [], node["move"])
                following = found
            used += 0 if node.get("forced") else 1
            state = state.play(move)
            node = following
            index += 1
            continue
        if index >= len(line):
            return _server_turn(node)
        try:
            move = state.parse_move(line[index])
        except IllegalMove as error:
            raise NotTheLine(error.reason, "illegal_move") from None
        if move not in node["replies"]:
            raise NotTheLine(f"{move} is not a defence this puzzle holds", "not_the_line")
        used += 0 if state.forced_move() is not None else 1
        state = state.play(move)
        node = node["replies"][move]
        index += 1


def _server_turn(node: Tree) -> Verdict:
    """What the server plays from ``node`` until the solver has a choice (or the goal)."""
    plies: list[str] = []
    while node:
        if "move" in node:
            if not node.get("forced"):
                return Verdict("continue", plies, node["move"])
            plies.append(node["move"])
            node = node["next"]
        else:
            reply = best_defence(node)
            plies.append(reply)
            node = node["replies"][reply]
    return Verdict("correct", plies)
