"""The puzzle page in a browser: the board drawn from the position, a hint, the solution shown
only when asked; screenshots at 375 and 1366 px, English and Japanese, light and dark."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.browser.conftest import new_context, screenshot
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
    context = new_context(browser, viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{puzzle_server}/puzzles/{game}")
    page.wait_for_selector("#board *")
    # the solver is named by the colour the board draws, as on a match page, not by number
    page.wait_for_function("document.querySelector('#status-line').textContent.endsWith(' to move')")
    colour = page.locator("#status-line").inner_text().removesuffix(" to move")
    assert colour in {"Light", "Dark", "Red", "Blue"}, colour
    assert f"for {colour}" in page.locator("#puzzle-task").inner_text()
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
    context = new_context(browser, viewport={"width": width, "height": 900},
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


CLICKS_FOR = """async ({ line, move }) => {
    const puzzle = JSON.parse(document.querySelector('#puzzle-data').textContent);
    const answer = await fetch('/api/v1/analysis/board', {
        method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({game: puzzle.game, players: puzzle.players, options: puzzle.options,
                              rules_version: puzzle.rules_version, moves: [...puzzle.moves, ...line]})});
    for (const [first, then] of Object.entries((await answer.json()).view.clicks)) {
        if (then === move) return [first];
        for (const [second, played] of Object.entries(then || {}))
            if (played === move) return [first, second];
    }
    return null;
}"""
"""The clicks that play ``move`` after ``line``, from the board's own click map (the view's
``clicks``: a first click to a move, or to a second click's move)."""


@pytest.mark.parametrize("game", ["stairs", "sight", "scalas"])
def test_a_puzzle_is_solved_by_clicking_the_board(browser, puzzle_server: str,  # type: ignore[no-untyped-def]
                                                  game: str) -> None:
    """The proof's moves clicked on the board, each defence the page answers followed down the
    proof, until the page says it is solved."""
    context = new_context(browser, viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{puzzle_server}/puzzles/{game}")
    page.wait_for_selector("#board *")
    puzzle = page.evaluate("JSON.parse(document.querySelector('#puzzle-data').textContent)")
    tree = httpx.get(f"{puzzle_server}/api/v1/puzzles/{puzzle['id']}").json()["solution"]
    line: list[str] = []
    for _ in range(20):
        move = tree["move"]
        clicks = page.evaluate(CLICKS_FOR, {"line": line, "move": move})
        assert clicks, f"no click plays {move}"
        for target in clicks:
            page.locator(f'#board [data-offer="{target}"], #board [data-cell="{target}"]').first.click()
        page.wait_for_function("n => document.querySelectorAll('#line-moves li').length > n", arg=len(line))
        played = page.locator("#line-moves li .move").all_inner_texts()
        assert played[len(line)] == move
        if "Solved!" in page.locator("#puzzle-verdict").inner_text():
            break
        assert "Good move" in page.locator("#puzzle-verdict").inner_text()
        tree = tree["next"]
        for reply in played[len(line) + 1:]:
            tree = tree["replies"][reply] if "replies" in tree else tree["next"]
        line = played
    else:
        raise AssertionError("the puzzle was not solved in 20 moves")
    page.wait_for_selector("#solution-tree li")
    assert page.locator("#status-line").inner_text() == "Puzzle over"
    assert not errors
    context.close()
