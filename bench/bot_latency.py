"""Does a thinking bot stall the server? Websocket latency of a human-vs-human match, measured
from the moment a move is POSTed to the moment the opponent's socket receives the new state,
first with no bots, then while several hard bots think in parallel matches.

Run by hand: ``.venv/bin/python bench/bot_latency.py [--moves 40] [--bot-games 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.db.migrate import upgrade  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def guest(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    token = (await client.post("/api/v1/guests", json={"name": name})).json()["token"]
    return {"Authorization": f"Bearer {token}"}


async def keep_bots_busy(client: httpx.AsyncClient, stop: asyncio.Event, games: int) -> int:
    """Human-side random moves in ``games`` matches against hard bots, until told to stop."""
    rng = random.Random(3)
    humans = [await guest(client, f"H{i}") for i in range(games)]
    matches = [(await client.post("/api/v1/matches", json={"game": "stairs", "seat": 0,
                                                           "bot": "hard"}, headers=h)).json()["id"]
               for h in humans]
    moves = 0
    while not stop.is_set():
        for human, match_id in zip(humans, matches, strict=True):
            state = (await client.get(f"/api/v1/matches/{match_id}", headers=human)).json()
            if state["status"] == "active" and state["legal_moves"]:
                await client.post(f"/api/v1/matches/{match_id}/moves", headers=human,
                                  json={"move": rng.choice(state["legal_moves"]), "ply": state["ply"]})
                moves += 1
        await asyncio.sleep(0.05)
    return moves


async def measure(base: str, moves: int) -> list[float]:
    """Latency (ms) of each move of a human-vs-human Sight match, seen by the other player."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base) as client:
        players = [await guest(client, "A"), await guest(client, "B")]
        rng = random.Random(1)
        while len(latencies) < moves:
            match = (await client.post("/api/v1/matches", json={"game": "sight", "seat": 0},
                                       headers=players[0])).json()
            await client.post(f"/api/v1/matches/{match['id']}/join", headers=players[1])
            tokens = [p["Authorization"].split()[1] for p in players]
            ws_base = base.replace("http", "ws")
            sockets = [await websockets.connect(f"{ws_base}/api/v1/matches/{match['id']}/ws?token={t}")
                       for t in tokens]
            for ws in sockets:
                await ws.recv()
            ply = 0
            while len(latencies) < moves:
                state = (await client.get(f"/api/v1/matches/{match['id']}",
                                          headers=players[ply % 2])).json()
                if state["status"] != "active":
                    break
                other = sockets[(ply + 1) % 2]
                started = time.perf_counter()
                await client.post(f"/api/v1/matches/{match['id']}/moves", headers=players[ply % 2],
                                  json={"move": rng.choice(state["legal_moves"]), "ply": ply})
                while True:
                    message = json.loads(await asyncio.wait_for(other.recv(), 10))
                    if message.get("type") == "state" and message["ply"] == ply + 1:
                        break
                latencies.append((time.perf_counter() - started) * 1000)
                ply += 1
            for ws in sockets:
                await ws.close()
    return latencies


async def scenario(base: str, moves: int, bot_games: int) -> tuple[list[float], int]:
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        busy = asyncio.create_task(keep_bots_busy(client, stop, bot_games)) if bot_games else None
        await asyncio.sleep(1.0 if bot_games else 0)
        latencies = await measure(base, moves)
        stop.set()
        bot_moves = await busy if busy else 0
    return latencies, bot_moves


def summary(label: str, latencies: list[float], bot_moves: int) -> str:
    ordered = sorted(latencies)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (f"{label:<26} {len(ordered):>5} {statistics.median(ordered):>9.1f} {p95:>9.1f} "
            f"{max(ordered):>9.1f} {bot_moves:>10}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--bot-games", type=int, default=3)
    args = parser.parse_args()
    database = Path(tempfile.mkdtemp()) / "bench.db"
    url = f"sqlite:///{database}"
    upgrade(url)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory", "--port", str(port),
         "--log-level", "warning"],
        env={**os.environ, "STEPWELL_DATABASE_URL": url, "STEPWELL_SECRET_KEY": "bench"}, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(f"{base}/api/v1/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        print(f"{'scenario':<26} {'moves':>5} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9} {'bot plies':>10}")
        quiet = asyncio.run(scenario(base, args.moves, 0))
        print(summary("no bots", *quiet))
        busy = asyncio.run(scenario(base, args.moves, args.bot_games))
        print(summary(f"{args.bot_games} hard bots thinking", *busy))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
