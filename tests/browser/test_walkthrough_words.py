"""Words a newcomer reads: Sight's option choices named in the page's language on the create form
and the lobby rows, and built-in bots named in the page's language on a tournament page (two bots
of one level are two players)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.live.helpers import account, guest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "title", "movable", "absolute"), [
    ("en", "Priority", "tallest stack that can move", "tallest stack, always"),
    ("ja", "優先ルール", "動けるスタックの中で最も高いもの", "常に最も高いスタック"),
])
def test_sight_option_choices_are_words_on_cards_and_lobby_rows(  # type: ignore[no-untyped-def]
        live_server: str, new_page, lang: str, title: str, movable: str, absolute: str) -> None:
    seeker = guest(live_server, f"Seeker {lang}")
    created = httpx.post(f"{live_server}/api/v1/seeks", headers=seeker,
                         json={"game": "sight", "options": {"priority": "movable"}})
    assert created.status_code == 201, created.text
    page = new_page(width=375)
    page.goto(f"{live_server}/lang/{lang}?next=/")
    card = page.locator('#create-sight select[name="opt_priority"] option')
    expect(card).to_have_text([absolute, movable])
    row = page.locator(f'#seek-rows tr[data-seek="{created.json()["id"]}"]')
    expect(row).to_contain_text(movable)
    assert "movable" not in row.inner_text().replace(movable, "")
    assert title in row.inner_text()
    screenshot(page, f"lobby-sight-option-{lang}-375")
    assert page.js_errors == []


def test_bots_on_a_tournament_page_are_named_in_japanese(  # type: ignore[no-untyped-def]
        live_server: str, new_page) -> None:
    host = account(live_server, "botcupper")
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": "Bot cup", "kind": "swiss", "game": "stairs", "rounds": 2,
        "starts_at": later}).json()
    url = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    for _ in range(2):
        assert httpx.post(f"{url}/bots", headers=host, json={"level": "easy"}).status_code == 200
    page = new_page(width=375, locale="ja-JP")
    page.goto(f"{live_server}/lang/ja?next=/tournaments/{tournament['id']}")
    names = page.locator("#standings tbody .player-name a")
    expect(names).to_have_count(2)
    assert sorted(names.all_inner_texts()) == ["ボット2（やさしい）", "ボット（やさしい）"]
    screenshot(page, "tournament-bots-ja-375")
    assert page.js_errors == []
