"""Finding someone to challenge: GET /api/v1/users?q= and a challenge's seat."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_guest
from tests.lobby.test_lobby import make_account

pytestmark = pytest.mark.both_databases  # the database is under test here


def test_search_finds_accounts_by_part_of_the_name_exact_and_prefix_first(client: TestClient) -> None:
    for username in ("maki_ota", "tamaki", "maki"):
        make_account(client, username)
    make_guest(client, "maki the guest")
    found = client.get("/api/v1/users", params={"q": "MAKI"}).json()
    assert [user["username"] for user in found] == ["maki", "maki_ota", "tamaki"]
    assert all(user["kind"] == "account" for user in found), "guests cannot be challenged"


def test_search_treats_like_wildcards_as_letters(client: TestClient) -> None:
    make_account(client, "a_b")
    make_account(client, "axb")
    assert [u["username"] for u in client.get("/api/v1/users", params={"q": "a_"}).json()] == ["a_b"]
    assert client.get("/api/v1/users", params={"q": "%"}).json() == []
    assert client.get("/api/v1/users", params={"q": ""}).json() == []


def test_search_refuses_an_overlong_query(client: TestClient) -> None:
    response = client.get("/api/v1/users", params={"q": "x" * 51})
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"


def test_a_challenge_keeps_the_challengers_seat(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    sent = client.post("/api/v1/challenges", json={"user": "ben", "game": "stairs", "seat": 1,
                                                   "time_control": {"kind": "realtime", "minutes": 5,
                                                                    "increment": 3}},
                       headers=aiko).json()
    match_id = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ben).json()["match_id"]
    match = client.get(f"/api/v1/matches/{match_id}", headers=aiko).json()
    assert match["your_seat"] == 1
    assert match["time_control"]["minutes"] == 5
