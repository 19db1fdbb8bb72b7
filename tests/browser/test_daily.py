"""The daily Town deal's page and the luck report on the match page, in a browser: two people
play today's two-player deal from the page's form, each sees their rank and the score
distribution; a finished Town game against a bot shows what luck did. Screenshots at 375 and
1366 px, English and Japanese, light and dark (test-artifacts/daily-*.png, luck-*.png)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.browser.conftest import SCREENSHOTS, new_context, screenshot
from tests.browser.helpers import api_client
from tests.browser.screens import PAIRWISE_SCREENS
from tests.databases import sqlite_database
from tests.live import server

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def daily_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose luck reports use a tiny search budget, so they are ready in seconds."""
    url = sqlite_database(tmp_path_factory.mktemp("daily") / "stepwell.db")
    with server.live_server(url, tmp_path_factory.mktemp("logs"), secret_key="browser-tests",
                            luck_iterations="10", analysis_workers="0") as base:
        yield base


def _play_my_seat(client: httpx.Client, match_id: str, seed: int) -> dict[str, Any]:
    """Random legal moves for the person's seat; the bots play the others. Until the end."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        state = client.get(f"/api/v1/matches/{match_id}").json()
        if state["status"] != "active":
            return state
        if state["to_move"] == state["your_seat"] and state["legal_moves"]:
            client.post(f"/api/v1/matches/{match_id}/moves",
                        json={"move": rng.choice(state["legal_moves"]), "ply": state["ply"]})
        else:
            time.sleep(0.2)
    raise AssertionError("the game did not end")


def _start_from_the_form(page, base: str, name: str, seat: str) -> str:  # type: ignore[no-untyped-def]
    page.goto(f"{base}/daily")
    form = page.locator("#daily-2 form")
    form.locator('input[name="name"]').fill(name)
    form.locator('select[name="seat"]').select_option(seat)
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/m/*")
    return str(page.url.rsplit("/", 1)[1].split("?")[0])


def _shoot(browser, base: str, cookies: list[dict[str, Any]], path: str, name: str,  # type: ignore[no-untyped-def]
           ready: str) -> None:
    if not SCREENSHOTS:  # each screen is a context and a page load of its own, for the eye only
        return
    for width, lang, scheme in PAIRWISE_SCREENS:
        context = new_context(browser, viewport={"width": width, "height": 900},
                              locale="ja-JP" if lang == "ja" else "en-GB",
                              color_scheme=scheme)
        context.add_cookies(cookies)
        page = context.new_page()
        page.goto(f"{base}/lang/{lang}?next={path}")
        page.locator(ready).wait_for()
        screenshot(page, f"{name}-{width}-{lang}-{scheme}")
        context.close()


def test_two_people_play_the_daily_deal_and_compare(browser, new_page,  # type: ignore[no-untyped-def]
                                                    daily_server: str) -> None:
    aiko, bob = new_page(1366), new_page(375)
    mine = _start_from_the_form(aiko, daily_server, "Aiko", "0")
    theirs = _start_from_the_form(bob, daily_server, "Bob", "1")
    assert mine != theirs
    # each other's game is sealed while the day lasts
    assert api_client(daily_server, aiko).get(f"/api/v1/matches/{theirs}").status_code == 403
    with ThreadPoolExecutor(2) as pool:  # the two games at once, as two people would
        games = [pool.submit(_play_my_seat, api_client(daily_server, person), match_id, seed)
                 for person, match_id, seed in ((aiko, mine, 1), (bob, theirs, 2))]
        first, second = (game.result() for game in games)
    assert first["status"] == second["status"] == "finished"
    aiko.goto(f"{daily_server}/daily")
    aiko.locator("#daily-2 .daily-bars").wait_for()
    assert aiko.locator("#daily-2 .daily-standings tbody tr").count() == 2
    assert "Rank" in aiko.locator("#daily-2 .daily-you").inner_text()
    assert aiko.js_errors == []
    _shoot(browser, daily_server, aiko.context.cookies(), "/daily", "daily", "#daily-2 .daily-bars")


def test_a_finished_town_game_shows_what_luck_did(browser, new_page,  # type: ignore[no-untyped-def]
                                                  daily_server: str) -> None:
    page = new_page(1366)
    page.goto(f"{daily_server}/")
    page.locator('form.name-bar input[name="name"]').fill("Aiko")
    page.locator('form.name-bar button[type="submit"]').click()
    page.locator(".viewer-name").wait_for()
    client = api_client(daily_server, page)
    created = client.post("/api/v1/matches", json={"game": "town", "players": 3, "bot": "easy"})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    _play_my_seat(client, match_id, 3)
    deadline = time.monotonic() + 240
    while client.get(f"/api/v1/matches/{match_id}/luck").json()["status"] != "done":
        assert time.monotonic() < deadline, "no luck report"
        time.sleep(1)
    page.goto(f"{daily_server}/m/{match_id}")
    page.locator("#luck-panel .luck-table").wait_for()
    assert page.locator("#luck-panel tbody tr").count() == 3
    _shoot(browser, daily_server, page.context.cookies(), f"/m/{match_id}", "luck",
           "#luck-panel .luck-table")
