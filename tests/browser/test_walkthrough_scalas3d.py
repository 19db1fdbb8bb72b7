"""Scalas in the 3D view on a desktop: every placement of whole games is made by an ordinary click
on its square (no forced click): no tower or other square stands over a square the mover needs."""

from __future__ import annotations

import random

import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client, create_match, join_match

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("seed", [11])  # one whole game, every placement clicked
def test_every_placement_is_an_ordinary_click_in_the_3d_view(  # type: ignore[no-untyped-def]
        live_server: str, new_page, seed: int) -> None:
    red, blue = new_page(width=1366), new_page(width=1366)
    match_id = create_match(red, live_server, "scalas", "Aiko", seat="0")
    join_match(blue, red.locator("#invite-link").input_value(), "Ben")
    players = {0: red, 1: blue}
    clients = {seat: api_client(live_server, page) for seat, page in players.items()}
    rng = random.Random(seed)
    placements = 0
    while True:
        state = clients[0].get(f"/api/v1/matches/{match_id}").json()
        if state["status"] != "active":
            break
        seat, ply = state["to_move"], state["ply"]
        mover = players[seat]
        mover.wait_for_selector(f'#match[data-ply="{ply}"]')
        mover.wait_for_selector('.scalas[data-view="iso"]')
        mine = clients[seat].get(f"/api/v1/matches/{match_id}").json()
        squares = sorted(mine["view"]["clicks"])
        if not squares:  # a pass: no square to click
            clients[seat].post(f"/api/v1/matches/{match_id}/moves",
                               json={"move": mine["legal_moves"][0], "ply": ply}).raise_for_status()
            continue
        square = rng.choice(squares)
        try:
            mover.locator(f'#board [data-square="{square}"]').click(timeout=5000)
        except Exception as error:  # the screenshot shows what stood in the way
            screenshot(mover, f"scalas-3d-hidden-{seed}-{ply}")
            raise AssertionError(f"{square} at ply {ply} could not be clicked: {error}") from None
        mover.wait_for_selector(f'#match:not([data-ply="{ply}"])')
        placements += 1
    assert placements >= 20
    screenshot(red, f"scalas-3d-finished-{seed}")
    assert red.js_errors == [] and blue.js_errors == []
