"""The squares behind a Stairs result: each seat's stacks of the greatest height (the
end screen marks them beside each step of the decision)."""

from __future__ import annotations

from games.stairs.explain import top_squares
from tests.games.test_stairs import position

ROWS = [
    ". . . . . .",
    ". . . . . .",
    ". . . . . .",
    ". . . . . .",
    ". . . . DDL .",
    "LLD DDL DDL . . .",
]


def test_top_squares_lists_each_seats_stacks_of_the_greatest_height():
    result = position(ROWS).score_now()
    assert result.details["top_squares"] == [["b1", "c1", "e2"], ["a1"]]


def test_top_squares_follow_the_seats_after_a_swap():
    result = position(ROWS, seat_colours=("dark", "light")).score_now()
    assert result.details["top_squares"] == [["a1"], ["b1", "c1", "e2"]]


def test_top_squares_ignore_lower_stacks():
    light, dark = 0, 1
    assert top_squares(["a1", "b1", "c1"], [2, 3, 1], [dark, light, dark], [light, dark]) == [["b1"], []]
