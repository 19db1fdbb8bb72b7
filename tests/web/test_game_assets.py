"""Pages find a game's browser assets by its id, with generic ones for a game that ships none."""

from __future__ import annotations

from app.web import game_assets
from app.web.static_files import static_url
from games import registry


def test_every_registered_game_has_its_own_board_styles_and_icon() -> None:
    for game in registry.all_games():
        assets = game_assets.assets(game.id)
        assert assets.board == static_url(f"games/{game.id}/board.js")
        assert assets.style == static_url(f"games/{game.id}/board.css")
        assert assets.icon == static_url(f"games/{game.id}/icon.svg")
        assert not assets.generic_board


def test_a_game_without_an_asset_folder_gets_the_generic_board_and_icon() -> None:
    assets = game_assets.assets("nosuchgame")
    assert assets.board == static_url("games/generic/board.js")
    assert assets.style == static_url("games/generic/board.css")
    assert assets.icon == static_url("games/generic/icon.svg")
    assert assets.generic_board


def test_an_id_is_never_turned_into_a_path_outside_the_asset_folders() -> None:
    assert game_assets.assets("../js").board == static_url("games/generic/board.js")


def test_the_generic_files_exist() -> None:
    for name in ("board.js", "board.css", "icon.svg"):
        assert (game_assets.STATIC_DIR / "games" / "generic" / name).is_file()
