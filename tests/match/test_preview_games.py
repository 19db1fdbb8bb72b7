"""An independent client previews a random legal move at every ply of random games of each
game, plays that move and compares: the preview's view is the view it then gets (key for key;
Town of Stairs: everything the seat could know), and a Town preview never names a card still
in a deck nor another seat's start card before its walk. Only HTTP: the client knows nothing
of the engines.

Whole games over HTTP are the slow part of the preview tests, so they run on SQLite only; the
route's database work (one read) is the one every other preview test runs on both databases."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from games import registry
from tests import databases
from tests.conftest import start_table
from tests.games.previews import check_items, same_view

CARD = re.compile(r"\b[PE]\d{1,2}\b")
ALL_CARDS = {f"{kind}{i}" for kind in "PE" for i in range(1, 15)}
SEEDS = (1, 2)
GAMES = [("stairs", 2, seed) for seed in SEEDS] + [("sight", 2, seed) for seed in SEEDS] + [
    ("scalas", 2, seed) for seed in SEEDS] + [("town", players, seed) for players in (2, 3, 4)
                                              for seed in SEEDS]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return databases.sqlite_database(tmp_path / "stepwell.db")


def _hidden(view: dict[str, Any]) -> set[str]:
    """Town: the cards neither in the town nor on offer, that is still in a deck."""
    shown = {card for row in view["grid"] for card in row if card} | {
        card for card in view["offer"] if card}
    return ALL_CARDS - shown


def _no_secret(before: dict[str, Any], preview: dict[str, Any], seat: int) -> None:
    view = {key: value for key, value in preview["view"].items() if key != "cards"}
    assert not set(CARD.findall(json.dumps([view, preview["changes"]]))) & _hidden(before)
    for other, known in enumerate(preview["view"]["start_cards"]):
        if other != seat and not before["walks"][other]:
            assert known is None


@pytest.mark.parametrize(("game_id", "players", "seed"), GAMES)
def test_a_preview_at_every_ply_is_what_the_seat_sees_after_the_move(
        client: TestClient, game_id: str, players: int, seed: int) -> None:
    game = registry.get(game_id)
    rng = random.Random(seed)
    match_id, seats = start_table(client, game_id, players)
    url = f"/api/v1/matches/{match_id}"
    plies = 0
    while True:
        state = client.get(url, headers=seats[0]).json()
        if state["status"] != "active":
            break
        seat = state["to_move"]
        mover = seats[seat]
        mine = client.get(url, headers=mover).json()
        move = rng.choice(mine["legal_moves"])
        answer = client.post(f"{url}/preview", json={"move": move, "ply": mine["ply"]},
                             headers=mover)
        assert answer.status_code == 200, answer.text
        preview = answer.json()
        assert (preview["ply"], preview["move"]) == (mine["ply"], move)
        check_items(game, preview["changes"])
        if game_id == "town":
            _no_secret(mine["view"], preview, seat)
        played = client.post(f"{url}/moves", json={"move": move, "ply": mine["ply"]},
                             headers=mover)
        assert played.status_code == 200, played.text
        after = client.get(url, headers=mover).json()
        same_view(game, preview["view"], after["view"], seat)
        plies += 1
    assert plies > 0 and state["status"] == "finished"
