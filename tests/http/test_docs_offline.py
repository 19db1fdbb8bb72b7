"""/docs and /redoc load nothing from other sites: every asset they name is served by the app."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.databases import sqlite_database


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "docs.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as test_client:
        yield test_client


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_page_names_only_local_assets_and_they_are_served(client: TestClient,
                                                               page: str) -> None:
    html = client.get(page).text
    assert "cdn." not in html and "googleapis" not in html
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(urls) >= 2
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        asset = client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 1000, url


def test_swagger_oauth_redirect_page_is_local(client: TestClient) -> None:
    response = client.get("/docs/oauth2-redirect")
    assert response.status_code == 200 and "http" not in response.text.split("<script")[0]
