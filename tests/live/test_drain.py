"""A web instance stopped with SIGTERM (a deploy) shows its clients no error: it stops being
ready, finishes and acknowledges what is in flight, closes its sockets with 1012 and exits; the
clients reconnect to another instance and carry on. Real uvicorn processes on PostgreSQL (a
held row lock keeps a move in flight for as long as the test needs), Redis for two instances."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from app.http.live_connections import CLOSE_RESTART
from games import registry
from tests import databases
from tests.live.cluster import guest, open_socket, receive_until
from tests.live.server import WAIT_SECONDS, live_process, wait_for

pytestmark = pytest.mark.postgres
Predicate = Callable[[dict[str, Any]], bool]


def _start_match(base: str, creator: dict[str, str], joiner: dict[str, str],
                 game: str = "stairs") -> str:
    match = httpx.post(f"{base}/api/v1/matches", json={"game": game, "seat": 0},
                       headers=creator, timeout=10).json()
    joined = httpx.post(f"{base}/api/v1/matches/{match['id']}/join", headers=joiner, timeout=10)
    assert joined.status_code == 200, joined.text
    return str(match["id"])


def _state(message: dict[str, Any]) -> bool:
    return message.get("type") == "state"


def _close_code(socket: ClientConnection) -> int | None:
    """Read (and drop) messages until the server closes the socket; its close code."""
    try:
        while True:
            socket.recv(timeout=WAIT_SECONDS)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


@contextlib.contextmanager
def _held_match(database_url: str, match_id: str) -> Iterator[Callable[[], bool]]:
    """Hold the match's row lock (a move on it waits) until the block ends; yields "is some
    session waiting for it?"."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as holder, engine.connect() as observer:
            holder.execute(text("select id from matches where id = :id for update"),
                           {"id": match_id})
            pid = holder.execute(text("select pg_backend_pid()")).scalar_one()

            def waited_on() -> bool:
                return bool(observer.execute(text(
                    "select count(*) from pg_stat_activity where :pid = any(pg_blocking_pids(pid))"),
                    {"pid": pid}).scalar_one())

            try:
                yield waited_on
            finally:
                holder.commit()
    finally:
        engine.dispose()


def _refused(base: str) -> bool:
    """Is the instance past taking new requests? A connection the kernel queued just before
    uvicorn closed its listening socket is reset rather than refused: that is a refusal too."""
    try:
        httpx.get(f"{base}/healthz", timeout=2)
    except (httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError):
        return True
    return False


def test_a_socket_move_in_flight_at_sigterm_is_acked_then_the_socket_closes_with_1012(
        postgres_database_url: str, tmp_path: Path) -> None:
    with live_process(postgres_database_url, tmp_path, bots_enabled="false",
                      rate_limit_scale="0") as (base, process):
        light, light_token = guest(base, "Light")
        dark, _ = guest(base, "Dark")
        match_id = _start_match(base, light, dark)
        path = f"/api/v1/matches/{match_id}/ws"
        with open_socket(base, path, light_token) as player, open_socket(base, path) as spectator:
            legal = receive_until(player, _state)["legal_moves"]
            receive_until(spectator, _state)
            with _held_match(postgres_database_url, match_id) as waited_on:
                player.send(json.dumps({"type": "move", "move": legal[0], "ply": 0, "id": "m1"}))
                wait_for(waited_on)  # the move is in flight, waiting for the row
                process.send_signal(signal.SIGTERM)
                # The spectator, with nothing in flight, is told to go: the sockets are closing.
                assert _close_code(spectator) == CLOSE_RESTART
            ack = receive_until(player, lambda m: m.get("id") == "m1")
            assert (ack["type"], ack["ply"]) == ("ack", 1), ack
            assert _close_code(player) == CLOSE_RESTART
        wait_for(lambda: process.poll() is not None)
    engine = create_engine(postgres_database_url)
    with engine.connect() as connection:
        stored = connection.execute(text("select ply, move from moves where match_id = :id"),
                                    {"id": match_id}).all()
    engine.dispose()
    assert [tuple(row) for row in stored] == [(1, legal[0])]


