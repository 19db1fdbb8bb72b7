"""Web push end to end: a real game's pushes reach an independent push service on loopback
(tests/notices/push_service.py), which verifies their VAPID signature and decrypts them with the
subscription's private key, made as a browser makes it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from py_vapid import Vapid02
from sqlalchemy import select, update

from app.db.models import Match, NoticeDelivery, PushSubscription
from app.kernel import timesource
from app.kernel.settings import Settings
from app.main import create_app
from app.match import MatchService
from tests.conftest import make_guest, start_match
from tests.notices.push_service import PushService, b64url, unb64url

VAPID = Vapid02()
VAPID.generate_keys()
VAPID_PEM = VAPID.private_pem().decode()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


def push_settings(database_url: str, **more: Any) -> Settings:
    return Settings(database_url=database_url, secret_key="test-secret", vapid_private_key=VAPID_PEM,
                    push_allow_insecure_endpoints=True, push_retry_seconds=[0.05, 0.05],
                    bots_enabled=False, analysis_workers=0, **more)


@pytest.fixture
def push_client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(push_settings(database_url))) as client:
        yield client


def subscribe(client: TestClient, headers: dict[str, str], device: Any, language: str = "en") -> int:
    answer = client.post("/api/v1/push/subscriptions", json=device.subscription,
                         headers={**headers, "Accept-Language": language})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def play_first_legal_move(client: TestClient, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    view = client.get(f"/api/v1/matches/{match_id}", headers=headers).json()
    answer = client.post(f"/api/v1/matches/{match_id}/moves",
                         json={"move": view["legal_moves"][0], "ply": view["ply"]}, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def deliveries(client: TestClient, match_id: str) -> list[tuple[int, str, int]]:
    factory = client.app.state.session_factory  # type: ignore[attr-defined]
    with factory() as session:
        return [(row.user_id, row.kind, row.step) for row in session.scalars(
            select(NoticeDelivery).where(NoticeDelivery.subject == match_id))]


def test_the_key_is_a_p256_point_that_signs_every_push(push_client: TestClient) -> None:
    key = push_client.get("/api/v1/push/key").json()["publicKey"]
    raw = unb64url(key)
    assert len(raw) == 65 and raw[0] == 4
    assert key == b64url(raw)  # base64url without padding, as applicationServerKey wants


def test_a_turn_reaches_the_closed_device_signed_encrypted_and_in_its_language(
        push_client: TestClient, push_service: PushService) -> None:
    alice, bob = make_guest(push_client, "Alice"), make_guest(push_client, "Bob")
    phone = push_service.device("bob-phone")
    laptop = push_service.device("bob-laptop")
    subscribe(push_client, bob, phone, "ja")
    subscribe(push_client, bob, laptop, "en")
    match = start_match(push_client, alice, bob)
    play_first_legal_move(push_client, match["id"], alice)

    [on_phone] = push_service.wait_for(phone)
    [on_laptop] = push_service.wait_for(laptop)
    assert on_laptop == {"type": "yourTurn", "match": match["id"], "url": f"/m/{match['id']}",
                         "title": "Your turn", "body": "Stairs against Alice"}
    assert on_phone["type"] == "yourTurn" and on_phone["title"] == "あなたの番です"
    assert "Alice" in on_phone["body"] and "Stairs" not in on_phone["body"]
    key = push_client.get("/api/v1/push/key").json()["publicKey"]
    assert push_service.sender_keys == {key}
    headers = {name.lower(): value for name, value in phone.headers[0].items()}
    assert headers.get("urgency") == "high", headers
    assert not push_service.rejected


def test_one_push_per_turn_and_none_for_a_change_at_the_same_ply(
        push_client: TestClient, push_service: PushService) -> None:
    alice, bob = make_guest(push_client, "Alice"), make_guest(push_client, "Bob")
    device = push_service.device("bob")
    subscribe(push_client, bob, device)
    match = start_match(push_client, alice, bob)
    play_first_legal_move(push_client, match["id"], alice)
    push_service.wait_for(device)
    # Alice offers to end the game: a new version of the match, still Bob's turn at the same ply.
    assert push_client.post(f"/api/v1/matches/{match['id']}/offers/end", headers=alice).status_code == 200
    # The relay may announce a change again: the job hears the same turn twice more.
    factory = push_client.app.state.session_factory  # type: ignore[attr-defined]
    with factory() as session:
        record = MatchService.read_only(session).get(match["id"])
    push_client.app.state.match_publisher(record)  # type: ignore[attr-defined]
    # Bob moves, Alice moves: Bob's next turn is a new push, the sync point of this test.
    play_first_legal_move(push_client, match["id"], bob)
    play_first_legal_move(push_client, match["id"], alice)
    pushes = push_service.wait_for(device, 2)
    assert [p["type"] for p in pushes] == ["yourTurn", "yourTurn"]
    assert sorted(step for user, kind, step in deliveries(push_client, match["id"])
                  if kind == "yourTurn") == [1, 3]


def test_nobody_is_pushed_about_a_match_whose_page_they_have_open(
        push_client: TestClient, push_service: PushService) -> None:
    alice, bob = make_guest(push_client, "Alice"), make_guest(push_client, "Bob")
    device = push_service.device("bob")
    subscribe(push_client, bob, device)
    watched = start_match(push_client, alice, bob)
    elsewhere = start_match(push_client, alice, bob)
    token = bob["Authorization"].split()[1]
    with push_client.websocket_connect(f"/api/v1/matches/{watched['id']}/ws?token={token}") as page:
        page.receive_json()  # the page's first state: Bob is on it
        play_first_legal_move(push_client, watched["id"], alice)
        play_first_legal_move(push_client, elsewhere["id"], alice)
        [push] = push_service.wait_for(device)
    assert push["match"] == elsewhere["id"]
    assert deliveries(push_client, watched["id"]) == []


def test_a_gone_subscription_is_deleted(push_client: TestClient, push_service: PushService) -> None:
    alice, bob = make_guest(push_client, "Alice"), make_guest(push_client, "Bob")
    gone = push_service.device("gone")
    gone.answer = 410
    kept = push_service.device("kept")
    gone_id = subscribe(push_client, bob, gone)
    kept_id = subscribe(push_client, bob, kept)
    match = start_match(push_client, alice, bob)
    play_first_legal_move(push_client, match["id"], alice)
    push_service.wait_for(gone, attempts=True)
    push_service.wait_for(kept)
    factory = push_client.app.state.session_factory  # type: ignore[attr-defined]
    for _ in range(600):  # the deletion follows the 410 in the job's thread
        with factory() as session:
            left = set(session.scalars(select(PushSubscription.id)))
        if gone_id not in left:
            break
        time.sleep(0.05)
    assert left == {kept_id}
    assert len(gone.headers) == 1, "a 410 is not retried"


def test_a_refusing_push_service_is_retried(push_client: TestClient, push_service: PushService) -> None:
    alice, bob = make_guest(push_client, "Alice"), make_guest(push_client, "Bob")
    device = push_service.device("busy")
    device.answer = 503
    subscribe(push_client, bob, device)
    match = start_match(push_client, alice, bob)
    play_first_legal_move(push_client, match["id"], alice)
    push_service.wait_for(device, 2, attempts=True)
    device.answer = 201
    [push] = push_service.wait_for(device)  # the third attempt (push_retry_seconds: two waits)
    assert push["type"] == "yourTurn" and len(device.headers) == 3


def test_switched_off_kinds_are_not_sent_and_game_over_is(
        push_client: TestClient, push_service: PushService) -> None:
    alice, bob = make_guest(push_client, "Alice"), make_guest(push_client, "Bob")
    device = push_service.device("bob")
    subscribe(push_client, bob, device)
    switched = push_client.patch("/api/v1/notices/preferences", json={"push": {"yourTurn": False}},
                                 headers=bob)
    assert switched.status_code == 200, switched.text
    assert switched.json()["push"] == {"yourTurn": False, "challenge": True, "gameOver": True,
                                       "tournament": True, "clockReminder": True,
                                       "followedGame": True}
    match = start_match(push_client, alice, bob)
    play_first_legal_move(push_client, match["id"], alice)
    assert push_client.post(f"/api/v1/matches/{match['id']}/resign", headers=alice).status_code == 200
    [push] = push_service.wait_for(device)
    assert push == {"type": "gameOver", "match": match["id"], "url": f"/m/{match['id']}",
                    "title": "Game over", "body": "You won · Stairs against Alice"}
    assert [kind for _user, kind, _step in deliveries(push_client, match["id"])] == ["gameOver"]


def test_a_challenge_is_pushed_to_its_target(push_client: TestClient, push_service: PushService) -> None:
    alice = make_guest(push_client, "Alice")
    bob_account = push_client.post("/api/v1/accounts",
                                   json={"username": "bobby", "password": "a long password 1"})
    assert bob_account.status_code == 201, bob_account.text
    bob = {"Authorization": f"Bearer {bob_account.json()['token']}"}
    device = push_service.device("bob")
    subscribe(push_client, bob, device)
    sent = push_client.post("/api/v1/challenges", json={"game": "stairs", "user": "bobby"}, headers=alice)
    assert sent.status_code == 201, sent.text
    [push] = push_service.wait_for(device)
    assert push["type"] == "challenge" and push["url"] == "/"
    assert push["body"] == "Alice challenges you to Stairs"


def test_a_correspondence_clock_about_to_run_out_sends_one_reminder(
        database_url: str, push_service: PushService) -> None:
    settings = push_settings(database_url, push_reminder_scan_seconds=0.1)
    with TestClient(create_app(settings)) as client:
        alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
        device = push_service.device("bob")
        subscribe(client, bob, device)
        match = start_match(client, alice, bob, time_control={"kind": "correspondence", "days": 1})
        play_first_legal_move(client, match["id"], alice)
        [turn] = push_service.wait_for(device)
        assert turn["type"] == "yourTurn"
        factory = client.app.state.session_factory  # type: ignore[attr-defined]
        with factory() as session:  # Bob's day is nearly over
            session.execute(update(Match).where(Match.id == match["id"]).values(
                deadline_at=timesource.now() + timedelta(hours=2)))
            session.commit()
        pushes = push_service.wait_for(device, 2)
        assert pushes[1]["type"] == "clockReminder" and pushes[1]["match"] == match["id"]
        assert pushes[1]["title"] == "Your clock is running out"
        # Later scans find the same turn in its window: still one reminder for it.
        play_first_legal_move(client, match["id"], bob)
        play_first_legal_move(client, match["id"], alice)
        pushes = push_service.wait_for(device, 3)
        assert [p["type"] for p in pushes] == ["yourTurn", "clockReminder", "yourTurn"]
        assert sum(kind == "clockReminder" for _u, kind, _s in deliveries(client, match["id"])) == 1
