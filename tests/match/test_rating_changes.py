"""A rated game's result says what it did to each seat's rating (before, after, delta), in the
payload and in the socket's result message; a casual game's result says nothing of ratings."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import make_guest
from tests.lobby.test_lobby import make_account


def _started(client: TestClient, creator: dict[str, str], joiner: dict[str, str],
             rated: bool) -> str:
    seek = client.post("/api/v1/seeks", json={"game": "stairs", "rated": rated, "seat": 0},
                       headers=creator).json()
    accepted = client.post(f"/api/v1/seeks/{seek['id']}/accept", headers=joiner).json()
    return str(accepted["match_id"])


def test_a_rated_result_carries_each_seats_rating_change(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    match_id = _started(client, aiko, ben, rated=True)
    token = aiko["Authorization"].split()[1]
    with client.websocket_connect(f"/api/v1/matches/{match_id}/ws?token={token}") as socket:
        assert client.post(f"/api/v1/matches/{match_id}/resign", headers=ben).status_code == 200
        while (message := socket.receive_json())["type"] != "result":
            pass
    changes = {row["seat"]: row for row in message["result"]["rating_changes"]}
    assert changes[0]["before"] == changes[1]["before"] == 25.0
    assert changes[0]["after"] > 25.0 > changes[1]["after"]
    assert changes[0]["delta"] == round(changes[0]["after"] - 25.0, 1) > 0
    assert changes[1]["delta"] < 0
    state = client.get(f"/api/v1/matches/{match_id}", headers=ben).json()
    assert state["result"]["rating_changes"] == message["result"]["rating_changes"]
    profile = client.get("/api/v1/users/aiko").json()["ratings"]["stairs"]
    assert round(profile["mu"], 1) == changes[0]["after"]


def test_a_casual_result_has_no_rating_change(client: TestClient) -> None:
    ann, bob = make_guest(client, "Ann"), make_guest(client, "Bob")
    match_id = _started(client, ann, bob, rated=False)
    assert client.post(f"/api/v1/matches/{match_id}/resign", headers=bob).status_code == 200
    result = client.get(f"/api/v1/matches/{match_id}").json()["result"]
    assert result["winners"] == [0] and result.get("rating_changes") is None
