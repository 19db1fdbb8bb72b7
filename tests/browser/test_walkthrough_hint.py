"""A hint in a casual game against a bot is drawn on the board (the move's squares framed) with a
"Play it" button that plays it; the frame goes when the position changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_board_keyboard import my_turn, start_against_the_easy_bot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("game", "width", "lang"), [("stairs", 1366, "en"), ("sight", 375, "ja")])
def test_a_hint_is_drawn_on_the_board_and_played_with_one_button(  # type: ignore[no-untyped-def]
        live_server: str, new_page, game: str, width: int, lang: str) -> None:
    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    if lang == "ja":
        page.goto(f"{live_server}/lang/ja?next=/")
    match_id, client = start_against_the_easy_bot(page, live_server, game)
    state = my_turn(page, client, match_id)
    page.click("#hint-button")
    play = page.locator("#hint-play")
    expect(play).to_be_visible(timeout=30_000)
    expect(play).to_have_text("指す" if lang == "ja" else "Play it")
    move = page.inner_text("#hint-line").split(":" if lang == "en" else "：")[-1].split()[0]
    assert move in state["legal_moves"], (move, state["legal_moves"])
    framed = page.eval_on_selector_all("#board .hint-cell", "cells => cells.map(c => c.dataset.cell)")
    assert framed, "the hint's squares are framed on the board"
    assert all(cell in move for cell in framed), (framed, move)
    outline = page.eval_on_selector("#board .hint-cell", "c => getComputedStyle(c).outlineStyle")
    assert outline == "dashed"
    screenshot(page, f"hint-{game}-{lang}-{width}")
    play.click()
    page.wait_for_function(f"Number(document.querySelector('#match').dataset.ply) > {state['ply']}")
    played = client.get(f"/api/v1/matches/{match_id}/moves").json()[state["ply"]]["move"]
    assert played == move
    expect(page.locator("#board .hint-cell")).to_have_count(0)
    assert page.js_errors == []
