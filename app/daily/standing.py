"""Where one score stands among the scores of everyone who played the same deal: pure."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict


class ScoreCount(TypedDict):
    score: int
    players: int


def rank_of(score: int, scores: list[int]) -> int:
    """1 + how many scored more (players with the same score share a rank)."""
    return 1 + sum(1 for other in scores if other > score)


def percentile(score: int, scores: list[int]) -> float | None:
    """The share of the other players (``scores`` includes this one's) that ``score`` beat, a
    tie counting half, in percent; None when nobody else has played."""
    others = len(scores) - 1
    if others <= 0:
        return None
    below = sum(1 for other in scores if other < score)
    tied = sum(1 for other in scores if other == score) - 1
    return round(100.0 * (below + 0.5 * tied) / others, 1)


def distribution(scores: list[int]) -> list[ScoreCount]:
    """How many players made each score, highest first."""
    return [{"score": score, "players": count}
            for score, count in sorted(Counter(scores).items(), reverse=True)]
