"""Blocking from a profile: once Fay blocks Gus, Gus's challenge from Fay's profile is
refused, and Fay can undo it."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def _log_in(page, base: str, username: str) -> int:  # type: ignore[no-untyped-def]
    made = httpx.post(f"{base}/api/v1/accounts", json={"username": username,
                                                       "password": "long enough"})
    assert made.status_code == 201, made.text
    page.goto(f"{base}/login")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill("long enough")
    page.locator('.auth-form button[type="submit"]').click()
    page.wait_for_load_state()
    return int(made.json()["user"]["id"])


def test_a_blocked_user_cannot_challenge_from_the_profile(live_server: str, new_page) -> None:  # type: ignore[no-untyped-def]
    fay, gus = new_page(width=1366), new_page(width=375, locale="ja-JP")
    fay_id = _log_in(fay, live_server, "fay17")
    gus_id = _log_in(gus, live_server, "gus17")
    fay.goto(f"{live_server}/u/{gus_id}")
    fay.on("dialog", lambda dialog: dialog.accept())
    expect(fay.locator("#block-button")).to_have_text("Block gus17")
    fay.locator("#block-button").click()
    expect(fay.locator("#block-button")).to_have_text("Unblock")
    screenshot(fay, "blocks-profile-desktop-en")

    gus.goto(f"{live_server}/u/{fay_id}")
    gus.locator(".challenge-form button[type=submit]").click()
    expect(gus.locator("body")).to_contain_text("does not accept your challenges")
    pending = httpx.get(f"{live_server}/api/v1/users/{fay_id}")
    assert pending.status_code == 200

    fay.locator("#block-button").click()
    expect(fay.locator("#block-button")).to_have_text("Block gus17")
    gus.goto(f"{live_server}/u/{fay_id}")
    gus.locator(".challenge-form button[type=submit]").click()
    gus.wait_for_load_state()
    expect(gus.locator("body")).not_to_contain_text("does not accept your challenges")
    for page in (fay, gus):
        assert not page.js_errors, page.js_errors
