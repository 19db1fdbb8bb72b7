"""The one gate, tried as an attacker would: scoped tokens on pages and account doors, copied
cookies after logout, cookie writes without CSRF, and made-up tokens against the rate limits."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.conftest import make_guest, start_match

LIMIT_OF = {"/api/v1/analysis/board": "board", "/api/v1/analysis/hint": "hints",
            "/api/v1/analysis/import": "board"}


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def _account(client: TestClient, username: str) -> dict[str, str]:
    response = client.post("/api/v1/accounts", json={"username": username,
                                                      "password": "correct horse"})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def _token(client: TestClient, owner: dict[str, str], scopes: list[str]) -> dict[str, str]:
    response = client.post("/api/v1/tokens", headers=owner,
                           json={"description": "probe", "scopes": scopes})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def _browser_signup(client: TestClient, username: str) -> str:
    csrf = _csrf(client.get("/signup").text)
    done = client.post("/signup", data={"csrf": csrf, "username": username,
                                        "password": "correct horse"}, follow_redirects=False)
    assert done.status_code == 303, done.text
    return csrf


def test_a_read_token_cannot_use_the_token_pages(client: TestClient) -> None:
    owner = _account(client, "aiko")
    reader = _token(client, owner, ["read"])
    page = client.get("/account/tokens", headers=reader, follow_redirects=False)
    assert page.status_code == 303  # a page never looks at a bearer token: not signed in
    minted = client.post("/account/tokens", headers=reader, data={
        "description": "escalate", "scopes": ["read", "play", "challenge"]})
    assert minted.status_code == 403
    assert [t["description"] for t in client.get("/api/v1/tokens", headers=owner).json()] == [
        "probe"]


def test_a_read_token_cannot_revoke_tokens_or_create_matches_through_pages(
        client: TestClient) -> None:
    owner = _account(client, "aiko")
    reader, other = _token(client, owner, ["read"]), _token(client, owner, ["play"])
    other_id = client.get("/api/v1/tokens", headers=owner).json()[1]["id"]
    assert client.post(f"/account/tokens/{other_id}/revoke", headers=reader,
                       follow_redirects=False).status_code == 403
    assert client.get("/api/v1/me", headers={**other}).status_code == 403  # alive, just unscoped
    assert client.post("/play", headers=reader, data={"game": "stairs"},
                       follow_redirects=False).status_code == 403
    assert client.get("/api/v1/me/matches", headers=owner).json() == []


def test_scoped_tokens_cannot_manage_tokens_or_relations(client: TestClient) -> None:
    owner, other = _account(client, "aiko"), _account(client, "bob")
    bob_id = client.get("/api/v1/me", headers=other).json()["id"]
    everything = _token(client, owner, ["read", "play", "challenge", "bot"])
    for method, path in (("get", "/api/v1/tokens"), ("post", "/api/v1/tokens"),
                         ("put", f"/api/v1/me/blocks/{bob_id}")):
        response = client.request(method, path, headers=everything,
                                  json={"description": "x", "scopes": ["read"]})
        assert response.status_code == 403, (path, response.text)
        assert response.json()["code"] == "missing_scope"


def test_reading_needs_the_read_scope(client: TestClient) -> None:
    owner = _account(client, "aiko")
    match = start_match(client, owner, make_guest(client, "Bob"))
    player = _token(client, owner, ["play"])
    for path in (f"/api/v1/matches/{match['id']}", "/api/v1/me", "/api/v1/me/matches",
                 f"/api/v1/matches/{match['id']}/moves"):
        response = client.get(path, headers=player)
        assert response.status_code == 403 and response.json()["code"] == "missing_scope", path


def test_only_the_bot_scope_or_a_full_token_makes_a_bot(client: TestClient) -> None:
    owner = _account(client, "aiko")
    for scopes in (["read", "play", "challenge"], ["play"]):
        refused = client.post("/api/v1/bot/upgrade", headers=_token(client, owner, scopes))
        assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert client.get("/api/v1/me", headers=owner).json()["kind"] == "account"
    made = client.post("/api/v1/bot/upgrade", headers=_token(client, owner, ["bot"]))
    assert made.status_code == 200 and made.json()["kind"] == "bot"


def test_a_browser_session_becomes_a_bot_only_with_the_password(client: TestClient) -> None:
    csrf = _browser_signup(client, "aiko")
    headers = {"X-CSRF-Token": csrf}
    missing = client.post("/api/v1/bot/upgrade", headers=headers)
    assert missing.status_code == 403 and missing.json()["code"] == "password_required"
    wrong = client.post("/api/v1/bot/upgrade", headers=headers, json={"password": "nope"})
    assert wrong.status_code == 401
    no_csrf = client.post("/api/v1/bot/upgrade", json={"password": "correct horse"})
    assert no_csrf.status_code == 403 and no_csrf.json()["code"] == "csrf_failed"
    made = client.post("/api/v1/bot/upgrade", headers=headers, json={"password": "correct horse"})
    assert made.status_code == 200 and made.json()["kind"] == "bot"


def test_logging_out_ends_every_copy_of_the_cookie(client: TestClient) -> None:
    csrf = _browser_signup(client, "aiko")
    copied = dict(client.cookies)
    assert client.get("/api/v1/me").json()["name"] == "aiko"
    client.post("/logout", data={"csrf": csrf}, follow_redirects=False)
    client.cookies.clear()
    client.cookies.update(copied)  # the attacker's copy, taken before the logout
    assert client.get("/api/v1/me").status_code == 401
    assert client.get("/account/tokens", follow_redirects=False).status_code == 303


def test_logging_out_everywhere_ends_the_other_browsers(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app) as phone, TestClient(app) as desktop:
        _browser_signup(phone, "aiko")
        csrf = _csrf(desktop.get("/login").text)
        desktop.post("/login", data={"csrf": csrf, "username": "aiko",
                                     "password": "correct horse"}, follow_redirects=False)
        assert phone.get("/api/v1/me").status_code == 200
        assert desktop.get("/api/v1/me").status_code == 200
        page_csrf = _csrf(desktop.get("/account/tokens").text)
        ended = desktop.post("/logout/everywhere", data={"csrf": page_csrf},
                             follow_redirects=False)
        assert ended.status_code == 303
        assert phone.get("/api/v1/me").status_code == 401
        assert desktop.get("/api/v1/me").status_code == 401


def test_a_guest_cookie_cannot_be_upgraded_without_csrf(client: TestClient) -> None:
    csrf = _csrf(client.get("/").text)
    client.post("/guest", data={"csrf": csrf, "name": "Gus"}, follow_redirects=False)
    guest = client.get("/api/v1/me").json()
    assert guest["kind"] == "guest"
    forged = client.post("/api/v1/accounts", json={"username": "gus", "password": "pw12345678"})
    assert forged.status_code == 403 and forged.json()["code"] == "csrf_failed"
    upgraded = client.post("/api/v1/accounts", headers={"X-CSRF-Token": csrf},
                           json={"username": "gus", "password": "pw12345678"})
    assert upgraded.status_code == 201 and upgraded.json()["user"]["id"] == guest["id"]


@pytest.mark.parametrize("path, body", [
    ("/api/v1/analysis/board", {"game": "stairs"}),
    ("/api/v1/analysis/hint", {"game": "stairs"}),
    ("/api/v1/analysis/import", {"text": "x"}),
])
def test_made_up_tokens_count_against_the_address(database_url: str, path: str,
                                                  body: dict[str, object]) -> None:
    """Each request with a fresh invented token is refused (401) and counted against the
    caller's address, so the limit comes exactly as soon as for one anonymous caller."""
    settings = Settings(database_url=database_url, secret_key="k", rate_limit_scale=1.0,
                        bots_enabled=False)
    allowed = int(str(getattr(settings, f"rate_{LIMIT_OF[path]}")).split("/")[0])
    with TestClient(create_app(settings)) as client:
        statuses = [client.post(path, headers={"Authorization": f"Bearer made-up-{n}"},
                                json=body).status_code for n in range(allowed + 5)]
        assert set(statuses[:allowed]) == {401}
        assert set(statuses[allowed:]) == {429}
        assert client.post(path, json=body).status_code == 429  # the same address's bucket
