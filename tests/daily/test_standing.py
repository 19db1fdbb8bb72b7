"""Rank, percentile and the score distribution of a daily deal."""

from __future__ import annotations

from app.daily.standing import distribution, percentile, rank_of


def test_the_rank_is_one_plus_those_who_scored_more() -> None:
    scores = [9, 7, 7, 5]
    assert [rank_of(s, scores) for s in scores] == [1, 2, 2, 4]


def test_the_percentile_is_the_share_of_the_others_beaten_a_tie_counting_half() -> None:
    scores = [9, 7, 7, 5, 3]
    assert percentile(9, scores) == 100.0
    assert percentile(3, scores) == 0.0
    assert percentile(7, scores) == 62.5  # beats 5 and 3, ties one 7: (2 + 0.5) / 4
    assert percentile(5, scores) == 25.0


def test_alone_on_a_deal_there_is_no_percentile() -> None:
    assert percentile(6, [6]) is None
    assert percentile(6, [6, 6]) == 50.0


def test_the_distribution_counts_each_score_highest_first() -> None:
    assert distribution([5, 7, 5, 9]) == [{"score": 9, "players": 1}, {"score": 7, "players": 1},
                                          {"score": 5, "players": 2}]
    assert distribution([]) == []
