"""Each game declares its analysis budget beside its rules; the analysis reads it from the game."""

from __future__ import annotations

from app.analysis.compute import budget_for
from games import Game, registry
from tests.fixture_game import GAME as FIXTURE


def test_the_analysis_searches_each_game_with_the_budget_the_game_declares() -> None:
    for game in registry.all_games():
        assert budget_for(game.id) == game.analysis_budget > 0
    assert (budget_for("stairs"), budget_for("town")) == (500, 300)  # measured: bench/results


def test_a_game_without_a_budget_of_its_own_gets_the_default() -> None:
    assert FIXTURE.analysis_budget == Game.analysis_budget == 400
