"""Moderation in browsers: a line a moderator hides leaves the other player's chat at once, its
author gets an in-page notice in their language, and a muted player's line is refused with the
moderators' words."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_match, join_match
from tests.databases import sqlite_database
from tests.live import server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def moderated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(base URL, database URL) of a server of this module's own: the test grants a moderator
    with the command, on its database."""
    url = sqlite_database(tmp_path_factory.mktemp("moderated") / "stepwell.db")
    with server.live_server(url, tmp_path_factory.mktemp("logs"), secret_key="browser-tests"
                            ) as base:
        yield base, url


def _moderator(base: str, database_url: str) -> dict[str, str]:
    made = httpx.post(f"{base}/api/v1/accounts", json={"username": "warden",
                                                        "password": "correct horse"})
    assert made.status_code == 201, made.text
    env = {**os.environ, "STEPWELL_DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "app.accounts.moderators", "grant", "warden"], env=env,
                   check=True, capture_output=True, cwd=Path(__file__).resolve().parents[2])
    return {"Authorization": f"Bearer {made.json()['token']}"}


def test_a_hidden_line_leaves_the_page_and_its_author_is_told(  # type: ignore[no-untyped-def]
        moderated: tuple[str, str], new_page) -> None:
    base, database_url = moderated
    moderator = _moderator(base, database_url)
    aki, bo = new_page(width=1366), new_page(width=1366, locale="ja-JP")
    match_id = create_match(aki, base, "stairs", "Aki", seat="0")
    join_match(bo, aki.locator("#invite-link").input_value(), "Bo")
    for page in (aki, bo):
        page.wait_for_selector('#match[data-status="active"][data-live="yes"]')
    bo.locator("#chat-input").fill("you are a fool")
    bo.locator("#chat-input").press("Enter")
    # the input is cleared when the line is accepted: type the next one after that
    expect(bo.locator("#chat-lines .chat-text")).to_have_text(["you are a fool"])
    expect(bo.locator("#chat-input")).to_have_value("")
    bo.locator("#chat-input").fill("sorry")
    bo.locator("#chat-input").press("Enter")
    expect(aki.locator("#chat-lines .chat-text")).to_have_text(["you are a fool", "sorry"])

    lines = httpx.get(f"{base}/api/v1/matches/{match_id}/chat", params={"room": "players"},
                      cookies={c["name"]: c["value"] for c in aki.context.cookies()}).json()
    hidden = httpx.post(f"{base}/api/v1/moderation/chat/{lines[0]['id']}/hide",
                        headers=moderator, json={"reason": "insults"})
    assert hidden.status_code == 200, hidden.text
    expect(aki.locator("#chat-lines .chat-text")).to_have_text(["sorry"])
    expect(bo.locator("#chat-lines .chat-text")).to_have_text(["sorry"])
    expect(bo.locator("#notices .notice.moderation")).to_contain_text("insults")
    expect(bo.locator("#notices .notice.moderation")).to_contain_text("モデレーター")

    bo_id = lines[0]["user"]["id"]
    muted = httpx.post(f"{base}/api/v1/moderation/users/{bo_id}/mute", headers=moderator,
                       json={"reason": "cool down", "minutes": 10})
    assert muted.status_code == 200, muted.text
    bo.locator("#chat-input").fill("still here")
    bo.locator("#chat-input").press("Enter")
    expect(bo.locator("#chat-note")).to_be_visible()
    expect(bo.locator("#chat-note")).to_contain_text("モデレーター")
    expect(aki.locator("#chat-lines .chat-text")).to_have_text(["sorry"])
