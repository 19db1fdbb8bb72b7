"""How long do the bots stay silent when the leader worker dies? A web instance, two workers
(``python -m app.worker``, a leader and a stand-by), PostgreSQL and Redis; a human plays a bot
over the match websocket. Each run first times the bot's answer with a healthy leader (the
baseline), then kills the leader with SIGKILL, plays the human's next move at once and times
from the kill to the bot's answer arriving on the socket. A fresh worker then becomes the next
stand-by, and the next run kills the new leader.

Run by hand: ``.venv/bin/python bench/failover.py [--runs 5]``. ``--code DIR`` runs the workers
from another checkout (e.g. ``git archive <commit> | tar -x -C DIR``) to measure the code
before a change in the same conditions; ``--env NAME=VALUE`` passes settings to the workers.
Uses the local PostgreSQL (a schema of its own, dropped) and Redis (a key prefix of its own,
deleted); nothing is restarted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import redis
from websockets.sync.client import ClientConnection, connect

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from load_servers import REDIS, ROOT, Database, Server  # noqa: E402

WAIT_SECONDS = 60.0


class Workers:
    """The worker processes of one run, started from ``code`` with the bench's settings."""

    def __init__(self, code: Path, env: dict[str, str], folder: Path) -> None:
        self.code = code
        self.env = env
        self.folder = folder
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self) -> subprocess.Popen[bytes]:
        log = (self.folder / f"worker-{len(self.started)}.log").open("w")
        process = subprocess.Popen([sys.executable, "-m", "app.worker"], cwd=self.code,
                                   env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.started.append(process)
        return process

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()


def wait_for(check: Any, what: str, seconds: float = WAIT_SECONDS) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {seconds} s")
        time.sleep(0.02)


def named_processes(client: redis.Redis, prefix: str) -> int:
    """Processes of this run connected to Redis (each names its connections prefix + id)."""
    return len({c.get("name", "") for c in client.client_list()
                if c.get("name", "").startswith(prefix)})


def state_at(ws: ClientConnection, ply: int) -> float:
    """The moment (monotonic) the socket shows ``ply`` or later."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message.get("type") == "state" and int(message.get("ply", -1)) >= ply:
            return time.monotonic()


def play(base: str, match_id: str, headers: dict[str, str]) -> int:
    """The human plays a legal move; returns the ply it made."""
    state = httpx.get(f"{base}/api/v1/matches/{match_id}", headers=headers, timeout=10).json()
    if state["status"] != "active" or not state["legal_moves"]:
        raise RuntimeError("the game ended; start another")
    response = httpx.post(f"{base}/api/v1/matches/{match_id}/moves", headers=headers, timeout=10,
                          json={"move": state["legal_moves"][-1], "ply": state["ply"]})
    response.raise_for_status()
    return int(state["ply"]) + 1


def one_run(base: str, headers: dict[str, str], token: str, leader: subprocess.Popen[bytes],
            healthy_moves: int) -> tuple[list[float], float]:
    """(the bot's answer times with a healthy leader, seconds from the kill to its answer)."""
    match = httpx.post(f"{base}/api/v1/matches", headers=headers, timeout=10,
                       json={"game": "stairs", "seat": 0, "bot": "easy"}).json()
    url = base.replace("http://", "ws://") + f"/api/v1/matches/{match['id']}/ws?token={token}"
    with connect(url, open_timeout=10) as ws:
        healthy = []
        for _ in range(healthy_moves):
            sent = time.monotonic()
            ply = play(base, match["id"], headers)
            healthy.append(state_at(ws, ply + 1) - sent)
        killed = time.monotonic()
        leader.send_signal(signal.SIGKILL)
        leader.wait()
        ply = play(base, match["id"], headers)
        answered = state_at(ws, ply + 1)
    return healthy, answered - killed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--healthy-moves", type=int, default=3,
                        help="bot answers timed with a healthy leader before each kill")
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout the workers run from")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for the workers (repeatable)")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds a new stand-by gets to start before the next kill")
    args = parser.parse_args()

    prefix = f"bench{uuid.uuid4().hex[:8]}:"
    database = Database.fresh("postgres")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY") and not k.startswith("STEPWELL_")}
    env.update({"STEPWELL_DATABASE_URL": database.url, "STEPWELL_SECRET_KEY": "bench",
                "STEPWELL_REDIS_URL": REDIS, "STEPWELL_REDIS_PREFIX": prefix,
                "STEPWELL_RATE_LIMIT_SCALE": "0", "STEPWELL_ANALYSIS_WORKERS": "0",
                "STEPWELL_BACKGROUND_JOBS": "auto"})
    env.update(dict(item.split("=", 1) for item in args.env))
    workers = Workers(args.code.resolve(), env, database.folder)
    client = redis.Redis.from_url(REDIS)
    web = Server.app("web", database.url, database.folder, REDIS, extra_env={
        "STEPWELL_REDIS_PREFIX": prefix, "STEPWELL_BACKGROUND_JOBS": "off"})
    healthy: list[float] = []
    failovers: list[float] = []
    try:
        web.wait_ready()
        leader = workers.start()
        wait_for(lambda: client.get(f"{prefix}jobs:leader"), "a leader")
        token = httpx.post(f"{web.base}/api/v1/guests", json={"name": "Human"},
                           timeout=10).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        print(f"workers from {workers.code}; settings: {args.env or 'defaults'}")
        print("run  healthy answer (ms, median)  kill -> bot answer (s)")
        for run in range(1, args.runs + 1):
            stand_by = workers.start()
            wait_for(lambda: named_processes(client, prefix) >= 3, "the stand-by connected")
            time.sleep(args.settle)
            times, failover = one_run(web.base, headers, token, leader, args.healthy_moves)
            healthy.extend(times)
            failovers.append(failover)
            print(f"{run:>3}  {statistics.median(times) * 1000:>26.0f}  {failover:>22.2f}",
                  flush=True)
            leader = stand_by
        print(f"healthy answer: median {statistics.median(healthy) * 1000:.0f} ms, "
              f"max {max(healthy) * 1000:.0f} ms ({len(healthy)} moves)")
        print(f"kill -> answer: median {statistics.median(failovers):.2f} s, "
              f"min {min(failovers):.2f} s, max {max(failovers):.2f} s ({len(failovers)} kills)")
    finally:
        workers.stop_all()
        web.stop()
        with contextlib.suppress(Exception):
            keys = list(client.scan_iter(f"{prefix}*"))
            if keys:
                client.delete(*keys)
        client.close()
        database.drop()


if __name__ == "__main__":
    main()
