"""Game id -> Game. Adding a game is one line here plus its package."""

from __future__ import annotations

from games.base import Game
from games.scalas import GAME as SCALAS
from games.sight import GAME as SIGHT
from games.stairs import GAME as STAIRS
from games.town import GAME as TOWN

_GAMES: dict[str, Game] = {game.id: game for game in (STAIRS, SIGHT, SCALAS, TOWN)}


class UnknownGame(KeyError):
    """No game with that id is registered."""


def get(game_id: str) -> Game:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def all_games() -> list[Game]:
    """Every game, in catalog order."""
    return list(_GAMES.values())


def ids() -> list[str]:
    return list(_GAMES)
