"""Challenges: to several players (3–4-player Town), declined with a reason, cancelled through
the challenge endpoint, and who may do what."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import make_guest
from tests.lobby.test_lobby import make_account


def _challenge(client: TestClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/challenges", json={"game": "town", **body}, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_town_challenge_to_two_players_starts_when_both_accept(client: TestClient) -> None:
    aiko, ben, chie = (make_account(client, name) for name in ("aiko", "ben", "chie"))
    sent = _challenge(client, aiko, users=["ben", "chie"], seat=0)
    assert sent["seats"] == 3 and sent["status"] == "open"
    assert [t["username"] for t in sent["targets"]] == ["ben", "chie"]
    assert sent["target"]["username"] == "ben"
    for invited in (ben, chie):
        assert [c["id"] for c in client.get("/api/v1/challenges", headers=invited).json()] \
            == [sent["id"]]
    first = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=chie).json()
    assert first["status"] == "open" and [j["name"] for j in first["joined"]] == ["aiko", "chie"]
    again = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=chie)
    assert again.status_code == 409 and again.json()["code"] == "already_joined"
    last = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ben).json()
    assert last["status"] == "matched"
    match = client.get(f"/api/v1/matches/{last['match_id']}", headers=aiko).json()
    assert match["status"] == "active" and match["your_seat"] == 0 and len(match["seats"]) == 3
    assert {s["user"]["name"] for s in match["seats"]} == {"aiko", "ben", "chie"}


def test_a_four_player_challenge_seats_built_in_bots_at_once(client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    sent = _challenge(client, aiko, users=["bot-easy", "ben", "bot-easy"])
    assert sent["seats"] == 4 and sent["status"] == "open"
    assert len(sent["joined"]) == 3, "both bots accepted at once (the second is a copy)"
    done = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ben).json()
    match = client.get(f"/api/v1/matches/{done['match_id']}", headers=ben).json()
    assert sorted(s["user"]["kind"] for s in match["seats"]) == ["account", "account", "bot", "bot"]


def test_one_decline_ends_the_challenge_for_everyone_with_its_reason(client: TestClient) -> None:
    aiko, ben, chie = (make_account(client, name) for name in ("aiko", "ben", "chie"))
    sent = _challenge(client, aiko, users=["ben", "chie"])
    client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ben).raise_for_status()
    declined = client.post(f"/api/v1/challenges/{sent['id']}/decline", headers=chie,
                           json={"reason": "tooSlow"}).json()
    assert declined["status"] == "declined" and declined["decline_reason"] == "tooSlow"
    assert declined["declined_by"]["name"] == "chie"
    late = client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=ben)
    assert late.status_code == 409 and late.json()["code"] == "seek_closed"
    assert client.get("/api/v1/challenges", headers=aiko).json() == []


def test_a_decline_without_a_body_is_generic_and_unknown_reasons_are_refused(
        client: TestClient) -> None:
    aiko, ben = make_account(client, "aiko"), make_account(client, "ben")
    sent = _challenge(client, aiko, user="ben", game="stairs")
    odd = client.post(f"/api/v1/challenges/{sent['id']}/decline", headers=ben,
                      json={"reason": "boring"})
    assert odd.status_code == 422 and odd.json()["code"] == "invalid_request"
    plain = client.post(f"/api/v1/challenges/{sent['id']}/decline", headers=ben).json()
    assert plain["status"] == "declined" and plain["decline_reason"] == "generic"


def test_the_creator_cancels_through_the_challenge_endpoint(client: TestClient) -> None:
    aiko, ben, carol = make_account(client, "aiko"), make_account(client, "ben"), \
        make_guest(client, "Carol")
    sent = _challenge(client, aiko, user="ben", game="stairs")
    for other in (ben, carol):
        refused = client.post(f"/api/v1/challenges/{sent['id']}/cancel", headers=other)
        assert refused.status_code == 403 and refused.json()["code"] == "not_your_seek"
    cancelled = client.post(f"/api/v1/challenges/{sent['id']}/cancel", headers=aiko).json()
    assert cancelled["status"] == "cancelled"
    twice = client.post(f"/api/v1/challenges/{sent['id']}/cancel", headers=aiko)
    assert twice.status_code == 409 and twice.json()["code"] == "seek_closed"
    seek = client.post("/api/v1/seeks", json={"game": "stairs"}, headers=aiko).json()
    not_a_challenge = client.post(f"/api/v1/challenges/{seek['id']}/cancel", headers=aiko)
    assert not_a_challenge.status_code == 404
    assert client.get("/api/v1/seeks").json()[0]["status"] == "open"


def test_strangers_neither_accept_nor_decline_nor_see_a_challenge(client: TestClient) -> None:
    aiko, _ben, chie = (make_account(client, name) for name in ("aiko", "ben", "chie"))
    dan = make_account(client, "dan")
    sent = _challenge(client, aiko, users=["ben", "chie"])
    for verb in ("accept", "decline"):
        refused = client.post(f"/api/v1/challenges/{sent['id']}/{verb}", headers=dan)
        assert refused.status_code == 403 and refused.json()["code"] == "not_your_challenge"
    own = client.post(f"/api/v1/challenges/{sent['id']}/decline", headers=aiko)
    assert own.status_code == 403
    assert client.get("/api/v1/challenges", headers=dan).json() == []
    assert client.get("/api/v1/seeks", headers=dan).json() == []
    assert [s["id"] for s in client.get("/api/v1/seeks", headers=chie).json()] == [sent["id"]]


def test_who_and_how_many_may_be_challenged(client: TestClient) -> None:
    aiko, _ben = make_account(client, "aiko"), make_account(client, "ben")
    cases = [
        ({"users": ["ben", "ben"]}, 422, "duplicate_invitee"),
        ({"users": ["ben", "aiko"]}, 422, "self_challenge"),
        ({"users": ["ben"], "user": "ben"}, 422, "invalid_request"),
        ({}, 422, "invalid_request"),
        ({"users": []}, 422, "invalid_request"),
        ({"users": ["ben", "bot-easy"], "game": "stairs"}, 422, None),  # Stairs is for two
        ({"users": ["ben", "bot-easy", "bot-easy", "bot-easy"]}, 422, None),  # Town: at most 4
    ]
    for body, status, code in cases:
        response = client.post("/api/v1/challenges", json={"game": "town", **body}, headers=aiko)
        assert response.status_code == status, (body, response.text)
        if code:
            assert response.json()["code"] == code, (body, response.text)
    assert client.get("/api/v1/challenges", headers=aiko).json() == []
