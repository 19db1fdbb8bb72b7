"""Every message type of the catalog, built the way production builds it (the same functions, fed
by what a real app publishes while two guests play, chat, challenge and offer), fits the schema
published at /openapi.json, and round-trips through its model to the same text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import jsonschema_rs
import orjson
import pytest
from fastapi.testclient import TestClient

from app.accounts.moderators import set_moderator
from app.analysis.service import event as analysis_event
from app.chat.feed import visible_line
from app.http.live_connections import ended_message
from app.http.messages import ErrorMessage
from app.lobby.messages import (
    ChallengeCanceledMessage,
    ChallengeDeclinedMessage,
    LobbyChallengeMessage,
    MatchStartedMessage,
)
from app.lobby.sockets import _seeks_for
from app.match import store
from app.match.payloads import change_messages, seat_message, view_of
from app.match.records import MatchRecord
from app.match.service import MatchService
from app.notices.live_socket import live_message
from app.notices.stream_events import AccountGames, FollowedGames, MatchFollower, personal_event
from app.protocol import messages as m
from app.protocol.catalog import (
    ENTRIES,
    EVENT_STREAM,
    LIVE_SOCKET,
    LOBBY_SOCKET,
    MATCH_SOCKET,
    MATCH_STREAM,
    TOURNAMENT_SOCKETS,
)
from app.realtime.bus import LOCAL_RECORD
from app.realtime.messages import PONG, Message, PresenceMessage, Wire, encode, forwarded
from app.realtime.presence import presence_message
from app.tournaments.service import announce
from tests import databases
from tests.conftest import make_guest, start_match

Built = dict[tuple[str, str], list[str]]  # (channel, type) -> the texts built for it


@pytest.fixture
def database_url(tmp_path: Any) -> str:
    """SQLite only: the messages do not depend on the database."""
    return databases.sqlite_database(tmp_path / "stepwell.db")


@pytest.fixture
def published(client: TestClient) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Everything the app publishes on its bus while the test drives it."""
    bus = client.app.state.bus  # type: ignore[attr-defined]
    seen: list[tuple[str, dict[str, Any]]] = []
    original = bus.publish

    def publish(channel: str, message: dict[str, Any]) -> None:
        seen.append((channel, message))
        original(channel, message)

    bus.publish = publish
    yield seen
    bus.publish = original


def _text(message: Message | Wire) -> str:
    return message.text if isinstance(message, Wire) else encode(message).text


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def _records(published: list[tuple[str, dict[str, Any]]], match_id: str) -> list[MatchRecord]:
    """The match's committed versions, as the seats' channel carried them."""
    return [message[LOCAL_RECORD] for channel, message in published
            if message.get("type") == "record" and message["record"]["id"] == match_id]


