"""The value math: drops, thresholds, proofs, and which moves are never marked."""

from __future__ import annotations

from app.analysis.values import PositionValue, judge, mark_for, outcome


def test_thresholds_are_inclusive_and_worst_first() -> None:
    assert mark_for(0.09) is None
    assert mark_for(0.10) == "inaccuracy"
    assert mark_for(0.2) == "mistake"
    assert mark_for(0.3) == "blunder" and mark_for(1.0) == "blunder"


def test_proven_outcomes() -> None:
    assert outcome(1.0, True) == "win" and outcome(0.0, True) == "loss"
    assert outcome(0.5, True) == "draw" and outcome(1.0, False) is None


def _position(ply: int, to_move: int | None, light: float, best: str | None,
              moves: int = 5) -> PositionValue:
    return PositionValue(ply, to_move, (light, 1 - light), best, False, moves)


def test_a_move_is_judged_by_its_movers_drop() -> None:
    positions = [_position(0, 0, 0.9, "a"), _position(1, 1, 0.45, "x"), _position(2, 0, 0.4, "b")]
    played = [{"ply": 1, "seat": 0, "move": "z"}, {"ply": 2, "seat": 1, "move": "y"}]
    document = judge(positions, played)
    first, second = document["moves"]
    assert first["drop"] == 0.45 and first["mark"] == "blunder" and first["best"] == "a"
    assert second["drop"] == -0.05 and second["mark"] is None  # dark gained: no mark
    assert document["counts"][0]["blunder"] == 1 and document["counts"][1]["blunder"] == 0
    assert document["positions"][1]["value"] == 0.55  # dark's value, dark to move


def test_the_preferred_move_and_a_forced_move_are_never_marked() -> None:
    positions = [_position(0, 0, 0.9, "a"), _position(1, 1, 0.5, "x", moves=1),
                 _position(2, 0, 0.9, "b")]
    played = [{"ply": 1, "seat": 0, "move": "a"}, {"ply": 2, "seat": 1, "move": "x2"}]
    assert [m["mark"] for m in judge(positions, played)["moves"]] == [None, None]
