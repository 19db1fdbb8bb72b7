"""A rolling deploy under play: each web instance in turn gets SIGTERM and is started again
(ready before the next one goes), then each worker. Players see no error at all (no 502, no
refused socket, no ``stale_ply`` for a move that was in fact played), nothing acknowledged is lost
or doubled, every page is current within 5 s of the last restart and every match moves on.

Needs the SIGTERM drain: an instance stops being ready, finishes and acknowledges the moves in
flight, tells its sockets to reconnect elsewhere and exits."""

from __future__ import annotations

import time

import pytest

from tests.faults.checks import (
    Database,
    assert_no_move_lost_or_doubled,
    assert_no_wrong_claim,
    assert_spectators_saw_the_stored_moves,
    summary,
    tally,
    wait_until_current,
    wait_until_every_match_moves_on,
)
from tests.faults.driver import Driver
from tests.faults.topology import CLAIM_AFTER_SECONDS, Topology

pytestmark = pytest.mark.faults


def test_a_rolling_restart_of_every_instance_and_worker_shows_players_no_error(
        deployed: Topology, database: Database) -> None:
    driver = Driver(deployed.base)
    driver.start()
    try:
        time.sleep(2)  # play before the deploy
        for web in deployed.webs:
            web.terminate()
            web.start()  # ready (GET /readyz) before the next instance goes
        for worker in deployed.workers:
            worker.terminate()
            worker.start()
        took = wait_until_current(database, driver)
        wait_until_every_match_moves_on(database, driver)
        time.sleep(1)
    finally:
        driver.stop()
    print(f"current {took:.2f} s after the last restart; {summary(driver)}")
    assert not driver.shown, f"players saw errors: {tally(driver.shown)}"
    assert not driver.handshakes, f"sockets refused: {driver.handshakes}"
    assert_no_move_lost_or_doubled(database, driver)
    assert_spectators_saw_the_stored_moves(database, driver)
    assert_no_wrong_claim(driver, CLAIM_AFTER_SECONDS)
    opened_again = sum(feed.opens > 1 for feed in driver.feeds)
    print(f"sockets that reconnected: {opened_again} of {len(driver.feeds)}")
