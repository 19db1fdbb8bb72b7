"""The push API's doors: who may add, list and remove a device, and what a subscription must be."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from app.notices.push_subscriptions import MAX_DEVICES
from tests.conftest import make_guest
from tests.notices.push_service import Device
from tests.notices.test_push import VAPID_PEM


@pytest.fixture
def strict_client(database_url: str) -> Iterator[TestClient]:
    """As deployed: https endpoints only."""
    settings = Settings(database_url=database_url, secret_key="test-secret", vapid_private_key=VAPID_PEM,
                        bots_enabled=False, analysis_workers=0)
    with TestClient(create_app(settings)) as client:
        yield client


def device(endpoint: str = "https://push.example.net/send/abc") -> dict[str, Any]:
    return Device("d", endpoint).subscription


def account(client: TestClient, username: str) -> dict[str, str]:
    made = client.post("/api/v1/accounts", json={"username": username, "password": "a long password 1"})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


def test_add_list_and_remove_a_device(strict_client: TestClient) -> None:
    alice = make_guest(strict_client, "Alice")
    added = strict_client.post("/api/v1/push/subscriptions", json=device(), headers={
        **alice, "User-Agent": "Mozilla/5.0 (Android 14) Firefox/133.0"})
    assert added.status_code == 201, added.text
    assert set(added.json()) == {"id"}
    [listed] = strict_client.get("/api/v1/push/subscriptions", headers=alice).json()
    assert listed["id"] == added.json()["id"] and listed["host"] == "push.example.net"
    assert listed["label"] == "Firefox · Android" and "p256dh" not in listed and "endpoint" not in listed
    gone = strict_client.delete(f"/api/v1/push/subscriptions/{listed['id']}", headers=alice)
    assert gone.status_code == 204
    assert strict_client.get("/api/v1/push/subscriptions", headers=alice).json() == []
    again = strict_client.delete(f"/api/v1/push/subscriptions/{listed['id']}", headers=alice)
    assert again.status_code == 404 and again.json()["code"] == "subscription_not_found"


def test_the_same_endpoint_twice_is_one_device(strict_client: TestClient) -> None:
    alice = make_guest(strict_client, "Alice")
    first = strict_client.post("/api/v1/push/subscriptions", json=device(), headers=alice).json()
    second = strict_client.post("/api/v1/push/subscriptions", json=device(), headers=alice).json()
    assert first == second
    assert len(strict_client.get("/api/v1/push/subscriptions", headers=alice).json()) == 1


def test_someone_elses_device_is_not_found_and_stays(strict_client: TestClient) -> None:
    alice, mallory = make_guest(strict_client, "Alice"), make_guest(strict_client, "Mallory")
    added = strict_client.post("/api/v1/push/subscriptions", json=device(), headers=alice).json()
    refused = strict_client.delete(f"/api/v1/push/subscriptions/{added['id']}", headers=mallory)
    assert refused.status_code == 404
    assert strict_client.get("/api/v1/push/subscriptions", headers=mallory).json() == []
    assert len(strict_client.get("/api/v1/push/subscriptions", headers=alice).json()) == 1


def test_a_scoped_token_cannot_add_or_see_devices(strict_client: TestClient) -> None:
    owner = account(strict_client, "aiko")
    made = strict_client.post("/api/v1/tokens", json={"description": "reader", "scopes": ["read", "play"]},
                              headers=owner)
    assert made.status_code == 201, made.text
    reader = {"Authorization": f"Bearer {made.json()['token']}"}
    refused = strict_client.post("/api/v1/push/subscriptions", json=device(), headers=reader)
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert strict_client.get("/api/v1/push/subscriptions", headers=reader).status_code == 403
    assert strict_client.get("/api/v1/notices/preferences", headers=reader).status_code == 200
    assert strict_client.patch("/api/v1/notices/preferences", json={"push": {"yourTurn": False}},
                               headers=reader).status_code == 403
    anonymous = strict_client.post("/api/v1/push/subscriptions", json=device())
    assert anonymous.status_code == 401
    assert strict_client.get("/api/v1/push/key").status_code == 200  # public


@pytest.mark.parametrize("endpoint", [
    "http://push.example.net/send/abc",  # not https
    "https://127.0.0.1/send",  # the server's own machine
    "https://10.0.0.7/send",  # its network
    "https://[::1]/send",
    "https://localhost:8443/send",
    "ftp://push.example.net/x",
])
def test_endpoints_the_worker_must_not_post_to_are_refused(strict_client: TestClient,
                                                            endpoint: str) -> None:
    alice = make_guest(strict_client, "Alice")
    refused = strict_client.post("/api/v1/push/subscriptions", json=device(endpoint), headers=alice)
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_endpoint", refused.text


@pytest.mark.parametrize("keys", [
    {"p256dh": "short", "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
    {"p256dh": "B" * 87, "auth": "AAAAAAAAAAAAAAAAAAAAAA"},  # 65 bytes, 0x04 first, off the curve
    {"p256dh": None, "auth": "x"},
])
def test_keys_that_are_not_a_browsers_are_refused(strict_client: TestClient, keys: dict[str, Any]) -> None:
    alice = make_guest(strict_client, "Alice")
    body = {**device(), "keys": keys}
    refused = strict_client.post("/api/v1/push/subscriptions", json=body, headers=alice)
    assert refused.status_code == 422 and "code" in refused.json(), refused.text


def test_a_person_has_at_most_so_many_devices(strict_client: TestClient) -> None:
    alice = make_guest(strict_client, "Alice")
    for n in range(MAX_DEVICES):
        assert strict_client.post("/api/v1/push/subscriptions", json=device(f"https://push.example.net/{n}"),
                                  headers=alice).status_code == 201
    refused = strict_client.post("/api/v1/push/subscriptions", json=device("https://push.example.net/x"),
                                 headers=alice)
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_devices"


def test_unknown_kinds_and_channels_are_refused(strict_client: TestClient) -> None:
    alice = make_guest(strict_client, "Alice")
    assert strict_client.patch("/api/v1/notices/preferences", json={"push": {"nonsense": True}},
                               headers=alice).status_code == 422
    assert strict_client.patch("/api/v1/notices/preferences", json={"sms": {"yourTurn": True}},
                               headers=alice).status_code == 422
    for body in ({"push": {"yourTurn": 0}}, {"mail": {"yourTurn": False}}):  # the schema's words
        assert strict_client.patch("/api/v1/notices/preferences", json=body,
                                   headers=alice).status_code == 422, body
    shown = strict_client.get("/api/v1/notices/preferences", headers=alice).json()
    assert shown["push"]["yourTurn"] is True and set(shown) == {"push", "mail"}


def test_the_manifest_and_service_worker_are_served(strict_client: TestClient) -> None:
    manifest = strict_client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    assert {icon["purpose"] for icon in body["icons"]} == {"any", "maskable"}
    for icon in body["icons"]:
        served = strict_client.get(icon["src"])
        assert served.status_code == 200 and served.content[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(served.content[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]
    worker = strict_client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert "__STATIC_VERSION__" not in worker.text and "stepwell-" in worker.text
    assert strict_client.get("/offline").status_code == 200
    assert 'rel="manifest"' in strict_client.get("/").text
