"""Two people who follow each other, on two instances (PostgreSQL + Redis, uvicorn processes
and a worker): each sees the other online and in their live game, and a follower's event
stream on one instance hears, once, that the person they follow started a game on the other."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.live.cluster import Cluster, cluster
from tests.live.helpers import StreamReader, account
from tests.live.server import wait_for

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def instances(module_cluster_database: str, module_cluster_redis: tuple[str, str],
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    with cluster(module_cluster_database, module_cluster_redis,
                 tmp_path_factory.mktemp("follows"), bots_enabled="false") as topology:
        yield _webs(topology)


def _webs(topology: Cluster) -> tuple[str, str]:
    a, b = topology.web(), topology.web()
    topology.worker()
    return a, b


def _friends(base: str, headers: dict[str, str]) -> dict[str, dict[str, Any]]:
    response = httpx.get(f"{base}/api/v1/account/friends", headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    return {person["name"]: person for person in response.json()}


def _events_of(reader: StreamReader, kind: str | None, seconds: float) -> list[dict[str, Any]]:
    """Every ``kind`` event (None: every event) the stream carries within ``seconds``."""
    found: list[dict[str, Any]] = []
    while True:
        try:
            event = reader.next(timeout=seconds)
        except queue.Empty:
            return found
        if kind is None or event.get("type") == kind:
            found.append(event)


def test_friends_see_each_others_presence_and_games_across_instances(
        instances: tuple[str, str]) -> None:
    a, b = instances
    aiko, ben, cleo = account(a, "aiko"), account(b, "ben"), account(a, "cleo")
    assert httpx.put(f"{a}/api/v1/users/ben/follow", headers=aiko,
                     json={"notify": True}, timeout=10).status_code == 200
    assert httpx.put(f"{b}/api/v1/users/aiko/follow", headers=ben,
                     json={"notify": True}, timeout=10).status_code == 200
    assert _friends(a, aiko)["ben"]["online"] is False

    ben_events = StreamReader(f"{b}/api/v1/stream/event", ben)  # ben is online on b
    aiko_events = StreamReader(f"{a}/api/v1/stream/event", aiko)  # aiko on a
    try:
        assert ben_events.status == 200 and aiko_events.status == 200
        wait_for(lambda: _friends(a, aiko)["ben"]["online"])  # asked on a, connected on b
        wait_for(lambda: _friends(b, ben)["aiko"]["online"])  # asked on b, connected on a

        created = httpx.post(f"{a}/api/v1/matches", json={"game": "stairs", "seat": 0},
                             headers=aiko, timeout=10).json()
        joined = httpx.post(f"{a}/api/v1/matches/{created['id']}/join", headers=cleo, timeout=10)
        assert joined.status_code == 200, joined.text
        match_id = created["id"]

        heard = ben_events.next_of("followedGame")  # on b, from a start on a
        assert heard["user"]["name"] == "aiko" and heard["game"]["id"] == match_id
        assert heard["game"]["your_seat"] is None and heard["game"]["url"] == f"/m/{match_id}"

        playing = wait_for(lambda: _friends(b, ben)["aiko"]["playing"])
        assert [game["id"] for game in playing] == [match_id]
        assert playing[0]["opponents"] == ["cleo"]

        mine = httpx.get(f"{a}/api/v1/matches/{match_id}", headers=aiko, timeout=10).json()
        moved = httpx.post(f"{a}/api/v1/matches/{match_id}/moves", headers=aiko, timeout=10,
                           json={"move": mine["legal_moves"][0], "ply": 0})
        assert moved.status_code == 200, moved.text
        assert _events_of(ben_events, "followedGame", 3.0) == [], "said once per game"
        told_aiko = [event["type"] for event in _events_of(aiko_events, None, 0.5)]
        assert "gameStart" in told_aiko and "followedGame" not in told_aiko, \
            "a player of the game hears gameStart, not followedGame"
    finally:
        ben_events.close()
        aiko_events.close()
    wait_for(lambda: not _friends(a, aiko)["ben"]["online"], seconds=20)


def test_a_block_on_one_instance_silences_the_other(instances: tuple[str, str]) -> None:
    a, b = instances
    dai, emi, fumi = account(a, "dai"), account(b, "emi"), account(a, "fumi")
    httpx.put(f"{b}/api/v1/users/dai/follow", headers=emi, json={"notify": True}, timeout=10)
    emi_id = httpx.get(f"{b}/api/v1/me", headers=emi, timeout=10).json()["id"]
    emi_events = StreamReader(f"{b}/api/v1/stream/event", emi)
    try:
        assert httpx.put(f"{a}/api/v1/me/blocks/{emi_id}", headers=dai,
                         timeout=10).status_code == 200
        created = httpx.post(f"{a}/api/v1/matches", json={"game": "stairs", "seat": 0},
                             headers=dai, timeout=10).json()
        httpx.post(f"{a}/api/v1/matches/{created['id']}/join", headers=fumi, timeout=10)
        assert _events_of(emi_events, "followedGame", 3.0) == []
        assert httpx.get(f"{b}/api/v1/account/following", headers=emi, timeout=10).json() == []
    finally:
        emi_events.close()


def test_a_follow_made_on_one_instance_reaches_a_stream_open_on_the_other(
        instances: tuple[str, str]) -> None:
    a, b = instances
    gin, hana, iori = account(b, "gin"), account(a, "hana"), account(a, "iori")
    gin_events = StreamReader(f"{b}/api/v1/stream/event", gin)  # open before the follow
    try:
        assert gin_events.status == 200
        assert httpx.put(f"{a}/api/v1/users/hana/follow", headers=gin, json={"notify": True},
                         timeout=10).status_code == 200  # made on a: b's stream reads it again
        created = httpx.post(f"{a}/api/v1/matches", json={"game": "stairs", "seat": 0},
                             headers=hana, timeout=10).json()
        httpx.post(f"{a}/api/v1/matches/{created['id']}/join", headers=iori, timeout=10)
        heard = gin_events.next_of("followedGame")
        assert heard["game"]["id"] == created["id"] and heard["user"]["name"] == "hana"
    finally:
        gin_events.close()
