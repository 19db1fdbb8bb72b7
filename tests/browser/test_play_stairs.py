"""Two people create and join a Stairs match in the browser and play by clicking; a third watches
every move arrive without reloading; the game is finished through the API and all three see the
result banner."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def test_two_players_and_a_spectator_play_stairs(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    light, dark, spectator = new_page(), new_page(), new_page(width=375)

    light.goto(live_server + "/")
    form = light.locator("#create-stairs")
    form.locator('input[name="name"]').fill("Aiko")
    form.locator('select[name="seat"]').select_option("0")
    form.locator('button[value="private"]').click()
    light.wait_for_url("**/m/*")
    match_url = light.url
    match_id = match_url.rsplit("/", 1)[1]
    expect(light.locator("#status-line")).to_have_text("Waiting for players to join")
    invite = light.locator("#invite-link").input_value()
    assert invite.endswith(f"/m/{match_id}")

    dark.goto(invite)
    dark.locator('.join-form input[name="name"]').fill("Ben")
    dark.locator("#join-button").click()
    dark.wait_for_selector('#match[data-status="active"]')
    light.wait_for_selector('#match[data-status="active"]')  # the join arrives live
    spectator.goto(light.locator("#watch-link").input_value())
    spectator.wait_for_selector('#match[data-live="yes"]')
    assert spectator.locator("#join-button").count() == 0, "a started match offers no seat"

    # Three moves by clicking, each seen by the other player and the spectator without reload.
    players = [light, dark]
    for ply in range(3):
        mover = players[ply % 2]
        mover.wait_for_selector("#board g.movable")
        legal = httpx.get(f"{live_server}/api/v1/matches/{match_id}").json()
        source = mover.locator("#board g.movable").first.get_attribute("data-square")
        mover.locator(f'#board g[data-square="{source}"]').click()
        target = mover.locator("#board g.target").first.get_attribute("data-square")
        mover.locator(f'#board g[data-square="{target}"]').click()
        for page in (light, dark, spectator):
            page.wait_for_selector(f'#match[data-ply="{ply + 1}"]')
        assert legal["ply"] == ply
        assert spectator.locator("#move-list li .move").nth(ply).inner_text() == f"{source}-{target}"
        last = spectator.locator(f'#board g[data-square="{target}"] .last-move')
        assert last.count() == 1, "the last move is marked on the spectator's board"
    screenshot(light, "stairs-light-desktop")
    screenshot(spectator, "stairs-spectator-375")

    # Finish through the API with the players' own cookies (pages send them; here httpx does).
    clients = [_api_client(live_server, page) for page in players]
    rng = random.Random(3)
    state = clients[0].get(f"/api/v1/matches/{match_id}").json()
    while state["status"] == "active":
        client = clients[state["to_move"]]
        mine = client.get(f"/api/v1/matches/{match_id}").json()
        response = client.post(f"/api/v1/matches/{match_id}/moves",
                               json={"move": rng.choice(mine["legal_moves"]), "ply": mine["ply"]})
        assert response.status_code == 200, response.text
        state = response.json()
    winner = state["result"]["winners"][0]
    for page in (players[1 - winner], spectator):  # the winner's own banner names nobody
        page.wait_for_selector('#match[data-status="finished"]')
        banner = page.locator("#result-banner")
        assert banner.is_visible()
        assert ["Aiko", "Ben"][winner] in banner.inner_text()
    players[winner].wait_for_selector('#match[data-status="finished"]')
    assert "You win" in players[winner].locator("#result-banner").inner_text()
    assert "You lose" in players[1 - winner].locator("#result-banner").inner_text()
    screenshot(spectator, "stairs-finished-375")
    for page in (light, dark, spectator):
        assert page.js_errors == []


def _api_client(base: str, page) -> httpx.Client:  # type: ignore[no-untyped-def]
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    return httpx.Client(base_url=base, cookies=cookies, headers={"X-CSRF-Token": csrf})
