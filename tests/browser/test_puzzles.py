"""The puzzle page in a browser: the board drawn from the position, a hint, the solution shown
only when asked; screenshots at 375 and 1366 px, English and Japanese, light and dark."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import screenshot
from tests.browser.screens import PAIRWISE_SCREENS
from tests.databases import sqlite_database
from tests.live import server
from tests.puzzles.test_api import store_collection

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def puzzle_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = sqlite_database(tmp_path_factory.mktemp("puzzles") / "stepwell.db")
    with server.live_server(url, tmp_path_factory.mktemp("logs"), secret_key="browser-tests") as base:
        store_collection(url)
        yield base


@pytest.mark.parametrize("game", ["stairs", "sight", "scalas"])
def test_the_page_shows_the_board_a_hint_and_the_solution_on_request(
        browser, puzzle_server: str, game: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{puzzle_server}/puzzles/{game}")
    page.wait_for_selector("#board *")
    assert page.locator("#solution").is_hidden()
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#puzzle-verdict').textContent.includes('Look at')")
    page.click("#solution-button")
    page.wait_for_selector("#solution-tree li")
    assert page.locator("#solution-tree li").count() >= 1
    assert not errors
    context.close()


@pytest.mark.parametrize(("width", "lang", "scheme"), PAIRWISE_SCREENS)
def test_screenshots(browser, puzzle_server: str, width: int, lang: str,  # type: ignore[no-untyped-def]
                     scheme: str) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  locale="ja-JP" if lang == "ja" else "en-GB", color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{puzzle_server}/puzzles/stairs")
    page.wait_for_selector("#board *")
    page.wait_for_timeout(300)
    screenshot(page, f"puzzle-{width}-{lang}-{scheme}")
    page.click("#solution-button")
    page.wait_for_selector("#solution-tree li")
    screenshot(page, f"puzzle-{width}-{lang}-{scheme}-solution")
    page.goto(f"{puzzle_server}/")
    assert page.locator("#daily-puzzle a").first.is_visible()
    context.close()
