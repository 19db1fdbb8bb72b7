"""Stairs puzzles: a forced win (the game ends and the solver alone wins) within five plies.

Stairs ends when neither side can move, so a proof is found in the last moves of a game; five
plies of choice (three moves of the solver) keep a proof within a second of search."""

from games.base import PuzzleRules

PUZZLES = PuzzleRules(depth=5)