def test_readyz_says_draining_after_sigterm_while_healthz_and_requests_still_answer(
        postgres_database_url: str, tmp_path: Path) -> None:
    with live_process(postgres_database_url, tmp_path, bots_enabled="false",
                      drain_grace_seconds="60") as (base, process):
        assert httpx.get(f"{base}/readyz", timeout=10).status_code == 200
        process.send_signal(signal.SIGTERM)
        ready = wait_for(lambda: (r := httpx.get(f"{base}/readyz", timeout=10)).status_code == 503
                         and r)
        assert ready.json() == {"status": "draining", "reason": "draining"}
        assert ready.headers["Retry-After"]
        assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200
        assert httpx.get(f"{base}/api/v1/games", timeout=10).status_code == 200
        assert process.poll() is None, "the grace period serves on"


def test_an_http_move_in_flight_at_sigterm_completes_with_200(
        postgres_database_url: str, tmp_path: Path) -> None:
    with live_process(postgres_database_url, tmp_path, bots_enabled="false",
                      rate_limit_scale="0") as (base, process):
        light, _ = guest(base, "Light")
        dark, _ = guest(base, "Dark")
        match_id = _start_match(base, light, dark)
        legal = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=light,
                          timeout=10).json()["legal_moves"]
        with ThreadPoolExecutor(1) as pool, _held_match(postgres_database_url, match_id) as waited_on:
            answer = pool.submit(httpx.post, f"{base}/api/v1/matches/{match_id}/moves",
                                 headers=light, json={"move": legal[0], "ply": 0},
                                 timeout=WAIT_SECONDS)
            wait_for(waited_on)
            process.send_signal(signal.SIGTERM)
            wait_for(lambda: _refused(base))  # uvicorn's own shutdown is under way
        response = answer.result(timeout=WAIT_SECONDS)
        assert response.status_code == 200, response.text
        assert response.json()["ply"] == 1
        wait_for(lambda: process.poll() is not None)


# -- two instances, one restarted under play ------------------------------------------------------

class Client(threading.Thread):
    """A player (or a spectator, ``token`` None) as the browser behaves: moves over the socket;
    on a close it reconnects to whichever instance answers (the load balancer's part) after
    200–1500 ms when told 1012, and takes the first state as its resync: a move a close left
    unanswered is played again if, and only if, that state shows it was not (else it is a
    stale ack, the fault this guards against)."""

    def __init__(self, bases: list[str], match_id: str, token: str | None, seat: int | None,
                 stop: threading.Event, round_robin: Iterator[int] | None = None) -> None:
        super().__init__(daemon=True)
        self.bases, self.match_id, self.token, self.seat, self.stop = bases, match_id, token, seat, stop
        self.round_robin = round_robin
        """Shared by the clients, like a load balancer's turn; None: the first base that answers."""
        self.rng = random.Random(seat)
        self.acks: list[tuple[int, str]] = []
        self.problems: list[str] = []
        self.connected_to: list[str] = []
        self.closes: list[int | None] = []
        self.ply = 0
        self.latest: dict[str, Any] | None = None
        self.unanswered: tuple[int, str] | None = None
        self.played_at: set[int] = set()
        self.resyncing = False

    def _connect(self) -> ClientConnection:
        for attempt in range(200):
            turn = attempt if self.round_robin is None else next(self.round_robin)
            base = self.bases[turn % len(self.bases)]
            try:
                socket = open_socket(base, f"/api/v1/matches/{self.match_id}/ws", self.token)
            except Exception:
                continue
            self.connected_to.append(base)
            return socket
        raise AssertionError("no instance accepted the socket")

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                with self._connect() as socket:
                    code = self._play(socket)
                if code is None:
                    return
                self.closes.append(code)
                if code != CLOSE_RESTART:
                    self.problems.append(f"closed with {code}")
                    return
                self.resyncing = True
                self.stop.wait(self.rng.uniform(0.2, 1.5))
        except Exception as error:  # reported by the test, not lost in the thread
            self.problems.append(repr(error))

    def _play(self, socket: ClientConnection) -> int | None:
        """Play until the server closes the socket (its code) or the test stops (None)."""
        try:
            while not self.stop.is_set():
                try:
                    message = json.loads(socket.recv(timeout=0.2))
                except TimeoutError:
                    continue
                kind = message.get("type")
                if kind == "error":
                    self.problems.append(f"error {message.get('code')}")
                elif kind == "ack":
                    self.acks.append((message["ply"], message["id"]))
                    self.played_at.add(int(message["id"].rsplit("@", 1)[1]))
                    self.unanswered = None
                    self._move(socket)
                elif kind == "state" and message["ply"] >= self.ply:
                    self.ply, self.latest = message["ply"], message
                    if self.resyncing:
                        self._resynced(message)
                    self._move(socket)
            return None
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None

    def _resynced(self, state: dict[str, Any]) -> None:
        self.resyncing = False
        if self.unanswered is None:
            return
        ply, move = self.unanswered
        self.unanswered = None  # not played (same ply): played again by _move
        if state["ply"] > ply:
            self.problems.append(f"stale: {move} at ply {ply} applied unacknowledged")

    def _move(self, socket: ClientConnection) -> None:
        state = self.latest
        if (self.seat is None or state is None or state.get("status") != "active"
                or state.get("to_move") != self.seat or self.unanswered is not None
                or state["ply"] in self.played_at):
            return
        move = self.rng.choice(state["legal_moves"])
        self.unanswered = (state["ply"], move)
        socket.send(json.dumps({"type": "move", "move": move, "ply": state["ply"],
                                "id": f"{move}@{state['ply']}"}))


