"""Built-in bots: a game-independent MCTS over the engine interface, with per-game playout hints."""

from games.bots.levels import LEVELS, Level, choose_move

__all__ = ["LEVELS", "Level", "choose_move"]
