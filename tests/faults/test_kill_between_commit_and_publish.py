"""An instance killed (kill -9) after a move's commit and before its publication reaches Redis:
the move is still announced. Players on the other instance are told it within 5 s, whether the
killed instance stays dead (counted from the kill) or is restarted by its supervisor (counted
from its return): the opponent may move, the spectator sees it. Nothing acknowledged is lost
or doubled, and every page is current.

Instance 0 talks to Redis through a relay the test holds (tests/faults/topology.py:
RedisProxy), so what it publishes after the commit is still in the relay when it dies, and is
thrown away. Needs the transactional outbox: the event written in the move's transaction and
relayed again by whoever takes over."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from tests.faults.checks import (
    CURRENT_SECONDS,
    Database,
    assert_no_move_lost_or_doubled,
    assert_no_wrong_claim,
    assert_spectators_saw_the_stored_moves,
    summary,
    wait_until_current,
    wait_until_every_match_moves_on,
)
from tests.faults.driver import Driver
from tests.faults.topology import CLAIM_AFTER_SECONDS, RedisProxy, Topology
from tests.live.cluster import guest, open_socket, receive_until

pytestmark = pytest.mark.faults


def _at_least(ply: int) -> Any:
    return lambda message: message.get("type") == "state" and message["ply"] >= ply


def _told(socket: Any, who: str, via: str, seconds: float) -> dict[str, Any]:
    try:
        return receive_until(socket, _at_least(1), seconds=seconds)  # type: ignore[no-any-return]
    except TimeoutError:
        raise AssertionError(f"{who} was not told the move (played over {via}) within "
                             f"{CURRENT_SECONDS} s of its instance being back") from None


def _killed_after_commit(deployed: Topology, proxy: RedisProxy, via: str,
                         restart_first: bool) -> None:
    """One move committed on instance 0, its publication held, instance 0 killed; the opponent
    and a spectator on instance 1 must be told within the bound, counted from the kill while
    the instance stays dead (whoever takes over announces it), or from its restart."""
    victim, survivor = deployed.webs
    light, light_token = guest(deployed.base, f"Mover-{via}")
    dark, dark_token = guest(deployed.base, f"Waiter-{via}")
    match = httpx.post(f"{deployed.base}/api/v1/matches", headers=light, timeout=10,
                       json={"game": "stairs", "seat": 0}).json()
    joined = httpx.post(f"{deployed.base}/api/v1/matches/{match['id']}/join", headers=dark,
                        timeout=10)
    assert joined.status_code == 200, joined.text
    path = f"/api/v1/matches/{match['id']}/ws"
    with open_socket(survivor.base, path, dark_token) as opponent, \
            open_socket(survivor.base, path) as spectator:
        receive_until(opponent, _at_least(0))
        receive_until(spectator, _at_least(0))
        mine = httpx.get(f"{victim.base}/api/v1/matches/{match['id']}", headers=light,
                         timeout=10).json()
        move = mine["legal_moves"][0]
        if via == "rest":
            proxy.hold()
            played = httpx.post(f"{victim.base}/api/v1/matches/{match['id']}/moves",
                                headers=light, json={"move": move, "ply": 0}, timeout=10)
            assert played.status_code == 200, played.text
        else:
            with open_socket(victim.base, path, light_token) as socket:
                receive_until(socket, _at_least(0))
                proxy.hold()
                socket.send(json.dumps({"type": "move", "move": move, "ply": 0, "id": "m"}))
                ack = receive_until(socket, lambda m: m.get("id") == "m")
                assert ack["type"] == "ack", ack
                victim.kill()
        victim.kill()  # committed; its publication is still in the relay
        proxy.release(drop=True)
        if restart_first:
            victim.start()  # its supervisor restarts it: the fault ends when it is back
        since = time.monotonic()
        told = _told(opponent, "the opponent", via, CURRENT_SECONDS)
        assert told["legal_moves"] and told["last_move"]["move"] == move, told
        left = max(0.1, CURRENT_SECONDS - (time.monotonic() - since))
        assert _told(spectator, "the spectator", via, left)["last_move"]["move"] == move
        print(f"{via}: announced {time.monotonic() - since:.2f} s after the "
              f"{'instance was back' if restart_first else 'kill'}")
        if not restart_first:
            victim.start()


def test_a_move_committed_by_an_instance_killed_before_publishing_is_announced(
        deployed: Topology, database: Database) -> None:
    driver = Driver(deployed.base)
    driver.start()
    try:
        time.sleep(1)
        for via, restart_first in (("rest", False), ("socket", True)):
            _killed_after_commit(deployed, deployed.relay, via, restart_first)
            took = wait_until_current(database, driver)
        wait_until_every_match_moves_on(database, driver)
    finally:
        driver.stop()
    print(f"current {took:.2f} s after the last restart; {summary(driver)}")
    assert_no_move_lost_or_doubled(database, driver)
    assert_spectators_saw_the_stored_moves(database, driver)
    assert_no_wrong_claim(driver, CLAIM_AFTER_SECONDS)
