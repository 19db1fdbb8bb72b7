"""The replay's computer analysis and the analysis board, in chromium: request it,
the value graph appears, a blunder is listed and its preferred move drawn, "Analyse from here"
opens the board at that position, and the board plays moves and shows a hint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.analysis.games import BLUNDER_GAME, BLUNDER_PLY
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import report, violations
from tests.databases import sqlite_database
from tests.live import server


@pytest.fixture(scope="module")
def analysing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = sqlite_database(tmp_path_factory.mktemp("analysis-live") / "stepwell.db")
    with server.live_server(url, tmp_path_factory.mktemp("logs"), secret_key="browser-tests",
                            analysis_budget="100", bots_enabled="false") as base:
        yield base


def _finished_blunder_game(base: str) -> str:
    with httpx.Client(base_url=base, timeout=30) as http:
        def guest(name: str) -> dict[str, str]:
            token = http.post("/api/v1/guests", json={"name": name}).json()["token"]
            return {"Authorization": f"Bearer {token}"}

        aiko, ben = guest("Aiko"), guest("Ben")
        match = http.post("/api/v1/matches", json={"game": "stairs", "seat": 0},
                          headers=aiko).json()
        http.post(f"/api/v1/matches/{match['id']}/join", headers=ben)
        for ply, move in enumerate(BLUNDER_GAME):
            played = http.post(f"/api/v1/matches/{match['id']}/moves",
                               json={"move": move, "ply": ply}, headers=(aiko, ben)[ply % 2])
            assert played.status_code == 200, played.text
        return str(match["id"])


def _the_graph_reads_in_the_dark(page) -> None:  # type: ignore[no-untyped-def]
    """Drawn dark, the graph keeps its seats' lines on a pale casing and axe finds no serious contrast
    (test-artifacts/dark-1280-en-analysis-graph.png shows it); then the page goes back to light."""
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    casing = page.evaluate("getComputedStyle(document.querySelector('#analysis-graph .graph-casing')).stroke")
    assert casing == "rgba(255, 255, 255, 0.8)", casing
    screenshot(page, "dark-1280-en-analysis-graph")
    found = [v for v in violations(page) if v["id"] in ("color-contrast", "scrollable-region-focusable")]
    assert not found, report(found)  # the move list scrolls: the keyboard must reach it
    page.evaluate("document.documentElement.dataset.theme = 'light'")


def test_the_replay_shows_the_analysis_and_opens_the_board(analysing_server: str, new_page,
                                                           tmp_path: Path) -> None:
    match_id = _finished_blunder_game(analysing_server)
    page = new_page()
    page.goto(f"{analysing_server}/m/{match_id}")
    page.click("#analysis-request")
    page.wait_for_selector("#analysis-graph svg polyline", timeout=60_000)
    _the_graph_reads_in_the_dark(page)
    page.click(f"#marked-moves button[data-ply='{BLUNDER_PLY}']")
    page.wait_for_function(f"document.getElementById('match').dataset.replayPly === '{BLUNDER_PLY}'")
    assert "e5-f6" in page.inner_text("#preferred-note")
    assert page.locator(f"#move-list li[data-ply='{BLUNDER_PLY}'] .move-sign").inner_text() == "??"
    page.click("#show-preferred")
    page.wait_for_timeout(200)
    page.click("#analyse-here")
    page.wait_for_selector(f"#line-moves li[data-ply='{BLUNDER_PLY}']")
    assert page.locator("#line-moves li").count() == BLUNDER_PLY
    page.click("#line-bar [data-step='previous']")  # the position before the blunder
    before = BLUNDER_PLY - 1
    page.wait_for_function(f"document.querySelector('#line-moves li.last')?.dataset.ply === '{before}'")
    page.click("#hint-button")
    page.wait_for_selector("#hint-line button", timeout=30_000)
    hint = page.inner_text("#hint-line").split(":")[1].split()[0]
    assert hint != BLUNDER_GAME[BLUNDER_PLY - 1]
    page.click("#hint-line button")  # play the hint: it replaces the rest of the line
    page.wait_for_function(f"document.querySelector('#line-moves li:last-child .move')"
                           f"?.textContent === '{hint}'")
    assert page.locator("#line-moves li").count() == BLUNDER_PLY
    assert "ply=" not in page.url and "moves=" in page.url
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_header_leads_to_the_board_which_plays_on_signed_states(analysing_server: str,
                                                                  new_page) -> None:
    """Anyone finds the board from the site header; each move after the first goes as the last
    answer's signed state (not the whole line), and screen readers hear who moved and who is
    next (not "#NaN ... Your turn")."""
    page = new_page(width=375)
    page.goto(f"{analysing_server}/lang/ja?next=/")
    page.get_by_role("navigation").get_by_role("link", name="検討").click()
    page.wait_for_url("**/analysis/**")
    page.wait_for_selector("#line-position:not(:empty)")
    bodies: list[str] = []
    page.on("request", lambda r: bodies.append(r.post_data or "")
            if r.url.endswith("/api/v1/analysis/board") else None)
    for ply in (1, 2):
        page.click("#hint-button")
        page.wait_for_selector("#hint-line button", timeout=30_000)
        page.click("#hint-line button")
        page.wait_for_function(f"document.querySelectorAll('#line-moves li').length === {ply}")
    assert bodies and all('"state":' in body and '"moves"' not in body for body in bodies)
    page.wait_for_function("document.getElementById('board-announcer').textContent.length > 0")
    said = page.inner_text("#board-announcer")
    assert "プレイヤー2" in said and "プレイヤー1の番です" in said and "#" not in said
    assert page.js_errors == []  # type: ignore[attr-defined]
