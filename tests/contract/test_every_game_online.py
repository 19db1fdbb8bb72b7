"""Every registered game through the API and the pages: listed in the catalogue, created, joined,
played a few plies by its seats, viewed by each seat and a spectator, and its home form and match
page rendered in both languages with its translated title."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from app.kernel import i18n
from games import Game, registry
from tests.conftest import make_guest

GAMES = pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)


def _title(game: Game, language: str) -> str:
    token = i18n.current_language.set(language)
    try:
        return i18n.gettext(game.title)
    finally:
        i18n.current_language.reset(token)


@GAMES
def test_a_match_of_every_game_is_played_viewed_and_shown(client: TestClient, game: Game) -> None:
    listed = {entry["id"]: entry for entry in client.get("/api/v1/games").json()}
    assert listed[game.id]["title"] == game.title
    players = [make_guest(client, f"P{n}") for n in range(game.min_players)]
    match_id = client.post("/api/v1/matches", json={"game": game.id, "seat": 0},
                           headers=players[0]).json()["id"]
    for seat, headers in enumerate(players[1:], start=1):
        joined = client.post(f"/api/v1/matches/{match_id}/join", json={"seat": seat},
                             headers=headers)
        assert joined.status_code == 200, joined.text
    rng = random.Random(game.id)
    for _ in range(6):
        public = client.get(f"/api/v1/matches/{match_id}").json()
        if public["status"] != "active":
            break
        assert public["legal_moves"] == []
        mover = players[public["to_move"]]
        mine = client.get(f"/api/v1/matches/{match_id}", headers=mover).json()
        move = rng.choice(mine["legal_moves"])
        played = client.post(f"/api/v1/matches/{match_id}/moves",
                             json={"move": move, "ply": mine["ply"]}, headers=mover)
        assert played.status_code == 200, played.text
    for language in ("en", "ja"):
        home = client.get(f"/?lang={language}")
        assert home.status_code == 200 and f'id="create-{game.id}"' in home.text
        page = client.get(f"/m/{match_id}?lang={language}", headers=players[0])
        assert page.status_code == 200 and _title(game, language) in page.text
