"""Play without sight: a whole game of each of the four games against the easy bot, with the
keyboard only (Tab, arrows, Enter, letters), reading the board through its names and the live
region. The first moves of each game wait for their confirmation: Enter on a target reads the
move's preview out, Enter on it again plays it. S reads a whole stack bottom to top; in Town R
reads the walks as paths, and its walk choices (buttons) confirm with the preview panel's Play."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.keyboard import FOCUSED_CELL, focused_name, tab_to_board, walk_to
from tests.browser.test_board_keyboard import my_turn, start_against_the_easy_bot

pytestmark = pytest.mark.browser

READY = '#move-preview[data-state="ready"]'
CONFIRMED_MOVES = 3
"""The first moves of a game wait for their confirmation (the rest play at once: a shorter run)."""

NEAREST = """(ids) => {
    const here = document.activeElement;
    const grid = here && here.closest('.kit-grid');
    if (!grid || !here.dataset.at) return ids[0];
    const [x, y] = here.dataset.at.split(',').map(Number);
    let best = ids[0], distance = Infinity;
    for (const id of ids) {
        const cell = grid.querySelector(`[data-cell="${id}"]`);
        if (!cell) continue;
        const [u, v] = cell.dataset.at.split(',').map(Number);
        const d = Math.abs(u - x) + Math.abs(v - y);
        if (d < distance) { best = id; distance = d; }
    }
    return best;
}"""


def choose(page, setting: str) -> None:  # type: ignore[no-untyped-def]
    page.evaluate("(value) => localStorage.setItem('stepwell.confirmMoves', value)", setting)


def nearest(page, cells: list[str]) -> str:  # type: ignore[no-untyped-def]
    """Of ``cells``, the one nearest the focus (fewer arrow presses)."""
    return str(page.evaluate(NEAREST, cells))


def press_and_play(page, state: dict[str, Any], confirm: bool) -> None:  # type: ignore[no-untyped-def]
    """Enter on the focused target; when the move waits, its preview is read out, and Enter on the
    same target again plays it."""
    page.keyboard.press("Enter")
    if confirm:
        expect(page.locator(READY)).to_be_visible()
        expect(page.locator("#board-announcer")).to_contain_text("Preview of")
        expect(page.locator("#board-announcer")).to_contain_text("Select it again to play it")
        assert page.locator("#board").get_attribute("data-preview"), "the board draws the position after it"
        page.keyboard.press("Enter")
    page.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')


def to_focus(page, test: str, key: str = "Tab", limit: int = 80) -> None:  # type: ignore[no-untyped-def]
    """Press ``key`` until ``test`` (a JS expression on document.activeElement) holds."""
    for _ in range(limit):
        if page.evaluate(f"(() => {{ const a = document.activeElement; return !!(a && ({test})); }})()"):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {test}")


def play_on_the_board(page, state: dict[str, Any], confirm: bool) -> None:  # type: ignore[no-untyped-def]
    """One move of Stairs, Sight or Scalas: to a piece (or a point), Enter, to its target, Enter."""
    clicks = state["view"]["clicks"]
    if not clicks:  # no move on the board: a button (a pass)
        to_focus(page, "a.dataset.move")
        press_and_play(page, state, confirm)
        return
    first = nearest(page, list(clicks))
    walk_to(page, first)
    if isinstance(clicks[first], dict):
        page.keyboard.press("Enter")
        target = nearest(page, list(clicks[first]))
        walk_to(page, target)
        assert re.search(r"move here|place here", focused_name(page)), focused_name(page)
    press_and_play(page, state, confirm)


def read_stack(page, expected: str) -> None:  # type: ignore[no-untyped-def]
    page.keyboard.press("s")
    expect(page.locator("#board-announcer")).to_contain_text(re.compile(expected))


def whole_game(page, client, match_id: str, move) -> int:  # type: ignore[no-untyped-def]
    """Play ``move(state, confirm)`` at each of the page's turns until the game ends."""
    moves = 0
    while True:
        state = my_turn(page, client, match_id)
        if state["status"] != "active":
            return moves
        confirm = moves < CONFIRMED_MOVES
        choose(page, "always" if confirm else "never")
        move(state, confirm)
        moves += 1


@pytest.mark.parametrize(("game", "width", "stack"), [
    ("stairs", 1366, r"[a-f]\d: \d high"),
    ("sight", 375, r"[a-e]\d: (empty|\d high)"),
    ("scalas", 1366, r"[a-e]\d: (empty|\d high)"),
])
def test_a_whole_game_from_the_keyboard(live_server: str, new_page,  # type: ignore[no-untyped-def]
                                        game: str, width: int, stack: str) -> None:
    page = new_page(width=width)
    match_id, client = start_against_the_easy_bot(page, live_server, game)
    my_turn(page, client, match_id)
    tab_to_board(page)
    assert re.search(r"height \d|empty", focused_name(page)), "a square's name says its height"
    read_stack(page, stack)
    moves = whole_game(page, client, match_id, lambda state, confirm: play_on_the_board(page, state, confirm))
    assert moves >= 3
    page.wait_for_selector('#match[data-status="finished"]')
    expect(page.locator("#board-announcer")).to_contain_text("Game over.")
    assert page.evaluate(FOCUSED_CELL) is not None, "the focus stayed on the board"
    read_stack(page, stack)
    screenshot(page, f"keyboard-{game}-finished")
    assert page.js_errors == []


def test_a_whole_game_of_town_from_the_keyboard(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=1366)
    match_id, client = start_against_the_easy_bot(page, live_server, "town")
    my_turn(page, client, match_id)
    tab_to_board(page)
    page.keyboard.press("r")
    expect(page.locator("#board-announcer")).to_contain_text("Red: no walk yet.")
    read_aloud = {"routes": False}

    def move(state: dict[str, Any], confirm: bool) -> None:
        view = state["view"]
        if view["phase"] == "build":
            # Tab on to an offer card; Enter goes on to its first slot
            to_focus(page, "a.dataset.offer && !a.disabled")
            page.keyboard.press("Enter")
            chosen = page.evaluate("document.querySelector('[data-offer][aria-pressed=true]').dataset.offer")
            assert page.evaluate(FOCUSED_CELL) in view["clicks"][chosen]
            assert focused_name(page).endswith("place here"), focused_name(page)
            press_and_play(page, state, confirm)
            return
        if not read_aloud["routes"] and any(view["walks"]):
            to_focus(page, "a.dataset.cell", key="Shift+Tab")
            page.keyboard.press("r")
            expect(page.locator("#board-announcer")).to_contain_text("from seaside")
            read_aloud["routes"] = True
        # a walk choice: a button under the board; waiting (every walk choice here), Play in the
        # preview's panel plays it
        choose(page, "always")
        to_focus(page, "a.dataset.move")
        page.keyboard.press("Enter")
        expect(page.locator(READY)).to_be_visible()
        expect(page.locator("#board-announcer")).to_contain_text("Preview of")
        assert page.evaluate("document.activeElement.dataset.preview") == "play"
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')

    moves = whole_game(page, client, match_id, move)
    assert moves >= 14
    page.wait_for_selector('#match[data-status="finished"]')
    screenshot(page, "keyboard-town-finished")
    assert page.js_errors == []
