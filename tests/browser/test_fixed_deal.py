"""A casual Town game whose creator fixed the deal says so where a player decides to sit down:
the lobby row, the challenge to you, and the match page before anyone joins — on a phone and a
desktop, in English and Japanese."""

from __future__ import annotations

import itertools

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_lobby import _sign_up

pytestmark = pytest.mark.browser

FIXED = {"start_cards": [2, 6]}
WORDS = {"en-GB": ("Fixed deal", "fixed the deal"), "ja-JP": ("配札固定", "配札を固定")}
NAMES = itertools.count()


def _account(base: str, username: str) -> dict[str, str]:
    made = httpx.post(f"{base}/api/v1/accounts",
                      json={"username": username, "password": "a long password"})
    made.raise_for_status()
    return {"Authorization": f"Bearer {made.json()['token']}"}


@pytest.mark.parametrize(("width", "locale"), [(375, "ja-JP"), (1366, "en-GB")])
def test_a_fixed_deal_is_disclosed_in_the_lobby_the_challenge_and_the_match(
        live_server: str, new_page, width: int, locale: str) -> None:  # type: ignore[no-untyped-def]
    tag, sentence = WORDS[locale]
    number = next(NAMES)
    dealer = _account(live_server, f"dealer{number}")
    page = new_page(width=width, locale=locale)
    _sign_up(page, live_server, f"player{number}")
    seek = httpx.post(f"{live_server}/api/v1/seeks", headers=dealer,
                      json={"game": "town", "players": 2, "options": FIXED})
    seek.raise_for_status()
    challenge = httpx.post(f"{live_server}/api/v1/challenges", headers=dealer, json={
        "user": f"player{number}", "game": "town", "options": FIXED})
    assert challenge.status_code == 201, challenge.text
    fair = httpx.post(f"{live_server}/api/v1/seeks", headers=dealer,
                      json={"game": "town", "players": 2})
    fair.raise_for_status()

    for listed in (seek, challenge):
        seek_id = listed.json()["id"]
        row = page.locator(f'#seek-rows tr[data-seek="{seek_id}"]')
        expect(row.locator(".fixed-deal-tag")).to_have_text(tag)  # appeared live, no reload
        note = page.locator(f'#seek-rows tr[data-note-for="{seek_id}"] .fixed-deal')
        expect(note).to_be_visible()
        expect(note).to_contain_text(sentence)
    fair_id = fair.json()["id"]
    expect(page.locator(f'#seek-rows tr[data-seek="{fair_id}"]')).to_have_count(1)
    expect(page.locator(f'#seek-rows tr[data-seek="{fair_id}"] .fixed-deal-tag')).to_have_count(0)
    expect(page.locator(f'#seek-rows tr[data-note-for="{fair_id}"]')).to_have_count(0)
    page.locator("#lobby").scroll_into_view_if_needed()
    screenshot(page, f"fixed-deal-lobby-{locale}-{width}")

    created = httpx.post(f"{live_server}/api/v1/matches", headers=dealer,
                         json={"game": "town", "players": 2, "options": FIXED})
    created.raise_for_status()
    page.goto(f"{live_server}/m/{created.json()['id']}")
    note = page.locator("#fixed-deal")
    expect(note).to_be_visible()
    expect(note).to_contain_text(sentence)
    expect(page.locator("#join-button")).to_be_visible()  # said before anyone joins
    screenshot(page, f"fixed-deal-match-{locale}-{width}")
    for row_seek in (seek, challenge, fair):
        httpx.delete(f"{live_server}/api/v1/seeks/{row_seek.json()['id']}", headers=dealer)
    assert page.js_errors == []
