"""Scalas: stack cubes in stairs and top the most squares (game id ``scalas``)."""

from games.scalas.engine import GAME, ScalasGame, ScalasOptions, ScalasState

__all__ = ["GAME", "ScalasGame", "ScalasOptions", "ScalasState"]
