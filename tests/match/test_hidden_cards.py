"""No payload shows a single Town card its viewer may not know: tested by twin deals.

A viewer's payloads may depend only on what the viewer may know. So for each phase of a
three-player Town game (early, middle and late building, the first and the second walk) and for
each viewer (every seat, a spectator, an anonymous visitor), the same moves are played on two
matches whose deals differ in *every* card hidden from that viewer at that point — each undrawn
card of both decks moves to another position, each start card the viewer may not see yet becomes
another — and every payload the viewer can get is compared: the match over REST, the match socket
(the frames before and after the move), the match stream, the account event stream, the Watch
list, the player's game list, the move list, the replay, both game records, the match page, and
the answers of "why not", the analysis board and hints. The two matches also have different
seeds. Any difference is a leak, whatever its key or encoding; a planted leak of one card or of
the seed shows that the comparison fires. (Once a game is over nothing is hidden any more.)
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.db.models import Match
from app.kernel.settings import Settings
from app.main import create_app
from games.town.cards import EVENT_IDS, PATH_IDS
from games.town.engine import GAME, TownState
from tests.databases import sqlite_database

PLAYERS = 3
SPECTATOR, ANONYMOUS = "spectator", "anonymous"
VIEWERS: tuple[int | str, ...] = (0, 1, 2, SPECTATOR, ANONYMOUS)
VOLATILE_KEYS = {"created_at", "started_at", "finished_at", "updated_at", "date", "time_spent_ms",
                 "deadline_at", "away_seconds"}
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?|\d{4}\.\d\d\.\d\d")
PAGE_TOKENS = re.compile(r'(csrf[^"]*|nonce)="[^"]*"')


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = sqlite_database(tmp_path_factory.mktemp("hidden") / "stepwell.db")
    app = create_app(Settings(database_url=url, secret_key="test-secret", bots_enabled=False))
    with TestClient(app) as test_client:
        yield test_client


@dataclass(frozen=True)
class People:
    """Three players (seats 0–2 in every match) and a spectator, as bearer headers."""

    tokens: tuple[str, ...]

    def headers(self, viewer: int | str) -> dict[str, str]:
        if viewer == ANONYMOUS:
            return {}
        index = PLAYERS if viewer == SPECTATOR else int(viewer)
        return {"Authorization": f"Bearer {self.tokens[index]}"}

    def query(self, viewer: int | str) -> str:
        return "" if viewer == ANONYMOUS else "?token=" + self.headers(viewer)[
            "Authorization"].split()[1]


@pytest.fixture(scope="module")
def people(client: TestClient) -> People:
    return People(tuple(client.post("/api/v1/guests", json={"name": name}).json()["token"]
                        for name in ("Ann", "Ben", "Cy", "Watcher")))


# -- deals, a game and its phases --------------------------------------------------------------

def random_deal(seed: int) -> dict[str, list[Any]]:
    rng = random.Random(seed)
    path, event = list(PATH_IDS), list(EVENT_IDS)
    rng.shuffle(path)
    rng.shuffle(event)
    return {"path_deck": path, "event_deck": event, "start_cards": rng.sample(range(1, 8), 3)}


def game_moves(deal: dict[str, list[Any]], seed: int) -> list[TownState]:
    """Every state of one game played from ``deal`` with random legal moves."""
    rng = random.Random(seed)
    states = [GAME.new_state(PLAYERS, deal)]
    while not states[-1].is_over:
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    return states


def phases(states: list[TownState]) -> dict[str, int]:
    """Plies to check (the ply after whose move the payloads are read), one per phase."""
    data = [s.to_json() for s in states]
    late = max(ply for ply, d in enumerate(data)
               if max(len(d["path_deck"]), len(d["event_deck"])) >= 2)
    walk = [ply for ply, d in enumerate(data) if d["phase"] == "walk"]
    second = next(ply for ply in walk if data[ply]["turn"] == 1)
    return {"build, first move": 1, "build, middle": 13, "build, late": late,
            "walk of seat 0": walk[0], "walk of seat 1": second}


def _rotated(cards: list[Any]) -> list[Any]:
    return cards[1:] + cards[:1]


def twin_deal(deal: dict[str, list[Any]], state: TownState, viewer: int | str
              ) -> dict[str, list[Any]]:
    """``deal`` with every card hidden from ``viewer`` in ``state`` changed: each undrawn card
    of both decks in another position, each start card the viewer cannot see another number."""
    data = state.to_json()
    twin = {}
    for deck in ("path_deck", "event_deck"):
        drawn = len(deal[deck]) - len(data[deck])
        twin[deck] = deal[deck][:drawn] + _rotated(deal[deck][drawn:])
    seen = {seat for seat in range(PLAYERS) if seat == viewer or data["walks"][seat]}
    hidden = [seat for seat in range(PLAYERS) if seat not in seen]
    pool = sorted(set(range(1, 8)) - {deal["start_cards"][seat] for seat in seen})
    start = list(deal["start_cards"])
    for seat in hidden:  # a shift inside the pool: distinct cards stay distinct, each changes
        start[seat] = pool[(pool.index(start[seat]) + 1) % len(pool)]
    twin["start_cards"] = start
    return twin


# -- collecting what a viewer gets -------------------------------------------------------------

def _post_move(client: TestClient, people: People, match_id: str, state: TownState,
               move: str) -> None:
    answer = client.post(f"/api/v1/matches/{match_id}/moves", headers=people.headers(
        state.to_move), json={"move": move, "ply": state.to_json()["ply"]})
    assert answer.status_code == 200, answer.text


def _frames_until(socket: Any, ply: int) -> list[Any]:
    """Frames up to the state of ``ply`` (presence frames say who is online: left out)."""
    frames = []
    for _ in range(20):
        frame = socket.receive_json()
        if frame.get("type") != "presence":
            frames.append(frame)
        if frame.get("type") == "state" and frame.get("ply") == ply:
            return frames
    raise AssertionError(f"no state of ply {ply} on the socket: {frames}")


def _first_line(client: TestClient, path: str, headers: dict[str, str],
                wanted: Any = None) -> Any:
    with client.stream("GET", path, headers=headers) as stream:
        for line in stream.iter_lines():
            if line.strip():
                event = json.loads(line)
                if wanted is None or wanted(event):
                    return event
    raise AssertionError(f"{path} ended before the line wanted")


def _rest(client: TestClient, people: People, match_id: str, viewer: int | str,
          probes: list[str]) -> list[tuple[str, Any]]:
    """Every REST, stream and page answer ``viewer`` can get about the match."""
    headers = people.headers(viewer)
    base = f"/api/v1/matches/{match_id}"

    def body(response: Any) -> Any:
        kind = response.headers.get("content-type", "")
        return [response.status_code, response.json() if "json" in kind else response.text]

    got = [(path, body(client.get(path, headers=headers)))
           for path in (base, f"{base}/moves", f"{base}/replay", f"{base}/export",
                        f"{base}/export?format=text", f"/m/{match_id}")]
    live = client.get("/api/v1/live", headers=headers).json()
    got.append(("live", [entry for entry in live if entry["id"] == match_id]))
    got.append(("stream", _first_line(client, f"{base}/stream", headers)))
    got.append(("board", body(client.post("/api/v1/analysis/board", json={"match": match_id},
                                          headers=headers))))
    if viewer != ANONYMOUS:
        mine = client.get("/api/v1/me/matches", headers=headers).json()
        got.append(("my games", [entry for entry in mine if entry["id"] == match_id]))
        got.append(("hint", body(client.post(f"{base}/hint", headers=headers))))
        got += [(f"why {probe}", body(client.post(f"{base}/why", json={"move": probe},
                                                   headers=headers))) for probe in probes]
    if isinstance(viewer, int):
        got.append(("event stream", _first_line(
            client, "/api/v1/stream/event", headers,
            lambda event: event.get("game", {}).get("id") == match_id)))
    return got


def payloads(client: TestClient, people: People, deal: dict[str, list[Any]],
             states: list[TownState], ply: int, viewers: tuple[int | str, ...],
             probes: list[str]) -> dict[int | str, list[tuple[str, Any]]]:
    """A new match dealt ``deal`` played to ``ply`` (the moves of ``states``): everything each
    of ``viewers`` got on its socket while the last move was made, and can get afterwards
    (``probes``: moves to ask "why not" about)."""
    created = client.post("/api/v1/matches", headers=people.headers(0), json={
        "game": "town", "players": PLAYERS, "seat": 0, "options": deal})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    for seat in (1, 2):
        joined = client.post(f"/api/v1/matches/{match_id}/join", json={"seat": seat},
                             headers=people.headers(seat))
        assert joined.status_code == 200, joined.text
    moves = [after.to_json()["last_move"]["move"] for after in states[1:ply + 1]]
    for before, move in zip(states[:ply - 1], moves[:-1], strict=True):
        _post_move(client, people, match_id, before, move)
    url = f"/api/v1/matches/{match_id}/ws"
    sockets = {viewer: client.websocket_connect(url + people.query(viewer)) for viewer in viewers}
    got: dict[int | str, list[tuple[str, Any]]] = {}
    try:
        opened = {viewer: socket.__enter__() for viewer, socket in sockets.items()}
        before = {viewer: _frames_until(socket, ply - 1) for viewer, socket in opened.items()}
        _post_move(client, people, match_id, states[ply - 1], moves[-1])
        for viewer, socket in opened.items():
            got[viewer] = [("socket", before[viewer] + _frames_until(socket, ply))]
    finally:
        for socket in sockets.values():
            socket.__exit__(None, None, None)
    for viewer in viewers:
        got[viewer] += _rest(client, people, match_id, viewer, probes)
        shown = dict(got[viewer])
        assert shown[f"/api/v1/matches/{match_id}"][1]["view"]["ply"] == ply  # a real position
        assert shown["stream"]["type"] == "gameFull" and shown["stream"]["ply"] == ply
    seed = _seed(client, match_id)
    return {viewer: _normalised(found, match_id, seed) for viewer, found in got.items()}


def _seed(client: TestClient, match_id: str) -> int:
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        match = session.get(Match, match_id)
        assert match is not None
        return match.seed


def _normalised(value: Any, match_id: str, seed: int) -> Any:
    """``value`` with what legitimately differs between two matches made one after the other
    replaced: the match id and the times. The seed is kept: it must never show."""
    if isinstance(value, dict):
        return {key: _normalised(item, match_id, seed) for key, item in value.items()
                if key not in VOLATILE_KEYS}
    if isinstance(value, list | tuple):
        return [_normalised(item, match_id, seed) for item in value]
    if isinstance(value, str):
        text = TIMESTAMP.sub("<time>", value.replace(match_id, "<match>"))
        text = PAGE_TOKENS.sub(r'\1="<token>"', text)
        return text.replace(str(seed), f"<seed {seed}>") if str(seed) in text else text
    return value


def differences(left: Any, right: Any, where: str = "") -> Iterator[str]:
    """Where two payloads differ (a path and both values), depth first."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(left.keys() | right.keys(), key=str):
            yield from differences(left.get(key, "<absent>"), right.get(key, "<absent>"),
                                   f"{where}.{key}")
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            yield from differences(a, b, f"{where}[{index}]")
    elif left != right:
        if isinstance(left, str) and isinstance(right, str) and len(left) > 200:  # a page
            start = next((i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b),
                         min(len(left), len(right)))
            left, right = left[max(0, start - 60):start + 60], right[max(0, start - 60):start + 60]
        yield f"{where}: {left!r} / {right!r}"


