"""Move previews against moves, in the same run: ``POST /matches/{id}/preview`` beside
``POST /matches/{id}/moves`` on one server, interleaved ply by ply.

At every ply of random games of each game, the player to move previews a random legal move
(computed: the first ask), asks again (answered from the preview cache), then plays that move;
each request's wall time is taken at the client. Both kinds of request go over the same HTTP
connection to the same server process at the same moment, so the machine's drift (a shared
2-core box) hits them alike: the figure that matters is the preview's p95 beside the move's.

Run by hand: ``.venv/bin/python bench/preview.py [--games 4] [--db sqlite|postgres|both]``.
A uvicorn server of the app (rate limits off, bots off) on a fresh database; new guests and a
new match per game; Town of Stairs with 2 and 4 players.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load_servers import Database, Server

TABLES = (("stairs", 2), ("sight", 2), ("scalas", 2), ("town", 2), ("town", 4))
KINDS = ("move", "preview", "preview (cached)")


def _guest(client: httpx.Client, name: str) -> dict[str, str]:
    answer = client.post("/api/v1/guests", json={"name": name})
    answer.raise_for_status()
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _timed(client: httpx.Client, url: str, body: dict[str, Any], headers: dict[str, str],
           into: list[float]) -> httpx.Response:
    client.cookies.clear()  # a bearer call without cookies, as an API client sends it
    start = time.perf_counter()
    answer = client.post(url, json=body, headers=headers)
    into.append(time.perf_counter() - start)
    answer.raise_for_status()
    return answer


def play_game(client: httpx.Client, game: str, players: int, rng: random.Random,
              times: dict[str, list[float]]) -> int:
    """One random game; appends each request's wall time; returns its plies."""
    seats = [_guest(client, f"P{seat}") for seat in range(players)]
    created = client.post("/api/v1/matches", json={"game": game, "players": players, "seat": 0},
                          headers=seats[0])
    created.raise_for_status()
    url = f"/api/v1/matches/{created.json()['id']}"
    for seat, headers in enumerate(seats[1:], start=1):
        client.post(f"{url}/join", json={"seat": seat}, headers=headers).raise_for_status()
    plies = 0
    while True:
        match = client.get(url, headers=seats[0]).json()
        if match["status"] != "active":
            return plies
        mover = seats[match["to_move"]]
        legal = client.get(url, headers=mover).json()["legal_moves"]
        body = {"move": rng.choice(legal), "ply": match["ply"]}
        _timed(client, f"{url}/preview", body, mover, times["preview"])
        _timed(client, f"{url}/preview", body, mover, times["preview (cached)"])
        _timed(client, f"{url}/moves", body, mover, times["move"])
        plies += 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1e3


def measure(kind: str, games: int, seed: int, tables: tuple[tuple[str, int], ...] = TABLES
            ) -> dict[str, dict[str, dict[str, float]]]:
    """Per table and overall: per kind of request, count and wall-time percentiles (ms)."""
    database = Database.fresh(kind)
    server = Server.app(f"preview-{kind}", database.url, database.folder)
    figures: dict[str, dict[str, dict[str, float]]] = {}
    every: dict[str, list[float]] = {k: [] for k in KINDS}
    try:
        server.wait_ready()
        with httpx.Client(base_url=server.base, timeout=60) as client:
            play_game(client, "stairs", 2, random.Random(seed), {k: [] for k in KINDS})  # warm up
            for game, players in tables:
                times: dict[str, list[float]] = {k: [] for k in KINDS}
                for number in range(games):
                    play_game(client, game, players, random.Random(seed + number), times)
                figures[f"{game} ×{players}"] = _summary(times)
                for k in KINDS:
                    every[k] += times[k]
    finally:
        server.stop()
        database.drop()
    figures["all"] = _summary(every)
    return figures


def _summary(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {k: {"n": len(v), "p50": statistics.median(v) * 1e3, "p95": percentile(v, 0.95),
                "p99": percentile(v, 0.99)} for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per table")
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--game", choices=sorted({game for game, _ in TABLES}),
                        help="this game's tables only")
    args = parser.parse_args()
    tables = tuple(t for t in TABLES if args.game in (None, t[0]))
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    found = {}
    print("| database | table | request | n | p50 ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|")
    for kind in kinds:
        found[kind] = measure(kind, args.games, args.seed, tables)
        for table, rows in found[kind].items():
            for request, f in rows.items():
                print(f"| {kind} | {table} | {request} | {f['n']:.0f} | {f['p50']:.2f} "
                      f"| {f['p95']:.2f} | {f['p99']:.2f} |")
        overall = found[kind]["all"]
        print(f"\n{kind}: preview p95 ÷ move p95 = "
              f"{overall['preview']['p95'] / overall['move']['p95']:.2f} (computed), "
              f"{overall['preview (cached)']['p95'] / overall['move']['p95']:.2f} (cached)\n")
    if args.json:
        args.json.write_text(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
