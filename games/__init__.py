"""Pure-Python rule engines for Stepwell's games: no I/O, no web, no database, no global state."""

from games.base import Game, GameOptions, IllegalMove, Result, State

__all__ = ["Game", "GameOptions", "IllegalMove", "Result", "State"]
