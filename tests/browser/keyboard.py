"""Playing a board with the keyboard only: Tab onto the board, arrow keys to a cell, Enter.

Every board's cells carry ``data-cell`` (the square, point or slot) and ``data-at`` ("x,y": where
the arrow keys see it, static/js/kit/focusgrid.js), so a test can walk the focus ring to a cell the
way a person would: one arrow press at a time, never by clicking or focusing it from script."""

from __future__ import annotations

FOCUSED_CELL = "document.activeElement?.dataset?.cell ?? null"


def tab_to_board(page, limit: int = 60) -> str:  # type: ignore[no-untyped-def]
    """Press Tab until the focus is on a board cell; returns that cell's id."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        cell = page.evaluate(FOCUSED_CELL)
        if cell is not None:
            return cell
    raise AssertionError("Tab never reached the board")


def walk_to(page, cell: str, limit: int = 40) -> None:  # type: ignore[no-untyped-def]
    """Move the focus ring to ``cell`` with arrow keys (the focus must be on the board)."""
    for _ in range(limit):
        where = page.evaluate(
            """(target) => {
                const here = document.activeElement;
                const grid = here.closest('.kit-grid');
                const there = grid && grid.querySelector(`[data-cell="${target}"]`);
                if (!here.dataset.at || !there) return null;
                const [x, y] = here.dataset.at.split(',').map(Number);
                const [tx, ty] = there.dataset.at.split(',').map(Number);
                return {dx: tx - x, dy: ty - y, at: here.dataset.cell};
            }""", cell)
        assert where is not None, f"the focus is not on a board holding {cell}"
        if where["at"] == cell:
            return
        if abs(where["dx"]) > 1e-6:
            page.keyboard.press("ArrowRight" if where["dx"] > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if where["dy"] > 0 else "ArrowUp")
    raise AssertionError(f"the arrow keys did not reach {cell}")


def focused_name(page) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("document.activeElement.getAttribute('aria-label')")
