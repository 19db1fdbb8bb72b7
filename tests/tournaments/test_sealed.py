"""A duplicate Town round's tables are sealed while the round runs: every table plays
the same deal, so a player at table A (or any visitor) watching table B would see the cards
still to come at A. Every read path refuses them (403 ``match_sealed``), the Watch list leaves
the tables out, the bus carries no position of them; the tables open when the round has ended
at every table. Seated players see their own table as usual. SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from app.kernel.settings import Settings
from app.main import create_app
from app.match.payloads import MatchChange
from app.match.publish import publish_match
from app.match.service import MatchService
from app.tournaments.models import TournamentGame
from app.tournaments.scheduler import advance_all
from tests.conftest import start_match
from tests.tournaments.conftest import Events, play_out

SEALED_TEXT = "sealed until the round ends"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """The app without background jobs: the test advances the tournament itself."""
    app = create_app(Settings(database_url=database_url, secret_key="test-secret",
                              background_jobs="off"))
    with TestClient(app) as test_client:
        yield test_client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Player:
    def __init__(self, client: TestClient, name: str) -> None:
        answer = client.post("/api/v1/guests", json={"name": name})
        assert answer.status_code == 201, answer.text
        self.token = answer.json()["token"]
        self.id = answer.json()["user"]["id"]
        self.headers = _bearer(self.token)


def _advance(client: TestClient) -> None:
    app: Any = client.app
    bus = app.state.bus
    advance_all(app.state.session_factory, lambda record: publish_match(bus, record), bus.publish)


def _tables(client: TestClient, tournament_id: str, round_number: int) -> list[tuple[str, list[int]]]:
    """(match id, seated user ids) of each table of the round, board order."""
    app: Any = client.app
    with app.state.session_factory() as session:
        games = session.scalars(select(TournamentGame).where(
            TournamentGame.tournament_id == tournament_id, TournamentGame.round == round_number)
            .order_by(TournamentGame.board)).all()
        return [(g.match_id, [s.user_id for s in g.seats]) for g in games if g.match_id]


@pytest.fixture
def duplicate(client: TestClient) -> dict[str, Any]:
    """A one-round duplicate Town event of 7 guests, paired: tables of 4 and 3."""
    host = client.post("/api/v1/accounts", json={"username": "host", "password": "correct horse 1"})
    assert host.status_code == 201, host.text
    created = client.post("/api/v1/tournaments", headers=_bearer(host.json()["token"]), json={
        "name": "Duplicate", "kind": "duplicate", "game": "town", "rounds": 1})
    assert created.status_code == 201, created.text
    tournament_id = created.json()["id"]
    players = [Player(client, f"P{i}") for i in range(7)]
    for player in players:
        joined = client.post(f"/api/v1/tournaments/{tournament_id}/join", headers=player.headers)
        assert joined.status_code == 200, joined.text
    _advance(client)
    tables = _tables(client, tournament_id, 1)
    assert [len(seated) for _, seated in tables] == [4, 3]
    by_id = {p.id: p for p in players}
    (table_a, at_a), (table_b, at_b) = tables
    return {"id": tournament_id, "a": table_a, "b": table_b,
            "player_a": by_id[at_a[0]], "player_b": by_id[at_b[0]],
            "seated_b": [by_id[u] for u in at_b]}


def _reads(client: TestClient, match_id: str, headers: dict[str, str]
           ) -> Iterator[tuple[str, Any]]:
    """Every way to read a match over HTTP: (name, response), one request at a time (so that a
    check between them stops at the first read that answers)."""
    base = f"/api/v1/matches/{match_id}"
    yield "match", client.get(base, headers=headers)
    yield "moves", client.get(f"{base}/moves", headers=headers)
    yield "replay", client.get(f"{base}/replay", headers=headers)
    yield "export json", client.get(f"{base}/export", headers=headers)
    yield "export text", client.get(f"{base}/export?format=text", headers=headers)
    yield "spectators' chat", client.get(f"{base}/chat?room=spectators", headers=headers)
    yield "analysis", client.get(f"{base}/analysis", headers=headers)
    yield "request analysis", client.post(f"{base}/analysis", headers=headers)
    yield "analysis board", client.post("/api/v1/analysis/board", json={"match": match_id},
                                        headers=headers)


def _socket_first(client: TestClient, match_id: str, token: str | None) -> dict[str, Any]:
    url = f"/api/v1/matches/{match_id}/ws" + (f"?token={token}" if token else "")
    with client.websocket_connect(url) as socket:
        first = socket.receive_json()
        if first.get("type") == "error":
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4403
        return first


def _assert_socket_sealed(client: TestClient, match_id: str, token: str | None) -> None:
    first = _socket_first(client, match_id, token)
    assert (first["type"], first["code"]) == ("error", "match_sealed")
    assert SEALED_TEXT in first["message"]


def _assert_reads_refused(client: TestClient, match_id: str, player: Player | None) -> None:
    headers = player.headers if player else {}
    client.cookies.clear()
    for name, response in _reads(client, match_id, headers):
        assert response.status_code == 403, (name, response.status_code, response.text[:200])
        assert response.json()["code"] == "match_sealed", name
        assert SEALED_TEXT in response.json()["message"], name
    stream = client.get(f"/api/v1/matches/{match_id}/stream", headers=headers)  # NDJSON
    assert (stream.status_code, stream.json()["code"]) == (403, "match_sealed")
    if player:
        said = client.post(f"/api/v1/matches/{match_id}/chat", headers=headers,
                           json={"room": "spectators", "phrase": "good_game"})
        assert (said.status_code, said.json()["code"]) == (403, "match_sealed")
    page = client.get(f"/m/{match_id}", headers=headers)
    assert page.status_code == 403 and SEALED_TEXT in page.text
    _assert_socket_sealed(client, match_id, player.token if player else None)


def _assert_reads_allowed(client: TestClient, match_id: str, player: Player | None) -> None:
    headers = player.headers if player else {}
    client.cookies.clear()
    reads = dict(_reads(client, match_id, headers))
    for name in ("match", "moves", "replay", "export json", "export text", "spectators' chat"):
        assert reads[name].status_code == 200, (name, reads[name].text[:200])
    assert reads["analysis"].status_code in (200, 404)  # 404 no_analysis before the first ask
    assert reads["request analysis"].status_code in (200, 202)  # queued (or found queued)
    assert reads["analysis board"].status_code == 200
    assert reads["export json"].json()["seed"] is not None
    assert reads["match"].json()["sealed"] is False
    assert client.get(f"/m/{match_id}", headers=headers).status_code == 200
    first = _socket_first(client, match_id, player.token if player else None)
    assert first["type"] == "state" and first["id"] == match_id


def test_other_tables_are_sealed_until_the_round_ends(client: TestClient,
                                                      duplicate: dict[str, Any]) -> None:
    table_b, outsider = duplicate["b"], duplicate["player_a"]
    for who in (outsider, None):  # a player of the same round at table A, and a visitor
        _assert_reads_refused(client, table_b, who)

    japanese = client.get(f"/m/{table_b}", headers={"Accept-Language": "ja"})
    assert japanese.status_code == 403 and "ラウンドが終わるまで非公開" in japanese.text

    seated = duplicate["player_b"]  # a seated player sees their own table as usual
    mine = client.get(f"/api/v1/matches/{table_b}", headers=seated.headers).json()
    assert mine["sealed"] is True and mine["tournament"] == duplicate["id"]
    assert mine["your_seat"] is not None and mine["view"]
    for path in ("moves", "replay", "chat?room=players"):
        answer = client.get(f"/api/v1/matches/{table_b}/{path}", headers=seated.headers)
        assert answer.status_code == 200, (path, answer.text)
    export = client.get(f"/api/v1/matches/{table_b}/export", headers=seated.headers).json()
    assert export["seed"] is None  # no seed while the deal is played elsewhere
    # a page looks only at the browser session: the seated player's bearer token is not read there
    assert client.get(f"/m/{table_b}", headers=seated.headers).status_code == 403
    assert _socket_first(client, table_b, seated.token)["type"] == "state"
    # the whole deal waits for the opening, even for the table's own players
    board = client.post("/api/v1/analysis/board", json={"match": table_b}, headers=seated.headers)
    assert (board.status_code, board.json()["code"]) == (403, "match_sealed")

    app: Any = client.app
    events = Events()
    play_out(app.state.session_factory, table_b, events, level=None)
    _advance(client)  # B is over, A still plays: B stays sealed (and A too)
    rematch = client.post(f"/api/v1/matches/{table_b}/offers/rematch", headers=seated.headers)
    assert (rematch.status_code, rematch.json()["code"]) == (409, "offer_not_allowed")  # same deal
    for match_id in (table_b, duplicate["a"]):
        _assert_reads_refused(client, match_id, None)
    _assert_reads_refused(client, duplicate["a"], seated)

    play_out(app.state.session_factory, duplicate["a"], events, level=None)
    _advance(client)  # the round has ended everywhere: the deal is revealed
    tournament = client.get(f"/api/v1/tournaments/{duplicate['id']}").json()
    assert tournament["rounds_info"][0]["deal"] is not None
    for match_id in (table_b, duplicate["a"]):
        for who in (outsider, None):
            _assert_reads_allowed(client, match_id, who)


def test_the_watch_list_and_the_live_socket_leave_sealed_tables_out(
        client: TestClient, duplicate: dict[str, Any]) -> None:
    listed = {m["id"] for m in client.get("/api/v1/live").json()}
    assert not {duplicate["a"], duplicate["b"]} & listed
    seated = duplicate["seated_b"]
    first, second = Player(client, "Open1"), Player(client, "Open2")
    public = start_match(client, first.headers, second.headers, game="sight")
    assert public["id"] in {m["id"] for m in client.get("/api/v1/live").json()}
    client.cookies.clear()
    with client.websocket_connect("/api/v1/live/ws") as live:
        table = client.get(f"/api/v1/matches/{duplicate['b']}", headers=seated[0].headers).json()
        mover = next(p for p in seated if p.id == table["seats"][table["to_move"]]["user"]["id"])
        mine = client.get(f"/api/v1/matches/{duplicate['b']}", headers=mover.headers).json()
        played = client.post(f"/api/v1/matches/{duplicate['b']}/moves", headers=mover.headers,
                             json={"move": mine["legal_moves"][0], "ply": mine["ply"]})
        assert played.status_code == 200, played.text
        opening = client.get(f"/api/v1/matches/{public['id']}", headers=first.headers).json()
        client.post(f"/api/v1/matches/{public['id']}/moves", headers=first.headers,
                    json={"move": opening["legal_moves"][0], "ply": 0}).raise_for_status()
        update = live.receive_json()  # the sealed table's move was published first
    assert update["id"] == public["id"], update


def test_a_sealed_change_on_the_bus_carries_no_position(client: TestClient,
                                                       duplicate: dict[str, Any]) -> None:
    """What travels on the shared channels (the Watch list's, the match's) for a sealed table:
    who sits where and whose turn it is, never its view nor its last move."""
    app: Any = client.app
    seated = duplicate["player_b"]
    with app.state.session_factory() as session:
        record = MatchService.read_only(session).get(duplicate["b"])
    assert record.sealed
    change = MatchChange.of(record)
    assert change.public["view"] is None and change.last_move is None
    assert change.public["last_move"] is None and change.public["legal_moves"] == []
    assert change.to_move is not None and change.seat_of(seated.id) is not None


def test_game_start_names_the_tournament_on_connect(client: TestClient,
                                                     duplicate: dict[str, Any]) -> None:
    """The account stream's catch-up ``gameStart`` (a stream opened after the game started, or
    reopened) names the tournament, as the live one does: it is stored with the match."""
    player = duplicate["player_b"]
    with client.websocket_connect(f"/api/v1/stream/event/ws?token={player.token}") as events:
        start = events.receive_json()
    assert start["type"] == "gameStart"
    assert start["game"]["id"] == duplicate["b"]
    assert start["game"]["tournament"] == duplicate["id"]
    casual = start_match(client, player.headers, Player(client, "Friend").headers, game="sight")
    assert casual["tournament"] is None


def _listed_ids(client: TestClient, user_id: int, who: Player | None) -> dict[str, str]:
    """Every list that names a player's games, as ``who`` (None: a visitor) reads it: the
    profile over the API and as a page, and the Watch list."""
    headers = who.headers if who else {}
    client.cookies.clear()
    profile = client.get(f"/api/v1/users/{user_id}", headers=headers)
    assert profile.status_code == 200, profile.text
    return {"profile": " ".join(g["id"] for g in profile.json()["recent"]),
            "profile page": client.get(f"/u/{user_id}", headers=headers).text,
            "watch list": " ".join(m["id"] for m in client.get("/api/v1/live").json())}


def test_a_sealed_table_stays_out_of_its_players_lists_until_the_round_ends(
        client: TestClient, duplicate: dict[str, Any]) -> None:
    table_b, seated, outsider = duplicate["b"], duplicate["player_b"], duplicate["player_a"]
    app: Any = client.app
    play_out(app.state.session_factory, table_b, Events(), level=None)  # B over, A still plays
    _advance(client)
    for who in (None, outsider):
        for name, text in _listed_ids(client, seated.id, who).items():
            assert table_b not in text, (name, who and who.id)
    games = client.get(f"/api/v1/users/{seated.id}", headers=outsider.headers).json()
    assert games["games_played"] == 0  # the finished sealed table is not counted for others
    # its own players still find it
    mine = client.get("/api/v1/me/matches", headers=seated.headers).json()
    assert table_b in [g["id"] for g in mine]
    assert table_b in _listed_ids(client, seated.id, seated)["profile"]
    # an outsider's account stream says nothing of it
    with client.websocket_connect(f"/api/v1/stream/event/ws?token={outsider.token}") as events:
        first = events.receive_json()
    assert table_b not in json.dumps(first)

    play_out(app.state.session_factory, duplicate["a"], Events(), level=None)
    _advance(client)  # the round has ended everywhere: the tables are public history
    for name, text in _listed_ids(client, seated.id, None).items():
        if name != "watch list":  # finished games are not watched live
            assert table_b in text, name
