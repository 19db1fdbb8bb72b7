"""Web push with two instances sharing PostgreSQL and Redis: the push job runs once (the leader's),
presence on one instance silences a push the other's leader would send, and a turn is pushed once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_guest, start_match
from tests.notices.push_service import PushService
from tests.notices.test_push import deliveries, play_first_legal_move, push_settings, subscribe

pytestmark = pytest.mark.postgres


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def two_instances(cluster_database: str, cluster_redis: tuple[str, str]
                  ) -> Iterator[tuple[TestClient, TestClient]]:
    redis_url, prefix = cluster_redis
    settings = push_settings(cluster_database, redis_url=redis_url, redis_prefix=prefix,
                             rate_limit_prefix=f"{prefix}limits")
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        yield first, second


def test_a_turn_is_pushed_once_and_never_to_a_page_open_on_the_other_instance(
        two_instances: tuple[TestClient, TestClient], push_service: PushService) -> None:
    first, second = two_instances
    alice, bob = make_guest(first, "Alice"), make_guest(first, "Bob")
    device = push_service.device("bob")
    subscribe(second, bob, device)
    watched = start_match(first, alice, bob)
    elsewhere = start_match(second, alice, bob)
    token = bob["Authorization"].split()[1]
    with second.websocket_connect(f"/api/v1/matches/{watched['id']}/ws?token={token}") as page:
        while True:  # Bob's seat is online once the other instances can read it from Redis
            message = page.receive_json()
            if message.get("type") == "presence" and 1 in message.get("online_seats", []):
                break
        play_first_legal_move(first, watched["id"], alice)
        play_first_legal_move(first, elsewhere["id"], alice)
        [push] = push_service.wait_for(device)
        assert push["match"] == elsewhere["id"]
    # Two more turns, moved on either instance: one push each, whoever leads.
    play_first_legal_move(second, elsewhere["id"], bob)
    play_first_legal_move(first, elsewhere["id"], alice)
    play_first_legal_move(first, elsewhere["id"], bob)
    play_first_legal_move(second, elsewhere["id"], alice)
    pushes = push_service.wait_for(device, 3)
    assert [p["match"] for p in pushes] == [elsewhere["id"]] * 3
    assert sorted(step for _u, kind, step in deliveries(first, elsewhere["id"])) == [1, 3, 5]
    assert deliveries(first, watched["id"]) == []
    assert len(device.headers) == 3
