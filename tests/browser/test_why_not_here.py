"""A player who taps a square the rules do not allow is told why, near the board, in their
language ("why not here"); a legal tap clears the reason."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import create_match, join_match, wait_ply

pytestmark = pytest.mark.browser


def test_an_illegal_tap_is_explained_in_the_players_language(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    light, dark = new_page(width=1366), new_page(width=375, locale="ja-JP")
    match_id = create_match(light, live_server, "stairs", "Aiko")
    join_match(dark, f"{live_server}/m/{match_id}", "Ben")
    light.wait_for_selector('#match[data-status="active"]')
    light.wait_for_selector("#board g.movable")
    reason = light.locator("#move-error")

    light.locator('#board g[data-square="b1"]').click()  # a dark piece
    expect(reason).to_have_text("the top piece on b1 is not yours")
    light.locator('#board g[data-square="a1"]').click()  # a legal piece: the reason goes
    expect(reason).to_be_hidden()
    light.locator('#board g[data-square="b3"]').click()  # too far from a1
    expect(reason).to_have_text("b3 is not next to a1: a piece moves to one of the 8 neighbours")
    screenshot(light, "why-stairs-en-1366")
    light.locator('#board g[data-square="a1"]').click()
    light.locator('#board g[data-square="b2"]').click()
    wait_ply([light, dark], 1)
    expect(reason).to_be_hidden()

    dark.wait_for_selector("#board g.movable")
    dark.locator('#board g[data-square="a1"]').click()  # emptied by light's move
    expect(dark.locator("#move-error")).to_have_text("a1 にはコマがありません")
    screenshot(dark, "why-stairs-ja-375")
    assert not light.js_errors and not dark.js_errors
