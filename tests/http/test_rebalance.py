"""How many connections a crowded instance sheds so sockets spread again after a rolling restart
(app/http/rebalance.py); the live test is tests/live/test_drain.py."""

from __future__ import annotations

from app.http.rebalance import to_shed


def test_alone_or_balanced_an_instance_keeps_its_connections() -> None:
    assert to_shed(500, [500], 10) == 0
    assert to_shed(120, [120, 100, 110], 10) == 0


def test_after_a_rolling_restart_the_crowded_instance_sheds_half_its_excess() -> None:
    assert to_shed(100, [100, 0], 10) == 25  # share 50, excess 50: half this round
    assert to_shed(75, [75, 25], 10) == 12


def test_a_small_excess_is_left_alone() -> None:
    assert to_shed(12, [12, 0], 10) == 0  # 6 over its share: under the minimum
    assert to_shed(130, [130, 110, 120], 10) == 0  # 10 over, but within 1.25 × the share
