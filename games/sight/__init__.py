"""Sight (サイト): a line-of-sight stacking game on an Alquerque board. Exposes ``GAME``."""

from games.sight.engine import GAME, SightGame, SightOptions, SightState

__all__ = ["GAME", "SightGame", "SightOptions", "SightState"]
