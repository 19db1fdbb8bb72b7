"""The worker's sending: a mail queued while the SMTP server is down goes once it is up, two
senders never send one mail twice, STARTTLS is required and its certificate checked."""

from __future__ import annotations

import ssl
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.session import make_engine, make_session_factory
from app.mail import set_address
from app.mail.config import SmtpTarget
from app.mail.delivery import deliver_due
from app.mail.models import MailOutbox
from app.main import create_app
from tests.mail.conftest import mail_settings, sign_up
from tests.mail.smtp_server import SmtpServer, free_port


def outbox_rows(client: TestClient) -> list[MailOutbox]:
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        return list(session.scalars(select(MailOutbox).order_by(MailOutbox.id)))


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Look again every 50 ms until ``condition`` holds (False: it never did)."""
    seen = threading.Event()
    for _ in range(int(timeout / 0.05)):
        if condition():
            return True
        seen.wait(0.05)
    return condition()


def test_a_mail_queued_while_smtp_is_down_is_sent_once_it_is_up(database_url: str) -> None:
    port = free_port()  # nothing listens there yet
    with TestClient(create_app(mail_settings(database_url, port))) as client:
        sign_up(client, "aiko", "aiko@example.com")
        assert wait_until(lambda: any(r.attempts >= 1 and r.last_error for r in outbox_rows(client)))
        [row] = outbox_rows(client)
        assert row.outcome is None and row.sent_at is None and "Connection" in (row.last_error or "")
        with SmtpServer(port) as server:
            [mail] = server.mailbox.wait_for(1)
            assert mail["To"] == "aiko@example.com"
        assert wait_until(lambda: outbox_rows(client)[0].outcome is not None)
        [row] = outbox_rows(client)
        assert row.outcome == "sent" and row.attempts >= 2 and row.next_attempt_at is None


def test_two_senders_send_each_mail_once(tmp_path: Path, smtp_server: SmtpServer) -> None:
    from tests import databases

    url = databases.sqlite_database(tmp_path / "senders.db")
    settings = mail_settings(url, smtp_server.port)
    with TestClient(create_app(settings.model_copy(update={"background_jobs": "off"}))) as client:
        for index in range(12):
            sign_up(client, f"user{index}")
    engine = make_engine(url)
    factory = make_session_factory(engine)
    with factory() as session:
        for user_id in range(1, 13):
            set_address(session, user_id, f"user{user_id}@example.com", "en")
    target = SmtpTarget.from_url(settings.smtp_url or "")
    start = threading.Barrier(2)

    def sender() -> None:
        start.wait()
        deliver_due(factory, settings, target)

    senders = [threading.Thread(target=sender) for _ in range(2)]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join(60)
    mails = smtp_server.mailbox.wait_for(12)
    assert sorted(m["To"] for m in mails) == sorted(f"user{i}@example.com" for i in range(1, 13))
    assert len(smtp_server.mailbox.mails) == 12
    engine.dispose()


def make_certificate(folder: Path) -> tuple[Path, Path]:
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return key, cert


def test_starttls_is_used_and_its_certificate_checked(tmp_path: Path, database_url: str) -> None:
    key, cert = make_certificate(tmp_path)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)
    with SmtpServer(tls=tls) as server:
        settings = mail_settings(database_url, server.port, smtp_ca_file=str(cert))
        settings = settings.model_copy(update={"smtp_url": f"smtp://127.0.0.1:{server.port}"})
        with TestClient(create_app(settings)) as client:
            sign_up(client, "aiko", "aiko@example.com")
            [mail] = server.mailbox.wait_for(1)
            assert mail["To"] == "aiko@example.com"


@pytest.mark.parametrize("url, security, port", [
    ("smtp://u%40x:p%3Aw@mail.example:2525", "starttls", 2525),
    ("smtp://mail.example", "starttls", 587),
    ("smtps://mail.example", "tls", 465),
    ("smtp://localhost?starttls=off", "plain", 25),
])
def test_smtp_urls(url: str, security: str, port: int) -> None:
    target = SmtpTarget.from_url(url)
    assert (target.security, target.port) == (security, port)
    if "u%40x" in url:
        assert (target.username, target.password) == ("u@x", "p:w")
