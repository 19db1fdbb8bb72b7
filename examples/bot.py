"""A complete Stepwell bot in one file: follow the event stream, accept challenges, play each game
through its match stream.

    python examples/bot.py --server http://127.0.0.1:8000 --token sw_...   (or STEPWELL_TOKEN)

Make the token on your account page (scopes `read`, `play`, `challenge`), or use the one that
`POST /api/v1/login` returns; turn the account into a bot once with `POST /api/v1/bot/upgrade`.
Moves come from the built-in MCTS (games.bots) for games whose whole position can be rebuilt from
the move list (no hidden information, no chance), and are random otherwise. Only the standard
library and this repository's games/ package are used.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository's games/ package

from games import registry
from games.bots import choose_move


class Client:
    """The few HTTP calls a bot needs, with its bearer token."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, method=method,
                                         headers=self.headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            problem = json.loads(error.read() or b"{}")
            return {"error": error.code, "retry_after": float(error.headers.get("Retry-After") or 0),
                    **problem}

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """NDJSON: one event per line; empty lines only keep the connection alive."""
        request = urllib.request.Request(self.server + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            for line in response:
                if line.strip():
                    yield json.loads(line)


def pick_move(client: Client, match: dict[str, Any], level: str) -> str:
    """MCTS on the position rebuilt from the move list (the stream's ``moves``), or a random
    legal move."""
    legal = match["legal_moves"]
    game = registry.get(match["game"])
    if level == "random" or game.hidden_information or game.has_chance:
        return random.choice(legal)
    state = game.new_state(players=len(match["seats"]), options=match["options"])
    moves = match.get("moves")
    if moves is None:  # an older server: the move record
        moves = [e["move"] for e in client.call("GET", f"/api/v1/matches/{match['id']}/moves")]
    for move in moves:
        state = state.play(move)
    if sorted(state.legal_moves()) != sorted(legal):  # not the position the server has
        return random.choice(legal)
    return choose_move(state, match["your_seat"], level, seed=match["ply"])


def play(client: Client, match_id: str, level: str) -> None:
    """Follow one match and move whenever it is our turn, until it ends."""
    for event in client.stream(f"/api/v1/matches/{match_id}/stream"):
        if event["type"] in ("gameFull", "gameState"):
            if event["status"] == "active" and event["legal_moves"]:
                move = pick_move(client, event, level)
                answer = client.call("POST", f"/api/v1/matches/{match_id}/moves",
                                     {"move": move, "ply": event["ply"]})
                if "error" in answer and answer.get("code") != "stale_ply":
                    print(f"{match_id}: {move} refused: {answer.get('message')}", flush=True)
        elif event["type"] == "gameFinish":
            print(f"{match_id}: {event['status']}, result {event['result']}", flush=True)
            return


def run(client: Client, level: str, stop_after: int | None,
        opponent: str | None = None, game_id: str = "stairs") -> None:
    """Accept every challenge for a game we know; play every game that starts, each in a thread.
    With ``opponent``, also challenge them to ``game_id``, again after each game ends."""
    known = {game["id"] for game in client.call("GET", "/api/v1/games")} & set(registry.ids())
    me = client.call("GET", "/api/v1/me")
    print(f"playing as {me['name']} ({me['kind']}): {', '.join(sorted(known))}", flush=True)

    def challenge() -> None:
        while opponent:
            sent = client.call("POST", "/api/v1/challenges", {"user": opponent, "game": game_id})
            if sent.get("code") != "rate_limited":
                if "error" in sent:
                    print(f"challenge refused: {sent.get('message')}", flush=True)
                return
            time.sleep(sent["retry_after"] or 1)  # challenges are rate limited: wait our turn

    challenge()
    playing: dict[str, threading.Thread] = {}
    finished = 0
    while True:  # reconnect when the stream drops (a server restart); the server re-announces
        try:
            for event in client.stream("/api/v1/stream/event"):
                if event["type"] == "challenge":
                    offered = event["challenge"]
                    if event.get("direction") == "out":  # our own challenge, as sent
                        continue
                    if offered["game"] in known:
                        client.call("POST", f"/api/v1/challenges/{offered['id']}/accept")
                    else:
                        client.call("POST", f"/api/v1/challenges/{offered['id']}/decline",
                                    {"reason": "variant"})
                elif event["type"] == "gameStart":
                    match_id = event["game"]["id"]
                    if match_id not in playing or not playing[match_id].is_alive():
                        playing[match_id] = threading.Thread(target=play, daemon=True,
                                                             args=(client, match_id, level))
                        playing[match_id].start()
                elif event["type"] == "gameFinish":
                    finished += 1
                    if stop_after is not None and finished >= stop_after:
                        for thread in playing.values():
                            thread.join(timeout=30)  # let each game's thread see its own end
                        return
                    challenge()
        except (OSError, ValueError) as error:  # URLError, a reset, a cut line
            print(f"event stream lost ({error}); reconnecting", flush=True)
            time.sleep(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("STEPWELL_TOKEN"))
    parser.add_argument("--level", default="easy", choices=["random", "easy", "medium", "hard"])
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    parser.add_argument("--challenge", metavar="USER", help="challenge USER, again after each game")
    parser.add_argument("--game", default="stairs", help="the game to challenge USER to")
    args = parser.parse_args()
    if not args.token:
        parser.error("a token is needed: --token or STEPWELL_TOKEN")
    run(Client(args.server, args.token), args.level, args.games, args.challenge, args.game)


if __name__ == "__main__":
    main()