def _drive(client: TestClient, published: list[tuple[str, dict[str, Any]]]) -> Built:
    """Play, chat, offer, challenge and decline through the API, then turn what was published
    into clients' messages with the functions the sockets and streams use."""
    built: Built = {}

    def add(channel: str, *messages: Message | Wire) -> None:
        for message in messages:
            text = _text(message)
            built.setdefault((channel, orjson.loads(text)["type"]), []).append(text)

    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    alice_id = client.get("/api/v1/me", headers=alice).json()["id"]
    bob_id = client.get("/api/v1/me", headers=bob).json()["id"]
    match = start_match(client, alice, bob, time_control={"kind": "realtime", "minutes": 5})
    url = f"/api/v1/matches/{match['id']}"
    with client.websocket_connect(f"{url}/ws?token={_token(alice)}") as ws:
        legal = ws.receive_json()["legal_moves"]
        ws.send_json({"type": "move", "move": legal[0], "ply": 0, "id": "m1"})
        ws.send_json({"type": "move", "move": legal[0], "ply": 0, "id": "m2"})
        ws.send_json({"type": "move", "move": "z9-z9", "ply": 1, "id": "m3"})
        ws.send_json({"type": "ping"})
        answers: set[str] = set()
        while "pong" not in answers:  # the socket's own answers, as it sent them
            text = ws.receive_text()
            answers.add(orjson.loads(text)["type"])
            add(MATCH_SOCKET, Wire(text))
        assert {"ack", "error"} <= answers
    with client.websocket_connect(f"/api/v1/matches/nosuch/ws?token={_token(alice)}") as refused:
        add(MATCH_SOCKET, Wire(refused.receive_text()))
    add(MATCH_SOCKET, ended_message("revoked"), PONG)
    said = client.post(f"{url}/chat", headers=bob, json={"room": "players", "text": "gl"})
    assert said.status_code == 201
    moderator = client.post("/api/v1/accounts", json={"username": "wiremod",
                                                      "password": "long enough"}).json()
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        set_moderator(session, "wiremod")
    as_moderator = {"Authorization": f"Bearer {moderator['token']}"}
    assert client.post(f"/api/v1/moderation/chat/{said.json()['id']}/hide", headers=as_moderator,
                       json={"reason": "test"}).status_code == 200
    assert client.post(f"/api/v1/moderation/users/{bob_id}/mute", headers=as_moderator,
                       json={"reason": "test", "minutes": 5}).status_code == 200
    assert client.post(f"{url}/offers/end", headers=bob).status_code == 200
    assert client.post(f"{url}/resign", headers=alice).status_code == 200

    records = [r for r in _records(published, match["id"]) if r.status != "waiting"]
    first, offered, finished = records[0], records[-2], records[-1]
    assert offered.offers and finished.status == "finished"
    for record in records:
        add(MATCH_SOCKET, seat_message(record, 0).state, seat_message(record, None).state)
        clock = seat_message(record, 1).clock
        if clock is not None:
            add(MATCH_SOCKET, clock)
    add(MATCH_SOCKET, *change_messages(first, offered), *change_messages(offered, finished))
    add(MATCH_SOCKET, forwarded(presence_message({"spectators": 2, "online_seats": [0]}),
                                PresenceMessage))
    add(MATCH_SOCKET, forwarded(analysis_event(
        {"match_id": match["id"], "status": "running", "progress": 3, "total": 9}),
        m.AnalysisMessage))
    for _channel, message in published:
        if message.get("type") in ("chatLine", "chatHidden"):
            line = visible_line(message, first, bob_id)
            assert line is not None and visible_line(message, first, None) is None
            add(MATCH_SOCKET, line)
            add(MATCH_STREAM, line)

    follower = MatchFollower(first, bob_id, m.PROTOCOL_VERSION)
    add(MATCH_STREAM, *follower.first_events())
    for record in records[1:]:
        add(MATCH_STREAM, *follower.events_for(record))
    away = MatchFollower(first, bob_id, m.PROTOCOL_VERSION)
    add(MATCH_STREAM, *away.presence_events({0: 30.0}, 60.0, [1]))
    add(MATCH_STREAM, *away.presence_events({}, 60.0, [0, 1]))

    games = AccountGames(alice_id, "2000-01-01T00:00:00Z")
    for record in records:
        add(EVENT_STREAM, *games.events_for(record))
    fan = FollowedGames(alice_id + bob_id + 1000, "2000-01-01T00:00:00", {alice_id})
    for record in records:
        for followee in fan.candidates(record):
            started = fan.event(record, followee)
            if started is not None:
                add(EVENT_STREAM, started)
    watcher = SimpleNamespace(app=client.app)
    add(LIVE_SOCKET, asyncio.run(live_message(watcher, records[1])))  # type: ignore[arg-type]

    challenge = client.post("/api/v1/challenges", headers=alice,
                            json={"user": str(bob_id), "game": "sight"}).json()
    client.post(f"/api/v1/challenges/{challenge['id']}/decline", headers=bob)
    again = client.post("/api/v1/challenges", headers=alice,
                        json={"user": str(bob_id), "game": "sight"}).json()
    client.delete(f"/api/v1/seeks/{again['id']}", headers=alice)
    third = client.post("/api/v1/challenges", headers=alice,
                        json={"user": str(bob_id), "game": "stairs"}).json()
    open_seek = client.post("/api/v1/seeks", headers=bob, json={"game": "sight"}).json()
    assert open_seek["kind"] == "open"
    personal = {"challenge": LobbyChallengeMessage, "match_started": MatchStartedMessage,
                "challenge_declined": ChallengeDeclinedMessage,
                "challenge_canceled": ChallengeCanceledMessage}
    for channel, message in published:
        kind = message.get("type")
        if kind == "seeks":
            add(LOBBY_SOCKET, _seeks_for(message, alice_id), _seeks_for(message, None))
        elif channel.startswith("user:") and kind in personal:
            add(LOBBY_SOCKET, forwarded(message, personal[kind]))
            event = personal_event(message, int(channel.split(":")[1]))
            if event is not None:
                add(EVENT_STREAM, event)
        elif channel.startswith("user:") and kind == "moderation":
            found = personal_event(message, int(channel.split(":")[1]))
            assert found is not None
            add(EVENT_STREAM, found)
    client.post(f"/api/v1/challenges/{third['id']}/accept", headers=bob)
    for _channel, message in published:
        if message.get("type") == "match_started":
            add(LOBBY_SOCKET, forwarded(message, MatchStartedMessage))
    add(LOBBY_SOCKET, PONG)

    announced: list[dict[str, Any]] = []
    announce(lambda channel, message: announced.append(message),
             SimpleNamespace(id="Tn4Rk8Wd", status="running", round=2, version=9))  # type: ignore[arg-type]
    add(TOURNAMENT_SOCKETS, forwarded(announced[0], m.TournamentMessage), PONG)
    return built