def leaks(client: TestClient, people: People, deal: dict[str, list[Any]],
          states: list[TownState], ply: int) -> list[str]:
    """Every difference between what a viewer got from the match and from its twins (one per
    seat, keeping that seat's start card, and one for those who see no start card)."""
    hidden = states[ply].to_json()  # ask "why not" about the next cards and the offer
    probes = [f"{card}@a4" for card in [*hidden["path_deck"][:2], *hidden["event_deck"][:2],
                                        *hidden["offer"]] if card]
    real = payloads(client, people, deal, states, ply, VIEWERS, probes)
    found = []
    for viewers in ((0,), (1,), (2,), (SPECTATOR, ANONYMOUS)):
        twin = twin_deal(deal, states[ply], viewers[0])
        if twin == deal:  # nothing is hidden from these viewers any more
            continue
        other = payloads(client, people, twin, game_moves_like(states, twin, ply), ply, viewers,
                         probes)
        for viewer in viewers:
            for (source, mine), (_, theirs) in zip(real[viewer], other[viewer], strict=True):
                found += [f"viewer {viewer}, {source}{where}"
                          for where in differences(mine, theirs)]
    return found


def game_moves_like(states: list[TownState], deal: dict[str, list[Any]],
                    ply: int) -> list[TownState]:
    """The same moves as ``states`` played from ``deal`` up to ``ply`` (the twin's states)."""
    replayed = [GAME.new_state(PLAYERS, deal)]
    for after in states[1:ply + 1]:
        replayed.append(replayed[-1].play(after.to_json()["last_move"]["move"]))
    return replayed


