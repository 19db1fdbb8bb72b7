"""An app that sends mail to an SMTP server in this process, and helpers to walk its links."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.mail.smtp_server import SmtpServer

PUBLIC_URL = "http://stepwell.test"


def mail_settings(database_url: str, port: int, **more: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": database_url, "secret_key": "test-secret",
        "smtp_url": f"smtp://127.0.0.1:{port}?starttls=off", "public_url": PUBLIC_URL,
        "mail_poll_seconds": 0.05, "mail_retry_seconds": 0.1, "mail_digest_check_seconds": 0.1,
        "bots_enabled": False, "analysis_workers": 0, **more}
    return Settings(**values)


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture
def mail_client(database_url: str, smtp_server: SmtpServer) -> Iterator[TestClient]:
    """A client of an app whose worker sends to ``smtp_server``."""
    with TestClient(create_app(mail_settings(database_url, smtp_server.port))) as client:
        yield client


def sign_up(client: TestClient, username: str, email: str | None = None,
            password: str = "correct-horse", headers: dict[str, str] | None = None
            ) -> dict[str, str]:
    """A new account (with an address, where given): its bearer headers."""
    body: dict[str, Any] = {"username": username, "password": password}
    if email is not None:
        body["email"] = email
    response = client.post("/api/v1/accounts", json=body, headers=headers or {})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


ConfirmedAccount = Callable[..., dict[str, str]]


@pytest.fixture
def confirmed_account(mail_client: TestClient, smtp_server: SmtpServer) -> ConfirmedAccount:
    """Make an account whose address is confirmed through its mail's link."""
    from tests.mail.smtp_server import link_in

    def make(username: str, email: str) -> dict[str, str]:
        before = len(smtp_server.mailbox.mails)
        headers = sign_up(mail_client, username, email)
        mail = smtp_server.mailbox.wait_for(before + 1)[-1]
        assert mail["To"] == email
        confirmed = mail_client.get(link_in(mail, "/email/confirm"))
        assert confirmed.status_code == 200, confirmed.text
        return headers

    return make
