"""Friends by link: the invite page says who invited you to which game, and while the friend
only has the page open the host is told the link was opened (never "1 watching")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import create_match

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "lang"), [(375, "ja"), (1366, "en")])
def test_the_invite_page_names_the_host_and_the_game(  # type: ignore[no-untyped-def]
        live_server: str, new_page, width: int, lang: str) -> None:
    host = new_page(width=width)
    if lang == "ja":
        host.goto(f"{live_server}/lang/ja?next=/")
    match_id = create_match(host, live_server, "sight", f"Hana{width}")
    friend = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    friend.goto(f"{live_server}/lang/{lang}?next=/m/{match_id}")
    invite = friend.locator("#invite-from")
    expected = (f"Hana{width} さんからサイトの対局に招待されました。" if lang == "ja"
                else f"Hana{width} invited you to a game of Sight.")
    expect(invite).to_have_text(expected)
    expect(friend.locator("#presence")).to_have_text("")
    opened = "招待リンクが開かれました" if lang == "ja" else "Someone has opened your invite link"
    expect(host.locator("#presence")).to_have_text(opened)
    assert "watching" not in host.locator("#presence").inner_text()
    screenshot(friend, f"invite-friend-{lang}-{width}")
    screenshot(host, f"invite-host-{lang}-{width}")
    friend.locator('.join-form input[name="name"]').fill("Ken")
    friend.locator("#join-button").click()
    friend.wait_for_selector('#match[data-status="active"]')
    host.wait_for_selector('#match[data-status="active"]')
    expect(host.locator("#presence")).to_have_text("")
    assert host.js_errors == [] and friend.js_errors == []
