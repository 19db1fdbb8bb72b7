"""Keyboard and screen readers: a whole game of Sight against the easy bot played with the
keyboard only (Tab onto the board, arrows, Enter, Escape), every move read out in the live region;
the same on a Japanese page of Stairs, where squares are named and moves announced in Japanese."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client, create_match
from tests.browser.keyboard import FOCUSED_CELL as FOCUSED
from tests.browser.keyboard import focused_name, tab_to_board, walk_to

pytestmark = pytest.mark.browser


def start_against_the_easy_bot(page, base: str, game: str):  # type: ignore[no-untyped-def]
    match_id = create_match(page, base, game, "Aiko", seat="0")
    client = api_client(base, page)
    assert client.post(f"/api/v1/matches/{match_id}/bots", json={"level": "easy"}).status_code == 200
    page.wait_for_selector('#match[data-status="active"]')
    return match_id, client


PAGE_AT_LEAST = "(ply) => Number(document.querySelector('#match').dataset.ply) >= ply"
PAGE_PLY = "Number(document.querySelector('#match').dataset.ply)"


def my_turn(page, client, match_id: str):  # type: ignore[no-untyped-def]
    """Wait until it is the page's turn (or the game is over) and the page shows that position."""
    while True:
        state = client.get(f"/api/v1/matches/{match_id}").json()
        mine = state["status"] != "active" or state["to_move"] == state["your_seat"]
        # the page may already be past a position the bot has moved on from: wait for at least it
        page.wait_for_function(PAGE_AT_LEAST, arg=state["ply"] + (0 if mine else 1), timeout=15000)
        if mine and page.evaluate(PAGE_PLY) == state["ply"]:
            return state


def test_a_whole_game_of_sight_with_the_keyboard_only(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    match_id, client = start_against_the_easy_bot(page, live_server, "sight")
    assert page.locator("#board [role=application]").get_attribute("aria-label") == "Sight board"
    tab_to_board(page)
    escaped = False
    moves = 0
    while True:
        state = my_turn(page, client, match_id)
        if state["status"] != "active":
            break
        if state["ply"] > 0:  # the bot's move was read out, and it is our turn again
            bot_moved = re.compile(r"\(Dark\): [a-e]\d.*Your turn\.")
            expect(page.locator("#board-announcer")).to_contain_text(bot_moved)
        clicks = state["view"]["clicks"]
        assert clicks, "every Sight move is played on the board"
        first, then = next(iter(clicks.items()))
        walk_to(page, first)
        if isinstance(then, str):  # placement: one point
            assert focused_name(page).startswith(f"{first}, empty") and "place here" in focused_name(page)
            page.keyboard.press("Enter")
        else:  # a move: the stack, then the neighbouring point
            assert "can move" in focused_name(page), focused_name(page)
            page.keyboard.press("Enter")
            expect(page.locator(f'#board [data-point="{first}"]')).to_have_class(re.compile("selected"))
            if not escaped:  # Escape drops the selection; Enter picks the stack again
                page.keyboard.press("Escape")
                expect(page.locator("#board .sight-point.selected")).to_have_count(0)
                page.keyboard.press("Enter")
                escaped = True
            target = next(iter(then))
            walk_to(page, target)
            assert "move here" in focused_name(page), focused_name(page)
            page.keyboard.press("Enter")
        page.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')
        moves += 1
        on_board = page.evaluate("document.activeElement.closest('#board') !== null")
        assert on_board, "the focus stays on the board"
    assert escaped and moves >= 4
    page.wait_for_selector('#match[data-status="finished"]')
    expect(page.locator("#board-announcer")).to_contain_text("Game over.")
    screenshot(page, "sight-keyboard-finished")
    assert page.js_errors == []


def test_stairs_squares_and_moves_in_japanese(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=375, locale="ja-JP")
    match_id, client = start_against_the_easy_bot(page, live_server, "stairs")
    state = my_turn(page, client, match_id)
    assert page.locator("#board [role=application]").get_attribute("aria-label") == "ステアーの盤"
    tab_to_board(page)
    source, targets = next(iter(state["view"]["clicks"].items()))
    walk_to(page, source)
    assert re.fullmatch(rf"{source}、[白黒]、高さ1、動かせます", focused_name(page)), focused_name(page)
    page.keyboard.press("Enter")
    assert focused_name(page).endswith("選択中")
    target = next(iter(targets))
    walk_to(page, target)
    assert focused_name(page).endswith("ここへ動かせます"), focused_name(page)
    page.keyboard.press("Enter")
    announcer = page.locator("#board-announcer")
    expect(announcer).to_contain_text(f"あなた（白）：{source}から{target}へ。")
    my_turn(page, client, match_id)
    expect(announcer).to_contain_text(re.compile(r"（黒）：[a-f]\dから[a-f]\dへ。あなたの番です。$"))
    screenshot(page, "stairs-keyboard-ja-375")
    assert page.js_errors == []


def test_town_and_scalas_from_the_keyboard(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    """Town: Enter on an offer card goes on to its first slot, Escape goes back to the card, Enter on
    a slot builds there. Scalas (3D view): arrows to a square named with its state, Enter places."""
    town = new_page(width=375)
    match_id, client = start_against_the_easy_bot(town, live_server, "town")
    state = my_turn(town, client, match_id)
    for _ in range(60):
        town.keyboard.press("Tab")
        if town.evaluate("document.activeElement?.dataset?.offer != null"):
            break
    card = town.evaluate("document.activeElement.dataset.offer")
    slots = list(state["view"]["clicks"][card])
    town.keyboard.press("Enter")
    assert town.evaluate(FOCUSED) == slots[0] and focused_name(town).endswith("place here")
    town.keyboard.press("Escape")
    assert town.evaluate("document.activeElement.dataset.offer") == card
    expect(town.locator("[data-slot].target")).to_have_count(0)
    town.keyboard.press("Enter")
    walk_to(town, slots[-1])
    town.keyboard.press("Enter")
    expect(town.locator("#board-announcer")).to_contain_text(f"You (Red): {card}")
    my_turn(town, client, match_id)
    first = client.get(f"/api/v1/matches/{match_id}/moves").json()[0]["move"]
    assert first == state["view"]["clicks"][card][slots[-1]]

    scalas = new_page(width=1366)
    match_id, client = start_against_the_easy_bot(scalas, live_server, "scalas")
    scalas.wait_for_selector('.scalas[data-view="iso"]')
    state = my_turn(scalas, client, match_id)
    tab_to_board(scalas)
    walk_to(scalas, "c3")
    assert focused_name(scalas) == "c3, empty, place here"
    scalas.keyboard.press("Enter")
    expect(scalas.locator("#board-announcer")).to_contain_text("You (Red): c3, height 1.")
    my_turn(scalas, client, match_id)
    assert client.get(f"/api/v1/matches/{match_id}/moves").json()[0]["move"] == "c3"
    assert town.js_errors == [] and scalas.js_errors == []