# -- the tests ----------------------------------------------------------------------------------

GAME_SEED = 5
DEAL = random_deal(GAME_SEED)
STATES = game_moves(DEAL, GAME_SEED)
PHASES = phases(STATES)


def test_the_twins_differ_in_every_hidden_card_and_agree_on_the_rest() -> None:
    """The twin construction itself: at each phase, for each viewer, the twin's position looks
    the same to the viewer and every card hidden from it differs."""
    for ply in PHASES.values():
        state = STATES[ply]
        data = state.to_json()
        for viewer in (0, 1, 2, None):
            who = SPECTATOR if viewer is None else viewer
            twin = game_moves_like(STATES, twin_deal(DEAL, state, who), ply)[-1]
            other = twin.to_json()
            assert twin.view(viewer) == state.view(viewer)
            for deck in ("path_deck", "event_deck"):
                if len(data[deck]) >= 2:
                    assert all(a != b for a, b in zip(data[deck], other[deck], strict=True))
            for seat in range(PLAYERS):
                if seat != viewer and not data["walks"][seat]:
                    assert other["start_cards"][seat] != data["start_cards"][seat]


@pytest.mark.parametrize("phase", list(PHASES))
def test_no_viewer_sees_a_hidden_card_or_the_seed(client: TestClient, people: People,
                                                  phase: str) -> None:
    found = leaks(client, people, DEAL, STATES, PHASES[phase])
    assert not found, "\n".join(found[:15])


