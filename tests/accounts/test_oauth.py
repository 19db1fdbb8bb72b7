"""OAuth for apps, in process: the metadata, the consent page (signing in first, deny, CSRF, the
Japanese page), PKCE with S256 only, single-use codes that expire, exact redirect URIs (http
only to loopback), tokens carrying exactly the consented scopes, listed and revoked on the
account page, the revocation endpoint and the token endpoint's rate limit.

The app's requests go without the browser's cookies (``AppClient``); PKCE is computed by the
test (tests/accounts/oauth_flow.py). The flow over real HTTP, and a revocation ending an open
socket, are in test_oauth_live.py."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.oauth2.rfc6749 import InvalidGrantError
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from app.accounts.oauth import CODE_SECONDS, CodeStore, redirect_uri_allowed
from app.db.models import ApiToken
from app.kernel import timesource
from app.kernel.settings import Settings
from app.main import create_app
from tests.accounts.oauth_flow import (
    APP_NAME,
    REDIRECT_URI,
    REVOKE_PATH,
    AppRequest,
    bearer,
    code_for,
    csrf_of,
    decide,
    redirect_query,
    sign_up,
)

BASE = "https://testserver"
"""OAuth needs https except on loopback: the in-process server is reached as if behind TLS."""


class AppClient:
    """The app's own requests, through the test client but without the browser's cookies."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def request(self, method: str, url: str, **options: Any) -> httpx.Response:
        saved = self.client.cookies
        self.client.cookies = httpx.Cookies()
        try:
            return self.client.request(method, url, **options)
        finally:
            self.client.cookies = saved

    def get(self, url: str, **options: Any) -> httpx.Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options: Any) -> httpx.Response:
        return self.request("POST", url, **options)


@pytest.fixture
def browser(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, secret_key="oauth", bots_enabled=False))
    with TestClient(app, base_url=BASE) as client:
        yield client


@pytest.fixture
def app_client(browser: TestClient) -> AppClient:
    return AppClient(browser)


@pytest.fixture
def csrf(browser: TestClient) -> str:
    return sign_up(browser, "aiko")


def _token(browser: TestClient, app_client: AppClient, csrf: str, scope: str = "read") -> str:
    request = AppRequest(scope=scope)
    answer = request.exchange(app_client, code_for(browser, request, csrf))
    assert answer.status_code == 200, answer.text
    return str(answer.json()["access_token"])


def _error(response: httpx.Response) -> str:
    body = response.json()
    assert body["code"] == body["error"] and body["message"], body  # RFC 6749's and the API's
    return str(body["error"])


def test_the_metadata_names_the_endpoints_pkce_and_scopes(app_client: AppClient) -> None:
    answer = app_client.get("/.well-known/oauth-authorization-server")
    assert answer.status_code == 200
    metadata = answer.json()
    AuthorizationServerMetadata(metadata).validate()  # RFC 8414, as Authlib's client checks it
    assert metadata["issuer"] == BASE
    assert metadata["authorization_endpoint"] == f"{BASE}/oauth/authorize"
    assert metadata["token_endpoint"] == f"{BASE}/api/v1/oauth/token"
    assert metadata["revocation_endpoint"] == f"{BASE}/api/v1/oauth/revoke"
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["scopes_supported"] == ["read", "play", "challenge", "bot"]
    assert metadata["response_types_supported"] == ["code"]
    assert metadata["grant_types_supported"] == ["authorization_code"]
    assert metadata["token_endpoint_auth_methods_supported"] == ["none"]


