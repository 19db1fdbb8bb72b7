"""Personal API tokens: shown once, listed without secrets, scoped, expiring, revoked at once."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.kernel import timesource
from tests.conftest import make_guest, start_match


def make_account(client: TestClient, username: str) -> dict[str, str]:
    response = client.post("/api/v1/accounts", json={"username": username,
                                                      "password": "correct horse"})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def make_token(client: TestClient, owner: dict[str, str], scopes: list[str],
               **extra: object) -> dict[str, str]:
    response = client.post("/api/v1/tokens", headers=owner,
                           json={"description": "my bot", "scopes": scopes, **extra})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def test_a_token_is_shown_once_and_listed_without_its_secret(client: TestClient) -> None:
    owner = make_account(client, "aiko")
    created = client.post("/api/v1/tokens", headers=owner, json={
        "description": "  my   bot ", "scopes": ["play", "read"]}).json()
    assert created["token"].startswith("swp_") and created["scopes"] == ["read", "play"]
    assert created["description"] == "my bot" and created["expires_at"] is None
    listed = client.get("/api/v1/tokens", headers=owner).json()
    assert [t["id"] for t in listed] == [created["id"]]  # the login token is not listed
    assert "token" not in listed[0] and created["token"] not in str(listed)
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {created['token']}"})
    assert me.status_code == 200 and me.json()["name"] == "aiko"


def test_guests_have_no_personal_tokens(client: TestClient) -> None:
    response = client.post("/api/v1/tokens", headers=make_guest(client, "Gus"),
                           json={"description": "x", "scopes": ["read"]})
    assert response.status_code == 403 and response.json()["code"] == "tokens_need_account"


@pytest.mark.parametrize("body", [{"description": "x", "scopes": []},
                                  {"description": "x", "scopes": ["admin"]},
                                  {"description": "x", "scopes": ["read"], "expires_in": 5},
                                  {"description": "p\u0000q", "scopes": ["read"]}])  # a 500 on PG
def test_bad_token_requests_are_422(client: TestClient, body: dict[str, object]) -> None:
    response = client.post("/api/v1/tokens", headers=make_account(client, "aiko"), json=body)
    assert response.status_code == 422


def test_a_scoped_token_cannot_manage_tokens(client: TestClient) -> None:
    owner = make_account(client, "aiko")
    token = make_token(client, owner, ["read", "play", "challenge"])
    for method, path in (("get", "/api/v1/tokens"), ("post", "/api/v1/tokens")):
        response = client.request(method, path, headers=token,
                                  json={"description": "x", "scopes": ["read"]})
        assert response.status_code == 403 and response.json()["code"] == "missing_scope"


def test_a_read_only_token_reads_but_cannot_play_or_challenge(client: TestClient) -> None:
    owner, bob = make_account(client, "aiko"), make_guest(client, "Bob")
    reader = make_token(client, owner, ["read"])
    match = start_match(client, owner, bob)
    assert client.get(f"/api/v1/matches/{match['id']}", headers=reader).json()["your_seat"] == 0
    move = client.post(f"/api/v1/matches/{match['id']}/moves", headers=reader,
                       json={"move": "c3-d4", "ply": 0})
    assert move.status_code == 403 and move.json()["code"] == "missing_scope"
    create = client.post("/api/v1/matches", headers=reader, json={"game": "stairs"})
    assert create.status_code == 403 and create.json()["code"] == "missing_scope"


def test_play_and_challenge_scopes_split_the_writes(client: TestClient) -> None:
    owner = make_account(client, "aiko")
    make_account(client, "bob")
    player, challenger = make_token(client, owner, ["play"]), make_token(client, owner, ["challenge"])
    refused = client.post("/api/v1/challenges", headers=player, json={"user": "bob", "game": "sight"})
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert client.post("/api/v1/challenges", headers=challenger,
                       json={"user": "bob", "game": "sight"}).status_code == 201
    match = start_match(client, challenger, make_guest(client, "Bob"))
    unread = client.get(f"/api/v1/matches/{match['id']}", headers=player)
    assert unread.status_code == 403 and unread.json()["code"] == "missing_scope"  # read reads
    reader = make_token(client, owner, ["read"])
    legal = client.get(f"/api/v1/matches/{match['id']}", headers=reader).json()["legal_moves"]
    no_play = client.post(f"/api/v1/matches/{match['id']}/moves", headers=challenger,
                          json={"move": legal[0], "ply": 0})
    assert no_play.status_code == 403 and no_play.json()["code"] == "missing_scope"
    played = client.post(f"/api/v1/matches/{match['id']}/moves", headers=player,
                         json={"move": legal[0], "ply": 0})
    assert played.status_code == 200, played.text
    assert client.post(f"/api/v1/matches/{match['id']}/resign",
                       headers=player).status_code == 200


def test_a_revoked_token_fails_at_once(client: TestClient) -> None:
    owner = make_account(client, "aiko")
    created = client.post("/api/v1/tokens", headers=owner,
                          json={"description": "x", "scopes": ["read"]}).json()
    token = {"Authorization": f"Bearer {created['token']}"}
    assert client.get("/api/v1/me", headers=token).status_code == 200
    assert client.delete(f"/api/v1/tokens/{created['id']}", headers=owner).status_code == 204
    after = client.get("/api/v1/me", headers=token)
    assert after.status_code == 401 and after.json()["code"] == "invalid_token"
    assert client.get("/api/v1/tokens", headers=owner).json() == []


def test_only_the_owner_can_revoke_a_token(client: TestClient) -> None:
    owner, other = make_account(client, "aiko"), make_account(client, "bob")
    created = client.post("/api/v1/tokens", headers=owner,
                          json={"description": "x", "scopes": ["read"]}).json()
    response = client.delete(f"/api/v1/tokens/{created['id']}", headers=other)
    assert response.status_code == 404 and response.json()["code"] == "no_token"


def test_an_expired_token_stops_working(client: TestClient) -> None:
    owner = make_account(client, "aiko")
    clock = timesource.FakeClock(timesource.system_now())
    with timesource.use(clock):
        token = make_token(client, owner, ["read"], expires_in=60)
        assert client.get("/api/v1/me", headers=token).status_code == 200
        clock.advance(61)
        expired = client.get("/api/v1/me", headers=token)
    assert expired.status_code == 401 and expired.json()["code"] == "invalid_token"


def test_session_and_guest_tokens_keep_full_access(client: TestClient) -> None:
    guest, other = make_guest(client, "Gus"), make_guest(client, "Hana")
    match = start_match(client, guest, other)
    move = client.get(f"/api/v1/matches/{match['id']}", headers=guest).json()["legal_moves"][0]
    assert client.post(f"/api/v1/matches/{match['id']}/moves", headers=guest,
                       json={"move": move, "ply": 0}).status_code == 200
