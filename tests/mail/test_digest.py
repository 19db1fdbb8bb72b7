"""The correspondence digest: opted in, at most one a day, listing the games waiting for the
person's move; one click on its unsubscribe link (or the mail client's one-click post) stops it."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from app.db.models import utcnow
from app.mail.digest import queue_due_digests
from tests.conftest import start_match
from tests.mail.conftest import ConfirmedAccount, sign_up
from tests.mail.smtp_server import SmtpServer, html_of, link_in, text_of

CORRESPONDENCE = {"kind": "correspondence", "days": 3}


def test_the_digest_lists_waiting_games_once_a_day_and_unsubscribe_stops_it(
        mail_client: TestClient, smtp_server: SmtpServer,
        confirmed_account: ConfirmedAccount) -> None:
    aiko = confirmed_account("aiko", "aiko@example.com")
    bob = sign_up(mail_client, "bob")
    refused = mail_client.put("/api/v1/account/email/digest", json={"digest": True}, headers=bob)
    assert refused.status_code == 409 and refused.json()["code"] == "email_unconfirmed"
    opted = mail_client.put("/api/v1/account/email/digest", json={"digest": True}, headers=aiko)
    assert opted.status_code == 200 and opted.json()["digest"] is True
    match = start_match(mail_client, aiko, bob, time_control=CORRESPONDENCE)  # aiko to move
    start_match(mail_client, bob, aiko)  # real time: never in a digest

    digest = smtp_server.mailbox.wait_for(2)[1]  # the worker's digest pass
    assert digest["Subject"] == "Stepwell: games waiting for your move"
    assert f"http://stepwell.test/m/{match['id']}" in text_of(digest)
    assert "bob" in html_of(digest) and text_of(digest).count("/m/") == 1
    session_factory = mail_client.app.state.session_factory  # type: ignore[attr-defined]
    with session_factory() as session:
        assert queue_due_digests(session) == 0  # not twice the same day
        tomorrow = utcnow() + timedelta(days=1, minutes=1)
        assert queue_due_digests(session, tomorrow) == 1
    smtp_server.mailbox.wait_for(3)

    unsubscribe = mail_client.get(link_in(digest, "/unsubscribe"))
    assert unsubscribe.status_code == 200
    assert mail_client.get("/api/v1/account/email", headers=aiko).json()["digest"] is False
    with session_factory() as session:
        later = utcnow() + timedelta(days=3)
        assert queue_due_digests(session, later) == 0


def test_the_one_click_post_unsubscribes(mail_client: TestClient, smtp_server: SmtpServer,
                                         confirmed_account: ConfirmedAccount) -> None:
    aiko = confirmed_account("aiko", "aiko@example.com")
    mail_client.put("/api/v1/account/email/digest", json={"digest": True}, headers=aiko)
    header = smtp_server.mailbox.mails[0]["List-Unsubscribe"].strip("<>")
    posted = mail_client.post(header.removeprefix("http://stepwell.test"),
                              data={"List-Unsubscribe": "One-Click"})
    assert posted.status_code == 204
    state = mail_client.get("/api/v1/account/email", headers=aiko).json()
    assert state["digest"] is False and state["confirmed"] is True  # the address stays


def test_unsubscribing_an_unconfirmed_address_removes_it(
        mail_client: TestClient, smtp_server: SmtpServer) -> None:
    """Someone typed another person's address: its owner's one click takes it off."""
    chika = sign_up(mail_client, "chika", "someone-else@example.com")
    [mail] = smtp_server.mailbox.wait_for(1)
    assert mail_client.get(link_in(mail, "/unsubscribe")).status_code == 200
    assert mail_client.get("/api/v1/account/email", headers=chika).json()["email"] is None
    assert mail_client.get(link_in(mail, "/email/confirm")).status_code == 422
