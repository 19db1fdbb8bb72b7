"""A client generated from the served document with ``openapi-python-client`` plays a whole game
against a live server, as a third party would: guests, a match created with the game's typed
options, joined, played to the end from the typed view and legal moves, then exported.

The generator does not stream (it reads a whole body), so the NDJSON streams are read the way
docs/api.md tells: the generated client's own ``httpx`` client streams the lines, and each line
becomes the generated model its ``type`` names in the document's discriminator."""

from __future__ import annotations

import importlib
import json
import queue
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.live.server import WAIT_SECONDS, live_server

PACKAGE = "stepwell_client"
CONFIG = f"""package_name_override: {PACKAGE}
project_name_override: stepwell-client
post_hooks: []
"""


def generate(base: str, out: Path) -> Path:
    """The client package generated from ``base``'s document, written under ``out``."""
    config = out / "generator.yaml"
    config.write_text(CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = subprocess.run(
        [str(generator), "generate", "--url", f"{base}/openapi.json", "--meta", "none",
         "--config", str(config), "--output-path", str(out / PACKAGE)],
        capture_output=True, text=True, timeout=300, check=False, cwd=out)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    skipped = [line for line in result.stdout.splitlines() if "will not be generated" in line
               or "Unable to" in line]
    assert not skipped, result.stdout[-4000:]
    return out


@pytest.fixture
def generated(tmp_path: Path, database_url: str) -> Iterator[tuple[str, ModuleType]]:
    with live_server(database_url, tmp_path, bots_enabled="false") as base:
        root = generate(base, tmp_path)
        sys.path.insert(0, str(root))
        try:
            yield base, importlib.import_module(PACKAGE)
        finally:
            sys.path.remove(str(root))
            for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
                del sys.modules[name]


def line_models(base: str, line: str, client: ModuleType) -> dict[str, Any]:
    """``type`` -> the generated model of that stream message, from the document's mapping."""
    doc = httpx.get(f"{base}/openapi.json").json()
    mapping = doc["components"]["schemas"][line]["discriminator"]["mapping"]
    models = importlib.import_module(f"{client.__name__}.models")
    return {kind: getattr(models, ref.rsplit("/", 1)[1]) for kind, ref in mapping.items()}


def read_stream(http: httpx.Client, path: str, models: dict[str, Any], items: queue.Queue[Any],
                until: str) -> None:
    """Put each line of the stream as its generated model on ``items``, up to an ``until``."""
    with http.stream("GET", path, timeout=httpx.Timeout(WAIT_SECONDS)) as response:
        assert response.headers["content-type"].startswith("application/x-ndjson")
        for line in response.iter_lines():
            if not line:
                continue  # keep-alive
            data = json.loads(line)
            items.put(models[data["type"]].from_dict(data))
            if data["type"] == until:
                return


def follow(http: httpx.Client, path: str, models: dict[str, Any], until: str) -> queue.Queue[Any]:
    items: queue.Queue[Any] = queue.Queue()
    threading.Thread(target=read_stream, args=(http, path, models, items, until),
                     daemon=True).start()
    return items


def take(items: queue.Queue[Any], kind: str) -> Any:
    """The next item of type ``kind`` (waiting, never forever)."""
    while True:
        item = items.get(timeout=WAIT_SECONDS)
        if item.type_ == kind:  # the generator's name for `type`
            return item


def test_a_generated_client_plays_a_whole_game(generated: tuple[str, ModuleType]) -> None:
    base, client = generated
    api = importlib.import_module(f"{client.__name__}.api")
    models = importlib.import_module(f"{client.__name__}.models")
    create_guest = importlib.import_module(f"{api.__name__}.identity.create_guest")
    matches = {name: importlib.import_module(f"{api.__name__}.matches.{name}")
               for name in ("create_match", "join_match", "get_match", "play_move",
                            "export_match")}

    anonymous = client.Client(base_url=base, raise_on_unexpected_status=True)
    players = []
    for name in ("Ann", "Bob"):
        guest = create_guest.sync(client=anonymous, body=models.GuestIn(name=name))
        assert isinstance(guest, models.GuestOut)
        players.append(client.AuthenticatedClient(base_url=base, token=guest.token,
                                                  raise_on_unexpected_status=True))
    ann, bob = players
    events = follow(bob.get_httpx_client(), "/api/v1/stream/event",
                    line_models(base, "EventStreamLine", client), until="gameStart")

    movable = models.SightOptions(priority=models.SightOptionsPriority.MOVABLE)
    body = models.SightMatchCreate(game="sight", options=movable)
    created = matches["create_match"].sync(client=ann, body=body)
    assert isinstance(created, models.MatchOut), created
    match_id = created.id
    joined = matches["join_match"].sync(match_id, client=bob, body=models.MatchJoin())
    assert isinstance(joined, models.MatchOut) and joined.status == models.MatchOutStatus.ACTIVE
    started = take(events, "gameStart")
    assert started.game.id == match_id

    stream = follow(ann.get_httpx_client(), f"/api/v1/matches/{match_id}/stream",
                    line_models(base, "MatchStreamLine", client), until="gameFinish")
    full = take(stream, "gameFull")
    assert isinstance(full.view, models.SightView) and full.moves == []

    rng = random.Random(33)
    played: list[str] = []
    while True:
        mover = players[joined.to_move] if joined.status == models.MatchOutStatus.ACTIVE else None
        if mover is None:
            break
        mine = matches["get_match"].sync(match_id, client=mover)
        assert isinstance(mine, models.MatchOut) and isinstance(mine.view, models.SightView)
        assert mine.view.legal_moves == mine.legal_moves
        move = rng.choice(mine.legal_moves)
        joined = matches["play_move"].sync(match_id, client=mover,
                                           body=models.MoveIn(move=move, ply=mine.ply))
        assert isinstance(joined, models.MatchOut), joined
        played.append(move)
        assert len(played) < 200, "the game did not end"
    assert joined.status == models.MatchOutStatus.FINISHED and joined.result is not None

    states = []
    while True:
        item = stream.get(timeout=WAIT_SECONDS)
        if item.type_ == "gameFinish":
            break
        if item.type_ == "gameState":
            states.append(item)
    assert states[-1].moves == played and states[-1].ply == len(played)
    assert all(isinstance(state.view, models.SightView) for state in states)

    record = matches["export_match"].sync(match_id, client=anonymous)
    assert isinstance(record, models.GameRecordOut)
    assert [m.move for m in record.moves] == played
    text = anonymous.get_httpx_client().get(f"/api/v1/matches/{match_id}/export",
                                            params={"format": "text"})
    assert text.headers["content-type"].startswith("text/plain")
    assert '[Game "sight"]' in text.text
