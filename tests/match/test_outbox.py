"""The match outbox (app/match/outbox.py) in one process: a committed change whose announcement
was lost is announced again by the relay, once; a change its publisher announced is not; and a
repeated announcement changes nothing for a socket or a bot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Match
from app.db.session import make_engine, make_session_factory
from app.kernel.identity import Identity
from app.kernel.settings import Settings
from app.main import create_app
from app.match.bot_runner import BotRunner
from app.match.outbox import Announced, Relay, relay_at_start
from app.match.payloads import MatchChange
from app.match.publish import MatchPublisher
from app.match.records import MatchRecord
from app.match.service import MatchService
from app.realtime.bus import InProcessBus, match_channel
from tests.conftest import make_guest, start_match

pytestmark = pytest.mark.both_databases  # the database is under test here

GRACE = 0.3


class Wire(InProcessBus):
    """An in-process bus that also keeps what was published."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[tuple[str, dict[str, Any]]] = []

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.messages.append((channel, message))
        super().publish(channel, message)

    def versions(self, match_id: str) -> list[int]:
        """The versions of the match's changes announced on its public channel, in order."""
        return [message["change"]["version"] for channel, message in self.messages
                if channel == match_channel(match_id) and message["type"] == "change"]


@dataclass
class Table:
    """A started Stairs match (Alice to move, Bob next) in a database of the test's own."""

    factory: sessionmaker[Session]
    match_id: str
    alice: Identity
    bob: Identity

    def versions(self) -> tuple[int, int]:
        """(version, announced version) as stored."""
        with self.factory() as session:
            row = session.execute(select(Match.version, Match.announced_version)
                                  .where(Match.id == self.match_id)).one()
        return row.version, row.announced_version

    def play(self, who: Identity, publish: Any) -> MatchRecord:
        with self.factory() as session:
            service = MatchService(session, publish)
            record = service.get(self.match_id)
            return service.play(self.match_id, who, record.state.legal_moves()[0], record.ply)


@pytest.fixture
def table(database_url: str) -> Iterator[Table]:
    settings = Settings(database_url=database_url, secret_key="k", bots_enabled=False,
                        background_jobs="off")
    with TestClient(create_app(settings)) as client:
        match = start_match(client, make_guest(client, "Alice"), make_guest(client, "Bob"))
    engine = make_engine(database_url, 2)
    factory = make_session_factory(engine)
    with factory() as session:
        seats = MatchService.read_only(session).get(match["id"]).seats
    yield Table(factory, match["id"], Identity(seats[0].user_id or 0, "Alice", "guest"),
                Identity(seats[1].user_id or 0, "Bob", "guest"))
    engine.dispose()


def _lost(record: MatchRecord) -> None:
    """A publisher that dies right after the commit: nothing announced, nothing noted."""


def _scan_until_settled(relay: Relay, announced: Announced, scans: int = 4) -> None:
    """Scans a grace apart, the notes written after each (as the relay's process would)."""
    for _ in range(scans):
        relay.scan()
        announced.flush()
        time.sleep(GRACE * 1.2)


def test_the_app_notes_every_change_it_announced(table: Table) -> None:
    version, announced = table.versions()  # created, then joined: both announced by the app
    assert version == announced == 1


def test_a_change_whose_announcement_was_lost_is_announced_once_by_the_relay(
        table: Table) -> None:
    committed = table.play(table.alice, _lost)
    assert table.versions() == (committed.version, committed.version - 1)  # in the outbox
    wire = Wire()
    announced = Announced(table.factory)
    relay = Relay(table.factory, MatchPublisher(wire, announced), grace_seconds=GRACE)
    _scan_until_settled(relay, announced)
    assert wire.versions(table.match_id) == [committed.version]
    assert relay.relayed == 1
    assert table.versions() == (committed.version, committed.version)  # out of the outbox
    record = next(m["record"] for c, m in wire.messages if m["type"] == "record")
    assert record["ply"] == 1 and record["last_move"]["move"] == committed.last_move["move"]


def test_a_change_its_publisher_announced_is_not_announced_again(table: Table) -> None:
    wire = Wire()
    announced = Announced(table.factory)
    publisher = MatchPublisher(wire, announced)
    relay = Relay(table.factory, publisher, grace_seconds=GRACE)
    relay.scan()
    committed = table.play(table.alice, publisher)
    relay.scan()  # finds it before its note is written: too young to announce
    announced.flush()
    _scan_until_settled(relay, announced)
    assert wire.versions(table.match_id) == [committed.version]  # the publisher's, only
    assert relay.relayed == 0


