"""The match chat in browsers: two players chat both ways in two languages, markup
stays text, a spectator talks in the spectators' room only, mute hides a player's lines."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client, create_match, join_match

pytestmark = pytest.mark.browser

HOSTILE = '<img src=x onerror="window.pwned=1"><b>bold</b>'


def test_two_players_chat_both_ways_and_a_spectator_stays_in_their_room(  # type: ignore[no-untyped-def]
        live_server: str, new_page) -> None:
    aki, bo = new_page(width=1366), new_page(width=375, locale="ja-JP")
    match_id = create_match(aki, live_server, "stairs", "Aki", seat="0")
    join_match(bo, aki.locator("#invite-link").input_value(), "Bo")
    for page in (aki, bo):
        page.wait_for_selector('#match[data-status="active"][data-live="yes"]')
    expect(aki.locator("#chat")).to_have_attribute("open", "")  # beside the board on a desktop
    assert bo.locator("#chat").get_attribute("open") is None  # collapsed under it on a phone
    aki.locator('[data-phrase="hello"]').click()  # Bo's panel is closed: a badge counts it
    expect(bo.locator("#chat-unread")).to_have_text("1")
    bo.locator("#chat summary").click()
    expect(bo.locator("#chat-unread")).to_be_hidden()
    expect(bo.locator("#chat-lines .chat-line")).to_contain_text(["こんにちは"])

    aki.locator("#chat-input").fill(HOSTILE)
    aki.locator("#chat-input").press("Enter")
    expect(bo.locator("#chat-lines .chat-text")).to_have_text(["こんにちは", HOSTILE])
    assert bo.locator("#chat-lines img, #chat-lines b").count() == 0
    assert bo.evaluate("window.pwned") is None
    expect(aki.locator("#chat-input")).to_have_value("")

    bo.locator('[data-phrase="good_luck"]').click()
    expect(aki.locator("#chat-lines .chat-line").last).to_contain_text("Good luck")
    expect(bo.locator("#chat-lines .chat-line").last).to_contain_text("よろしくお願いします")
    bo.locator("#chat-input").fill("がんばります")
    bo.locator("#chat-send").click()
    expect(aki.locator("#chat-lines .chat-line").last).to_contain_text("がんばります")

    watcher = new_page(width=1366, locale="ja-JP")
    create_match(watcher, live_server, "sight", "Cy")  # becomes a guest
    watcher.goto(f"{live_server}/m/{match_id}?watch=1")
    watcher.wait_for_selector('#match[data-live="yes"]')
    expect(watcher.locator("#chat-room-name")).to_contain_text("観戦者の部屋")
    expect(watcher.locator("#chat-lines .chat-line")).to_have_count(0)  # players' lines unseen
    expect(watcher.locator("#chat-form")).to_be_hidden()  # a guest: quick phrases only
    watcher.locator('[data-phrase="hello"]').click()
    expect(watcher.locator("#chat-lines .chat-line")).to_contain_text(["こんにちは"])
    refused = api_client(live_server, watcher).post(f"/api/v1/matches/{match_id}/chat",
                                                    json={"room": "players", "text": "psst"})
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    aki.wait_for_timeout(300)
    expect(aki.locator("#chat-lines .chat-line")).to_have_count(4)  # no spectator line here

    screenshot(aki, "chat-desktop-en")
    screenshot(bo, "chat-phone-ja")
    screenshot(watcher, "chat-spectator-desktop-ja")

    aki.locator('#chat-lines .chat-line[data-user] .chat-more').first.click()
    aki.locator('.chat-menu [data-action="mute"]').click()
    expect(aki.locator("#chat-lines .chat-line")).to_have_count(2)  # only Aki's own lines
    expect(aki.locator("#chat-muted")).to_contain_text("Bo")
    bo.locator('[data-phrase="sorry"]').click()
    expect(bo.locator("#chat-lines .chat-line")).to_have_count(5)
    aki.wait_for_timeout(300)
    expect(aki.locator("#chat-lines .chat-line")).to_have_count(2)
    aki.reload()
    aki.wait_for_selector('#match[data-live="yes"]')
    expect(aki.locator("#chat-muted")).to_contain_text("Bo")  # remembered
    expect(aki.locator("#chat-lines .chat-line")).to_have_count(2)

    api_client(live_server, bo).post(f"/api/v1/matches/{match_id}/resign")
    aki.wait_for_selector('#match[data-status="finished"]')
    expect(aki.locator("#chat-tabs")).to_be_visible()  # the game is over: both rooms
    aki.locator('#chat-tabs [data-room="spectators"]').click()
    expect(aki.locator("#chat-lines .chat-line")).to_contain_text(["Hello"])
    expect(aki.locator("#chat-form")).to_be_hidden()  # guests: quick phrases for spectators
    aki.locator('[data-phrase="thanks"]').click()
    expect(watcher.locator("#chat-lines .chat-line").last).to_contain_text("ありがとう")
    screenshot(aki, "chat-after-game-desktop-en")
    for page in (aki, bo, watcher):
        assert not page.js_errors, page.js_errors
