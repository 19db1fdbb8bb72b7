"""Accounts, guests turning into accounts, profiles, ratings and leaderboards."""

from __future__ import annotations

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from tests.conftest import make_guest
from tests.lobby.test_lobby import make_account


def test_register_and_log_in(client: TestClient) -> None:
    made = client.post("/api/v1/accounts", json={"username": "Aiko", "password": "s3cret-pass",
                                                 "name": "Aiko T."})
    assert made.status_code == 201 and made.json()["user"]["kind"] == "account"
    login = client.post("/api/v1/login", json={"username": "aiko", "password": "s3cret-pass"})
    assert login.status_code == 200 and login.json()["user"]["name"] == "Aiko T."
    wrong = client.post("/api/v1/login", json={"username": "aiko", "password": "nope-nope"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"


def test_usernames_are_unique_ignoring_case_and_passwords_long_enough(client: TestClient) -> None:
    make_account(client, "aiko")
    taken = client.post("/api/v1/accounts", json={"username": "AIKO", "password": "long enough"})
    assert taken.status_code == 409 and taken.json()["code"] == "username_taken"
    short = client.post("/api/v1/accounts", json={"username": "ben", "password": "short"})
    assert short.status_code == 422 and short.json()["code"] == "weak_password"
    bad = client.post("/api/v1/accounts", json={"username": "a b", "password": "long enough"})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_username"


def test_passwords_are_stored_hashed(client: TestClient) -> None:
    from app.db.models import User

    make_account(client, "hashy")
    with client.app.state.session_factory() as session:
        user = session.query(User).filter_by(username="hashy").one()
    assert user.password_hash.startswith("$argon2") and "correct horse" not in user.password_hash


def test_a_guest_becomes_an_account_and_keeps_its_games(client: TestClient) -> None:
    guest, other = make_guest(client, "Guesty"), make_guest(client, "Other")
    match = client.post("/api/v1/matches", json={"game": "stairs"}, headers=guest).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=other)
    upgraded = client.post("/api/v1/accounts", json={"username": "guesty",
                                                     "password": "a good password"},
                           headers=guest).json()
    guest_id = client.get("/api/v1/me", headers=guest).json()["id"]
    assert upgraded["user"]["id"] == guest_id and upgraded["user"]["kind"] == "account"
    profile = client.get("/api/v1/users/guesty").json()
    assert [g["id"] for g in profile["recent"]] == [match["id"]]


def test_rated_result_updates_ratings_like_openskill(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    seek = client.post("/api/v1/seeks", json={"game": "sight", "rated": True, "seat": 0},
                       headers=aiko).json()
    match_id = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=ben).json()["match_id"]
    finished = client.post(f"/api/v1/matches/{match_id}/resign", headers=ben).json()
    assert finished["rated"] and finished["result"]["winners"] == [0]
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    aiko_rating = client.get("/api/v1/users/aiko").json()["ratings"]["sight"]
    ben_rating = client.get("/api/v1/users/ben").json()["ratings"]["sight"]
    assert abs(aiko_rating["mu"] - winner.mu) < 1e-9 and abs(aiko_rating["sigma"] - winner.sigma) < 1e-9
    assert abs(ben_rating["mu"] - loser.mu) < 1e-9
    assert aiko_rating["games"] == 1 and aiko_rating["provisional"]
    board = client.get("/api/v1/leaderboards/sight").json()
    assert [row["user"]["username"] for row in board] == ["aiko", "ben"]


def test_casual_results_leave_ratings_alone(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    seek = client.post("/api/v1/seeks", json={"game": "sight"}, headers=aiko).json()
    match_id = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=ben).json()["match_id"]
    client.post(f"/api/v1/matches/{match_id}/resign", headers=ben)
    assert client.get("/api/v1/users/aiko").json()["ratings"] == {}
    assert client.get("/api/v1/users/aiko").json()["games_played"] == 1


def test_live_games_and_replay(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = client.post("/api/v1/matches", json={"game": "stairs", "seat": 0}, headers=alice).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=bob)
    move = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()["legal_moves"][0]
    client.post(f"/api/v1/matches/{match['id']}/moves", json={"move": move, "ply": 0}, headers=alice)
    live = client.get("/api/v1/live").json()
    assert [m["id"] for m in live] == [match["id"]] and live[0]["legal_moves"] == []
    frames = client.get(f"/api/v1/matches/{match['id']}/replay").json()
    assert [f["ply"] for f in frames] == [0, 1] and frames[1]["move"] == move
    assert frames[0]["view"]["heights"] != frames[1]["view"]["heights"]


def test_a_rated_game_ended_by_a_move_rates_both_players(client: TestClient) -> None:
    """The last move of a rated game writes the move, the result and both ratings together (on
    PostgreSQL a move is otherwise written in one statement outside a transaction: this one is
    played in a transaction instead)."""
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    seek = client.post("/api/v1/seeks", json={"game": "sight", "rated": True, "seat": 0},
                       headers=aiko).json()
    match_id = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=ben).json()["match_id"]
    url = f"/api/v1/matches/{match_id}"
    match = client.get(url, headers=aiko).json()
    while match["status"] == "active":
        mover = [aiko, ben][match["to_move"]]
        legal = client.get(url, headers=mover).json()["legal_moves"]
        match = client.post(f"{url}/moves", json={"move": legal[0], "ply": match["ply"]},
                            headers=mover).json()
        assert "code" not in match, match
    assert match["status"] == "finished" and match["rated"]
    ratings = [client.get(f"/api/v1/users/{name}").json()["ratings"]["sight"]
               for name in ("aiko", "ben")]
    assert [r["games"] for r in ratings] == [1, 1]
    moves = client.get(f"{url}/moves").json()
    assert [m["ply"] for m in moves] == list(range(1, match["ply"] + 1))
