"""Presence costs O(changes): a crowd arriving on a match makes a few batched messages (numbers,
not lists), not one per socket per socket; memory is given back when the sockets close."""

from __future__ import annotations

import asyncio
from typing import Any

from app.realtime.bus import match_channel
from app.realtime.presence import BATCH_SECONDS, Presence
from tests.live.server import run_async


def test_a_crowd_makes_a_few_batched_presence_messages() -> None:
    sent: list[tuple[str, dict[str, Any]]] = []

    async def scenario() -> None:
        presence = Presence(30.0, lambda channel, message: sent.append((channel, message)))
        presence.bind_loop(asyncio.get_running_loop())
        light = presence.connect(1, "m1", 0)
        crowd = [presence.connect(None, "m1") for _ in range(500)]
        await asyncio.sleep(3 * BATCH_SECONDS)
        assert len(sent) <= 2  # the first batch, maybe a second: never one per socket
        assert sent[-1] == (match_channel("m1"),
                            {"type": "presence", "spectators": 500, "online_seats": [0]})
        for connection in [*crowd, light]:
            presence.disconnect(connection)
        await asyncio.sleep(3 * BATCH_SECONDS)
        assert sent[-1][1] == {"type": "presence", "spectators": 0, "online_seats": []}
        assert len(sent) <= 4
        assert presence.tracked_matches() == 0 and presence.spectator_counts() == {}
        await presence.aclose()

    run_async(scenario)  # a fresh loop in its own thread (see tests/live/server.py)


def test_a_player_who_left_is_away_and_one_who_is_connected_is_not() -> None:
    async def scenario() -> None:
        presence = Presence(30.0)
        presence.bind_loop(asyncio.get_running_loop())
        light = presence.connect(1, "m1", 0)
        presence.connect(2, "m1", 1)
        assert presence.away_seconds("m1", 2) == 0.0
        presence.disconnect(light)
        assert presence.away_seconds("m1", 1) >= 0.0 and not presence.is_online(1)
        assert (await presence.absent_since([1, 2, 3])).keys() == {1, 2}
        assert (await presence.absent_since([2]))[2] is None
        await presence.aclose()

    run_async(scenario)  # a fresh loop in its own thread (see tests/live/server.py)


def test_online_users_are_those_with_a_connection_open() -> None:
    presence = Presence(30.0)
    first = presence.connect(1)
    presence.connect(2, "m1", 0)
    assert presence.online_users([1, 2, 3]) == {1, 2}
    presence.disconnect(first)
    assert presence.online_users([1, 2, 3]) == {2}
    assert asyncio.run(presence.online_users_async([1, 2])) == {2}
