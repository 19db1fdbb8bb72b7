"""The match page offers the game record as a download, and the link serves it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.conftest import make_guest
from tests.databases import sqlite_database


def test_match_page_links_the_text_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "pages.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as client:
        alice = make_guest(client, "Alice")
        match_id = client.post("/api/v1/matches", json={"game": "sight"}, headers=alice).json()["id"]
        for language, label in (("en", "Download the game record"), ("ja", "棋譜をダウンロード")):
            html = client.get(f"/m/{match_id}", headers={"Accept-Language": language}).text
            link = re.search(r'<a id="export-link" href="([^"]+)"[^>]*>([^<]+)</a>', html)
            assert link is not None and link.group(2) == label
            record = client.get(link.group(1).replace("&amp;", "&"))
            assert record.status_code == 200 and f'[Match "{match_id}"]' in record.text
