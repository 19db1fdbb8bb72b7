"""Move previews on the board (static/js/preview.js): the first selection of a target draws the
position after the move and lists its changes, the same target again plays it, anything else
cancels; the "Confirm moves" setting (always / on phones only / never) on the play settings page,
an account's kept on the server and a guest's in the browser; drag and drop with a mouse; the
analysis board. Screenshots of a preview on a phone and a desktop, in English and Japanese."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_context, screenshot
from tests.browser.helpers import api_client, create_match, has_class
from tests.browser.test_board_keyboard import my_turn, start_against_the_easy_bot
from tests.browser.tour import PASSWORD

pytestmark = pytest.mark.browser

PANEL = "#move-preview"
READY = '#move-preview[data-state="ready"]'  # the preview came and is drawn
CONFIRM_KEY = "stepwell.confirmMoves"


def choose(page, setting: str) -> None:  # type: ignore[no-untyped-def]
    """A guest's choice, as the play settings page keeps it (this browser's storage)."""
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [CONFIRM_KEY, setting])


def square(page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#board g[data-square="{name}"]')


def heights(page) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return page.locator("#board g[data-square]").evaluate_all(
        "nodes => Object.fromEntries(nodes.map(n => [n.dataset.square, Number(n.dataset.height)]))")


def piece_with_two_targets(state: dict[str, Any]) -> tuple[str, list[str]]:
    for source, targets in state["view"]["clicks"].items():
        if len(targets) >= 2:
            return source, list(targets)
    source, targets = next(iter(state["view"]["clicks"].items()))
    return source, list(targets)


def test_a_stairs_move_is_previewed_then_played_on_the_second_click(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=1366)
    match_id, client = start_against_the_easy_bot(page, live_server, "stairs")
    choose(page, "always")
    state = my_turn(page, client, match_id)
    source, targets = piece_with_two_targets(state)
    before = heights(page)

    square(page, source).click()
    square(page, targets[0]).click()
    expect(page.locator(READY)).to_be_visible()
    expect(page.locator("#board")).to_have_class(has_class("previewing"))
    expect(page.locator("#board")).to_have_attribute("data-preview", f"{source}-{targets[0]}")
    after = heights(page)  # the board draws the position after the move
    assert after[targets[0]] == before[targets[0]] + 1 and after[source] == before[source] - 1
    assert page.locator(f"{PANEL} .move-preview-changes li").count() >= 1
    said = re.compile(f"Preview of {source} to {targets[0]}")
    expect(page.locator("#board-announcer")).to_contain_text(said)
    assert page.locator("#board .preview-ring").count() >= 1, "the changed squares are ringed"
    screenshot(page, "preview-stairs-1366-en")
    assert client.get(f"/api/v1/matches/{match_id}").json()["ply"] == state["ply"], "nothing is played yet"

    # another destination of the same piece: its own preview at once
    square(page, targets[1]).click()
    expect(page.locator("#board")).to_have_attribute("data-preview", f"{source}-{targets[1]}")
    # Escape cancels: the position as it is, the piece still selected
    page.keyboard.press("Escape")
    expect(page.locator(PANEL)).to_be_hidden()
    expect(page.locator("#board")).not_to_have_class(has_class("previewing"))
    assert heights(page) == before
    expect(page.locator("#board .selected-ring")).to_have_count(1)
    # a click elsewhere on the page cancels too
    square(page, targets[1]).click()
    expect(page.locator(READY)).to_be_visible()
    page.locator("#move-list").click()
    expect(page.locator(PANEL)).to_be_hidden()

    square(page, targets[1]).click()
    expect(page.locator(READY)).to_be_visible()
    square(page, targets[1]).click()
    page.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')
    moves = client.get(f"/api/v1/matches/{match_id}/moves").json()
    assert moves[0]["move"] == f"{source}-{targets[1]}"
    expect(page.locator(PANEL)).to_be_hidden()
    assert page.js_errors == []


def test_on_phones_only_by_default(browser, live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    """A touch phone previews by default (in Japanese here); a desktop mouse plays at once."""
    desktop = new_page(width=1366)
    match_id, client = start_against_the_easy_bot(desktop, live_server, "stairs")
    state = my_turn(desktop, client, match_id)
    source, targets = piece_with_two_targets(state)
    square(desktop, source).click()
    square(desktop, targets[0]).click()
    desktop.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')
    assert desktop.locator(PANEL).is_hidden()

    context = new_context(browser, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True,
                          device_scale_factor=2, locale="ja-JP")
    try:
        phone = context.new_page()
        phone.goto(f"{live_server}/lang/ja?next=/")
        match_id, client = start_against_the_easy_bot(phone, live_server, "stairs")
        state = my_turn(phone, client, match_id)
        source, targets = piece_with_two_targets(state)
        square(phone, source).tap()
        square(phone, targets[0]).tap()
        expect(phone.locator(READY)).to_be_visible()
        expect(phone.locator("#board")).to_have_class(has_class("previewing"))
        phone.locator(PANEL).scroll_into_view_if_needed()
        screenshot(phone, "preview-stairs-375-ja")
        square(phone, targets[0]).tap()
        phone.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')
    finally:
        context.close()


def test_the_setting_on_the_play_settings_page(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    """An account's choice is kept on the server and reaches its board pages; a guest's stays in
    the browser."""
    page = new_page()
    created = httpx.post(f"{live_server}/api/v1/accounts", json={"username": "settler", "password": PASSWORD})
    assert created.status_code == 201, created.text
    page.goto(f"{live_server}/login")
    page.fill("input[name=username]", "settler")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.locator(".viewer-name").wait_for()
    page.goto(f"{live_server}/account/play")
    expect(page.locator('input[value="phones"]')).to_be_checked()
    page.locator('input[value="never"]').check()
    page.locator("#save-play-settings").click()
    expect(page.locator("#play-settings-saved")).to_have_text("Saved.")
    page.reload()
    expect(page.locator('input[value="never"]')).to_be_checked()
    page.goto(f"{live_server}/analysis/stairs")
    expect(page.locator("#analysis")).to_have_attribute("data-confirm-moves", "never")

    guest = new_page(width=375, locale="ja-JP")
    guest.goto(f"{live_server}/lang/ja?next=/account/play")
    expect(guest.locator("#stored-in-browser")).to_be_visible()
    guest.locator('input[value="always"]').check()
    guest.locator("#save-play-settings").click()
    expect(guest.locator("#play-settings-saved")).not_to_be_empty()
    assert guest.evaluate(f"localStorage.getItem('{CONFIRM_KEY}')") == "always"
    guest.reload()
    expect(guest.locator('input[value="always"]')).to_be_checked()
    assert page.js_errors == [] and guest.js_errors == []


def drag(page, source, target) -> None:  # type: ignore[no-untyped-def]
    """Press on `source`, move in steps, let go over `target` (a mouse)."""
    start, end = source.bounding_box(), target.bounding_box()
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(x0 + (x1 - x0) * step / 5, y0 + (y1 - y0) * step / 5)
    page.mouse.up()


def test_drag_and_drop_plays_from_to_moves(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    stairs = new_page(width=1366)
    match_id, client = start_against_the_easy_bot(stairs, live_server, "stairs")
    state = my_turn(stairs, client, match_id)
    source, targets = piece_with_two_targets(state)
    drag(stairs, square(stairs, source), square(stairs, targets[-1]))
    stairs.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')
    assert client.get(f"/api/v1/matches/{match_id}/moves").json()[0]["move"] == f"{source}-{targets[-1]}"

    town = new_page(width=1366)
    match_id, client = start_against_the_easy_bot(town, live_server, "town")
    state = my_turn(town, client, match_id)
    card, slots = next(iter(state["view"]["clicks"].items()))
    slot = list(slots)[-1]
    choose(town, "always")  # dropped, the build waits for its confirmation
    drag(town, town.locator(f'button[data-offer="{card}"]'), town.locator(f'[data-slot="{slot}"]'))
    expect(town.locator(READY)).to_be_visible()
    town.locator(f'{PANEL} [data-preview="play"]').click()
    town.wait_for_selector(f'#match:not([data-ply="{state["ply"]}"])')
    assert client.get(f"/api/v1/matches/{match_id}/moves").json()[0]["move"] == slots[slot]
    assert stairs.js_errors == [] and town.js_errors == []


def test_the_analysis_board_previews_too(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=1366)
    page.goto(f"{live_server}/analysis/scalas")
    choose(page, "always")
    page.locator("#board [data-square]").first.wait_for()
    box = page.locator('#board .clickable[data-square="c3"]').bounding_box()
    spot = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(*spot)
    expect(page.locator("#board")).to_have_class(has_class("previewing"))
    expect(page.locator("#line-moves li")).to_have_count(0)
    # the same spot again plays it, whatever the 3-D drawing of the cube put on top there
    page.mouse.click(*spot)
    expect(page.locator("#line-moves li")).to_have_count(1)
    expect(page.locator(PANEL)).to_be_hidden()
    assert page.js_errors == []


def test_previews_in_every_game_on_a_phone_and_a_desktop(browser, live_server: str) -> None:  # type: ignore[no-untyped-def]
    """Screenshots of a preview, 375 px Japanese and 1366 px English, one game each way."""
    for width, lang, game in ((375, "ja", "scalas"), (1366, "en", "town"), (375, "en", "sight")):
        context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                              locale="ja-JP" if lang == "ja" else "en-GB")
        try:
            page = context.new_page()
            page.goto(f"{live_server}/lang/{lang}?next=/")
            match_id = create_match(page, live_server, game, "Aiko", seat="0")
            client = api_client(live_server, page)
            assert client.post(f"/api/v1/matches/{match_id}/bots", json={"level": "easy"}).status_code == 200
            page.wait_for_selector('#match[data-status="active"]')
            choose(page, "always")
            state = my_turn(page, client, match_id)
            first, then = next(iter(state["view"]["clicks"].items()))
            if game == "town":
                page.locator(f'button[data-offer="{first}"]').click()
                page.locator(f'[data-slot="{next(iter(then))}"]').click()
            else:
                attribute = "point" if game == "sight" else "square"
                page.locator(f'#board [data-{attribute}="{first}"].clickable').first.click()
            expect(page.locator(READY)).to_be_visible()
            screenshot(page, f"preview-{game}-{width}-{lang}")
        finally:
            context.close()
