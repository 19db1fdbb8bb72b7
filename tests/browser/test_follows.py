"""Following in the browser: the friends page (presence, live games, Watch and Challenge), the
profile's Follow button and the Watch page's "People you follow", at 375 and 1366 px, in English
and Japanese, light and dark; axe finds no serious violation on them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.browser.conftest import new_context, screenshot
from tests.browser.test_accessibility import AXE, report, violations
from tests.browser.tour import PASSWORD
from tests.live.helpers import StreamReader

pytestmark = pytest.mark.browser

SCREENS = [(375, "ja", "light"), (375, "en", "dark"), (1366, "en", "light"), (1366, "ja", "dark")]
TIMEOUT = 10


def _account(base: str, username: str) -> dict[str, str]:
    token = httpx.post(f"{base}/api/v1/accounts", timeout=TIMEOUT,
                       json={"username": username, "password": PASSWORD}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def people(live_server: str) -> Iterator[dict[str, Any]]:
    """fhost follows fpal (friends, notices on) and frival; ffan follows fhost; fpal plays
    frival and has an event stream open (online)."""
    base = live_server
    made = {name: _account(base, name) for name in ("fhost", "fpal", "frival", "ffan")}
    put = lambda who, name, body=None: httpx.put(  # noqa: E731
        f"{base}/api/v1/users/{name}/follow", headers=made[who], json=body, timeout=TIMEOUT)
    put("fhost", "fpal", {"notify": True})
    put("fpal", "fhost")
    put("fhost", "frival")
    put("ffan", "fhost")
    match = httpx.post(f"{base}/api/v1/matches", json={"game": "stairs", "seat": 0},
                       headers=made["fpal"], timeout=TIMEOUT).json()
    httpx.post(f"{base}/api/v1/matches/{match['id']}/join", headers=made["frival"],
               timeout=TIMEOUT)
    online = StreamReader(f"{base}/api/v1/stream/event", made["fpal"])
    yield {"match": match["id"], **made}
    online.close()


def _signed_in(browser, base: str, width: int, lang: str, theme: str):  # type: ignore[no-untyped-def]
    context = new_context(browser, viewport={"width": width, "height": 812 if width < 600 else 768},
                          locale="ja-JP" if lang == "ja" else "en-GB", color_scheme=theme)
    page = context.new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=username]", "fhost")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.locator(".viewer-name").wait_for()
    page.goto(f"{base}/lang/{lang}?next=/")
    return context, page


@pytest.mark.parametrize(("width", "lang", "theme"), SCREENS)
def test_the_follow_pages_drawn(browser, live_server: str, people: dict[str, Any],  # type: ignore[no-untyped-def]
                                width: int, lang: str, theme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    context, page = _signed_in(browser, live_server, width, lang, theme)
    try:
        tag = f"follows-{width}-{lang}-{theme}"
        page.goto(f"{live_server}/account/friends")
        friends = page.locator("#friends-list .person-row")
        assert friends.count() == 1 and "fpal" in friends.inner_text()
        assert friends.locator(".presence-dot.online").count() == 1
        assert friends.locator(f'a.watch-link[href="/m/{people["match"]}"]').count() == 1
        assert friends.locator('a.challenge-link[href$="#challenge"]').count() == 1
        assert "frival" in page.locator("#following-list").inner_text()
        assert "ffan" in page.locator("#followers-list").inner_text()
        assert page.locator(".nav-friends").count() == 1
        screenshot(page, f"{tag}-friends")
        found = violations(page)
        assert not found, report(found)

        page.goto(f"{live_server}/u/fpal")
        assert page.locator("#follow-button").get_attribute("aria-pressed") == "true"
        assert page.locator("#friend-badge").count() == 1
        assert page.locator("#follow-notify").get_attribute("aria-pressed") == "true"
        screenshot(page, f"{tag}-profile")
        found = violations(page)
        assert not found, report(found)

        page.goto(f"{live_server}/watch")
        section = page.locator("#followed-games")
        assert section.locator(f'a.watch-link[href="/m/{people["match"]}"]').count() == 1
        page.wait_for_selector(".live-card .live-board > *")
        screenshot(page, f"{tag}-watch")
        found = violations(page)
        assert not found, report(found)
    finally:
        context.close()


def test_follow_and_unfollow_from_a_profile(browser, live_server: str,  # type: ignore[no-untyped-def]
                                            people: dict[str, Any]) -> None:
    context, page = _signed_in(browser, live_server, 1366, "en", "light")
    try:
        page.goto(f"{live_server}/u/ffan")
        assert page.locator("#follows-you").count() == 1
        with page.expect_navigation():
            page.locator("#follow-button").click()
        assert page.locator("#follow-button").inner_text() == "Unfollow"
        assert page.locator("#friend-badge").count() == 1
        with page.expect_navigation():
            page.locator("#follow-notify").click()
        assert page.locator("#follow-notify").get_attribute("aria-pressed") == "true"
        following = httpx.get(f"{live_server}/api/v1/account/following", headers=people["fhost"],
                              timeout=TIMEOUT).json()
        assert {p["name"]: p["notify"] for p in following}["ffan"] is True
        screenshot(page, "follows-1366-en-light-profile-followed")
        with page.expect_navigation():
            page.locator("#follow-button").click()
        assert page.locator("#follow-button").inner_text() == "Follow"
        page.goto(f"{live_server}/account/friends")
        assert "ffan" in page.locator("#followers-list").inner_text()
    finally:
        context.close()


def test_a_followed_persons_new_game_is_an_in_page_notice(
        browser, live_server: str, people: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    context, page = _signed_in(browser, live_server, 1366, "en", "light")
    try:
        page.goto(f"{live_server}/account/friends")
        page.wait_for_timeout(2000)  # the events a connection starts with are not news
        match = httpx.post(f"{live_server}/api/v1/matches", json={"game": "sight", "seat": 0},
                           headers=people["fpal"], timeout=TIMEOUT).json()
        httpx.post(f"{live_server}/api/v1/matches/{match['id']}/join", headers=people["ffan"],
                   timeout=TIMEOUT)
        notice = page.locator('[data-notice="followed"] a')
        notice.wait_for()
        assert notice.get_attribute("href") == f"/m/{match['id']}"
        assert notice.inner_text() == "fpal started a game of Sight: watch it"
        screenshot(page, "follows-1366-en-light-notice")
    finally:
        context.close()
