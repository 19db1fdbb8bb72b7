"""Town of Stairs (階段の街): the engine, registered as game id ``town``."""

from games.town.engine import GAME, TownGame, TownOptions, TownState

__all__ = ["GAME", "TownGame", "TownOptions", "TownState"]