def test_a_change_left_behind_is_announced_again_when_an_instance_starts(table: Table) -> None:
    committed = table.play(table.alice, _lost)
    wire = Wire()
    announced = Announced(table.factory)
    relay = Relay(table.factory, MatchPublisher(wire, announced), grace_seconds=GRACE)
    assert asyncio.run(relay_at_start(relay)) == 1
    announced.flush()
    assert wire.versions(table.match_id) == [committed.version]
    assert table.versions() == (committed.version, committed.version)


def test_a_relayed_change_newer_than_the_scan_is_left_to_its_own_publisher(table: Table) -> None:
    table.play(table.alice, _lost)
    wire = Wire()
    announced = Announced(table.factory)
    relay = Relay(table.factory, MatchPublisher(wire, announced), grace_seconds=GRACE)
    relay.scan()
    time.sleep(GRACE * 1.2)
    newer = table.play(table.bob, MatchPublisher(wire, announced))  # not noted yet
    relay.scan()  # its version is due, but the match has moved on since this scan read it
    announced.flush()
    _scan_until_settled(relay, announced)
    assert wire.versions(table.match_id) == [newer.version]
    assert relay.relayed == 0


def test_a_repeated_announcement_sends_a_socket_nothing(database_url: str) -> None:
    settings = Settings(database_url=database_url, secret_key="k", bots_enabled=False)
    with TestClient(create_app(settings)) as client:
        alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
        match = start_match(client, alice, bob)
        url = f"/api/v1/matches/{match['id']}/ws"
        with client.websocket_connect(url) as spectator:
            assert _next_state(spectator)["ply"] == 0
            first = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()
            client.post(f"/api/v1/matches/{match['id']}/moves", headers=alice,
                        json={"move": first["legal_moves"][0], "ply": 0}).raise_for_status()
            assert _next_state(spectator)["ply"] == 1
            with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
                again = MatchService.read_only(session).get(match["id"])
            client.app.state.match_publisher(again)  # type: ignore[attr-defined]  # a relay's
            second = client.get(f"/api/v1/matches/{match['id']}", headers=bob).json()
            client.post(f"/api/v1/matches/{match['id']}/moves", headers=bob,
                        json={"move": second["legal_moves"][0], "ply": 1}).raise_for_status()
            assert _next_state(spectator)["ply"] == 2  # nothing in between for ply 1


def _next_state(ws: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "state":
            return message  # type: ignore[no-any-return]


def test_a_bot_thinks_once_however_often_its_turn_is_announced(database_url: str) -> None:
    settings = Settings(database_url=database_url, secret_key="k", bots_enabled=False)
    with TestClient(create_app(settings)) as client:
        human = make_guest(client, "Human")
        match = client.post("/api/v1/matches", json={"game": "sight", "seat": 1, "bot": "easy"},
                            headers=human).json()
    assert match["status"] == "active" and match["to_move"] == 0  # the bot's turn
    engine = make_engine(database_url, 2)
    factory = make_session_factory(engine)
    runner = BotRunner(factory, _lost, executor=ThreadPoolExecutor(1), rescan_seconds=3600)
    with factory() as session:
        turn = MatchChange.of(MatchService.read_only(session).get(match["id"]))

    async def announce_three_times() -> None:
        for _ in range(3):
            await runner.consider(turn)
            while runner.tasks:
                await asyncio.gather(*runner.tasks)

    try:
        asyncio.run(announce_three_times())
        with factory() as session:
            assert MatchService.read_only(session).get(match["id"]).ply == 1
        assert runner.computations == 1
    finally:
        runner.shutdown()
        engine.dispose()


def _metric(name: str) -> float:
    return REGISTRY.get_sample_value(name) or 0.0


def test_the_relay_reports_the_outbox_lag_in_metrics(table: Table) -> None:
    relayed_before = _metric("stepwell_outbox_relayed_total")
    table.play(table.alice, _lost)
    announced = Announced(table.factory)
    relay = Relay(table.factory, MatchPublisher(Wire(), announced), grace_seconds=GRACE)
    relay.scan()
    assert _metric("stepwell_outbox_unannounced") == 1
    time.sleep(GRACE * 1.2)
    relay.scan()  # announces it again
    assert _metric("stepwell_outbox_oldest_seconds") >= GRACE
    assert _metric("stepwell_outbox_relayed_total") == relayed_before + 1
    announced.flush()
    relay.scan()
    assert _metric("stepwell_outbox_unannounced") == 0
    assert _metric("stepwell_outbox_oldest_seconds") == 0
