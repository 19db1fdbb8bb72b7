"""Pure-Python rule engines for Stepwell's games: no I/O, no web, no database, no global state."""

from games.base import N_, Game, GameOptions, GameWords, IllegalMove, Result, State

__all__ = ["N_", "Game", "GameOptions", "GameWords", "IllegalMove", "Result", "State"]
