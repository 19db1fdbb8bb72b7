"""Several instances for real (PostgreSQL + Redis, uvicorn processes, workers): moves, presence,
seek expiry and background jobs across instances; one pub/sub connection per process."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from app.jobs.runner import bot_count_key
from tests.live.cluster import Cluster, cluster, guest, open_socket, receive_until, wait_for

pytestmark = pytest.mark.postgres
Redis = tuple[str, str]
CLAIM_AFTER_SECONDS = 1
SEEK_GRACE_SECONDS = 2


@dataclass
class Shared:
    topology: Cluster
    a: str
    b: str


@pytest.fixture(scope="module")
def shared(module_cluster_database: str, module_cluster_redis: Redis,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    """Two web instances and a worker, without bots, shared by the tests whose settings agree
    (starting a cluster costs seconds); each test plays with guests and matches of its own.
    The tests that need other settings, or that kill a process, start clusters of their own."""
    with cluster(module_cluster_database, module_cluster_redis,
                 tmp_path_factory.mktemp("instances"), bots_enabled="false",
                 claim_after_seconds=str(CLAIM_AFTER_SECONDS),
                 seek_grace_seconds=str(SEEK_GRACE_SECONDS)) as topology:
        a, b = topology.web(), topology.web()
        topology.worker()
        yield Shared(topology, a, b)


def _state(ply: int) -> Any:
    return lambda message: message.get("type") == "state" and message["ply"] >= ply


def _match(base: str, creator: dict[str, str], joiner: dict[str, str], **body: Any
           ) -> dict[str, Any]:
    match = httpx.post(f"{base}/api/v1/matches", json={"game": "stairs", "seat": 0, **body},
                       headers=creator, timeout=10).json()
    joined = httpx.post(f"{base}/api/v1/matches/{match['id']}/join", headers=joiner, timeout=10)
    assert joined.status_code == 200, joined.text
    return joined.json()


def _play_first_legal(base: str, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    mine = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=headers, timeout=10).json()
    response = httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=headers, timeout=10,
                          json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_move_on_a_reaches_a_spectator_and_a_player_on_b(shared: Shared) -> None:
    a, b = shared.a, shared.b
    light, _ = guest(a, "Light")
    dark, dark_token = guest(a, "Dark")
    match = _match(a, light, dark)
    path = f"/api/v1/matches/{match['id']}/ws"
    with open_socket(b, path, dark_token) as player, open_socket(b, path) as spectator:
        receive_until(player, _state(0))
        receive_until(spectator, _state(0))
        played = _play_first_legal(a, match["id"], light)
        seen_by_player = receive_until(player, _state(1))
        seen_by_spectator = receive_until(spectator, _state(1))
    assert seen_by_player["last_move"]["move"] == played["last_move"]["move"]
    assert seen_by_player["your_seat"] == 1 and seen_by_player["legal_moves"]
    assert seen_by_spectator["ply"] == 1 and not seen_by_spectator.get("legal_moves")


def test_a_player_present_only_on_b_is_present_for_a(shared: Shared) -> None:
    a, b = shared.a, shared.b
    light, light_token = guest(a, "Light")
    dark, dark_token = guest(a, "Dark")
    match = _match(a, light, dark, time_control={"kind": "realtime", "minutes": 10})
    path = f"/api/v1/matches/{match['id']}/ws"
    claim = f"{a}/api/v1/matches/{match['id']}/claim-victory"
    with open_socket(a, path, light_token) as light_socket:
        with open_socket(b, path, dark_token):
            receive_until(light_socket, lambda m: m.get("type") == "presence"
                          and m["online_seats"] == [0, 1])
            time.sleep(2.5)  # longer than claim_after: still present, on B
            refused = httpx.post(claim, headers=light, timeout=10)
            assert refused.status_code == 409, refused.text
            assert refused.json()["code"] == "cannot_claim"
        receive_until(light_socket, lambda m: m.get("type") == "presence"
                      and m["online_seats"] == [0])
        time.sleep(1.5)
        won = httpx.post(claim, headers=light, timeout=10)
    assert won.status_code == 200, won.text
    assert won.json()["status"] == "finished" and won.json()["result"]["winners"] == [0]


def test_spectator_counts_add_up_across_instances(shared: Shared) -> None:
    a, b = shared.a, shared.b
    light, light_token = guest(a, "Light")
    dark, _ = guest(a, "Dark")
    match = _match(a, light, dark)
    path = f"/api/v1/matches/{match['id']}/ws"
    with open_socket(a, path, light_token) as light_socket, \
            open_socket(a, path), open_socket(b, path), open_socket(b, path):
        presence = receive_until(light_socket, lambda m: m.get("type") == "presence"
                                 and m["spectators"] == 3)
        assert presence["online_seats"] == [0]

        def listed() -> bool:
            live = httpx.get(f"{b}/api/v1/live", timeout=10).json()
            return any(m["id"] == match["id"] and m["spectators"] == 3 for m in live)

        wait_for(listed, seconds=10)


def test_a_seek_whose_creator_is_on_b_does_not_expire(shared: Shared) -> None:
    a, b = shared.a, shared.b
    alice, alice_token = guest(a, "Alice")
    with open_socket(b, "/api/v1/lobby/ws", alice_token) as lobby:
        receive_until(lobby, lambda m: m.get("type") == "seeks")
        seek = httpx.post(f"{a}/api/v1/seeks", json={"game": "stairs"}, headers=alice,
                          timeout=10).json()
        time.sleep(5)  # more than twice the grace period
        open_ids = [s["id"] for s in httpx.get(f"{a}/api/v1/seeks", timeout=10).json()]
        assert seek["id"] in open_ids, "the seek expired although its creator is on B"
    # and it does expire once she has gone (so the check above could fail)
    wait_for(lambda: seek["id"] not in [s["id"] for s in httpx.get(
        f"{a}/api/v1/seeks", timeout=10).json()], seconds=15)


def test_quick_play_never_pairs_a_seeker_who_left_another_instance(
        cluster_database: str, cluster_redis: Redis, tmp_path: Path) -> None:
    with cluster(cluster_database, cluster_redis, tmp_path, bots_enabled="false") as topology:
        a, b = topology.web(), topology.web()
        topology.worker()
        alice, alice_token = guest(b, "Alice")
        bob, _ = guest(a, "Bob")
        carol, _ = guest(a, "Carol")

        def quick(base: str, who: dict[str, str]) -> dict[str, Any]:
            response = httpx.post(f"{base}/api/v1/quick-play", json={"game": "stairs"},
                                  headers=who, timeout=10)
            assert response.status_code == 200, response.text
            return response.json()

        with open_socket(b, "/api/v1/lobby/ws", alice_token) as lobby:
            receive_until(lobby, lambda m: m.get("type") == "seeks")
            assert quick(b, alice)["status"] == "open"
            wait_for(lambda: _someone_online(topology), seconds=10)
            paired = quick(a, bob)  # Alice is online on B: A pairs her at once
            assert paired["status"] == "matched", paired
            assert quick(b, alice)["status"] == "open"
        # she closed the tab on B; Carol asks through A once B has said so
        alice_id = str(httpx.get(f"{b}/api/v1/me", headers=alice, timeout=10).json()["id"])
        wait_for(lambda: not _online(topology, alice_id), seconds=10)
        # Absences count only once the shared presence is older than an instance's death time
        # (5 heartbeats + 5 s): before that an instance may be alive but not yet listed.
        born = float(topology.redis.get(f"{topology.prefix}presence:born"))
        wait_for(lambda: time.time() > born + 5 * 1.0 + 5.0 + 0.5, seconds=30)
        seek = quick(a, carol)
        assert seek["status"] == "open" and seek["match_id"] is None, seek
        time.sleep(3.0)  # the worker's pairing rounds leave her seek alone too
        mine = [s for s in httpx.get(f"{a}/api/v1/seeks", timeout=10).json()
                if s["id"] == seek["id"]]
        assert mine and mine[0]["status"] == "open"


def _online(topology: Any, user_id: str) -> bool:
    """Some instance lists the user among those with a socket open."""
    return any(topology.redis.sismember(key, user_id)
               for key in topology.redis.scan_iter(f"{topology.prefix}presence:iu:*"))


def _someone_online(topology: Any) -> bool:
    """An instance has written its online users (its first heartbeat after a socket opened)."""
    return any(topology.redis.scard(key)
               for key in topology.redis.scan_iter(f"{topology.prefix}presence:iu:*"))


def _bot_match(base: str, human: dict[str, str]) -> dict[str, Any]:
    match = httpx.post(f"{base}/api/v1/matches", json={"game": "stairs", "seat": 0, "bot": "easy"},
                       headers=human, timeout=10).json()
    assert match["status"] == "active", match
    return match


def _wait_ply(base: str, match_id: str, ply: int) -> dict[str, Any]:
    def reached() -> dict[str, Any] | None:
        state = httpx.get(f"{base}/api/v1/matches/{match_id}", timeout=10).json()
        return state if state["ply"] >= ply or state["status"] != "active" else None

    return wait_for(reached, seconds=40)


def _bot_counts(topology: Any, match_id: str) -> dict[int, int]:
    raw = topology.redis.hgetall(bot_count_key(topology.prefix, match_id))
    return {int(k): int(v) for k, v in raw.items()}


def test_two_instances_compute_each_bot_ply_once(
        cluster_database: str, cluster_redis: Redis, tmp_path: Path) -> None:
    """No worker: both web instances compete for the jobs; exactly one runs them."""
    with cluster(cluster_database, cluster_redis, tmp_path, background_jobs="auto") as topology:
        a, b = topology.web(), topology.web()
        human, _ = guest(a, "Human")
        match = _bot_match(a, human)
        bases = [a, b]
        for turn in range(4):
            base = bases[turn % 2]
            state = httpx.get(f"{base}/api/v1/matches/{match['id']}", headers=human,
                              timeout=10).json()
            if state["status"] != "active":
                break
            _play_first_legal(base, match["id"], human)
            state = _wait_ply(bases[(turn + 1) % 2], match["id"], state["ply"] + 2)
        moves = httpx.get(f"{a}/api/v1/matches/{match['id']}/moves", timeout=10).json()
        bot_plies = [m["ply"] - 1 for m in moves if m["seat"] == 1]  # the ply the bot thought at
        time.sleep(1.0)
        counts = _bot_counts(topology, match["id"])
    assert bot_plies and counts == {ply: 1 for ply in bot_plies}


def test_killing_the_worker_mid_game_loses_and_doubles_nothing(
        cluster_database: str, cluster_redis: Redis, tmp_path: Path) -> None:
    with cluster(cluster_database, cluster_redis, tmp_path, background_jobs="off",
                 leader_ttl_seconds="2") as topology:
        a, b = topology.web(), topology.web()
        first = topology.worker()
        wait_for(topology.leader_token, seconds=20)
        human, _ = guest(a, "Human")
        light, _ = guest(b, "Light")
        dark, _ = guest(b, "Dark")
        bot_game = _bot_match(a, human)
        _play_first_legal(a, bot_game["id"], human)
        _wait_ply(b, bot_game["id"], 2)
        timed = _match(b, light, dark, time_control={"kind": "realtime", "minutes": 0.08})
        _play_first_legal(b, timed["id"], light)
        _play_first_legal(a, timed["id"], dark)  # both have moved: clocks run, light has ~5 s

        topology.kill(first)  # kill -9 mid-game: its lock stays until it expires
        _play_first_legal(b, bot_game["id"], human)
        topology.worker()
        after = _wait_ply(a, bot_game["id"], 4)
        assert after["ply"] == 4
        flagged = wait_for(lambda: (lambda s: s if s["status"] == "finished" else None)(
            httpx.get(f"{a}/api/v1/matches/{timed['id']}", timeout=10).json()), seconds=30)
        assert flagged["result"]["winners"] == [1]
        time.sleep(1.5)
        moves = httpx.get(f"{a}/api/v1/matches/{bot_game['id']}/moves", timeout=10).json()
        assert [m["ply"] for m in moves] == list(range(1, len(moves) + 1))
        assert [m["seat"] for m in moves] == [0, 1] * (len(moves) // 2) + [0] * (len(moves) % 2)
        counts = _bot_counts(topology, bot_game["id"])
        assert counts == {ply: 1 for ply in (1, 3)}


def test_one_process_keeps_few_redis_connections_whatever_its_sockets(shared: Shared) -> None:
    a, b = shared.a, shared.b
    topology = shared.topology
    players = [guest(a, f"P{i}") for i in range(8)]
    matches = [_match(a, players[i][0], players[i + 1][0]) for i in range(0, 8, 2)]
    sockets = []
    try:
        for index in range(40):
            match = matches[index % len(matches)]
            base = (a, b)[index % 2]
            token = players[index % 8][1] if index < 8 else None
            sockets.append(open_socket(base, f"/api/v1/matches/{match['id']}/ws", token))
        for index in range(10):
            sockets.append(open_socket((a, b)[index % 2], "/api/v1/lobby/ws",
                                       players[index % 8][1]))
        for socket in sockets:
            receive_until(socket, lambda m: m.get("type") in ("state", "seeks"))
        _play_first_legal(a, matches[0]["id"], players[0][0])
        # The worker is started without waiting for it to be ready: give it time to connect
        # (the test failed now and then counting only the two web instances).
        with contextlib.suppress(AssertionError):  # the assertion below says what was seen
            wait_for(lambda: len(topology.connections_by_process()) == 3, seconds=20)
        counts = topology.connections_by_process()
    finally:
        for socket in sockets:
            socket.close()
    assert len(counts) == 3, counts  # two web instances and the worker, each named
    assert max(counts.values()) <= 4, counts


def test_a_token_revoked_on_a_stops_working_on_b(shared: Shared) -> None:
    a, b = shared.a, shared.b
    made = httpx.post(f"{a}/api/v1/accounts", timeout=10, json={
        "username": "aiko", "password": "correct horse battery", "name": "Aiko"})
    assert made.status_code == 201, made.text
    owner = {"Authorization": f"Bearer {made.json()['token']}"}
    token = httpx.post(f"{a}/api/v1/tokens", json={"description": "bot", "scopes": ["read"]},
                       headers=owner, timeout=10).json()
    program = {"Authorization": f"Bearer {token['token']}"}
    assert httpx.get(f"{b}/api/v1/me", headers=program, timeout=10).status_code == 200
    revoked = httpx.delete(f"{a}/api/v1/tokens/{token['id']}", headers=owner, timeout=10)
    assert revoked.status_code == 204
    wait_for(lambda: httpx.get(f"{b}/api/v1/me", headers=program,
                               timeout=10).status_code == 401, seconds=5)


def _numsub(url: str, channel: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return int(dict(client.pubsub_numsub(channel))[channel.encode()])
    finally:
        client.close()


def test_secrets_reach_only_the_instances_that_serve_a_seat(shared: Shared) -> None:
    """Town, both players on A, spectators on B (one anonymous, one signed in): B never
    subscribes to the match's records, and the shared channels carry no snapshot."""
    url, prefix = shared.topology.redis_url, shared.topology.prefix
    a, b = shared.a, shared.b
    one, one_token = guest(a, "One")
    two, two_token = guest(a, "Two")
    _, onlooker_token = guest(b, "Onlooker")
    match = _match(a, one, two, game="town", players=2,
                   options={"start_cards": [2, 6]})  # a fixed deal: secret options
    match_id = match["id"]
    spy = redis.Redis.from_url(url).pubsub()
    spy.subscribe(f"{prefix}match:{match_id}", f"{prefix}live",
                  f"{prefix}match:{match_id}:seats")
    path = f"/api/v1/matches/{match_id}/ws"
    try:
        with open_socket(a, path, one_token) as player, open_socket(a, path, two_token), \
                open_socket(b, path) as spectator, \
                open_socket(b, path, onlooker_token) as onlooker:
            mine = receive_until(player, _state(0))
            receive_until(spectator, _state(0))
            receive_until(onlooker, _state(0))
            seats = f"{prefix}match:{match_id}:seats"
            wait_for(lambda: _numsub(url, seats) == 2)  # A's and the spy's; B left it
            mover = (one, two)[match["to_move"]]
            _play_first_legal(a, match_id, mover)
            seen = receive_until(spectator, _state(1))
            receive_until(player, _state(1))
            assert _numsub(url, seats) == 2
        heard: dict[str, list[bytes]] = {}
        wait_for(lambda: _drain(spy, heard) and len(heard) == 3)
    finally:
        spy.close()
    public = heard[f"{prefix}match:{match_id}"] + heard[f"{prefix}live"]
    assert public and all(b'"snapshot"' not in data and b"path_deck" not in data
                          for data in public)
    assert any(b'"snapshot"' in data for data in heard[f"{prefix}match:{match_id}:seats"]), \
        "the seats' channel carries the records (else this test proves nothing)"
    assert mine["view"]["start_cards"][mine["your_seat"]] is not None
    assert seen["view"]["start_cards"] == [None, None]


def _drain(spy: Any, heard: dict[str, list[bytes]]) -> bool:
    """Collect what the spy subscription has received so far (channel -> payloads)."""
    while (item := spy.get_message(timeout=0.2)) is not None:
        if item["type"] == "message":
            heard.setdefault(item["channel"].decode(), []).append(item["data"])
    return True
