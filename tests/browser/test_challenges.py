"""Challenges in the lobby: a player invited to a 3-player Town match with someone else accepts
it there and goes to the match when the last one accepts; the challenger of a declined
challenge reads why, in their language."""

from __future__ import annotations

import itertools

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_client
from tests.browser.test_fixed_deal import _account
from tests.browser.test_lobby import _sign_up

pytestmark = pytest.mark.browser

NAMES = itertools.count()


def test_an_invited_player_accepts_a_town_challenge_in_the_lobby(live_server: str,
                                                                   new_page) -> None:  # type: ignore[no-untyped-def]
    number = next(NAMES)
    host, other = _account(live_server, f"host{number}"), _account(live_server, f"other{number}")
    page = new_page()
    _sign_up(page, live_server, f"guest{number}")
    sent = httpx.post(f"{live_server}/api/v1/challenges", headers=host, json={
        "users": [f"other{number}", f"guest{number}"], "game": "town"})
    assert sent.status_code == 201, sent.text
    row = page.locator(f'#seek-rows tr[data-seek="{sent.json()["id"]}"]')
    expect(row).to_contain_text(f"other{number}")  # the other invited player is named
    expect(row.locator("td").nth(2)).to_have_text("1/3")
    row.get_by_role("button", name="Accept").click()
    expect(row.locator("td").nth(2)).to_have_text("2/3")
    expect(row.get_by_role("button", name="Accept")).to_have_count(0)
    expect(row.get_by_role("button", name="Decline")).to_be_visible()
    httpx.post(f"{live_server}/api/v1/challenges/{sent.json()['id']}/accept",
               headers=other).raise_for_status()
    page.wait_for_url("**/m/*")  # the last acceptance starts the match: everyone goes there
    page.wait_for_selector('#match[data-status="active"]')
    assert page.js_errors == []


@pytest.mark.parametrize(("locale", "words"), [
    ("en-GB", "This time control is too fast for me"), ("ja-JP", "この持ち時間は私には速すぎます")])
def test_the_challenger_reads_why_a_challenge_was_declined(live_server: str, new_page,  # type: ignore[no-untyped-def]
                                                           locale: str, words: str) -> None:
    number = next(NAMES)
    invited = _account(live_server, f"busy{number}")
    page = new_page(locale=locale)
    _sign_up(page, live_server, f"asker{number}")
    with api_client(live_server, page) as mine:  # the page's own person
        sent = mine.post("/api/v1/challenges", json={"user": f"busy{number}", "game": "sight",
                                                     "time_control": {"kind": "realtime",
                                                                      "minutes": 1}})
    assert sent.status_code == 201, sent.text
    expect(page.locator(f'#seek-rows tr[data-seek="{sent.json()["id"]}"]')).to_have_count(1)
    httpx.post(f"{live_server}/api/v1/challenges/{sent.json()['id']}/decline", headers=invited,
               json={"reason": "tooFast"}).raise_for_status()
    expect(page.locator("#quick-status")).to_contain_text(words)
    assert page.js_errors == []
