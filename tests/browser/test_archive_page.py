"""The archive search page (/archive): screenshots at 375 and 1366 px, in English and Japanese,
light and dark (test-artifacts/archive-<width>-<lang>-<scheme>.png), axe's serious and critical
checks on each, and the search, its next page and its downloads working without scripts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import new_context, screenshot
from tests.browser.screens import PAIRWISE_SCREENS
from tests.browser.test_accessibility import AXE, report, violations
from tests.browser.tour import _account, _post

pytestmark = pytest.mark.browser

GAMES = 30


@pytest.fixture(scope="module")
def players(live_server: str) -> Iterator[tuple[str, str]]:
    """Two accounts with more finished games between them than a page holds."""
    host, rival = _account(live_server, "archhost"), _account(live_server, "archrival")
    for number in range(GAMES):
        game = ("stairs", "sight", "scalas")[number % 3]
        first, second = (host, rival) if number % 2 else (rival, host)
        match = _post(live_server, "/api/v1/matches", first, {"game": game, "seat": 0})
        _post(live_server, f"/api/v1/matches/{match['id']}/join", second, {})
        _post(live_server, f"/api/v1/matches/{match['id']}/resign", second if number % 4 else first, {})
    yield "archhost", "archrival"


@pytest.mark.parametrize(("width", "lang", "scheme"), PAIRWISE_SCREENS)
def test_the_search_page_for_the_eye(browser, live_server: str, players: tuple[str, str],  # type: ignore[no-untyped-def]
                                     width: int, lang: str, scheme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                          locale="ja-JP" if lang == "ja" else "en-GB", color_scheme=scheme)
    try:
        page = context.new_page()
        target = f"/archive?player={players[0]}&opponent={players[1]}&game=stairs"
        page.goto(f"{live_server}/lang/{lang}?next={httpx.URL(target)}")
        page.goto(live_server + target)
        assert page.locator("#archive-results tbody tr").count() == GAMES // 3
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"archive-{width}-{lang}-{scheme}")
        found = violations(page)
        assert not found, report(found)
    finally:
        context.close()


def test_searching_paging_and_exporting_without_scripts(browser, live_server: str,  # type: ignore[no-untyped-def]
                                                        players: tuple[str, str]) -> None:
    context = new_context(browser, viewport={"width": 1366, "height": 768}, java_script_enabled=False,
                          accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/u/{players[0]}")
        page.locator("#profile-archive a", has_text="Search all games").click()
        page.wait_for_selector("#archive-results")
        page.fill("input[name=opponent]", players[1])
        page.select_option("select[name=result]", "win")
        page.locator("#archive-form button[type=submit]").click()
        page.wait_for_url("**result=win**")
        rows = page.locator("#archive-results tbody tr")
        assert 0 < rows.count() < GAMES
        assert all(text.strip() for text in rows.locator(".outcome-win").all_inner_texts())
        page.goto(f"{live_server}/archive?player={players[0]}")
        assert rows.count() == 25
        first_page = set(rows.evaluate_all("rows => rows.map(r => r.dataset.match)"))
        page.locator("#archive-next").click()
        page.wait_for_url("**cursor=**")
        second_page = set(rows.evaluate_all("rows => rows.map(r => r.dataset.match)"))
        assert len(second_page) == GAMES - 25 and not first_page & second_page
        with page.expect_download() as download:
            page.locator("#archive-export a", has_text="Text records").click()
        text: Any = download.value
        assert text.suggested_filename == "stepwell-games.txt"
        assert Path(text.path()).read_text(encoding="utf-8").count('[Format "stepwell-record') == GAMES
    finally:
        context.close()
