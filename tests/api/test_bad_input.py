"""Whatever a client sends, the API answers with a JSON error and a 4xx, never a 500, and the
match is left unchanged."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
