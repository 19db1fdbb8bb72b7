"""A timed game in two browsers: clocks tick on both pages, one player closes the tab, and the
server flags them at their deadline with nobody of theirs connected; the other page shows the
win on time. (A short real clock of 6 s: this checks the running server's own clock keeper.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import api_client, play

pytestmark = pytest.mark.browser

SIX_SECONDS = {"kind": "realtime", "minutes": 0.1, "increment": 0}


def test_a_player_who_closed_the_tab_loses_on_time(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    light, dark = new_page(), new_page(width=375)
    for page, name in ((light, "Lumi"), (dark, "Dora")):
        page.goto(live_server + "/")
        page.locator('.name-bar input[name="name"]').fill(name)
        page.locator(".name-bar button").click()
        page.wait_for_selector('#lobby[data-live="yes"]')
    light_api, dark_api = api_client(live_server, light), api_client(live_server, dark)
    match = light_api.post("/api/v1/matches", json={"game": "stairs", "seat": 0,
                                                    "time_control": SIX_SECONDS}).json()
    dark_api.post(f"/api/v1/matches/{match['id']}/join")
    for page in (light, dark):
        page.goto(f"{live_server}/m/{match['id']}")
        page.wait_for_selector('#match[data-live="yes"]')
        expect(page.locator('[data-clock-seat="0"]')).to_have_text("0:06.0")
    for ply, client in enumerate((light_api, dark_api)):
        state = client.get(f"/api/v1/matches/{match['id']}").json()
        play(client, match["id"], state["legal_moves"][0], ply)
    expect(dark.locator('[data-clock-seat="0"].ticking')).to_have_count(1)  # light's clock runs
    expect(dark.locator('[data-clock-seat="0"].low')).to_have_count(1)  # and is red: under 20 s
    light.context.close()  # light closes the tab and never comes back
    dark.wait_for_selector('#match[data-status="finished"]', timeout=30_000)
    banner = dark.locator("#result-banner")
    expect(banner).to_contain_text("You win")
    expect(banner).to_contain_text("on time")
    final = dark_api.get(f"/api/v1/matches/{match['id']}").json()
    assert final["result"]["reason"] == "time_out" and final["result"]["winners"] == [1]
    assert final["clock"]["remaining_ms"][0] == 0
    assert dark.js_errors == []
