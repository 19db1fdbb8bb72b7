"""Whatever a client sends, the API answers with a JSON error and a 4xx, never a 500, and the
match is left unchanged."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_guest

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(move=st.text(max_size=40), ply=st.integers(-5, 5))
def test_any_move_string_is_a_clear_error_or_a_legal_move(client: TestClient, match: dict[str, Any],
                                                          alice: dict[str, str], move: str,
                                                          ply: int) -> None:
    url = f"/api/v1/matches/{match['id']}"
    before = client.get(url).json()
    response = client.post(f"{url}/moves", json={"move": move, "ply": ply}, headers=alice)
    assert response.status_code < 500
    if response.status_code != 200:
        body = response.json()
        assert body["code"] and body["message"]
        assert client.get(url).json()["ply"] == before["ply"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON_VALUES)
def test_any_json_body_to_create_is_a_clear_error(client: TestClient, alice: dict[str, str],
                                                  body: Any) -> None:
    for path in ("/api/v1/matches", "/api/v1/seeks", "/api/v1/guests", "/api/v1/accounts"):
        response = client.post(path, json=body, headers=alice)
        assert response.status_code < 500, (path, body, response.text)
        if response.status_code >= 400:
            assert {"code", "message"} <= set(response.json())


def test_a_boolean_is_not_a_ply_or_a_seat(client: TestClient) -> None:
    """JSON ``false`` is not the integer 0 (schemathesis found a move accepted with ``ply: false``)."""
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    created = client.post("/api/v1/matches", json={"game": "stairs"}, headers=alice).json()
    assert client.post(f"/api/v1/matches/{created['id']}/join", json={"seat": True},
                       headers=bob).status_code == 422
    client.post(f"/api/v1/matches/{created['id']}/join", headers=bob)
    move = client.get(f"/api/v1/matches/{created['id']}", headers=alice).json()["legal_moves"][0]
    answer = client.post(f"/api/v1/matches/{created['id']}/moves",
                         json={"move": move, "ply": False}, headers=alice)
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"
    for body in ({"game": "stairs", "players": True}, {"game": "stairs", "seat": False}):
        assert client.post("/api/v1/matches", json=body, headers=alice).status_code == 422


def test_a_challenge_to_a_name_with_a_nul_character_is_a_404(client: TestClient) -> None:
    """PostgreSQL refuses NUL in text: such a name can name nobody (schemathesis found a 500)."""
    alice = make_guest(client, "Alice")
    answer = client.post("/api/v1/challenges", json={"user": "\u0000>x", "game": "stairs"},
                         headers=alice)
    assert answer.status_code == 404 and answer.json()["code"] == "no_user"


def test_a_challenge_to_an_id_no_row_can_hold_is_a_404(client: TestClient) -> None:
    """A user id past the id column's range (PostgreSQL raised: schemathesis found a 500), or in
    digits other than ASCII ones (``int`` refused them), names nobody."""
    alice = make_guest(client, "Alice")
    for name in ("999999999999999999999999999999", "2147483648", "²", "١٢"):
        answer = client.post("/api/v1/challenges", json={"user": name, "game": "stairs"},
                             headers=alice)
        assert answer.status_code == 404 and answer.json()["code"] == "no_user", (name, answer.text)
