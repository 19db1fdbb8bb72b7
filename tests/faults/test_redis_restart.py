"""Redis stopped for 5 s under play, then started empty: nothing acknowledged is lost or doubled,
every page catches up within 5 s of Redis being back, every match moves on, and no win is
claimed against a player whose socket stayed open (presence is written again)."""

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


def test_a_redis_restart_loses_nothing_and_every_page_catches_up(
        deployed: Topology, database: Database) -> None:
    driver = Driver(deployed.base)
    driver.start()
    try:
        time.sleep(2)  # play before the fault
        deployed.redis.stop()
        time.sleep(5)
        deployed.redis.start()
        took = wait_until_current(database, driver)
        wait_until_every_match_moves_on(database, driver)
        time.sleep(4)  # longer than claim_after: claims keep being refused after the restart
    finally:
        driver.stop()
    print(f"current {took:.2f} s after Redis was back; {summary(driver)}")
    assert not failures(driver, allowed=(503,)), (
        f"players were told: {tally(failures(driver, allowed=(503,)))}")
    assert_no_move_lost_or_doubled(database, driver)
    assert_spectators_saw_the_stored_moves(database, driver)
    assert_no_wrong_claim(driver, CLAIM_AFTER_SECONDS)
    assert driver.claims_refused, "claims were tried (and refused)"
