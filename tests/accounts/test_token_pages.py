"""The account page for API tokens: create one (shown once), see it listed, revoke it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.databases import sqlite_database


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def test_tokens_page_creates_lists_and_revokes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "pages.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as browser:
        assert browser.get("/account/tokens", follow_redirects=False).status_code == 303
        csrf = _csrf(browser.get("/signup").text)
        browser.post("/signup", data={"csrf": csrf, "username": "aiko",
                                      "password": "correct horse"})
        page = browser.get("/account/tokens")
        assert page.status_code == 200 and "API tokens" in page.text
        created = browser.post("/account/tokens", data={
            "csrf": csrf, "description": "my bot", "scopes": ["read", "play"],
            "expires_in": "86400"})
        assert created.status_code == 201
        token = re.search(r'id="new-token" value="(swp_[^"]+)"', created.text)
        assert token is not None
        bearer = {"Authorization": f"Bearer {token.group(1)}"}
        assert browser.get("/api/v1/me", headers=bearer).json()["name"] == "aiko"
        listed = browser.get("/account/tokens").text
        assert "my bot" in listed and token.group(1) not in listed
        token_id = re.search(r'data-token-id="(\d+)"', listed)
        assert token_id is not None
        revoked = browser.post(f"/account/tokens/{token_id.group(1)}/revoke",
                               data={"csrf": csrf}, follow_redirects=False)
        assert revoked.status_code == 303
        assert browser.get("/api/v1/me", headers=bearer).status_code == 401
        assert "No tokens yet." in browser.get("/account/tokens").text


def test_tokens_page_refuses_a_forged_form(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "pages.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as browser:
        csrf = _csrf(browser.get("/signup").text)
        browser.post("/signup", data={"csrf": csrf, "username": "aiko",
                                      "password": "correct horse"})
        forged = browser.post("/account/tokens", data={"csrf": "nope", "description": "x",
                                                       "scopes": ["read"]})
        assert forged.status_code == 403
        assert "x" not in re.findall(r"<td>([^<]*)", browser.get("/account/tokens").text)
