"""Correspondence comfort in the browser, at phone and desktop widths in English and Japanese: the
player adds a conditional line on the match page and sees it listed (and deletes it), the
opponent's vacation shows on their seat and in the status line, and the account page starts and
ends a vacation."""

from __future__ import annotations

import httpx
import pytest

from games import registry
from tests.browser.conftest import screenshot
from tests.browser.screens import EACH_WIDTH_AND_LANGUAGE
from tests.live.helpers import account

CORRESPONDENCE = {"kind": "correspondence", "days": 3}


def _log_in(page, base: str, username: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{base}/login")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill("correct horse")
    page.locator('form.auth-form button[type="submit"], form.auth-form button').first.click()
    page.wait_for_load_state()
    if lang == "ja":
        page.goto(f"{base}/lang/ja?next=/")


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_conditional_panel_and_vacation_mark(live_server: str, new_page, width: int,  # type: ignore[no-untyped-def]
                                             lang: str) -> None:
    tag = f"{lang}{width}"
    alice = account(live_server, f"alice{tag}")
    bob = account(live_server, f"bob{tag}")
    created = httpx.post(f"{live_server}/api/v1/matches", headers=alice, json={
        "game": "stairs", "seat": 0, "time_control": CORRESPONDENCE}).json()
    match_id = created["id"]
    url = f"{live_server}/api/v1/matches/{match_id}"
    httpx.post(f"{url}/join", headers=bob).raise_for_status()
    first = httpx.get(url, headers=alice).json()["legal_moves"][0]
    httpx.post(f"{url}/moves", headers=alice, json={"move": first, "ply": 0}).raise_for_status()
    assert httpx.post(f"{live_server}/api/v1/me/vacation", headers=bob).status_code == 200

    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    _log_in(page, live_server, f"alice{tag}", lang)
    page.goto(f"{live_server}/m/{match_id}")
    panel = page.locator("#conditional-panel")
    panel.wait_for(state="visible")
    assert page.locator('.seat[data-seat="1"] .vacation-mark').is_visible()
    assert page.locator("#status-line").inner_text().strip()
    after = registry.get("stairs").new_state().play(first)
    theirs = after.legal_moves()[0]
    reply = after.play(theirs).legal_moves()[0]
    page.locator("#conditional-input").fill(f"{theirs} {reply}")
    page.locator("#conditional-add").click()
    page.locator("#conditional-lines .conditional-line").wait_for()
    shown = page.locator("#conditional-lines .conditional-line").inner_text()
    assert theirs in shown and reply in shown
    page.locator("#conditional-input").fill(f"{theirs} z9-z9")
    page.locator("#conditional-add").click()
    page.locator("#conditional-panel .form-error").wait_for()
    screenshot(page, f"correspondence-match-{lang}-{width}")
    stored = httpx.get(f"{url}/conditional", headers=alice).json()["lines"]
    assert stored == [[theirs, reply]]
    assert page.js_errors == []

    other = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    _log_in(other, live_server, f"bob{tag}", lang)
    other.goto(f"{live_server}/account/tokens")
    other.locator("#vacation").wait_for()
    assert other.locator("#vacation-status").is_visible()
    screenshot(other, f"correspondence-account-{lang}-{width}")
    other.locator("#vacation-button").click()
    other.wait_for_url("**/account/tokens*")
    assert other.locator("#vacation-status").count() == 0
    page.locator('.seat[data-seat="1"] .vacation-mark').wait_for(state="detached")
    assert other.js_errors == []
