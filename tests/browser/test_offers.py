"""Offers through the page: a takeback asked and accepted with the buttons (the board goes back),
a draw offered and accepted in Scalas, and a rematch that takes both players to the new match
with the seats swapped."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_client, create_match, join_match, play

pytestmark = pytest.mark.browser


def _start(live_server: str, new_page, game: str):  # type: ignore[no-untyped-def]
    first, second = new_page(), new_page(width=375)
    match_id = create_match(first, live_server, game, "Aki", seat="0")
    join_match(second, first.locator("#invite-link").input_value(), "Bo")
    for page in (first, second):
        page.wait_for_selector('#match[data-status="active"][data-live="yes"]')
    return first, second, match_id


def test_takeback_and_rematch_with_the_buttons(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    light, dark, match_id = _start(live_server, new_page, "stairs")
    light_api = api_client(live_server, light)
    state = light_api.get(f"/api/v1/matches/{match_id}").json()
    play(light_api, match_id, state["legal_moves"][0], 0)
    dark.wait_for_selector('#match[data-ply="1"]')
    light.locator('[data-action="offer-takeback"]').click()
    expect(dark.locator('[data-offer="takeback"]')).to_be_visible()
    dark.locator('[data-action="accept-takeback"]').click()
    for page in (light, dark):
        page.wait_for_selector('#match[data-ply="0"]')
        expect(page.locator("#move-list li .move")).to_have_count(0)
    dark.on("dialog", lambda dialog: dialog.accept())  # "Call this game off?"
    dark.locator('[data-action="abort"]').click()
    for page in (light, dark):
        page.wait_for_selector('#match[data-status="aborted"]')
    dark.locator('[data-action="offer-rematch"]').click()
    light.locator('[data-action="accept-rematch"]').click()
    for page in (light, dark):
        page.wait_for_url(lambda url: match_id not in url)
        page.wait_for_selector('#match[data-status="active"]')
    assert light.url == dark.url
    expect(dark.locator('#seats .seat[data-seat="0"]')).to_contain_text("Bo")  # seats swapped


def test_a_draw_offered_and_accepted_in_scalas(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    red, blue, _match_id = _start(live_server, new_page, "scalas")
    red.locator('[data-action="offer-draw"]').click()
    expect(red.locator('[data-offer="draw"]')).to_contain_text("You offered a draw")
    blue.locator('[data-action="accept-draw"]').click()
    for page in (red, blue):
        page.wait_for_selector('#match[data-status="finished"]')
        expect(page.locator("#result-banner")).to_contain_text("Draw")
