"""A casual game whose creator fixed the deal (Town's start cards or deck orders) says so before
anyone sits down: in the lobby row, in the challenge, on the match — the options themselves stay
secret. Its rematch is dealt afresh. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.db.models import Match
from tests.conftest import make_guest, start_match
from tests.lobby.test_lobby import make_account

FIXED = {"start_cards": [3, 5]}
SECRET_NAMES = ("start_cards", "path_deck", "event_deck")
NOTE_WORDS = "fixed the deal"
NOTE_WORDS_JA = "配札を固定"


def _seek_of(client: TestClient, seek_id: str, headers: dict[str, str]) -> dict[str, Any]:
    return next(s for s in client.get("/api/v1/seeks", headers=headers).json()
                if s["id"] == seek_id)


def _says_nothing_secret(payload: dict[str, Any]) -> None:
    """The disclosure says that the deal is fixed, never how: no secret option, no note naming
    one."""
    assert not set(SECRET_NAMES) & set(payload["options"]), payload["options"]
    assert not any(name in str(payload.get("fixed_deal_note")) for name in SECRET_NAMES)


def test_a_lobby_seek_with_a_fixed_deal_says_so(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    fixed = client.post("/api/v1/seeks", headers=alice,
                        json={"game": "town", "players": 2, "options": FIXED}).json()
    dealt = client.post("/api/v1/seeks", headers=alice,
                        json={"game": "town", "players": 2}).json()
    seen = _seek_of(client, fixed["id"], bob)
    assert seen["fixed_deal"] is True and NOTE_WORDS in seen["fixed_deal_note"]
    _says_nothing_secret(seen)
    plain = _seek_of(client, dealt["id"], bob)
    assert plain["fixed_deal"] is False and plain["fixed_deal_note"] is None


def test_a_challenge_with_a_fixed_deal_tells_the_challenged_player(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    sent = client.post("/api/v1/challenges", headers=aiko, json={
        "user": "ben", "game": "town", "options": {"path_deck": None, **FIXED}})
    assert sent.status_code == 201, sent.text
    received = client.get("/api/v1/challenges", headers=ben).json()
    assert [c["fixed_deal"] for c in received] == [True]
    assert NOTE_WORDS in received[0]["fixed_deal_note"]
    token = ben["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect(f"/api/v1/stream/event/ws?token={token}") as events:
        event = events.receive_json()
    assert event["type"] == "challenge" and event["challenge"]["fixed_deal"] is True
    _says_nothing_secret(event["challenge"])


def test_the_match_says_so_before_anyone_joins(client: TestClient) -> None:
    alice = make_guest(client, "Alice")
    created = client.post("/api/v1/matches", headers=alice, json={
        "game": "town", "players": 2, "options": FIXED})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    client.cookies.clear()
    public = client.get(f"/api/v1/matches/{match_id}").json()
    assert public["status"] == "waiting" and public["fixed_deal"] is True
    _says_nothing_secret(public)
    page = client.get(f"/m/{match_id}")
    assert page.status_code == 200 and NOTE_WORDS in page.text and 'id="fixed-deal"' in page.text
    japanese = client.get(f"/m/{match_id}", headers={"Accept-Language": "ja"})
    assert NOTE_WORDS_JA in japanese.text
    plain = client.post("/api/v1/matches", headers=alice, json={"game": "town", "players": 2})
    assert plain.json()["fixed_deal"] is False
    assert 'id="fixed-deal"' not in client.get(f"/m/{plain.json()['id']}").text


def test_the_rematch_of_a_fixed_deal_is_dealt_afresh(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob, game="town", players=2, seat=0, options=FIXED)
    assert match["fixed_deal"] is True
    client.post(f"/api/v1/matches/{match['id']}/resign", headers=bob).raise_for_status()
    client.post(f"/api/v1/matches/{match['id']}/offers/rematch", headers=bob).raise_for_status()
    done = client.post(f"/api/v1/matches/{match['id']}/offers/rematch/accept", headers=alice)
    rematch_id = done.json()["offers"]["rematch_match"]
    rematch = client.get(f"/api/v1/matches/{rematch_id}", headers=alice).json()
    assert rematch["rematch_of"] == match["id"] and rematch["fixed_deal"] is False
    app: Any = client.app
    with app.state.session_factory() as session:
        stored = session.get(Match, rematch_id)
        assert stored is not None
        assert not any((stored.options or {}).get(name) for name in SECRET_NAMES), stored.options