def test_the_whole_flow_gives_the_app_a_token_for_the_person(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    request = AppRequest(scope="read")
    page = browser.get("/oauth/authorize", params=request.params())
    assert page.status_code == 200
    assert APP_NAME in page.text and "See your games" in page.text
    assert "Play in your games" not in page.text  # only the scopes asked for are listed
    assert page.headers["x-frame-options"] == "DENY"  # the Allow button is never framed
    answer = request.exchange(app_client, code_for(browser, request, csrf))
    assert answer.status_code == 200, answer.text
    token = answer.json()
    assert token["token_type"] == "Bearer" and token["scope"] == "read"
    assert token["expires_in"] > 0 and answer.headers["cache-control"] == "no-store"
    me = app_client.get("/api/v1/me", headers=bearer(token["access_token"]))
    assert me.status_code == 200 and me.json()["name"] == "aiko"


def test_a_visitor_signs_in_first_and_comes_back_to_the_consent_page(
        browser: TestClient, app_client: AppClient) -> None:
    made = app_client.post("/api/v1/accounts", json={"username": "kenji",
                                                     "password": "correct horse"})
    assert made.status_code == 201
    request = AppRequest()
    sent = browser.get("/oauth/authorize", params=request.params(), follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"].startswith("/login?next=")
    back_to = parse_qs(urlsplit(sent.headers["location"]).query)["next"][0]
    assert back_to.startswith("/oauth/authorize?")
    login_page = browser.get(sent.headers["location"])
    assert f'name="next" value="{back_to.replace("&", "&amp;")}"' in login_page.text
    logged_in = browser.post("/login", data={"csrf": csrf_of(login_page.text), "username": "kenji",
                                             "password": "correct horse", "next": back_to},
                             follow_redirects=False)
    assert logged_in.status_code == 303 and logged_in.headers["location"] == back_to
    consent = browser.get(back_to)
    assert consent.status_code == 200 and 'id="approve"' in consent.text
    assert APP_NAME in consent.text and "kenji" in consent.text


def test_a_guest_is_asked_to_sign_in(browser: TestClient) -> None:
    csrf = csrf_of(browser.get("/").text)
    browser.post("/guest", data={"csrf": csrf, "name": "Visitor"})
    sent = browser.get("/oauth/authorize", params=AppRequest().params(), follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"].startswith("/login?next=")


def test_denying_sends_access_denied_back_to_the_app(browser: TestClient, csrf: str) -> None:
    request = AppRequest()
    answer = redirect_query(decide(browser, request, csrf, decision="deny"))
    assert answer["error"] == "access_denied" and answer["state"] == request.state
    assert "code" not in answer


def test_the_consent_form_needs_the_pages_csrf_token(browser: TestClient, csrf: str) -> None:
    request = AppRequest()
    forged = browser.post("/oauth/authorize", data={**request.params(), "csrf": "forged",
                                                     "decision": "approve"},
                          follow_redirects=False)
    assert forged.status_code == 403 and "location" not in forged.headers


def test_a_wrong_verifier_gets_no_token_and_spends_the_code(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    request = AppRequest()
    code = code_for(browser, request, csrf)
    wrong = request.exchange(app_client, code, code_verifier=AppRequest().verifier)
    assert wrong.status_code == 400 and _error(wrong) == "invalid_grant"
    assert _error(request.exchange(app_client, code)) == "invalid_grant"
    missing = request.exchange(app_client, code_for(browser, request, csrf), code_verifier="")
    assert missing.status_code == 400 and _error(missing) == "invalid_request"


@pytest.mark.parametrize("method", ["plain", "", "S512"])
def test_only_the_s256_method_is_accepted(browser: TestClient, csrf: str, method: str) -> None:
    request = AppRequest(extra={"code_challenge_method": method})
    refused = browser.get("/oauth/authorize", params=request.params(), follow_redirects=False)
    answer = redirect_query(refused)
    assert answer["error"] == "invalid_request" and answer["state"] == request.state
    assert "S256" in answer["error_description"]


def test_a_request_without_pkce_is_refused(browser: TestClient, csrf: str) -> None:
    request = AppRequest(extra={"code_challenge": "", "code_challenge_method": ""})
    answer = redirect_query(browser.get("/oauth/authorize", params=request.params(),
                                        follow_redirects=False))
    assert answer["error"] == "invalid_request" and "PKCE" in answer["error_description"]


def test_a_code_works_once_and_its_reuse_revokes_the_token(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    request = AppRequest()
    code = code_for(browser, request, csrf)
    first = request.exchange(app_client, code)
    assert first.status_code == 200
    token = first.json()["access_token"]
    assert app_client.get("/api/v1/me", headers=bearer(token)).status_code == 200
    again = request.exchange(app_client, code)
    assert again.status_code == 400 and _error(again) == "invalid_grant"
    assert app_client.get("/api/v1/me", headers=bearer(token)).status_code == 401


def test_a_code_presented_again_while_its_first_exchange_runs_buys_no_token(
        browser: TestClient, csrf: str) -> None:
    code = code_for(browser, AppRequest(), csrf)
    forgotten: list[str] = []
    with browser.app.state.session_factory() as session:  # type: ignore[attr-defined]
        store = CodeStore(session, forgotten.append)
        first = store.claim(code, APP_NAME)
        assert first is not None
        assert store.claim(code, APP_NAME) is None  # the second presentation, meanwhile
        with pytest.raises(InvalidGrantError):
            store.issue({"access_token": "swp_never", "scope": "read", "expires_in": 60},
                        first, APP_NAME)
        assert session.scalar(select(func.count()).select_from(ApiToken)
                              .where(ApiToken.app.is_not(None))) == 0


def test_a_code_expires_after_a_minute(browser: TestClient, app_client: AppClient,
                                       csrf: str) -> None:
    clock = timesource.FakeClock()
    with timesource.use(clock):
        in_time, late = AppRequest(), AppRequest()
        in_time_code, late_code = code_for(browser, in_time, csrf), code_for(browser, late, csrf)
        clock.advance(CODE_SECONDS - 1)
        assert in_time.exchange(app_client, in_time_code).status_code == 200
        clock.advance(2)
        expired = late.exchange(app_client, late_code)
    assert expired.status_code == 400 and _error(expired) == "invalid_grant"


def test_the_token_request_must_repeat_the_exact_redirect_uri(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    request = AppRequest()
    code = code_for(browser, request, csrf)
    for other in (REDIRECT_URI + "/", REDIRECT_URI.replace("127.0.0.1", "localhost"), ""):
        answer = request.exchange(app_client, code, redirect_uri=other)
        assert answer.status_code == 400 and _error(answer) == "invalid_grant", other


def test_the_code_belongs_to_the_app_it_was_issued_to(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    request = AppRequest()
    answer = request.exchange(app_client, code_for(browser, request, csrf), client_id="Other App")
    assert answer.status_code == 400 and _error(answer) == "invalid_grant"


@pytest.mark.parametrize("uri", ["http://example.com/callback", "http://127.0.0.1.example.com/cb",
                                 "http://192.168.1.2/cb", "ftp://127.0.0.1/cb",
                                 "https://app.example/cb#fragment", "https://user:pw@app.example/",
                                 "myapp://callback", "/relative"])
def test_a_redirect_uri_outside_the_rules_is_refused_on_a_page(browser: TestClient, csrf: str,
                                                               uri: str) -> None:
    refused = browser.get("/oauth/authorize", params=AppRequest(redirect_uri=uri).params(),
                          follow_redirects=False)
    assert refused.status_code == 400 and "location" not in refused.headers  # never sent there
    assert "not valid" in refused.text and "https" in refused.text


@pytest.mark.parametrize("name", ["Stepwell", "Stepwell Official", "ＡＤＭＩＮ", "App\u202etxt.exe",
                                  " padded ", "x" * 101])
def test_app_names_that_pass_for_the_site_or_hide_text_are_refused(browser: TestClient, csrf: str,
                                                                   name: str) -> None:
    refused = browser.get("/oauth/authorize", params=AppRequest(client_id=name).params(),
                          follow_redirects=False)
    assert refused.status_code == 400 and "location" not in refused.headers


@pytest.mark.parametrize("uri", ["https://app.example/callback?x=1", "http://127.0.0.1:5000/cb",
                                 "http://[::1]:5000/cb", "http://localhost/cb"])
def test_https_and_loopback_redirect_uris_are_accepted(uri: str) -> None:
    assert redirect_uri_allowed(uri)


def test_the_token_carries_exactly_the_consented_scopes(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    reader = _token(browser, app_client, csrf, scope="read")
    assert app_client.get("/api/v1/me/matches", headers=bearer(reader)).status_code == 200
    created = app_client.post("/api/v1/matches", json={"game": "stairs"}, headers=bearer(reader))
    assert created.status_code == 403 and created.json()["code"] == "missing_scope"
    assert app_client.get("/api/v1/tokens", headers=bearer(reader)).status_code == 403
    request = AppRequest(scope="challenge read")
    granted = request.exchange(app_client, code_for(browser, request, csrf)).json()
    assert granted["scope"] == "read challenge"
    created = app_client.post("/api/v1/matches", json={"game": "stairs"},
                              headers=bearer(granted["access_token"]))
    assert created.status_code == 201, created.text
    move = app_client.post(f"/api/v1/matches/{created.json()['id']}/resign",
                           headers=bearer(granted["access_token"]))
    assert move.status_code == 403 and move.json()["code"] == "missing_scope"


@pytest.mark.parametrize("scope", ["", "admin", "read admin"])
def test_no_or_unknown_scopes_are_refused_back_at_the_app(browser: TestClient, csrf: str,
                                                          scope: str) -> None:
    request = AppRequest(scope=scope)
    answer = redirect_query(browser.get("/oauth/authorize", params=request.params(),
                                        follow_redirects=False))
    assert answer["error"] == "invalid_scope" and answer["state"] == request.state


def test_granted_tokens_are_listed_with_the_app_and_revoked_on_the_account_page(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    token = _token(browser, app_client, csrf, scope="read")
    listed = app_client.get("/api/v1/tokens", headers=bearer(token))
    assert listed.status_code == 403  # an app's token never manages tokens
    page = browser.get("/account/tokens").text
    row = re.search(r'<tr data-token-id="(\d+)" data-app="([^"]+)">', page)
    assert row is not None and row.group(2) == APP_NAME and token not in page
    assert [t["app"] for t in browser.get("/api/v1/tokens").json()] == [APP_NAME]
    revoked = browser.post(f"/account/tokens/{row.group(1)}/revoke", data={"csrf": csrf},
                           follow_redirects=False)
    assert revoked.status_code == 303
    assert app_client.get("/api/v1/me", headers=bearer(token)).status_code == 401


def test_the_revocation_endpoint_revokes_the_apps_token(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    token = _token(browser, app_client, csrf)
    other_app = app_client.post(REVOKE_PATH, data={"token": token, "client_id": "Other App"})
    assert other_app.status_code == 400  # only the app it was granted to
    assert app_client.get("/api/v1/me", headers=bearer(token)).status_code == 200
    revoked = app_client.post(REVOKE_PATH, data={"token": token, "client_id": APP_NAME,
                                                 "token_type_hint": "access_token"})
    assert revoked.status_code == 200
    assert app_client.get("/api/v1/me", headers=bearer(token)).status_code == 401
    again = app_client.post(REVOKE_PATH, data={"token": token, "client_id": APP_NAME})
    assert again.status_code == 200  # RFC 7009: an unknown token is no error
    missing = app_client.post(REVOKE_PATH, data={"client_id": APP_NAME})
    assert missing.status_code == 400 and _error(missing) == "invalid_request"


def test_the_revocation_endpoint_leaves_tokens_no_app_was_granted(
        browser: TestClient, app_client: AppClient, csrf: str) -> None:
    made = browser.post("/api/v1/tokens", json={"description": "mine", "scopes": ["read"]},
                        headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text
    personal = made.json()["token"]
    answer = app_client.post(REVOKE_PATH, data={"token": personal, "client_id": APP_NAME})
    assert answer.status_code == 200
    assert app_client.get("/api/v1/me", headers=bearer(personal)).status_code == 200


@pytest.mark.parametrize("body", [{"grant_type": "password", "client_id": APP_NAME},
                                  {"grant_type": "authorization_code", "code": "x"},
                                  {}])
def test_bad_token_requests_get_rfc_6749_errors(app_client: AppClient, body: dict[str, str]) -> None:
    answer = app_client.post("/api/v1/oauth/token", data=body)
    assert 400 <= answer.status_code < 500
    assert _error(answer) in {"unsupported_grant_type", "invalid_client", "invalid_request"}


TOKEN_FIELDS = st.dictionaries(
    st.sampled_from(["grant_type", "code", "redirect_uri", "client_id", "code_verifier",
                     "client_secret", "token", "token_type_hint", "scope"]),
    st.text(max_size=60) | st.sampled_from(["authorization_code", APP_NAME, REDIRECT_URI]),
    max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=TOKEN_FIELDS)
def test_any_token_or_revocation_form_is_a_clear_answer(app_client: AppClient,
                                                         fields: dict[str, str]) -> None:
    for path in ("/api/v1/oauth/token", REVOKE_PATH):
        answer = app_client.post(path, data=fields)
        assert answer.status_code in (200, 400, 401), (path, answer.text)
        if answer.status_code != 200:
            _error(answer)


def test_the_consent_page_speaks_japanese(browser: TestClient, csrf: str) -> None:
    page = browser.get("/oauth/authorize", params=AppRequest(scope="read play").params(),
                       headers={"Accept-Language": "ja"})
    assert page.status_code == 200
    assert "アクセスを許可しますか？" in page.text and APP_NAME in page.text
    assert "あなたの対局・プロフィール" in page.text and "あなたの対局で指す" in page.text
    assert "許可する" in page.text and "拒否する" in page.text


def test_switching_language_on_the_consent_page_keeps_the_apps_request(browser: TestClient,
                                                                       csrf: str) -> None:
    page = browser.get("/oauth/authorize", params=AppRequest().params())
    link = re.search(r'href="(/lang/ja\?next=[^"]+)"', page.text)
    assert link is not None
    switched = browser.get(html.unescape(link.group(1)))
    assert switched.status_code == 200 and "アクセスを許可しますか？" in switched.text


def test_the_token_endpoint_is_rate_limited(tmp_path: Any) -> None:
    from tests.databases import sqlite_database

    limited = Settings(database_url=sqlite_database(tmp_path / "limits.db"), secret_key="limits",
                       rate_limit_scale=1.0, rate_oauth="3/minute", bots_enabled=False)
    with TestClient(create_app(limited), base_url=BASE) as client:
        answers = [client.post("/api/v1/oauth/token", data={"grant_type": "authorization_code",
                                                             "client_id": APP_NAME, "code": "x"})
                   for _ in range(4)]
    assert [a.status_code for a in answers] == [400, 400, 400, 429]
    assert _error(answers[-1]) == "rate_limited" and int(answers[-1].headers["retry-after"]) > 0
