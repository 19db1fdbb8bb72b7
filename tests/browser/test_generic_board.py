"""A game with only a Python package (the fixture game, no asset folder) is drawn by the generic
board: its legal moves as buttons, its view as JSON, and it plays in the browser in both languages."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import httpx
import pytest

from app.web.static_files import static_url
from tests.browser.conftest import screenshot
from tests.browser.helpers import api_client
from tests.browser.keyboard import FOCUSED_CELL, tab_to_board
from tests.databases import sqlite_database
from tests.fixture_game import GAME
from tests.live.server import live_server

GENERIC_ICON = static_url("games/generic/icon.svg")

LAUNCH = (
    "import sys, uvicorn\n"
    "from games import registry\n"
    "from tests.fixture_game import GAME\n"
    "registry.register(GAME)\n"
    "uvicorn.run('app.main:create_app', factory=True, host='127.0.0.1', port=int(sys.argv[1]))\n"
)


@pytest.fixture(scope="module")
def fixture_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = sqlite_database(tmp_path_factory.mktemp("generic") / "stepwell.db")
    with live_server(url, tmp_path_factory.mktemp("logs"), secret_key="generic-board",
                     launch=lambda port: [sys.executable, "-c", LAUNCH, str(port)]) as base:
        yield base


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_generic_board_draws_and_plays_a_game_without_assets(fixture_server, new_page,  # type: ignore[no-untyped-def]
                                                                 language: str) -> None:
    base = fixture_server
    page = new_page(width=375)
    page.goto(f"{base}/lang/{language}?next=/")
    assert page.locator(f'#create-{GAME.id} img[src="{GENERIC_ICON}"]').count() == 1
    page.fill('.name-bar input[name="name"]', "Aiko")
    page.click(".name-bar button[type=submit]")
    page.wait_for_load_state()
    me = api_client(base, page)
    match = me.post("/api/v1/matches", json={"game": GAME.id, "seat": 0}).json()
    token = httpx.post(f"{base}/api/v1/guests", json={"name": "Bruno"}).json()["token"]
    httpx.post(f"{base}/api/v1/matches/{match['id']}/join", json={},
               headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    page.goto(f"{base}/m/{match['id']}")
    page.wait_for_selector('#match[data-live="yes"]')
    assert page.locator("#match").get_attribute("data-board") == static_url("games/generic/board.js")
    buttons = page.locator(".generic-board button.generic-move")
    legal = me.get(f"/api/v1/matches/{match['id']}").json()["legal_moves"]
    assert sorted(buttons.all_inner_texts()) == sorted(legal)
    assert '"ply": 0' in page.locator(".generic-view").inner_text()
    screenshot(page, f"generic-board-{language}")
    if language == "en":
        buttons.first.click()
    else:  # from the keyboard: Tab onto the move buttons, an arrow to the second one, Enter
        assert tab_to_board(page) == legal[0]
        page.keyboard.press("ArrowRight")
        assert page.evaluate(FOCUSED_CELL) == legal[1]
        page.keyboard.press("Enter")
    page.wait_for_selector('#match[data-ply="1"]')
    played = me.get(f"/api/v1/matches/{match['id']}/moves").json()[0]["move"]
    assert played == legal[0 if language == "en" else 1]
    page.wait_for_selector(".generic-view:has-text('\"ply\": 1')")
    assert page.locator(".generic-board button.generic-move").count() == 0  # now the opponent's turn
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_moves_travel_over_the_match_socket(fixture_server, new_page) -> None:  # type: ignore[no-untyped-def]
    """With the match socket open, a click is sent on it (no REST call) and the board moves on."""
    base = fixture_server
    page = new_page()
    page.goto(f"{base}/")
    page.fill('.name-bar input[name="name"]', "Aiko")
    page.click(".name-bar button[type=submit]")
    page.wait_for_load_state()
    me = api_client(base, page)
    match = me.post("/api/v1/matches", json={"game": GAME.id, "seat": 0}).json()
    token = httpx.post(f"{base}/api/v1/guests", json={"name": "Bruno"}).json()["token"]
    httpx.post(f"{base}/api/v1/matches/{match['id']}/join", json={},
               headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    posted: list[str] = []
    page.on("request", lambda request: request.method == "POST" and "/moves" in request.url
            and posted.append(request.url))
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: frames.append(str(frame))))
    page.goto(f"{base}/m/{match['id']}")
    page.wait_for_selector('#match[data-live="yes"]')
    page.locator(".generic-board button.generic-move").first.click()
    page.wait_for_selector('#match[data-ply="1"]')
    assert posted == []
    assert any('"move"' in frame for frame in frames), frames
    assert page.js_errors == []  # type: ignore[attr-defined]
