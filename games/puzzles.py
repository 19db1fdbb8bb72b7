"""Puzzles: positions whose mover has a forced goal that a short exact search proves.

A game that offers puzzles declares its :class:`PuzzleRules` (``Game.puzzles``): how many plies
of choice a proof may use and what counts as the goal — a forced win, or for a scored game a
decisive gain its ``margin`` measures, still held once the opponent has answered. The search is
an AND-OR proof: on the solver's turns one move must reach the goal, on the other side's turns
every legal move (every defence) must fail. Moves the rules make by themselves
(``State.forced_move``, a pass) cost no ply.

A proof is a *solution tree*, plain JSON:

- ``{"move": m, "next": node}`` — the solver's move here (``"forced": true`` when the rules play
  it);
- ``{"replies": {defence: node, ...}}`` — every defence of the other side, each answered;
- ``{}`` — the goal is reached.

Iterative deepening finds the shortest proof, so a tree never takes a long way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import PuzzleRules, State, sole_winner

Tree = dict[str, Any]
"""A solution tree node (see the module's docstring)."""

__all__ = ["Proof", "Prover", "PuzzleRules", "Tree", "best_defence", "main_line", "prove",
           "sole_winner", "solver_moves", "tree_height", "tree_size"]


class _Budget(Exception):
    """The search visited more positions than its ``node_limit``."""


class Prover:
    """One proof search from ``start`` for the seat to move there."""

    def __init__(self, start: State, rules: PuzzleRules) -> None:
        assert start.to_move is not None
        self.start = start
        self.seat = start.to_move
        self.rules = rules
        self.visited = 0
        self._failed: dict[tuple[str, int], bool] = {}

    def _key(self, state: State) -> str:
        return repr(state.to_json())

    def solve(self, state: State, plies: int, *, root: bool = False) -> Tree | None:
        """A tree proving the goal from ``state`` within ``plies`` plies of choice, or None."""
        self.visited += 1
        if self.visited > self.rules.node_limit:
            raise _Budget
        if not root and self.rules.reached(self.start, state, self.seat):
            return {}
        if state.is_over:
            return None
        forced = state.forced_move()
        if forced is not None:
            after = self.solve(state.play(forced), plies)
            if after is None:
                return None
            if state.to_move == self.seat:
                return {"move": forced, "forced": True, "next": after}
            return {"replies": {forced: after}}
        if plies <= 0:
            return None
        key = (self._key(state), plies)
        if key in self._failed:
            return None
        tree: Tree | None
        if state.to_move == self.seat:
            tree = None
            for move in state.legal_moves():
                found = self.solve(state.play(move), plies - 1)
                if found is not None:
                    tree = {"move": move, "next": found}
                    break
        else:
            replies: dict[str, Tree] = {}
            for move in state.legal_moves():
                found = self.solve(state.play(move), plies - 1)
                if found is None:
                    replies = {}
                    break
                replies[move] = found
            tree = {"replies": replies} if replies else None
        if tree is None:
            self._failed[key] = True
        return tree


@dataclass(frozen=True)
class Proof:
    """A proven puzzle position: the solution tree, the plies of choice it needs, every first
    move of the solver that also proves the goal within those plies (one, for a good puzzle),
    and how the goal is reached (``win`` or ``gain``)."""

    tree: Tree
    plies: int
    winning_moves: tuple[str, ...]
    kind: str
    visited: int


def prove(state: State, rules: PuzzleRules, depth: int | None = None) -> Proof | None:
    """The shortest proof (iterative deepening up to ``depth``, the rules' by default) that the
    seat to move in ``state`` reaches the goal, or None (none within the depth or the node
    limit). Deterministic."""
    if state.is_over or state.to_move is None or state.forced_move() is not None:
        return None
    prover = Prover(state, rules)
    limit = rules.depth if depth is None else depth
    try:
        for plies in range(1, limit + 1):
            tree = prover.solve(state, plies, root=True)
            if tree is None:
                continue
            winning = tuple(move for move in state.legal_moves()
                            if move == tree["move"]
                            or Prover(state, rules).solve(state.play(move), plies - 1) is not None)
            leaf = _main_leaf(state, tree)
            return Proof(tree, plies, winning, "win" if leaf.is_over else "gain",
                         prover.visited)
    except _Budget:
        return None
    return None


def _main_leaf(state: State, tree: Tree) -> State:
    """The position at the end of the tree's main line (the longest defence at each turn)."""
    for move in main_line(tree):
        state = state.play(move)
    return state


def tree_height(tree: Tree) -> int:
    """The plies of the longest line in ``tree``."""
    if "move" in tree:
        return 1 + tree_height(tree["next"])
    if "replies" in tree:
        return 1 + max(tree_height(node) for node in tree["replies"].values())
    return 0


def tree_size(tree: Tree) -> int:
    """How many positions ``tree`` holds."""
    if "move" in tree:
        return 1 + tree_size(tree["next"])
    if "replies" in tree:
        return 1 + sum(tree_size(node) for node in tree["replies"].values())
    return 1


def best_defence(tree: Tree) -> str:
    """The defence that resists longest (then the first listed): the one a puzzle plays."""
    replies: dict[str, Tree] = tree["replies"]
    return max(replies, key=lambda move: (tree_height(replies[move]), -list(replies).index(move)))


def main_line(tree: Tree) -> list[str]:
    """The solver's moves answered by the longest defences, to the goal."""
    line: list[str] = []
    while tree:
        if "move" in tree:
            line.append(tree["move"])
            tree = tree["next"]
        else:
            reply = best_defence(tree)
            line.append(reply)
            tree = tree["replies"][reply]
    return line


def solver_moves(tree: Tree) -> int:
    """The solver's own choices along the main line (a "win in N")."""
    count = 0
    while tree:
        if "move" in tree:
            count += 0 if tree.get("forced") else 1
            tree = tree["next"]
        else:
            tree = tree["replies"][best_defence(tree)]
    return count