def _plant(monkeypatch: pytest.MonkeyPatch, extra: Any) -> None:
    view = TownState.view

    def leaky(self: TownState, seat: int | None) -> dict[str, Any]:
        return {**view(self, seat), **extra(self, seat)}

    monkeypatch.setattr(TownState, "view", leaky)


PLANTED = {
    "the next path card": lambda state, seat: {"decor": state.to_json()["path_deck"][:1]},
    "the last event card": lambda state, seat: {"theme": state.to_json()["event_deck"][-1:]},
    "another seat's start card": lambda state, seat: {
        "neighbour": state.to_json()["start_cards"][((seat or 0) + 1) % PLAYERS]},
    "the spectator's view of seat 0's start card": lambda state, seat: {
        "first": state.to_json()["start_cards"][0] if seat is None else None},
}


@pytest.mark.parametrize("leak", list(PLANTED))
def test_a_planted_leak_of_one_card_is_found(client: TestClient, people: People,
                                             monkeypatch: pytest.MonkeyPatch, leak: str) -> None:
    _plant(monkeypatch, PLANTED[leak])
    found = leaks(client, people, DEAL, STATES, 1)
    assert found, f"the scan missed {leak}"
    key = next(iter(PLANTED[leak](STATES[1], 0)))
    assert all(key in line for line in found), [line for line in found if key not in line][:5]


def test_a_planted_leak_of_the_seed_is_found(client: TestClient, people: People,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.match.game_records.seed_is_public", lambda game, status: True)
    found = leaks(client, people, DEAL, STATES, 1)
    assert found and all("export" in line and "seed" in line.lower() for line in found), found[:5]


def test_a_dealt_matchs_seed_shows_nowhere_until_the_game_is_over(
        client: TestClient, people: People) -> None:
    """A match dealt from its secret seed (no fixed deal): at every ply no payload of any viewer
    holds the seed, in decimal or hex; once the game is over the record gives it."""
    created = client.post("/api/v1/matches", headers=people.headers(0), json={
        "game": "town", "players": PLAYERS, "seat": 0}).json()
    match_id = created["id"]
    for seat in (1, 2):
        client.post(f"/api/v1/matches/{match_id}/join", json={"seat": seat},
                    headers=people.headers(seat))
    seed = _seed(client, match_id)
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        state = GAME.from_json(session.get(Match, match_id).snapshot)  # type: ignore[union-attr]
    spellings = {str(seed), hex(seed)[2:], f"{seed:x}".upper()}
    rng = random.Random(1)
    while not state.is_over:
        ply = state.to_json()["ply"]
        if ply in (0, 1, 14, 27, 28) or state.phase == "walk":
            text = json.dumps([_rest(client, people, match_id, viewer, ["P1@a4"])
                               for viewer in VIEWERS])
            assert not {s for s in spellings if s in text}, f"the seed shows at ply {ply}"
        move = rng.choice(state.legal_moves())
        _post_move(client, people, match_id, state, move)
        state = state.play(move)
    record = client.get(f"/api/v1/matches/{match_id}/export").json()
    assert record["seed"] == str(seed)
