"""Sight puzzles: a forced win (the opponent is left without a legal move) within five plies.

A Sight game fills at most 25 points, one a ply, so the end is always near enough for a short
exact search in the second half of a game."""

from games.base import PuzzleRules

PUZZLES = PuzzleRules(depth=5)
