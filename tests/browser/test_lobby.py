"""Strangers meet in the lobby: a seek appears live and is accepted, quick play pairs two waiting
players, and a third person finds the game on the Watch page and sees a move arrive."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def _enter_as_guest(page, base: str, name: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/")
    page.locator('.name-bar input[name="name"]').fill(name)
    page.locator(".name-bar button").click()
    page.wait_for_selector('#lobby[data-live="yes"]')


def _sign_up(page, base: str, username: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/signup")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill("a long password")
    page.locator('.auth-form button[type="submit"]').click()
    page.wait_for_selector('#lobby[data-live="yes"]')


def test_two_users_meet_through_a_seek(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    creator, joiner = new_page(), new_page(width=375)
    _sign_up(creator, live_server, "seeker1")
    _enter_as_guest(joiner, live_server, "Walker")
    form = creator.locator("#create-stairs")
    form.locator('button[value="lobby"]').click()
    creator.wait_for_selector('#lobby[data-live="yes"]')
    row = joiner.locator('#seek-rows tr[data-kind="open"]', has_text="seeker1")
    expect(row).to_have_count(1)  # appeared live, no reload
    screenshot(joiner, "lobby-seek-375")
    row.get_by_role("button").click()
    for page in (creator, joiner):
        page.wait_for_url(re.compile(r".*/m/\w+$"))
        page.wait_for_selector('#match[data-status="active"]')
    assert creator.url == joiner.url
    expect(creator.locator("#seats")).to_contain_text("Walker")
    assert creator.js_errors == [] and joiner.js_errors == []


def test_quick_play_pairs_two_waiting_players(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    first, second = new_page(), new_page()
    _enter_as_guest(first, live_server, "Quick1")
    _enter_as_guest(second, live_server, "Quick2")
    first.locator('button.quick[data-game="sight"]').click()
    expect(first.locator("#quick-status")).to_contain_text("Looking for an opponent")
    second.locator('button.quick[data-game="sight"]').click()
    for page in (first, second):
        page.wait_for_url(re.compile(r".*/m/\w+$"))
        page.wait_for_selector('#match[data-status="active"]')
    assert first.url == second.url
    assert "Sight" in first.locator(".match-title").inner_text()


def test_a_third_user_watches_a_live_game(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    api = httpx.Client(base_url=live_server)
    tokens = [api.post("/api/v1/guests", json={"name": n}).json()["token"] for n in ("W1", "W2")]
    headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
    match = api.post("/api/v1/matches", json={"game": "stairs", "seat": 0}, headers=headers[0]).json()
    api.post(f"/api/v1/matches/{match['id']}/join", headers=headers[1])
    watcher = new_page()
    watcher.goto(live_server + "/watch")
    card = watcher.locator(f'.live-card[data-match="{match["id"]}"]')
    expect(card).to_have_attribute("data-ply", "0")
    expect(card).to_contain_text("W1")
    move = api.get(f"/api/v1/matches/{match['id']}", headers=headers[0]).json()["legal_moves"][0]
    api.post(f"/api/v1/matches/{match['id']}/moves", json={"move": move, "ply": 0}, headers=headers[0])
    expect(card).to_have_attribute("data-ply", "1")  # the move arrived without a reload
    screenshot(watcher, "watch-page")
    card.click()
    watcher.wait_for_selector('#match[data-live="yes"]')
    expect(watcher.locator("#move-list")).to_contain_text(move)
    assert watcher.js_errors == []
