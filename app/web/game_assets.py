"""Where a game's browser assets are: ``static/games/<id>/`` holds its renderer (``board.js``), its
styles (``board.css``) and its icon (``icon.svg``).

Every file is optional: a game that ships only a Python package gets the generic icon and the
generic renderer (its legal moves as buttons and its view as JSON), so it is playable at once.
Pages ask here instead of building paths, so no template or script names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from app.kernel.settings import PROJECT_ROOT
from app.web.static_files import static_url

STATIC_DIR = PROJECT_ROOT / "static"
GENERIC = "generic"


@dataclass(frozen=True)
class GameAssets:
    """URLs of one game's renderer module, stylesheet (``None`` if it has none) and icon."""

    board: str
    style: str | None
    icon: str
    generic_board: bool

    def to_json(self) -> dict[str, str | bool | None]:
        return {"board": self.board, "style": self.style, "icon": self.icon,
                "generic_board": self.generic_board}


def _url(game_id: str, name: str) -> str | None:
    path = STATIC_DIR / "games" / game_id / name
    return static_url(f"games/{game_id}/{name}") if path.is_file() else None


@cache
def assets(game_id: str) -> GameAssets:
    """The game's own files where it has them, the generic ones otherwise (cached: files are
    part of the deployment, they do not appear while the server runs)."""
    if not game_id.replace("_", "").isalnum() or game_id == GENERIC:
        game_id = GENERIC  # never build a path from anything but a plain id
    board = _url(game_id, "board.js")
    return GameAssets(
        board=board or static_url(f"games/{GENERIC}/board.js"),
        style=_url(game_id, "board.css") if board else static_url(f"games/{GENERIC}/board.css"),
        icon=_url(game_id, "icon.svg") or static_url(f"games/{GENERIC}/icon.svg"),
        generic_board=board is None,
    )
