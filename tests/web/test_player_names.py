"""Players' names on server-rendered pages: built-in bots translated and
numbered, never two identical "Bot (easy)" in one list."""

from __future__ import annotations

from app.kernel import i18n
from app.web.names import player_names


def test_two_built_in_bots_of_one_game_are_numbered() -> None:
    assert player_names(["Bot (easy)", "Aiko", "Bot (easy)"]) == ["Bot 1 (easy)", "Aiko", "Bot 2 (easy)"]
    assert player_names(["Bot (hard)"]) == ["Bot (hard)"]


def test_built_in_bots_read_in_japanese_without_an_honorific() -> None:
    token = i18n.current_language.set("ja")
    try:
        assert player_names(["Bot (easy)", "Bot (easy)", "Bot (medium)"]) == [
            "ボット1（やさしい）", "ボット2（やさしい）", "ボット（ふつう）"]
    finally:
        i18n.current_language.reset(token)
