"""examples/oauth-app in Chromium, served from another site (``localhost``, while the server is
``127.0.0.1``): "Log in with Stepwell" runs the whole OAuth flow with PKCE — the server's login
page, the consent page, the code back at the app, the token fetched across origins (CORS) — and
the app lists the person's games through the API; logging out revokes the app's token."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "oauth-app"
PASSWORD = "correct horse"


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def example_site() -> Iterator[str]:
    """The example's folder as a static site of its own origin."""
    handler = functools.partial(_QuietHandler, directory=str(EXAMPLE))
    site = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{site.server_address[1]}/"
    site.shutdown()
    site.server_close()


def _account_with_games(base: str, username: str) -> list[str]:
    """An account with two games in play (a guest joined each); returns their games' ids."""
    owner = httpx.post(f"{base}/api/v1/accounts", json={"username": username, "password": PASSWORD})
    owner.raise_for_status()
    headers = {"Authorization": f"Bearer {owner.json()['token']}"}
    games = ["stairs", "sight"]
    for game in games:
        match = httpx.post(f"{base}/api/v1/matches", headers=headers, json={"game": game})
        match.raise_for_status()
        guest = httpx.post(f"{base}/api/v1/guests", json={"name": f"Rival {game}"}).json()
        httpx.post(f"{base}/api/v1/matches/{match.json()['id']}/join",
                   headers={"Authorization": f"Bearer {guest['token']}"}).raise_for_status()
    return games


def test_the_example_app_logs_in_with_pkce_and_lists_the_games(  # type: ignore[no-untyped-def]
        live_server: str, example_site: str, new_page) -> None:
    games = _account_with_games(live_server, "appuser")
    page = new_page()
    page.goto(f"{example_site}?server={live_server}")
    page.click("#login")
    page.wait_for_url(f"{live_server}/login?*")
    page.fill("input[name=username]", "appuser")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.auth-form button[type=submit]")
    page.wait_for_url(f"{live_server}/oauth/authorize?*")
    assert page.text_content("#app-name") == "My Stepwell games (example)"
    assert page.locator("#requested-scopes li").count() == 1
    screenshot(page, "oauth-consent")
    page.click("#approve")
    page.wait_for_url(f"{example_site}*")
    page.wait_for_selector("#games li")
    listed = page.locator("#games li").all_text_contents()
    assert sorted(item.split(" · ")[0] for item in listed) == sorted(games)
    assert all("active" in item and "Rival" in item for item in listed)
    assert "appuser" in (page.text_content("#status") or "")
    assert "code=" not in page.url  # the app dropped the code from its address
    screenshot(page, "oauth-example-app")
    tokens = page.evaluate("sessionStorage.token")
    assert httpx.get(f"{live_server}/api/v1/me",
                     headers={"Authorization": f"Bearer {tokens}"}).status_code == 200
    page.click("#logout")
    page.wait_for_selector("#login:not([hidden])")
    assert httpx.get(f"{live_server}/api/v1/me",
                     headers={"Authorization": f"Bearer {tokens}"}).status_code == 401
    assert page.js_errors == []
