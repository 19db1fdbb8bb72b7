"""Fixed deals (duplicate tournaments): a game that has a deal draws it itself
(``Game.draw_deal``) and cuts it for a table size (``Game.deal_for_players``), so app/ holds no
game's knowledge of decks or cards. Engine only."""

from __future__ import annotations

import pytest

from games import registry


def test_town_draws_one_deal_every_table_size_plays() -> None:
    game = registry.get("town")
    deal = game.draw_deal(12345)
    assert deal is not None and deal == game.draw_deal(12345)
    assert deal != game.draw_deal(54321)
    starts = {players: game.new_state(players, game.deal_for_players(deal, players),
                                      seed=players).to_json() for players in (2, 3, 4)}
    full = game.new_state(4, seed=12345).to_json()  # the deal is the seed's own four-seat deal
    for players, start in starts.items():
        for field in ("offer", "path_deck", "event_deck"):
            assert start[field] == full[field], (players, field)
        assert start["start_cards"] == full["start_cards"][:players]
    assert set(deal) <= {name for name, field in game.options.model_fields.items()
                         if (field.json_schema_extra or {}).get("secret")}  # type: ignore[union-attr]


@pytest.mark.parametrize("game_id", ["stairs", "sight", "scalas"])
def test_games_without_a_deal_have_none(game_id: str) -> None:
    assert registry.get(game_id).draw_deal(1) is None