def test_a_rolling_restart_moves_every_socket_to_the_other_instance_without_an_error(
        postgres_database_url: str, cluster_redis: tuple[str, str], tmp_path: Path) -> None:
    url, prefix = cluster_redis
    settings = {"redis_url": url, "redis_prefix": prefix, "rate_limit_prefix": f"{prefix}limits",
                "rate_limit_scale": "0", "bots_enabled": "false", "background_jobs": "off",
                "drain_grace_seconds": "0.5"}
    with contextlib.ExitStack() as stack:
        a, process_a = stack.enter_context(live_process(postgres_database_url, tmp_path, **settings))
        b, _ = stack.enter_context(live_process(postgres_database_url, tmp_path, **settings))
        matches = []
        for n in range(3):
            light, light_token = guest(a, f"Light{n}")
            dark, dark_token = guest(a, f"Dark{n}")
            matches.append((_start_match(a, light, dark), light_token, dark_token))
        stop = threading.Event()
        clients = [Client([a, b], match_id, token, seat, stop)
                   for match_id, light_token, dark_token in matches
                   for token, seat in ((light_token, 0), (dark_token, 1), (None, None))]
        for client in clients:
            client.start()
        try:
            wait_for(lambda: all(c.ply >= 4 for c in clients))
            process_a.send_signal(signal.SIGTERM)
            wait_for(lambda: process_a.poll() is not None)
            moved_on = {c: c.ply for c in clients}
            wait_for(lambda: all(c.connected_to[-1] == b and c.resyncing is False
                                 and (c.ply >= moved_on[c] + 4 or not _active(b, c.match_id))
                                 for c in clients))
        finally:
            stop.set()
            for client in clients:
                client.join(timeout=WAIT_SECONDS)
        problems = [(c.match_id, c.seat, p) for c in clients for p in c.problems]
        assert not problems, problems
        # Every socket was told to go, and ended on B (a reconnection that reached A while it
        # closed was told 1012 again).
        assert all(c.closes and set(c.closes) == {CLOSE_RESTART} and c.connected_to[-1] == b
                   for c in clients), [(c.closes, c.connected_to) for c in clients]
        for match_id, _, _ in matches:
            acked = sorted(ack for c in clients if c.match_id == match_id for ack in c.acks)
            _assert_log_replays(postgres_database_url, match_id, acked)


def _active(base: str, match_id: str) -> bool:
    return bool(httpx.get(f"{base}/api/v1/matches/{match_id}", timeout=10).json()["status"]
                == "active")