@pytest.fixture
def built(client: TestClient, published: list[tuple[str, dict[str, Any]]]) -> Built:
    return _drive(client, published)


@pytest.fixture
def components(client: TestClient) -> dict[str, Any]:
    return client.get("/openapi.json").json()["components"]  # type: ignore[no-any-return]


def _validator(components: dict[str, Any], model: str) -> Callable[[Any], None]:
    schema = {"$ref": f"#/components/schemas/{model}", "components": components}
    return jsonschema_rs.validator_for(schema).validate  # type: ignore[no-any-return]


def test_every_message_production_builds_fits_its_published_schema_and_round_trips(
        client: TestClient, built: Built, components: dict[str, Any]) -> None:
    served = client.get("/api/v1/schemas").json()["messages"]
    models = {(e.channel, e.example["type"]): e.model for e in ENTRIES if e.direction == "server"}
    refs = {(s["channel"], s["type"]): s["model"] for s in served if s["direction"] == "server"}
    assert set(refs) == set(models)
    missing = set(models) - set(built)
    assert not missing, f"no production-built message checked for {sorted(missing)}"
    assert set(built) <= set(models), "a message type production sends is not in the catalog"
    for key, texts in built.items():
        model, validate = models[key], _validator(components, refs[key])
        for text in texts:
            validate(orjson.loads(text))
            assert encode(model.model_validate_json(text)).text == text, (key, text)


def test_each_seat_s_state_message_shows_its_own_view_only(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, game="town")
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        record = MatchService.read_only(session).get(match["id"])
    engine = store.state_of(record)
    views = {seat: orjson.loads(seat_message(record, seat).state.text)["view"]
             for seat in (0, 1, None)}
    for seat, view in views.items():
        assert view == orjson.loads(orjson.dumps(engine.view(seat)))
    assert views[0] != views[1] != views[None], "a seat sees its own hand, spectators none"


def test_the_encoder_writes_what_pydantic_writes() -> None:
    for entry in ENTRIES:
        message = entry.model.model_validate(entry.example)
        assert isinstance(message, Message)
        assert encode(message).text == message.model_dump_json(exclude_unset=True)
        assert orjson.loads(encode(message).text) == entry.example


def test_a_refusal_carries_only_what_it_says() -> None:
    refusal = ErrorMessage(type="error", code="no_match", message="There is no match 'x'.")
    assert orjson.loads(encode(refusal).text) == {
        "type": "error", "code": "no_match", "message": "There is no match 'x'."}


def test_a_forwarded_bus_message_is_encoded_once_per_process() -> None:
    message = presence_message({"spectators": 1, "online_seats": [0]})
    first = forwarded(message, PresenceMessage)
    assert forwarded(message, PresenceMessage) is first
    assert orjson.loads(first.text) == {"type": "presence", "spectators": 1, "online_seats": [0]}


def test_a_state_message_is_the_view_with_its_type_first(client: TestClient) -> None:
    """The bytes clients got before the models built the message: ``{"type": "state", …view}``."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, time_control={"kind": "realtime", "minutes": 5})
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        record = MatchService.read_only(session).get(match["id"])
    for seat in (0, 1, None):
        view = view_of(record, seat)
        assert seat_message(record, seat).state.text == orjson.dumps({"type": "state", **view}).decode()
