"""PostgreSQL stopped for about 5 s under play, then started: players are told 503
``database_unavailable`` with Retry-After (never a 500, never nginx's 502), nothing acknowledged
is lost or doubled, every page catches up within 5 s of the database being back, and every
match moves on (a bot move that failed meanwhile is played)."""

from __future__ import annotations

import time

import pytest

from tests.faults.checks import (
    Database,
    assert_no_move_lost_or_doubled,
    assert_no_wrong_claim,
    assert_spectators_saw_the_stored_moves,
    failures,
    summary,
    tally,
    wait_until_current,
    wait_until_every_match_moves_on,
)
from tests.faults.driver import Driver
from tests.faults.topology import CLAIM_AFTER_SECONDS, Topology

pytestmark = pytest.mark.faults


def test_a_postgres_restart_is_a_503_with_retry_after_and_loses_nothing(
        deployed: Topology, database: Database) -> None:
    driver = Driver(deployed.base)
    driver.start()
    try:
        time.sleep(2)  # play before the fault
        deployed.postgres.stop()
        time.sleep(5)
        deployed.postgres.start()
        took = wait_until_current(database, driver)
        wait_until_every_match_moves_on(database, driver)
    finally:
        driver.stop()
    print(f"current {took:.2f} s after PostgreSQL was back; {summary(driver)}")
    unavailable = [s for s in driver.shown if s.status == 503]
    assert any(s.code == "database_unavailable" for s in unavailable), (
        "players were told the database is away")
    assert all(s.retry_after for s in unavailable), "every 503 says when to retry"
    assert not failures(driver, allowed=(503,)), (
        f"players were told: {tally(failures(driver, allowed=(503,)))}")
    assert driver.unreachable == 0
    assert_no_move_lost_or_doubled(database, driver)
    assert_spectators_saw_the_stored_moves(database, driver)
    assert_no_wrong_claim(driver, CLAIM_AFTER_SECONDS)
