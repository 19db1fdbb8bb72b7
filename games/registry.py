"""Game id -> Game. Adding a game is one line in ``_BUILT_IN`` plus its package.

``register``/``unregister`` add a game at run time (tests register a fixture game this way to
prove that a new game needs nothing else); ``generation`` changes whenever the set changes, so
caches built from the registry (e.g. the translation catalog) know to rebuild.
"""

from __future__ import annotations

from games.base import Game
from games.scalas import GAME as SCALAS
from games.sight import GAME as SIGHT
from games.stairs import GAME as STAIRS
from games.town import GAME as TOWN

_BUILT_IN: tuple[Game, ...] = (STAIRS, SIGHT, SCALAS, TOWN)
_GAMES: dict[str, Game] = {game.id: game for game in _BUILT_IN}
_generation = 0


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


def first() -> Game:
    """The first game of the catalog (the default where a page needs one)."""
    return next(iter(_GAMES.values()))


def register(game: Game) -> None:
    """Add ``game`` at the end of the catalog; its id must be new."""
    global _generation
    if game.id in _GAMES:
        raise ValueError(f"a game with id {game.id!r} is already registered")
    _GAMES[game.id] = game
    _generation += 1


def unregister(game_id: str) -> None:
    """Remove a game added with :func:`register` (built-in games stay)."""
    global _generation
    if any(game.id == game_id for game in _BUILT_IN):
        raise ValueError(f"{game_id!r} is a built-in game")
    if _GAMES.pop(game_id, None) is not None:
        _generation += 1


def generation() -> int:
    """A number that changes whenever a game is registered or unregistered."""
    return _generation
