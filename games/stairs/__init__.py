"""Stairs: climb onto neighbouring stacks of your own height; the highest piece wins."""

from games.stairs.engine import GAME, StairsGame, StairsOptions, StairsState

__all__ = ["GAME", "StairsGame", "StairsOptions", "StairsState"]
