"""Programs are marked BOT wherever the scripts draw a player: the match page's seats and the
Watch page (bots are marked on every page)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client, create_match

pytestmark = pytest.mark.browser


def test_a_bot_opponent_is_marked_bot_on_the_match_and_watch_pages(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=375, locale="ja-JP")
    match_id = create_match(page, live_server, "stairs", "Aiko")
    with api_client(live_server, page) as client:
        answer = client.post(f"/api/v1/matches/{match_id}/bots", json={"level": "easy"})
        assert answer.status_code == 200, answer.text
    page.reload()
    badge = page.locator(".bot-badge").first
    badge.wait_for()
    assert badge.inner_text() == "BOT"
    assert page.locator(".bot-badge").count() == 1, "only the bot's seat is marked"
    screenshot(page, "bot-mark-match-375-ja")
    watcher = new_page(width=1366)
    watcher.goto(live_server + "/watch")
    watcher.locator(f'[data-match="{match_id}"] .bot-badge').first.wait_for()
    screenshot(watcher, "bot-mark-watch-1366-en")
    assert not page.js_errors and not watcher.js_errors
