"""CORS on the API and OAuth's endpoints: any origin may call with a bearer token, preflights are
answered, credentials never are: a request from another site's page is answered as its token
(or nobody), never as the visitor its cookies name. The site's own cookie requests keep their
CSRF check; pages get no CORS at all."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.databases import sqlite_database

ELSEWHERE = "https://app.example"
PREFLIGHT = {"Origin": ELSEWHERE, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}


@pytest.fixture
def browser(tmp_path) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    settings = Settings(database_url=sqlite_database(tmp_path / "cors.db"), secret_key="cors",
                        bots_enabled=False)
    with TestClient(create_app(settings)) as client:
        yield client


def _signed_in(browser: TestClient) -> str:
    """Sign an account in with the browser's cookie; returns its CSRF token."""
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', browser.get("/signup").text)
    assert csrf is not None
    browser.post("/signup", data={"csrf": csrf.group(1), "username": "corsuser",
                                  "password": "correct horse"})
    return csrf.group(1)


@pytest.mark.parametrize("path", ["/api/v1/matches", "/api/v1/matches/abc/moves",
                                  "/api/v1/oauth/token", "/api/v1/oauth/revoke",
                                  "/.well-known/oauth-authorization-server"])
def test_preflights_are_answered_without_credentials(browser: TestClient, path: str) -> None:
    answer = browser.options(path, headers=PREFLIGHT)
    assert answer.status_code == 204
    assert answer.headers["access-control-allow-origin"] == "*"
    methods = {m.strip() for m in answer.headers["access-control-allow-methods"].split(",")}
    assert {"GET", "POST", "DELETE"} <= methods
    allowed = {h.strip().lower() for h in answer.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type"} <= allowed
    assert "x-csrf-token" not in allowed  # cookie writes are for this site's own pages
    assert "access-control-allow-credentials" not in answer.headers


def test_a_bearer_request_from_any_origin_is_answered_for_all_to_read(browser: TestClient) -> None:
    token = browser.post("/api/v1/guests", json={"name": "Far"}).json()["token"]
    answer = browser.get("/api/v1/me", headers={"Origin": ELSEWHERE,
                                                "Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json()["name"] == "Far"
    assert answer.headers["access-control-allow-origin"] == "*"
    assert "retry-after" in answer.headers["access-control-expose-headers"].lower()
    assert "access-control-allow-credentials" not in answer.headers
    created = browser.post("/api/v1/matches", json={"game": "stairs"},
                           headers={"Origin": ELSEWHERE, "Authorization": f"Bearer {token}"})
    assert created.status_code == 201  # a bearer write needs no CSRF token, from anywhere
    refused = browser.get("/api/v1/me", headers={"Origin": ELSEWHERE})
    assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == "*"


def test_cookies_from_another_sites_page_are_not_honoured(browser: TestClient) -> None:
    csrf = _signed_in(browser)
    assert browser.get("/api/v1/me").json()["name"] == "corsuser"  # no Origin: a program
    same_site = browser.get("/api/v1/me", headers={"Origin": "http://testserver"})
    assert same_site.status_code == 200 and same_site.json()["name"] == "corsuser"
    read = browser.get("/api/v1/me", headers={"Origin": ELSEWHERE})
    assert read.status_code == 401  # answered as nobody
    write = browser.post("/api/v1/matches", json={"game": "stairs"},
                         headers={"Origin": ELSEWHERE, "X-CSRF-Token": csrf})
    assert write.status_code == 401  # even with the page's CSRF token, the cookie is not used
    assert browser.get("/api/v1/me/matches").json() == []
    assert "set-cookie" not in write.headers  # and the visitor's session is left alone
    assert browser.get("/api/v1/me").json()["name"] == "corsuser"


def test_the_sites_own_cookie_writes_still_need_the_csrf_token(browser: TestClient) -> None:
    csrf = _signed_in(browser)
    same_site = {"Origin": "http://testserver"}
    forged = browser.post("/api/v1/matches", json={"game": "stairs"}, headers=same_site)
    assert forged.status_code == 403 and forged.json()["code"] == "csrf_failed"
    made = browser.post("/api/v1/matches", json={"game": "stairs"},
                        headers={**same_site, "X-CSRF-Token": csrf})
    assert made.status_code == 201


def test_pages_get_no_cors(browser: TestClient) -> None:
    answer = browser.options("/login", headers=PREFLIGHT)
    assert "access-control-allow-origin" not in answer.headers
    page = browser.get("/login", headers={"Origin": ELSEWHERE})
    assert "access-control-allow-origin" not in page.headers


def test_an_options_request_that_is_no_preflight_is_the_apis_own(browser: TestClient) -> None:
    answer = browser.options("/api/v1/matches")
    assert answer.status_code == 405 and "POST" in answer.headers["allow"]