def _assert_log_replays(database_url: str, match_id: str, acked: list[tuple[int, str]]) -> None:
    """The stored log is 1..N without gap or double, holds every acknowledged move right after
    the ply it was sent at (the ack's ply is the match's, after any forced move), and
    replayed from the seed gives the stored snapshot."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            match = connection.execute(text(
                "select game, options, seed, num_seats, ply, snapshot from matches where id = :id"),
                {"id": match_id}).one()
            log = [tuple(row) for row in connection.execute(text(
                "select ply, move from moves where match_id = :id order by ply"), {"id": match_id})]
    finally:
        engine.dispose()
    assert [ply for ply, _ in log] == list(range(1, match.ply + 1))
    stored = dict(log)
    sent = [(int(tag.rsplit("@", 1)[1]), tag.rsplit("@", 1)[0], ply) for ply, tag in acked]
    wrong = [(at, move, ply) for at, move, ply in sent if stored.get(at + 1) != move or ply <= at]
    assert not wrong, f"acknowledged (sent at ply, move, ack ply) unlike the log {log}: {wrong}"
    assert len({at for at, _, _ in sent}) == len(sent)
    game = registry.get(match.game)
    options = match.options if isinstance(match.options, dict) else json.loads(match.options)
    replay = game.new_state(players=match.num_seats, options=options, seed=int(match.seed))
    for _, move in log:
        replay = replay.play(move)
    snapshot = match.snapshot if isinstance(match.snapshot, dict) else json.loads(match.snapshot)
    assert replay.to_json() == snapshot



def test_a_worker_stopped_with_sigterm_hands_the_jobs_over_at_once(
        cluster_redis: tuple[str, str], tmp_path: Path) -> None:
    """The lease is a minute: the stand-by leads well before it could have expired."""
    url, prefix = cluster_redis
    env = {**os.environ, "STEPWELL_DATABASE_URL": databases.sqlite_database(tmp_path / "w.db"),
           "STEPWELL_SECRET_KEY": "live-tests", "STEPWELL_REDIS_URL": url,
           "STEPWELL_REDIS_PREFIX": prefix, "STEPWELL_LEADER_TTL_SECONDS": "60",
           "STEPWELL_ANALYSIS_WORKERS": "0"}
    client = redis.Redis.from_url(url)
    key = f"{prefix}jobs:leader"
    workers: list[subprocess.Popen[bytes]] = []
    try:
        for n in range(2):
            with (tmp_path / f"worker-{n}.log").open("w") as log:
                workers.append(subprocess.Popen([sys.executable, "-m", "app.worker"], env=env,
                                                stdout=log, stderr=subprocess.STDOUT))
            if n == 0:
                first_token = wait_for(lambda: client.get(key))
        first, stand_by = workers
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=WAIT_SECONDS) == 0
        taken = wait_for(lambda: (token := client.get(key)) not in (None, first_token) and token)
        assert stand_by.poll() is None and taken != first_token
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
        client.close()


def test_sockets_crowded_on_one_instance_spread_to_the_other(
        postgres_database_url: str, cluster_redis: tuple[str, str], tmp_path: Path) -> None:
    url, prefix = cluster_redis
    settings = {"redis_url": url, "redis_prefix": prefix, "rate_limit_prefix": f"{prefix}limits",
                "rate_limit_scale": "0", "bots_enabled": "false", "background_jobs": "off",
                "rebalance_seconds": "0.5", "rebalance_min_excess": "2"}
    with contextlib.ExitStack() as stack:
        a, _ = stack.enter_context(live_process(postgres_database_url, tmp_path, **settings))
        b, _ = stack.enter_context(live_process(postgres_database_url, tmp_path, **settings))
        light, light_token = guest(a, "Light")
        dark, dark_token = guest(a, "Dark")
        match_id = _start_match(a, light, dark)
        stop = threading.Event()
        only_a = itertools.count(0, 2)  # even turns: every client starts on A
        clients = [Client([a, b], match_id, token, seat, stop, only_a)
                   for token, seat in [(light_token, 0), (dark_token, 1)] + [(None, None)] * 10]
        for client in clients:
            client.start()
        try:
            wait_for(lambda: all(c.connected_to for c in clients))
            assert {c.connected_to[0] for c in clients} == {a}
            balancer = itertools.count()  # from now on, a load balancer's round robin
            for client in clients:
                client.round_robin = balancer
            wait_for(lambda: sum(1 for c in clients
                                 if c.connected_to[-1] == b and not c.resyncing) >= 4)
        finally:
            stop.set()
            for client in clients:
                client.join(timeout=WAIT_SECONDS)
        problems = [(c.seat, p) for c in clients for p in c.problems]
        assert not problems, problems
        assert all(set(c.closes) <= {CLOSE_RESTART} for c in clients)
