"""The end of a game as its players read it: a rated game's banner shows each seat's rating change
live (no reload), the winner's own banner names nobody (no さん after your own name in Japanese),
and the loser's names who won."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_tournament_page import log_in
from tests.live.helpers import account

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "lang"), [(375, "ja"), (1366, "en")])
def test_a_rated_game_ends_with_each_rating_change_in_the_banner(  # type: ignore[no-untyped-def]
        live_server: str, new_page, width: int, lang: str) -> None:
    winner, loser = f"rw{width}", f"rl{width}"
    headers = {winner: account(live_server, winner), loser: account(live_server, loser)}
    seek = httpx.post(f"{live_server}/api/v1/seeks", headers=headers[winner],
                      json={"game": "stairs", "rated": True, "seat": 0}).json()
    match_id = httpx.post(f"{live_server}/api/v1/seeks/{seek['id']}/accept",
                          headers=headers[loser]).json()["match_id"]
    pages = {}
    for name in (winner, loser):
        page = pages[name] = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
        log_in(page, live_server, name)
        page.goto(f"{live_server}/lang/{lang}?next=/m/{match_id}")
        page.wait_for_selector('#match[data-status="active"]')
    httpx.post(f"{live_server}/api/v1/matches/{match_id}/resign",
               headers=headers[loser]).raise_for_status()
    for name, page in pages.items():
        banner = page.locator("#result-banner")
        expect(banner).to_be_visible()
        rows = banner.locator(".rating-changes li")
        expect(rows).to_have_count(2)
        mine, theirs = (0, 1) if name == winner else (1, 0)
        expect(rows.nth(mine)).to_contain_text("あなたのレーティング" if lang == "ja" else "Your rating")
        up, down = rows.nth(0).inner_text(), rows.nth(1).inner_text()
        assert re.search(r"25\.0 → 2[6-9]\.\d\s?[（(]\+\d\.\d", up), up
        assert re.search(r"25\.0 → 2[0-4]\.\d\s?[（(]−\d\.\d", down), down
        assert rows.nth(theirs).inner_text().startswith(loser if name == winner else winner)
        seat_rating = page.locator(f'#seats li[data-seat="{mine}"] .rating')
        expect(seat_rating).not_to_contain_text("25")
    won = pages[winner].locator("#result-banner").inner_text()
    lost = pages[loser].locator("#result-banner").inner_text()
    if lang == "ja":
        assert won.startswith("あなたの勝ち") and "さん" not in won.split("\n")[0], won
        assert f"{winner} さんの勝ち" in lost, lost
    else:
        assert won.startswith("You win!") and winner not in won.split("\n")[0], won
        assert f"You lose — {winner} wins" in lost, lost
    for name, page in pages.items():
        screenshot(page, f"result-rated-{'won' if name == winner else 'lost'}-{lang}-{width}")
        assert page.js_errors == []
