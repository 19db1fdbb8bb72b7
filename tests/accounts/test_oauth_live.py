"""OAuth for apps against a real server, driven by independent HTTP clients: the app (httpx, no
cookies) reads the metadata, computes PKCE itself and sends the person's browser (another httpx
client with a cookie jar) to the authorization endpoint; the browser signs in, reads the consent
form as a browser would and approves; the app exchanges the code and uses the token, including
on a websocket, which the revocation endpoint then ends like any revoked token's."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.accounts.oauth_flow import APP_NAME, REDIRECT_URI, AppRequest, bearer, csrf_of
from tests.live.doors import first_message, socket, socket_ends
from tests.live.helpers import live_server

HIDDEN_FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("oauth"), STEPWELL_BOTS_ENABLED="false") as url:
        yield url


def _consent_form(page: str) -> dict[str, str]:
    form = page.split('action="/oauth/authorize"', 1)[1].split("</form>", 1)[0]
    return {name: html.unescape(value) for name, value in HIDDEN_FIELD.findall(form)}


def _sign_in_and_approve(base: str, authorization_url: str, username: str) -> str:
    """The person's browser: follows the app's link, signs up on the login page's way, approves;
    returns where the server sent the browser back."""
    with httpx.Client(base_url=base, timeout=20) as browser:
        sent = browser.get(authorization_url, follow_redirects=False)
        assert sent.status_code == 303, sent.text
        login = urlsplit(sent.headers["location"])
        assert login.path == "/login"
        back_to = parse_qs(login.query)["next"][0]
        signup_page = browser.get("/signup", params={"next": back_to})
        signed_up = browser.post("/signup", data={
            "csrf": csrf_of(signup_page.text), "username": username,
            "password": "correct horse", "next": back_to}, follow_redirects=False)
        assert signed_up.status_code == 303 and signed_up.headers["location"] == back_to
        consent = browser.get(back_to)
        assert consent.status_code == 200 and APP_NAME in consent.text
        approved = browser.post("/oauth/authorize",
                                data={**_consent_form(consent.text), "decision": "approve"},
                                follow_redirects=False)
        assert approved.status_code == 303, approved.text
        return str(approved.headers["location"])


def test_an_app_gets_a_token_and_its_revocation_ends_the_apps_socket(base: str) -> None:
    with httpx.Client(base_url=base, timeout=20) as app:
        metadata = app.get("/.well-known/oauth-authorization-server").json()
        assert metadata["code_challenge_methods_supported"] == ["S256"]
        request = AppRequest(scope="read")
        authorization = httpx.URL(metadata["authorization_endpoint"], params=request.params())
        back = urlsplit(_sign_in_and_approve(base, str(authorization), "liveoauth"))
        assert f"{back.scheme}://{back.netloc}{back.path}" == REDIRECT_URI
        answer = {name: values[0] for name, values in parse_qs(back.query).items()}
        assert answer["state"] == request.state
        exchanged = app.post(metadata["token_endpoint"], data={
            "grant_type": "authorization_code", "code": answer["code"],
            "redirect_uri": REDIRECT_URI, "client_id": APP_NAME,
            "code_verifier": request.verifier})
        assert exchanged.status_code == 200, exchanged.text
        token = exchanged.json()["access_token"]
        assert app.get("/api/v1/me", headers=bearer(token)).json()["name"] == "liveoauth"
        with socket(base, "/api/v1/lobby/ws", token) as ws:
            first_message(ws)
            sent = time.monotonic()
            revoked = app.post(metadata["revocation_endpoint"],
                               data={"token": token, "client_id": APP_NAME})
            assert revoked.status_code == 200
            ending = socket_ends(ws, sent)
        assert ending.code == 4401 and ending.last is not None
        assert ending.last["code"] == "credential_ended"
        assert app.get("/api/v1/me", headers=bearer(token)).status_code == 401
