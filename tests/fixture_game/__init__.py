"""A tiny fifth game for tests (stacking tic-tac-toe): proves a new game needs only its package,
registered at run time, to work in the catalogue, the pages, the bots and the engine contract."""

from tests.fixture_game.engine import GAME, StackToeGame, StackToeState

__all__ = ["GAME", "StackToeGame", "StackToeState"]
