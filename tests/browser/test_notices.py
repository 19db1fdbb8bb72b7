"""Account notices on every page: the home page of one player tells them when the
opponent moves in a correspondence game open in another browser; the tab title counts it and the
header's "my games" list puts that game first."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client, create_match

pytestmark = pytest.mark.browser


def test_a_correspondence_move_is_noticed_on_the_home_page(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    aki, bo = new_page(width=1366), new_page(width=375, locale="ja-JP")
    create_match(aki, live_server, "sight", "Aki")  # both become guests through the page
    create_match(bo, live_server, "sight", "Bo")
    aki_api, bo_api = api_client(live_server, aki), api_client(live_server, bo)
    created = bo_api.post("/api/v1/matches", json={
        "game": "stairs", "seat": 0, "time_control": {"kind": "correspondence", "days": 3}})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    assert aki_api.post(f"/api/v1/matches/{match_id}/join").status_code == 200
    bo.goto(f"{live_server}/m/{match_id}")
    bo.wait_for_selector('#match[data-live="yes"]')

    aki.goto(live_server + "/")
    expect(aki.locator("#my-games-count")).to_be_visible()
    aki.wait_for_timeout(2000)  # past the events every connection starts with
    expect(aki.locator("#notices .notice")).to_have_count(0)
    state = bo_api.get(f"/api/v1/matches/{match_id}").json()
    played = bo_api.post(f"/api/v1/matches/{match_id}/moves",
                         json={"move": state["legal_moves"][0], "ply": 0})
    assert played.status_code == 200, played.text

    notice = aki.locator('#notices .notice[data-notice="turn"]')
    expect(notice).to_contain_text("Your turn in Stairs against Bo")
    expect(notice.locator("a")).to_have_attribute("href", f"/m/{match_id}")
    expect(aki).to_have_title("(1) Stepwell")
    aki.locator("#my-games-button").click()
    first = aki.locator("#my-games-items a").first
    expect(first).to_have_attribute("data-game", match_id)
    expect(first.locator(".yours")).to_have_text("Your turn")
    screenshot(aki, "notices-home-desktop-en")
    notice.locator("button").click()
    expect(aki).to_have_title("Stepwell")
    aki.reload()
    aki.wait_for_timeout(2000)
    expect(aki.locator("#notices .notice")).to_have_count(0)  # shown once, not again

    bo.goto(live_server + "/")
    screenshot(bo, "notices-header-phone-ja", full_page=False,
               clip={"x": 0, "y": 0, "width": 375, "height": 200})
    bo.locator("#my-games-button").click()
    expect(bo.locator("#my-games-items a").first.locator(".muted")).to_have_text("相手の番")
    screenshot(bo, "notices-home-phone-ja")
    for page in (aki, bo):
        assert not page.js_errors, page.js_errors
