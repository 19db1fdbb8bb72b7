"""Pure-Python rule engines for Stepwell's games: no I/O, no web, no database, no global state."""

from games.base import COMMON_ILLEGAL, N_, Game, GameOptions, GameWords, IllegalMove, Result, State

__all__ = ["COMMON_ILLEGAL", "N_", "Game", "GameOptions", "GameWords", "IllegalMove", "Result", "State"]
