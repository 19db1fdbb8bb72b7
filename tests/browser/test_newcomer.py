"""What a newcomer trips on, in the browser: the end screen explains Stairs' result
step by step in both languages, the after-game buttons, the phone lobby shows the clock, a player
found by search gets a challenge with a clock and a colour, and Watch filters by game."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_context, screenshot
from tests.browser.test_lobby import _sign_up

pytestmark = pytest.mark.browser

# A whole Stairs game (found by random play) decided by the third step: both players top two
# stacks of height 3; dark's second piece got there at move 20, light's only at move 21.
FIRST_TO_TOP = ["d4-e4", "c2-b2", "e5-f6", "f1-e1", "a5-b6", "b5-b4", "c5-c4", "e2-d1", "e3-f3",
                "d5-d6", "a1-a2", "d3-d2", "a3-a4", "b3-c3", "c1-b1", "f5-f4", "e4-f3", "e1-d2",
                "e1-f2", "b4-c4", "b1-b2"]


def _guests(api: httpx.Client, *names: str) -> list[dict[str, str]]:
    tokens = [api.post("/api/v1/guests", json={"name": name}).json()["token"] for name in names]
    return [{"Authorization": f"Bearer {token}"} for token in tokens]


def _finished_stairs(base: str) -> str:
    api = httpx.Client(base_url=base)
    light, dark = _guests(api, "Alice", "Dev")
    match_id = api.post("/api/v1/matches", json={"game": "stairs", "seat": 0}, headers=light).json()["id"]
    api.post(f"/api/v1/matches/{match_id}/join", headers=dark)
    for ply, move in enumerate(FIRST_TO_TOP):
        answer = api.post(f"/api/v1/matches/{match_id}/moves", json={"move": move, "ply": ply},
                          headers=(light, dark)[ply % 2])
        assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["reason"] == "first_to_top"
    return match_id


def test_stairs_end_screen_explains_the_three_steps_in_both_languages(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    match_id = _finished_stairs(live_server)
    page = new_page(width=375)
    moves_requests: list[str] = []
    page.on("request", lambda request: moves_requests.append(request.url)
            if request.url.endswith("/moves") else None)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server}/m/{match_id}")
    page.wait_for_selector('#match[data-status="finished"]')
    expect(page.locator("#result-banner")).to_contain_text("Dev wins (reached the top height first)")
    steps = page.locator("#result-steps li:not(.result-legend)")
    expect(steps).to_have_count(3)
    expect(page.locator("#result-steps .result-legend")).to_contain_text("green")
    expect(steps.nth(0)).to_contain_text("3 high and both players")
    expect(steps.nth(1)).to_contain_text("2 each")
    expect(steps.nth(2)).to_contain_text("Dev had 2 at height 3 by move 20, Alice only by move 21")
    expect(page.locator("#board .mark-win")).to_have_count(2)  # dark's d2 and c4
    expect(page.locator('#board [data-square="d2"] .mark-win')).to_have_count(1)
    expect(page.locator("#board .mark-lose")).to_have_count(2)
    after = page.locator("#after-game")
    for action in ("new-game", "lobby", "download-moves", "copy-moves"):
        expect(after.locator(f'[data-action="{action}"]')).to_be_visible()
    after.locator('[data-action="copy-moves"]').click()
    expect(after.locator('[data-action="copy-moves"]')).to_have_text("Moves copied")
    assert page.evaluate("navigator.clipboard.readText()").startswith("1. d4-e4\n2. c2-b2\n")
    page.locator('#replay [data-step="previous"]').click()
    expect(page.locator("#board .mark-win")).to_have_count(0)  # the marks belong to the final position
    screenshot(page, "stairs-result-steps-375")
    assert len(moves_requests) == 1, moves_requests  # the move list is fetched once

    japanese = new_page(locale="ja-JP")
    japanese.goto(f"{live_server}/m/{match_id}")
    japanese.wait_for_selector('#match[data-status="finished"]')
    expect(japanese.locator("#result-banner")).to_contain_text("最高の高さに先に到達")
    expect(japanese.locator("#result-steps li").nth(2)).to_contain_text("3. 先に到達した方：Dev は 20 手目")
    expect(japanese.locator('#after-game [data-action="lobby"]')).to_have_text("ロビーに戻る")
    assert page.js_errors == [] and japanese.js_errors == []


def test_the_phone_lobby_shows_the_clock_and_that_your_seek_waits(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    phone = new_page(width=375)
    _sign_up(phone, live_server, "clockseeker")
    form = phone.locator("#create-sight")
    form.locator('select[name="clock"]').select_option("rt:5:3")
    form.locator('button[value="lobby"]').click()
    phone.wait_for_selector('#lobby[data-live="yes"]')
    expect(phone.locator("#my-seek-status")).to_be_visible()
    assert phone.evaluate("document.querySelector('.site-header').offsetHeight") <= 72  # was ~100
    row = phone.locator("#seek-rows tr.mine")
    expect(row.locator(".mode-inline")).to_be_visible()
    expect(row.locator(".mode-inline")).to_have_text("Casual · 5+3")
    screenshot(phone, "lobby-clock-375")
    row.get_by_role("button", name="Cancel").click()
    expect(phone.locator("#my-seek-status")).to_be_hidden()


def test_a_player_found_by_search_gets_a_challenge_with_clock_and_colour(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    kaede, riku = new_page(), new_page(width=375)
    _sign_up(kaede, live_server, "kaede18")
    _sign_up(riku, live_server, "riku18")
    riku.locator(".find-player input").fill("kaede1")
    riku.locator(".find-player button").click()
    riku.locator("#player-results li", has_text="@kaede18").get_by_role("link", name="Challenge").click()
    form = riku.locator("#challenge-form")
    form.locator('select[name="game"]').select_option("stairs")
    expect(form.locator('fieldset[data-game="stairs"]')).to_be_visible()
    expect(form.locator('fieldset[data-game="scalas"]')).to_be_hidden()
    form.locator('select[name="clock"]').select_option("rt:3:2")
    form.locator('select[name="seat"]').select_option("1")
    form.get_by_role("button", name="Send challenge").click()
    riku.wait_for_selector('#lobby[data-live="yes"]')
    row = kaede.locator('#seek-rows tr[data-kind="challenge"]')
    expect(row).to_contain_text("3+2")  # arrived live on kaede's lobby
    row.get_by_role("button", name="Accept").click()
    for page in (kaede, riku):
        expect(page).to_have_url(re.compile(r".*/m/\w+$"))
        page.wait_for_selector('#match[data-status="active"]')
    expect(riku.locator("#seats li").nth(1)).to_contain_text("riku18")  # the colour asked for
    assert kaede.js_errors == [] and riku.js_errors == []


def test_watch_filters_by_game(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    api = httpx.Client(base_url=live_server)
    first, second = _guests(api, "F1", "F2")
    match_id = api.post("/api/v1/matches", json={"game": "scalas", "seat": 0}, headers=first).json()["id"]
    api.post(f"/api/v1/matches/{match_id}/join", headers=second)
    watcher = new_page(width=375)
    watcher.goto(f"{live_server}/watch?game=sight")
    card = watcher.locator(f'.live-card[data-match="{match_id}"]')
    expect(card).to_be_attached()
    expect(card).to_be_hidden()
    watcher.locator('#game-filter button[data-game="scalas"]').click()
    expect(card).to_be_visible()
    expect(card.locator(".live-title")).to_have_text("Scalas")
    assert "game=scalas" in watcher.url


def test_stairs_swap_is_in_view_on_a_laptop_and_explained(live_server: str, browser) -> None:  # type: ignore[no-untyped-def]
    from tests.browser.helpers import api_client, join_match, play

    contexts = [new_context(browser, viewport={"width": 1366, "height": 768}) for _ in range(2)]
    light, dark = (context.new_page() for context in contexts)
    light.goto(live_server + "/")
    form = light.locator("#create-stairs")
    form.locator('input[name="name"]').fill("Aiko")
    form.locator('input[name="opt_swap"]').check()
    form.locator('select[name="seat"]').select_option("0")
    form.locator('button[value="private"]').click()
    light.wait_for_url("**/m/*")
    expect(light.locator("#waiting-box #invite-link")).to_be_in_viewport(ratio=1)  # first, not under the bots
    join_match(dark, light.url, "Ben")
    match_id = light.url.rsplit("/", 1)[1]
    client = api_client(live_server, light)
    play(client, match_id, client.get(f"/api/v1/matches/{match_id}").json()["legal_moves"][0], 0)
    swap = dark.locator('[data-move="swap"]')
    expect(dark.locator(".swap-hint")).to_contain_text("pie rule")
    expect(swap).to_be_in_viewport(ratio=1)  # not half off-screen under the board
    expect(dark.locator(".swap-hint")).to_be_in_viewport(ratio=1)
    for context in contexts:
        context.close()


def test_sight_end_screen_says_who_could_not_move_in_both_languages(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    from tests.browser.helpers import finish_randomly

    api = httpx.Client(base_url=live_server)
    first, second = _guests(api, "Alice", "Dev")
    match_id = api.post("/api/v1/matches", json={"game": "sight", "seat": 0}, headers=first).json()["id"]
    api.post(f"/api/v1/matches/{match_id}/join", headers=second)
    clients = {seat: httpx.Client(base_url=live_server, headers=h) for seat, h in enumerate((first, second))}
    result = finish_randomly(clients, match_id, seed=1)["result"]
    loser = ("Alice", "Dev")[result["details"]["loser"]]
    for locale, words in (("en-GB", f"It was {loser}'s turn and {loser} had no legal move"),
                          ("ja-JP", f"{loser} の手番で、{loser} には指せる手がありませんでした")):
        page = new_page(locale=locale)
        page.goto(f"{live_server}/m/{match_id}")
        expect(page.locator("#result-steps li")).to_have_text(re.compile(re.escape(words)))


def test_two_bots_in_one_town_game_have_distinct_translated_names(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(locale="ja-JP")
    page.goto(live_server + "/")
    form = page.locator("#create-town")
    form.locator('input[name="name"]').fill("Aiko")
    form.locator('select[name="players"]').select_option("3")
    form.locator('select[name="seat"]').select_option("2")
    form.locator('select[name="bot"]').select_option("easy")
    form.locator('button[value="bot"]').click()
    page.wait_for_selector("#match[data-ply]")
    names = page.locator("#seats .name")
    expect(names).to_have_text(["ボット1（やさしい）", "ボット2（やさしい）", "Aiko"])
    assert page.js_errors == []
