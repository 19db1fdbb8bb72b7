"""Two people create and join a Sight match in the browser (one of them on a 375 px phone screen)
and play placements and then stack moves by clicking; a third watches each move, with its grown
pieces, arrive without reloading; the game is finished through the API and all three see the
result banner."""

from __future__ import annotations

from functools import partial

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
    wait_ply,
)

pytestmark = pytest.mark.browser

# (seat, kind, point clicked first, point clicked second): light c3, dark a1, light c4 grows c3 to a
# stack of 2, dark a5 grows a1; then both must step the top piece off their tallest stack.
SCRIPT = [
    (0, "place", "c3", None),
    (1, "place", "a1", None),
    (0, "place", "c4", None),
    (1, "place", "a5", None),
    (0, "move", "c3", "b2"),
    (1, "move", "a1", None),  # the first target the board offers
]


def test_two_players_and_a_spectator_play_sight(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    light, dark, spectator = new_page(), new_page(width=375), new_page()
    match_id = create_match(light, live_server, "sight", "Aiko", seat="0")
    expect(light.locator("#status-line")).to_have_text("Waiting for players to join")
    join_match(dark, light.locator("#invite-link").input_value(), "Ben")
    for page in (light, dark):
        page.wait_for_selector('#match[data-status="active"]')
    spectator.goto(light.locator("#watch-link").input_value())
    spectator.wait_for_selector('#match[data-live="yes"]')
    assert spectator.locator("#join-button").count() == 0
    players = {0: light, 1: dark}
    clients = {seat: api_client(live_server, page) for seat, page in players.items()}
    assert clients[1].get(f"/api/v1/matches/{match_id}").json()["your_seat"] == 1

    for ply, (seat, kind, first, second) in enumerate(SCRIPT):
        mover = players[seat]
        mover.wait_for_selector(f'#match[data-ply="{ply}"]')
        point = partial(_point, mover)
        if kind == "place":
            expect(point(first)).to_have_class(has_class("target"))
            assert point(first).get_attribute("data-move") == first
            assert mover.locator("#board g.sight-point.movable").count() == 0
            point(first).click()
            move = first
        else:
            expect(point(first)).to_have_class(has_class("movable"))
            assert mover.locator("#board g.sight-point.movable").count() == 1, "one tallest stack"
            point(first).click()
            expect(point(first)).to_have_class(has_class("selected"))
            targets = mover.locator("#board g.sight-point.target")
            expect(targets.first).to_be_attached()
            target = second or targets.first.get_attribute("data-point")
            move = point(target).get_attribute("data-move")
            assert move == f"{first}-{target}"
            point(target).click()
        wait_ply((light, dark, spectator), ply + 1)
        server = clients[0].get(f"/api/v1/matches/{match_id}").json()
        assert server["last_move"]["move"] == move and server["last_move"]["seat"] == seat
        # The spectator's board and move list follow, grown pieces and the last move marked.
        assert spectator.locator("#move-list li .move").nth(ply).inner_text() == move
        board = server["view"]["board"]
        for name in move.split("-"):
            expect(spectator.locator(f'g.sight-point[data-point="{name}"]')).to_have_class(has_class("last"))
        grown = sorted(spectator.locator("g.sight-point.grown").evaluate_all(
            "nodes => nodes.map(n => n.dataset.point)"))
        assert grown == sorted(server["view"]["last_grown"])
        heights = spectator.locator("g.sight-point").evaluate_all(
            "nodes => Object.fromEntries(nodes.map(n => [n.dataset.point, Number(n.dataset.height)]))")
        assert heights == {p: (s["height"] if s else 0) for p, s in board.items()}
        if ply == 2:
            assert grown == ["c3"] and heights["c3"] == 2
            screenshot(spectator, "sight-spectator-grown")
    assert spectator.locator("#board g.sight-point.clickable").count() == 0, "a spectator cannot click"
    screenshot(dark, "sight-dark-375")
    screenshot(light, "sight-light-desktop")

    state = finish_randomly(clients, match_id, seed=5)
    check_banners(players, spectator, ["Aiko", "Ben"], state["result"])
    screenshot(dark, "sight-finished-375")
    for page in (light, dark, spectator):
        assert page.js_errors == []


def _point(page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#board g.sight-point[data-point="{name}"]')
