"""A keyboard-only player on every game's match page and on the analysis board: the first Tab
reaches "Skip to board", Enter on it puts the focus on a board cell (never on the board's
container, a stop where the arrows did nothing), the arrows move a visible focus ring, and Tab from
the page header reaches a cell at its first stop inside the board."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot
from tests.browser.keyboard import FOCUSED_CELL
from tests.browser.test_board_keyboard import start_against_the_easy_bot

pytestmark = pytest.mark.browser

RING = """() => {
  const e = document.activeElement;
  if (!e.matches(':focus-visible')) return false;
  const probe = document.createElement('div');
  probe.style.color = 'var(--focus-ring, #1a56db)';
  document.body.append(probe);
  const ring = getComputedStyle(probe).color;
  probe.remove();
  const own = getComputedStyle(e);
  if (own.outlineStyle !== 'none' && parseFloat(own.outlineWidth) > 0) return true;
  // boards drawn in SVG ring the cell with a stroke of the focus colour on a shape inside it
  return [...e.querySelectorAll('*')].some((node) => {
    const style = getComputedStyle(node);
    return style.display !== 'none' && style.stroke === ring && parseFloat(style.strokeWidth) >= 2;
  });
}"""


def _first_stop_inside_the_board(page) -> str | None:  # type: ignore[no-untyped-def]
    """Tab from the top of the page until the focus is inside #board; what it landed on."""
    page.reload()
    page.wait_for_selector("#board .kit-cell")
    for _ in range(60):
        page.keyboard.press("Tab")
        inside = page.evaluate("document.activeElement.closest('#board') !== null")
        if inside:
            return page.evaluate(FOCUSED_CELL)  # type: ignore[no-any-return]
    raise AssertionError("Tab never reached the board")


def _skip_then_arrows(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.reload()  # the keyboard walk starts at the top of a fresh page
    page.wait_for_selector("#board .kit-cell")
    page.keyboard.press("Tab")
    skip = page.evaluate("document.activeElement.matches('a[data-skip-board]')")
    assert skip, "the first Tab reaches the skip link"
    screenshot(page, f"{name}-skip-link")
    page.keyboard.press("Enter")
    first = page.evaluate(FOCUSED_CELL)
    assert first is not None, "Enter on the skip link puts the focus on a board cell"
    moved = None
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        moved = page.evaluate(FOCUSED_CELL)
        if moved != first:
            break
    assert moved is not None and moved != first, "the arrows move the focus between cells"
    assert page.evaluate(RING), "the focused cell shows a ring"


@pytest.mark.parametrize("game", ["stairs", "sight", "scalas", "town"])
def test_the_board_is_one_skip_away_and_its_first_stop_is_a_cell(  # type: ignore[no-untyped-def]
        live_server: str, new_page, game: str) -> None:
    page = new_page(width=1366)
    start_against_the_easy_bot(page, live_server, game)
    page.wait_for_selector("#board .kit-cell")
    landed = _first_stop_inside_the_board(page)
    assert landed is not None, "the first stop inside the board is a cell, not its container"
    _skip_then_arrows(page, f"keyboard-{game}")
    screenshot(page, f"keyboard-{game}-ring")
    assert page.js_errors == []


def test_the_analysis_board_has_the_same_skip_link(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page(width=375, locale="ja-JP")
    page.goto(f"{live_server}/lang/ja?next=/analysis/stairs")
    page.wait_for_selector("#board .kit-cell")
    assert page.locator("a[data-skip-board]").inner_text() == "盤へ移動"
    assert _first_stop_inside_the_board(page) is not None
    _skip_then_arrows(page, "keyboard-analysis-ja")
    assert page.js_errors == []
