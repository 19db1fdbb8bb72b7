"""The HTTP contract around the routes: 405 names the allowed methods, malformed bodies are 422
like every other invalid request, display names have one length rule, and every error status the
API can answer is declared in the OpenAPI document."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.kernel.identity import MAX_NAME_LENGTH
from tests.conftest import make_guest

DECLARED_ERRORS = {"400", "401", "403", "404", "409", "422", "429", "503"}


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("DELETE", "/api/v1/games", {"GET"}),
    ("PUT", "/api/v1/guests", {"POST"}),
    ("PATCH", "/api/v1/seeks", {"GET", "POST"}),
])
def test_405_carries_allow(client: TestClient, method: str, path: str, allowed: set[str]) -> None:
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert {m.strip() for m in response.headers["allow"].split(",")} >= allowed


@pytest.mark.parametrize("body", [b'{"name": "\xff"}', b'"\xc3', b"{bad", b"\xff\xfe"])
def test_malformed_bodies_are_422_invalid_request(client: TestClient, body: bytes) -> None:
    response = client.post("/api/v1/guests", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_request"


def test_display_names_have_one_length_rule(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()["components"]["schemas"]
    assert spec["GuestIn"]["properties"]["name"]["maxLength"] == MAX_NAME_LENGTH
    account_name = spec["AccountIn"]["properties"]["name"]
    assert MAX_NAME_LENGTH in [branch.get("maxLength") for branch in account_name.get("anyOf", [])]
    longest = "N" * MAX_NAME_LENGTH
    assert client.post("/api/v1/guests", json={"name": longest}).status_code == 201
    too_long = client.post("/api/v1/guests", json={"name": longest + "N"})
    assert too_long.status_code == 422
    account = client.post("/api/v1/accounts", json={"username": "namer", "password": "sesame123",
                                                    "name": longest + "N"})
    assert account.status_code == 422


def test_every_api_operation_declares_its_error_statuses(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    missing = {}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            declared = set(operation["responses"])
            if not declared >= DECLARED_ERRORS:
                missing[f"{method.upper()} {path}"] = sorted(DECLARED_ERRORS - declared)
            for status in DECLARED_ERRORS & declared:
                content = operation["responses"][status].get("content", {})
                schema = content.get("application/json", {}).get("schema", {})
                assert schema.get("$ref", "").endswith("/ErrorOut"), (path, method, status)
    assert not missing, missing


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/api/v1/matches/{match}/chat/99999999999999999999999/report"),
    ("POST", "/api/v1/matches/{match}/chat/-1/report"),
    ("DELETE", "/api/v1/tokens/99999999999999999999"),
    ("PUT", "/api/v1/me/mutes/99999999999999999999"),
    ("DELETE", "/api/v1/me/blocks/99999999999999999999"),
])
@pytest.mark.both_databases
def test_row_ids_out_of_any_database_range_are_a_4xx(client: TestClient, method: str,
                                                     path: str) -> None:
    """Schemathesis found a 500 on PostgreSQL: an id beyond its integer range reached the query."""
    headers = make_guest(client, "Ids")
    match = client.post("/api/v1/matches", json={"game": "stairs"}, headers=headers).json()["id"]
    response = client.request(method, path.format(match=match), headers=headers)
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["code"]
