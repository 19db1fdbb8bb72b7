"""A correspondence clock about to run out reminds the person by mail when no device of theirs
takes the push: once per turn, in their language, and its unsubscribe link switches it off."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models import Match, NoticeDelivery
from app.kernel import timesource
from app.main import create_app
from tests.conftest import start_match
from tests.mail.conftest import ConfirmedAccount, mail_settings, sign_up
from tests.mail.smtp_server import SmtpServer, link_in, text_of
from tests.notices.test_push import VAPID_PEM

CORRESPONDENCE = {"kind": "correspondence", "days": 1}


def _nearly_out(client: TestClient, match_id: str) -> None:
    factory = client.app.state.session_factory  # type: ignore[attr-defined]
    with factory() as session:
        session.execute(update(Match).where(Match.id == match_id).values(
            deadline_at=timesource.now() + timedelta(hours=2)))
        session.commit()


def _mailed(client: TestClient) -> list[str]:
    factory = client.app.state.session_factory  # type: ignore[attr-defined]
    with factory() as session:
        return list(session.scalars(select(NoticeDelivery.subject).where(
            NoticeDelivery.channel == "mail", NoticeDelivery.kind == "clockReminder")))


def test_a_reminder_goes_by_mail_when_no_device_takes_it(
        database_url: str, smtp_server: SmtpServer) -> None:
    settings = mail_settings(database_url, smtp_server.port, vapid_private_key=VAPID_PEM,
                             push_reminder_scan_seconds=0.05)
    with TestClient(create_app(settings)) as client:
        aiko = sign_up(client, "aiko", "aiko@example.com")
        [confirm] = smtp_server.mailbox.wait_for(1)
        assert client.get(link_in(confirm, "/email/confirm")).status_code == 200
        bob = sign_up(client, "bob")  # no address: never mailed
        first = start_match(client, aiko, bob, time_control=CORRESPONDENCE)  # aiko to move
        second = start_match(client, aiko, bob, time_control=CORRESPONDENCE)
        live = start_match(client, aiko, bob)  # real time: never reminded

        _nearly_out(client, first["id"])
        reminder = smtp_server.mailbox.wait_for(2)[1]
        assert reminder["To"] == "aiko@example.com"
        assert reminder["Subject"] == "Stepwell: your clock is running out"
        assert f"http://stepwell.test/m/{first['id']}" in text_of(reminder)
        assert "bob" in text_of(reminder) and "about 2 h left" in text_of(reminder)

        # Scans go on every 0.05 s: a second match's reminder comes after many of them, and the
        # first match's turn is still mailed only once.
        _nearly_out(client, second["id"])
        later = smtp_server.mailbox.wait_for(3)[2]
        assert f"/m/{second['id']}" in text_of(later)
        assert sorted(_mailed(client)) == sorted([first["id"], second["id"]])
        assert live["id"] not in _mailed(client)

        assert client.get(link_in(later, "/unsubscribe")).status_code == 200
        switches = client.get("/api/v1/notices/preferences", headers=aiko).json()
        assert switches["mail"]["clockReminder"] is False
        assert client.get("/api/v1/account/email", headers=aiko).json()["confirmed"] is True


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_the_reminder_by_mail_is_a_switch_on_the_notifications_page(
        mail_client: TestClient, confirmed_account: ConfirmedAccount) -> None:
    aiko = confirmed_account("aiko", "aiko@example.com")
    refused = mail_client.patch("/api/v1/notices/preferences", json={"mail": {"yourTurn": True}},
                                headers=aiko)
    assert refused.status_code == 422  # your turn never goes by mail
    csrf = _csrf(mail_client.get("/login").text)
    mail_client.post("/login", data={"csrf": csrf, "username": "aiko", "password": "correct-horse"},
                     follow_redirects=False)
    page = mail_client.get("/account/notifications")
    assert 'name="mail" value="clockReminder" checked' in page.text
    saved = mail_client.post("/account/notifications/switches",
                             data={"csrf": _csrf(page.text), "push": ["yourTurn"]},
                             follow_redirects=False)
    assert saved.status_code == 303
    switches = mail_client.get("/api/v1/notices/preferences", headers=aiko).json()
    assert switches["mail"] == {"clockReminder": False}
    assert switches["push"]["yourTurn"] is True and switches["push"]["challenge"] is False
    assert 'name="mail" value="clockReminder">' in mail_client.get("/account/notifications").text
