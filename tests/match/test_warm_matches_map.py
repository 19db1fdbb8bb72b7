"""The warm-match map itself: taken at most once, only at its ply, bounded, never a finished match."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from app.match.records import MatchRow
from app.match.warm import WarmMatch, WarmMatches
from games import registry


def _warm(match_id: str, ply: int = 3, status: str = "active") -> WarmMatch:
    state = registry.get("stairs").new_state(players=2, options={}, seed=1)
    moment = datetime(2026, 1, 1)
    row = MatchRow(match_id, "stairs", {}, 1, 2, status, False, None, None, None, None, [], 7,
                   None, False, None, 1, ply, state.to_json(), None, None, moment, moment, None,
                   moment, [])
    return WarmMatch(row, state)


def test_a_copy_is_taken_once_and_only_at_its_ply() -> None:
    warm = WarmMatches()
    warm.keep(_warm("a", ply=3))
    assert warm.take("a", 2) is None
    assert warm.take("a", 3) is None, "a copy asked for at another ply is dropped"
    warm.keep(_warm("a", ply=3))
    assert warm.take("a", 3) is not None
    assert warm.take("a", 3) is None, "two moves never share one copy"


def test_finished_matches_are_not_kept_and_forget_drops() -> None:
    warm = WarmMatches()
    warm.keep(_warm("a"))
    warm.keep(replace(_warm("a"), row=replace(_warm("a").row, status="finished")))
    assert len(warm) == 0
    warm.keep(_warm("b"))
    warm.forget("b")
    assert warm.take("b", 3) is None


def test_the_least_recently_kept_goes_first() -> None:
    warm = WarmMatches(capacity=2)
    for match_id in ("a", "b", "c"):
        warm.keep(_warm(match_id))
    assert len(warm) == 2 and warm.take("a", 3) is None
    assert warm.take("b", 3) is not None and warm.take("c", 3) is not None
