"""A running tournament in the browser: join from the page, the pairing appears when
the background job starts the event, the link leads to the game, and the standings move live
when the game ends — at 375 px in Japanese and 1366 px in English."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.browser.conftest import screenshot
from tests.live.helpers import account

pytestmark = pytest.mark.browser


def log_in(page, base: str, username: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "correct horse")
    page.locator("form.auth-form button[type=submit]").click()
    page.locator(".viewer-name").wait_for()  # signed in: the header names the account


@pytest.mark.parametrize(("width", "lang"), [(375, "ja"), (1366, "en")])
def test_a_running_tournament_updates_live(live_server: str, new_page, width: int,  # type: ignore[no-untyped-def]
                                           lang: str) -> None:
    host = account(live_server, f"th{width}")
    account(live_server, f"tp{width}")
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": f"Evening cup {width}", "kind": "swiss", "game": "sight", "rounds": 1,
        "starts_at": later}).json()
    httpx.post(f"{live_server}/api/v1/tournaments/{tournament['id']}/join",
               headers=host).raise_for_status()

    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    log_in(page, live_server, f"tp{width}")
    page.goto(f"{live_server}/lang/{lang}?next=/tournaments")
    page.locator(f"a:has-text('Evening cup {width}')").click()
    page.locator("#join-button").click()
    page.locator("#withdraw-button").wait_for()
    assert page.locator("#standings tbody tr").count() == 2
    httpx.post(f"{live_server}/api/v1/tournaments/{tournament['id']}/start",
               headers=host).raise_for_status()
    link = page.locator("#pairings a[href^='/m/']")
    link.wait_for(timeout=15000)  # paired by the job, drawn from the socket's news
    match_id = link.get_attribute("href").rsplit("/", 1)[1]
    screenshot(page, f"tournament-running-{width}-{lang}")
    httpx.post(f"{live_server}/api/v1/matches/{match_id}/resign",
               headers=host).raise_for_status()
    page.locator("#standings tbody tr.me td:nth-child(3)", has_text="1").wait_for(timeout=5000)
    finished = "終了" if lang == "ja" else "Finished"
    page.locator("#tournament-status", has_text=finished).wait_for()
    screenshot(page, f"tournament-finished-{width}-{lang}")
    page.goto(f"{live_server}/tournaments")
    page.locator(".tournament-list", has_text=f"Evening cup {width}").first.wait_for()
    assert not page.js_errors
