"""Options that fix hidden information (Town's start cards and deck orders) never leave the server.

The live test plays several three-player Town games with fixed deals on a real server and scans
every REST answer, socket frame and stream line anyone could receive — players, a spectator, the
lobby, the Watch list, records — for the secret options and for their values.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from app.kernel.errors import Invalid
from app.match.option_privacy import (
    public_options,
    refuse_secret_options_in_rated,
    secret_option_names,
)
from games import registry
from games.town.engine import EVENT_IDS, PATH_IDS
from tests.live.server import live_server

SECRET = {"start_cards", "path_deck", "event_deck"}
GAMES = 3


def fixed_deal(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    paths, events = list(PATH_IDS), list(EVENT_IDS)
    rng.shuffle(paths)
    rng.shuffle(events)
    return {"start_cards": rng.sample(range(1, 8), 3), "path_deck": paths, "event_deck": events}


def leaks(value: Any, deals: list[dict[str, Any]], where: str = "$") -> Iterator[str]:
    """Where ``value`` shows a secret option, a whole deck order, or another seat's start card
    before that seat's walk reveals it (tests/match/test_hidden_cards.py checks every single
    hidden card of every payload by twin deals)."""
    secrets = [deal[key] for deal in deals for key in ("path_deck", "event_deck")]
    if isinstance(value, dict):
        options = value.get("options")
        if isinstance(options, dict) and SECRET & set(options):
            yield f"{where}.options has {sorted(SECRET & set(options))}"
        starts, walks = value.get("start_cards"), value.get("walks")
        if value.get("game") == "town" and isinstance(starts, list) and isinstance(walks, list):
            shown = [seat for seat, card in enumerate(starts) if card is not None
                     and seat != value.get("seat") and not walks[seat]]
            if shown:
                yield f"{where}.start_cards shows seats {shown}' cards before their walks"
        for key, item in value.items():
            yield from leaks(item, deals, f"{where}.{key}")
    elif isinstance(value, list):
        if value in secrets:
            yield f"{where} is a secret value {value}"
        for index, item in enumerate(value):
            yield from leaks(item, deals, f"{where}[{index}]")
    elif isinstance(value, str) and any(key in value for key in SECRET):
        yield f"{where} mentions a secret option: {value[:80]!r}"


class Frames:
    """Every frame of one websocket, read in a background thread until closed."""

    def __init__(self, url: str) -> None:
        self.frames: list[Any] = []
        self.socket = connect(url, open_timeout=10)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.socket:
                self.frames.append(json.loads(message))
        except Exception:  # closed
            return

    def close(self) -> list[Any]:
        self.socket.close()
        self.thread.join(timeout=5)
        return self.frames


def test_town_declares_its_deal_options_secret() -> None:
    town = registry.get("town")
    assert secret_option_names(town) == SECRET
    deal = fixed_deal(1)
    assert public_options(town, deal) == {}
    assert public_options("stairs", {"swap": True}) == {"swap": True}
    refuse_secret_options_in_rated(town, deal, rated=False)
    refuse_secret_options_in_rated(town, {"start_cards": None}, rated=True)
    with pytest.raises(Invalid) as refused:
        refuse_secret_options_in_rated(town, {"start_cards": [1, 2, 3]}, rated=True)
    assert refused.value.code == "secret_options_in_rated"


def test_catalog_marks_secret_options(client: TestClient) -> None:
    town = next(g for g in client.get("/api/v1/games").json() if g["id"] == "town")
    assert {name for name, prop in town["options"]["properties"].items()
            if prop.get("secret")} == SECRET


def test_rated_seeks_and_challenges_refuse_fixed_deals(client: TestClient) -> None:
    tokens = [client.post("/api/v1/accounts", json={"username": f"dealer{i}", "password": "sesame123"}
                          ).json()["token"] for i in range(2)]
    alice = {"Authorization": f"Bearer {tokens[0]}"}
    for options in ({"start_cards": [5, 6, 7]}, {"path_deck": fixed_deal(2)["path_deck"]}):
        seek = client.post("/api/v1/seeks", headers=alice,
                           json={"game": "town", "players": 3, "rated": True, "options": options})
        assert seek.status_code == 422, seek.text
        assert seek.json()["code"] == "secret_options_in_rated"
    challenge = client.post("/api/v1/challenges", headers=alice, json={
        "user": "dealer1", "game": "town", "rated": True, "options": {"start_cards": [1, 2]}})
    assert challenge.status_code == 422 and challenge.json()["code"] == "secret_options_in_rated"
    casual = client.post("/api/v1/seeks", headers=alice, json={
        "game": "town", "players": 3, "options": {"start_cards": [5, 6, 7]}})
    assert casual.status_code == 201
    assert not SECRET & set(casual.json()["options"])
    listed = [s for s in client.get("/api/v1/seeks").json() if s["id"] == casual.json()["id"]]
    assert listed and not SECRET & set(listed[0]["options"])
    rated_default = client.post("/api/v1/seeks", headers=alice,
                                json={"game": "town", "players": 3, "rated": True})
    assert rated_default.status_code == 201


def test_no_payload_or_frame_of_fixed_deal_town_games_shows_a_secret(
        database_url: str, tmp_path: Path) -> None:
    deals = [fixed_deal(seed) for seed in range(GAMES)]
    with live_server(database_url, tmp_path, bots_enabled="false") as base, \
            httpx.Client(base_url=base, timeout=20) as http:
        ws_base = base.replace("http://", "ws://")
        answers: list[tuple[str, Any]] = []

        def call(method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            response = http.request(method, path, headers=headers, **kwargs)
            assert response.status_code < 300, (path, response.text)
            body = response.json() if "json" in response.headers.get("content-type", "") \
                else response.text
            answers.append((f"{method} {path}", body))
            return body

        tokens = [call("POST", "/api/v1/guests", json={"name": n})["token"]
                  for n in ("Ann", "Ben", "Cy", "Watcher")]
        sockets = [Frames(f"{ws_base}/api/v1/lobby/ws?token={tokens[3]}"),
                   Frames(f"{ws_base}/api/v1/live/ws")]
        seek = call("POST", "/api/v1/seeks", tokens[0],
                    json={"game": "town", "players": 3, "options": deals[0]})
        call("GET", "/api/v1/seeks")
        call("DELETE", f"/api/v1/seeks/{seek['id']}", tokens[0])
        plies = 0
        for deal in deals:
            match = call("POST", "/api/v1/matches", tokens[0],
                         json={"game": "town", "players": 3, "options": deal})
            match_id = match["id"]
            sockets += [Frames(f"{ws_base}/api/v1/matches/{match_id}/ws?token={t}") for t in tokens]
            sockets.append(Frames(f"{ws_base}/api/v1/matches/{match_id}/ws"))
            for token in tokens[1:3]:
                match = call("POST", f"/api/v1/matches/{match_id}/join", token)
            call("GET", "/api/v1/live")
            while match["status"] == "active":
                mover = tokens[match["to_move"]]
                mine = call("GET", f"/api/v1/matches/{match_id}", mover)
                match = call("POST", f"/api/v1/matches/{match_id}/moves", mover,
                             json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
                plies += 1
            assert match["status"] == "finished"
            call("GET", f"/api/v1/matches/{match_id}", tokens[3])
            call("GET", f"/api/v1/matches/{match_id}")
            call("GET", f"/api/v1/matches/{match_id}/moves")
            call("GET", f"/api/v1/matches/{match_id}/replay")
            call("GET", f"/api/v1/matches/{match_id}/export")
            call("GET", f"/api/v1/matches/{match_id}/export", params={"format": "text"})
        frames = [(f"socket {i}", frame) for i, s in enumerate(sockets) for frame in s.close()]

    scanned = answers + frames
    found = [f"{source}: {leak}" for source, body in scanned for leak in leaks(body, deals)]
    assert not found, found[:10]
    assert plies > 20 * GAMES and len(frames) > plies  # the scan saw real games
    print(f"\n{GAMES} Town games, {plies} plies: {len(answers)} answers and {len(frames)} "
          "socket frames scanned, no secret found")
