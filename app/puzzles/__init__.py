"""Puzzles: positions of Stairs, Sight and Scalas whose side to move has a forced goal that an
exact search proves, mined from finished games and from the bot's self-play.

- ``mine``: finding puzzles in a line of play (pure: the engines and ``games/puzzles.py``);
- ``judge``: an attempt's moves against a puzzle's solution tree (pure);
- ``service``: storing, choosing (next, daily), showing, and rating attempts (openskill);
- ``routes`` (``/api/v1/puzzles``), ``pages`` (``/puzzles``, ``/puzzle/<id>``);
- ``jobs``: the miner the background jobs run; ``seed``: the self-play command.

Other packages use only the names in ``__all__``. They are imported on first use
(``app/kernel/exports.py``): the miner's worker process imports ``mine`` alone.
"""

from typing import TYPE_CHECKING

from app.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from app.puzzles.jobs import mine_puzzles
    from app.puzzles.pages import router as puzzle_page_router
    from app.puzzles.routes import router as puzzle_router
    from app.puzzles.service import PuzzleJSON, PuzzleService

__all__ = ["PuzzleJSON", "PuzzleService", "mine_puzzles", "puzzle_page_router", "puzzle_router"]

__getattr__ = lazy_exports(__name__, {
    "PuzzleJSON": ("app.puzzles.service", "PuzzleJSON"),
    "PuzzleService": ("app.puzzles.service", "PuzzleService"),
    "mine_puzzles": ("app.puzzles.jobs", "mine_puzzles"),
    "puzzle_page_router": ("app.puzzles.pages", "router"),
    "puzzle_router": ("app.puzzles.routes", "router"),
})
