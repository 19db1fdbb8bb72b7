"""Two people create and join a 5×5 Scalas match in the browser and place cubes by clicking the 3D
view, including a forced placement made by clicking its glowing target, then the flat view; a third
watches each cube arrive without reloading; the game is finished through the API and all three see
the result banner. Larger boards chosen on the create form draw the right number of squares."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import (
    api_client,
    check_banners,
    create_match,
    finish_randomly,
    has_class,
    join_match,
    show_final_position,
    wait_ply,
)

pytestmark = pytest.mark.browser

# (seat, square, view): red a1, blue e5, red c1 which makes b1 a forced target for red (a1 and c1
# are both red at height 1), red fills b1, then blue plays two cubes in the flat view.
SCRIPT = [
    (0, "a1", "iso"),
    (1, "e5", "iso"),
    (0, "c1", "iso"),
    (0, "b1", "iso"),  # the forced placement
    (1, None, "flat"),  # the first highlighted square in the flat view
    (0, None, "iso"),
    (1, None, "flat"),
]


def test_two_players_and_a_spectator_play_scalas(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    red, blue, spectator = new_page(), new_page(), new_page(width=375)
    match_id = create_match(red, live_server, "scalas", "Aiko", seat="0")
    red.wait_for_selector('.scalas[data-view="iso"][data-size="5"]')
    join_match(blue, red.locator("#invite-link").input_value(), "Ben")
    for page in (red, blue):
        page.wait_for_selector('#match[data-status="active"]')
    spectator.goto(red.locator("#watch-link").input_value())
    spectator.wait_for_selector('#match[data-live="yes"]')
    players = {0: red, 1: blue}
    clients = {seat: api_client(live_server, page) for seat, page in players.items()}
    for page in (red, blue, spectator):
        expect(page.locator("#board [data-square]")).to_have_count(25)

    for ply, (seat, square, view) in enumerate(SCRIPT):
        mover = players[seat]
        mover.wait_for_selector(f'#match[data-ply="{ply}"]')
        if mover.locator(".scalas").get_attribute("data-view") != view:
            mover.locator("[data-view-toggle]").click()
            mover.wait_for_selector(f'.scalas[data-view="{view}"]')
        mine = clients[seat].get(f"/api/v1/matches/{match_id}").json()
        clickable = mover.locator("#board [data-square].clickable")
        expect(clickable).to_have_count(len([m for m in mine["legal_moves"] if m != "pass"]))
        if square is None:
            square = clickable.first.get_attribute("data-square")
        target = mover.locator(f'#board [data-square="{square}"]')
        height = int(target.get_attribute("data-height"))
        if ply == 3:
            # The forced target glows for the mover and the spectator alike; nothing else is playable.
            assert mine["view"]["phase"] == "forced" and mine["legal_moves"] == ["b1"]
            expect(target).to_have_class(has_class("forced"))
            for page in (red, spectator):
                forced = page.locator("#board [data-square].target")
                expect(forced).to_have_count(1)
                assert forced.get_attribute("data-square") == "b1"
                assert forced.get_attribute("data-pending") == "1"
            expect(blue.locator("#board [data-square].clickable")).to_have_count(0)
            screenshot(red, "scalas-forced-target")
            screenshot(spectator, "scalas-forced-spectator-375")
        else:
            expect(target).to_have_class(has_class("legal"))
        target.click()
        wait_ply((red, blue, spectator), ply + 1)
        server = clients[0].get(f"/api/v1/matches/{match_id}").json()
        assert server["last_move"]["move"] == square and server["last_move"]["seat"] == seat
        # The spectator sees the new cube on top of that square, marked as the last move.
        seen = spectator.locator(f'#board [data-square="{square}"]')
        expect(seen).to_have_attribute("data-height", str(height + 1))
        expect(seen).to_have_attribute("data-top", ["red", "blue"][seat])
        expect(seen).to_have_class(has_class("last"))
        assert spectator.locator("#move-list li .move").nth(ply).inner_text() == square
        score = server["view"]["score"]
        for side in (0, 1):
            expect(spectator.locator(f'[data-tops="{side}"]')).to_have_text(str(score[side]))
            expect(spectator.locator(f'[data-hand="{side}"]')).to_contain_text(str(server["view"]["hands"][side]))
    assert blue.locator(".scalas").get_attribute("data-view") == "flat"
    assert red.locator(".scalas").get_attribute("data-view") == "iso", "the view choice is per browser"
    assert spectator.locator("#board [data-square].clickable").count() == 0
    screenshot(red, "scalas-red-iso")
    screenshot(blue, "scalas-blue-flat")

    state = finish_randomly(clients, match_id, seed=7)
    check_banners(players, spectator, ["Aiko", "Ben"], state["result"])
    tops = state["view"]["score"]
    for page in (red, blue, spectator):
        show_final_position(page)
        expect(page.locator(".scalas-hint")).to_contain_text(f"red {tops[0]}, blue {tops[1]}")
        expect(page.locator('[data-tops="0"]')).to_have_text(str(tops[0]))
    screenshot(spectator, "scalas-finished-375")
    for page in (red, blue, spectator):
        assert page.js_errors == []


@pytest.mark.parametrize("size", [6, 7])
def test_larger_scalas_boards_from_the_create_form(live_server: str, new_page, size: int) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    match_id = create_match(page, live_server, "scalas", "Aiko", seat="0", options={"size": str(size)})
    state = api_client(live_server, page).get(f"/api/v1/matches/{match_id}").json()
    assert state["options"].get("size") == size and state["view"]["size"] == size
    page.wait_for_selector(f'.scalas[data-size="{size}"]')
    for view in ("iso", "flat"):
        if page.locator(".scalas").get_attribute("data-view") != view:
            page.locator("[data-view-toggle]").click()
            page.wait_for_selector(f'.scalas[data-view="{view}"]')
        expect(page.locator("#board [data-square]")).to_have_count(size * size)
        names = page.locator("#board [data-square]").evaluate_all("nodes => nodes.map(n => n.dataset.square)")
        files = "abcdefg"[:size]
        assert sorted(names) == sorted(f"{f}{r}" for f in files for r in range(1, size + 1))
        assert page.locator('[data-hand="0"]').inner_text().endswith(str(size * size))
    screenshot(page, f"scalas-{size}x{size}-flat")
    assert page.js_errors == []


def test_a_finished_game_stays_on_its_final_position(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    red, blue = new_page(), new_page()
    match_id = create_match(red, live_server, "scalas", "Aiko", seat="0")
    join_match(blue, red.locator("#invite-link").input_value(), "Ben")
    clients = {0: api_client(live_server, red), 1: api_client(live_server, blue)}
    state = finish_randomly(clients, match_id, seed=11)
    red.wait_for_selector('#match[data-status="finished"]')
    red.wait_for_selector("#replay:not([hidden])")  # the replay frames have loaded
    tops = state["view"]["score"]
    expect(red.locator('[data-tops="0"]')).to_have_text(str(tops[0]), timeout=2000)
    expect(red.locator('[data-tops="1"]')).to_have_text(str(tops[1]), timeout=2000)
    assert "ply=" not in red.url
