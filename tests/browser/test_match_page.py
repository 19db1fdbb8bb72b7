"""The match page shell: opened mid-game it fetches the move list once and shows every move."""

from __future__ import annotations

import random

import pytest

from games import registry
from tests.browser.helpers import api_client, create_match, join_match, play

pytestmark = pytest.mark.browser


def test_a_page_opened_mid_game_asks_for_the_moves_once(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    game = registry.all_games()[0].id
    host, guest = new_page(), new_page()
    match_id = create_match(host, live_server, game, "Aiko")
    join_match(guest, f"{live_server}/m/{match_id}", "Ben")
    clients = {0: api_client(live_server, host), 1: api_client(live_server, guest)}
    rng = random.Random(5)
    state = clients[0].get(f"/api/v1/matches/{match_id}").json()
    while state["ply"] < 4 and state["status"] == "active":
        mine = clients[state["to_move"]].get(f"/api/v1/matches/{match_id}").json()
        state = play(clients[state["to_move"]], match_id, rng.choice(mine["legal_moves"]), mine["ply"])
    viewer = new_page(width=375)
    asked: list[str] = []
    viewer.on("request", lambda request: request.url.endswith("/moves") and asked.append(request.url))
    viewer.goto(f"{live_server}/m/{match_id}")
    viewer.wait_for_selector('#match[data-live="yes"]')
    viewer.wait_for_selector(f'#move-list li[data-ply="{state["ply"]}"]')
    viewer.wait_for_timeout(300)
    assert len(asked) == 1, asked
    assert viewer.locator("#move-list li[data-ply]").count() == state["ply"]
