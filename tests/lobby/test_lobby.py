"""Lobby API: seeks, accepting, cancelling, quick play by closest rating, challenges, expiry."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from fastapi.testclient import TestClient

from app.accounts import identity_of
from app.db.models import Seek, User
from app.db.session import make_engine, make_session_factory
from app.kernel.settings import Settings
from app.lobby.service import LobbyService
from app.main import create_app
from app.match import MatchService
from tests.conftest import make_guest


def make_account(client: TestClient, username: str) -> dict[str, str]:
    response = client.post("/api/v1/accounts", json={"username": username,
                                                     "password": "correct horse"})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def test_a_seek_appears_and_accepting_starts_the_match(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    seek = client.post("/api/v1/seeks", json={"game": "stairs"}, headers=alice).json()
    assert seek["status"] == "open" and seek["creator"]["name"] == "Alice"
    assert [s["id"] for s in client.get("/api/v1/seeks").json()] == [seek["id"]]
    accepted = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=bob).json()
    assert accepted["status"] == "matched" and accepted["match_id"]
    match = client.get(f"/api/v1/matches/{accepted['match_id']}", headers=alice).json()
    assert match["status"] == "active"
    assert sorted(s["user"]["name"] for s in match["seats"]) == ["Alice", "Bob"]
    assert client.get("/api/v1/seeks").json() == []


@pytest.mark.both_databases
def test_a_seek_cannot_be_accepted_twice_or_by_its_creator(client: TestClient) -> None:
    alice, bob, carol = (make_guest(client, n) for n in ("Alice", "Bob", "Carol"))
    seek = client.post("/api/v1/seeks", json={"game": "sight"}, headers=alice).json()
    own = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=alice)
    assert own.status_code == 409 and own.json()["code"] == "already_joined"
    assert client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=bob).status_code == 200
    late = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=carol)
    assert late.status_code == 409 and late.json()["code"] == "seek_closed"


def test_creator_seat_wish_is_honoured(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    seek = client.post("/api/v1/seeks", json={"game": "stairs", "seat": 1}, headers=alice).json()
    match_id = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=bob).json()["match_id"]
    assert client.get(f"/api/v1/matches/{match_id}", headers=alice).json()["your_seat"] == 1


def test_cancelled_seek_vanishes(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    seek = client.post("/api/v1/seeks", json={"game": "stairs"}, headers=alice).json()
    other = client.delete(f"/api/v1/seeks/{seek['id']}", headers=bob)
    assert other.status_code == 403
    assert client.delete(f"/api/v1/seeks/{seek['id']}", headers=alice).json()["status"] == "cancelled"
    assert client.get("/api/v1/seeks").json() == []


def test_town_seek_starts_when_the_last_of_four_seats_fills(client: TestClient) -> None:
    people = [make_guest(client, f"P{i}") for i in range(4)]
    seek = client.post("/api/v1/seeks", json={"game": "town", "players": 4},
                       headers=people[0]).json()
    for person in people[1:3]:
        partial = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=person).json()
        assert partial["status"] == "open" and partial["match_id"] is None
    full = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=people[3]).json()
    match = client.get(f"/api/v1/matches/{full['match_id']}").json()
    assert match["status"] == "active" and len(match["seats"]) == 4
    assert all(seat["user"] for seat in match["seats"])


def test_rated_seeks_need_accounts(client: TestClient) -> None:
    guest = make_guest(client, "Guest")
    response = client.post("/api/v1/seeks", json={"game": "stairs", "rated": True}, headers=guest)
    assert response.status_code == 422 and response.json()["code"] == "rated_needs_account"
    account = make_account(client, "aiko")
    seek = client.post("/api/v1/seeks", json={"game": "stairs", "rated": True}, headers=account)
    refused = client.post(f"/api/v1/seeks/{seek.json()['id']}/accept", headers=guest)
    assert refused.status_code == 422 and refused.json()["code"] == "rated_needs_account"


def test_quick_play_pairs_two_waiting_players(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    waiting = client.post("/api/v1/quick-play", json={"game": "scalas"}, headers=alice).json()
    assert waiting["status"] == "open" and waiting["kind"] == "quick"
    again = client.post("/api/v1/quick-play", json={"game": "scalas"}, headers=alice).json()
    assert again["id"] == waiting["id"], "asking twice does not queue twice"
    paired = client.post("/api/v1/quick-play", json={"game": "scalas"}, headers=bob).json()
    assert paired["status"] == "matched" and paired["match_id"]
    match = client.get(f"/api/v1/matches/{paired['match_id']}", headers=alice).json()
    assert match["game"] == "scalas" and match["status"] == "active"
    assert match["your_seat"] is not None


def _rated_win(client: TestClient, winner: dict[str, str], loser: dict[str, str]) -> None:
    seek = client.post("/api/v1/seeks", json={"game": "stairs", "rated": True},
                       headers=winner).json()
    match_id = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=loser).json()["match_id"]
    assert client.post(f"/api/v1/matches/{match_id}/resign", headers=loser).status_code == 200


def test_quick_play_pairs_the_closest_rating_in_reach(client: TestClient) -> None:
    strong, weak, newcomer, fourth = (make_account(client, n)
                                      for n in ("strong", "weak", "newcomer", "fourth"))
    _rated_win(client, strong, weak)  # strong ≈ 27.6, weak ≈ 22.4
    _rated_win(client, newcomer, fourth)  # newcomer ≈ 27.6 too
    mu = {name: client.get(f"/api/v1/users/{name}").json()["ratings"]["stairs"]["mu"]
          for name in ("strong", "weak", "newcomer")}
    assert mu["strong"] - mu["weak"] > 3.0, "out of each other's reach at first"
    first = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=weak).json()
    second = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=strong).json()
    assert first["status"] == second["status"] == "open", "both wait"
    paired = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=newcomer).json()
    assert paired["status"] == "matched"
    match = client.get(f"/api/v1/matches/{paired['match_id']}").json()
    assert sorted(seat["user"]["name"] for seat in match["seats"]) == ["newcomer", "strong"]
    still = client.get("/api/v1/seeks").json()
    assert [s["creator"]["name"] for s in still] == ["weak"]


def test_pairing_window_widens_with_waiting() -> None:
    from app.lobby.service import LobbyService

    assert LobbyService.pairing_window(0) < LobbyService.pairing_window(30)


def test_challenge_accept_and_decline(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    carol = make_guest(client, "Carol")
    sent = client.post("/api/v1/challenges", json={"user": "ben", "game": "sight"},
                       headers=aiko).json()
    assert sent["kind"] == "challenge" and sent["target"]["username"] == "ben"
    assert client.get("/api/v1/seeks").json() == [], "challenges are private"
    assert [c["id"] for c in client.get("/api/v1/challenges", headers=ben).json()] == [sent["id"]]
    stranger = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=carol)
    assert stranger.status_code == 403
    accepted = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ben).json()
    assert accepted["status"] == "matched"
    second = client.post("/api/v1/challenges", json={"user": "ben", "game": "stairs"},
                         headers=aiko).json()
    declined = client.post(f"/api/v1/challenges/{second['id']}/decline", headers=ben).json()
    assert declined["status"] == "declined"
    unknown = client.post("/api/v1/challenges", json={"user": "nobody", "game": "stairs"},
                          headers=aiko)
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_user"


def test_seek_of_a_player_who_goes_offline_expires(client: TestClient) -> None:
    client.app.state.presence.grace_seconds = 0.05
    alice = make_guest(client, "Alice")
    token = alice["Authorization"].split()[1]
    with client.websocket_connect(f"/api/v1/lobby/ws?token={token}") as lobby:
        assert lobby.receive_json()["type"] == "seeks"
        seek = client.post("/api/v1/seeks", json={"game": "stairs"}, headers=alice).json()
        assert lobby.receive_json()["seeks"][0]["id"] == seek["id"]
    with client.websocket_connect("/api/v1/lobby/ws") as watcher:
        seen = watcher.receive_json()["seeks"]
        if seen:  # the grace period may not have run out yet: wait for the change
            seen = watcher.receive_json()["seeks"]
    assert seen == []


def test_lobby_socket_pushes_new_seeks_and_match_start(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    token = alice["Authorization"].split()[1]
    with client.websocket_connect(f"/api/v1/lobby/ws?token={token}") as lobby:
        assert lobby.receive_json() == {"type": "seeks", "seeks": []}
        seek = client.post("/api/v1/seeks", json={"game": "stairs"}, headers=alice).json()
        assert lobby.receive_json()["seeks"][0]["id"] == seek["id"]
        accepted = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=bob).json()
        messages = [lobby.receive_json(), lobby.receive_json()]
    started = [m for m in messages if m["type"] == "match_started"]
    assert started and started[0]["match_id"] == accepted["match_id"]


def test_quick_play_never_pairs_a_seeker_who_has_left(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    token = alice["Authorization"].split()[1]
    with client.websocket_connect(f"/api/v1/lobby/ws?token={token}") as lobby:
        assert lobby.receive_json()["type"] == "seeks"
        waiting = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=alice).json()
    # Alice closed her tab; her seek lives on for the grace period, but nobody is paired with it
    alone = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=bob).json()
    assert alone["status"] == "open" and alone["match_id"] is None
    with client.websocket_connect(f"/api/v1/lobby/ws?token={token}") as lobby:
        assert lobby.receive_json()["type"] == "seeks"
        paired = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=bob).json()
        assert paired["status"] == "matched", "back on the lobby, she is paired at once"
    assert client.get(f"/api/v1/matches/{paired['match_id']}", headers=alice).json()["status"] \
        == "active"
    assert waiting["id"] != alone["id"]


def test_a_pairing_round_that_loses_its_race_leaves_the_winners_pairing(
        postgres_database_url: str) -> None:
    """Two rounds read the same two seekers; the other round (another instance's quick play, or
    the worker's) pairs them first. The losing round ends without an error (it answered a quick
    play with 409 `seek_closed`), and the winner's pairing stands. On PostgreSQL, where several
    instances run rounds at once."""
    database_url = postgres_database_url
    with TestClient(create_app(Settings(database_url=database_url, secret_key="race"))) as client:
        _lose_the_race(client, database_url)


def _lose_the_race(client: TestClient, database_url: str) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    waiting = client.post("/api/v1/quick-play", json={"game": "stairs"}, headers=alice).json()
    bob_id = client.get("/api/v1/me", headers=bob).json()["id"]
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    try:
        with sessions() as first, sessions() as second:
            winner = LobbyService(second, MatchService(second, lambda record: None))

            def the_other_round_pairs_first(user_ids: Iterable[int]) -> set[int]:
                assert winner.pair_waiting() == 1
                return set()

            loser = LobbyService(first, MatchService(first, lambda record: None),
                                 gone=the_other_round_pairs_first)
            bobs = loser.create_seek(identity_of(first.get(User, bob_id)), "stairs", kind="quick")
            assert loser.pair_waiting() == 0
        with sessions() as reading:
            alices, bobs_now = (reading.get(Seek, seek_id) for seek_id in (waiting["id"], bobs["id"]))
            assert alices is not None and bobs_now is not None
            assert (alices.status, bobs_now.status) == ("matched", "matched")
            assert bobs_now.match_id is not None and bobs_now.match_id == alices.match_id
    finally:
        engine.dispose()
