"""Game id -> Game. Adding a game is one line here plus its package."""

from __future__ import annotations

import importlib

from games.base import Game

_GAME_MODULES: dict[str, str] = {
    "stairs": "games.stairs",
    "sight": "games.sight",
    "scalas": "games.scalas",
    "town": "games.town",
}


class UnknownGame(KeyError):
    """No game with that id is registered."""


def _load(game_id: str) -> Game | None:
    name = _GAME_MODULES[game_id]
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None  # a game whose package is not written yet
    return module.GAME


def get(game_id: str) -> Game:
    game = _load(game_id) if game_id in _GAME_MODULES else None
    if game is None:
        raise UnknownGame(game_id)
    return game


def all_games() -> list[Game]:
    """Every available game, in catalog order."""
    return [g for g in (_load(gid) for gid in _GAME_MODULES) if g is not None]


def ids() -> list[str]:
    return [g.id for g in all_games()]
