"""Password reset through a real SMTP server: the mail's link resets once, within the hour, and
ends every other credential; an unknown address gets the same 202 and no mail."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models import utcnow
from app.mail.models import MailOutbox, PasswordReset
from app.main import create_app
from tests.mail.conftest import ConfirmedAccount, mail_settings, sign_up
from tests.mail.smtp_server import SmtpServer, link_in, text_of

ACCEPTED = 202


def ask_reset(client: TestClient, email: str) -> None:
    answer = client.post("/api/v1/password-reset", json={"email": email})
    assert answer.status_code == ACCEPTED, answer.text
    assert "reset link" in answer.json()["message"]


def test_the_reset_mail_link_sets_a_new_password_once(
        mail_client: TestClient, smtp_server: SmtpServer,
        confirmed_account: ConfirmedAccount) -> None:
    old_token = confirmed_account("aiko", "aiko@example.com")
    ask_reset(mail_client, "AIKO@example.com")  # addresses are matched without case
    reset_mail = smtp_server.mailbox.wait_for(2)[1]
    assert reset_mail["To"] == "aiko@example.com"
    assert reset_mail["Subject"] == "Reset your Stepwell password"
    assert "aiko" in text_of(reset_mail) and "/unsubscribe?token=" in text_of(reset_mail)
    link = link_in(reset_mail, "/password-reset/confirm")
    token = link.split("token=")[1]
    with mail_client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        stored = session.scalars(select(PasswordReset.token_hash)).all()
        outbox = session.scalars(select(MailOutbox.params)).all()
    assert token not in stored and len(stored) == 1  # only its hash is kept
    assert all(token not in str(params) for params in outbox)

    form = mail_client.get(link)
    assert form.status_code == 200 and 'name="password"' in form.text
    assert form.headers["Referrer-Policy"] == "no-referrer"
    done = mail_client.post("/api/v1/password-reset/confirm",
                            json={"token": token, "password": "a-new-password"})
    assert done.status_code == 200, done.text
    fresh = {"Authorization": f"Bearer {done.json()['token']}"}

    assert mail_client.get("/api/v1/account/email", headers=old_token).status_code == 401
    assert mail_client.get("/api/v1/account/email", headers=fresh).status_code == 200
    old_login = mail_client.post("/api/v1/login", json={"username": "aiko",
                                                        "password": "correct-horse"})
    assert old_login.status_code == 401
    assert mail_client.post("/api/v1/login", json={"username": "aiko",
                                                   "password": "a-new-password"}).status_code == 200
    second = mail_client.post("/api/v1/password-reset/confirm",
                              json={"token": token, "password": "yet-another-one"})
    assert second.status_code == 422 and second.json()["code"] == "invalid_reset_token"
    assert mail_client.get(link).status_code == 422


def test_an_expired_reset_link_fails(mail_client: TestClient, smtp_server: SmtpServer,
                                     confirmed_account: ConfirmedAccount) -> None:
    confirmed_account("ben", "ben@example.com")
    ask_reset(mail_client, "ben@example.com")
    token = link_in(smtp_server.mailbox.wait_for(2)[1], "/password-reset/confirm").split("=")[1]
    with mail_client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        session.execute(update(PasswordReset.__table__)
                        .values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    expired = mail_client.post("/api/v1/password-reset/confirm",
                               json={"token": token, "password": "a-new-password"})
    assert expired.status_code == 422 and expired.json()["code"] == "invalid_reset_token"
    assert mail_client.post("/api/v1/login", json={"username": "ben",
                                                   "password": "correct-horse"}).status_code == 200


def test_unknown_and_unconfirmed_addresses_get_202_and_no_mail(
        mail_client: TestClient, smtp_server: SmtpServer,
        confirmed_account: ConfirmedAccount) -> None:
    sign_up(mail_client, "chika", "chika@example.com")  # never confirmed
    smtp_server.mailbox.wait_for(1)
    ask_reset(mail_client, "nobody@example.com")
    ask_reset(mail_client, "chika@example.com")
    confirmed_account("daiki", "daiki@example.com")
    ask_reset(mail_client, "daiki@example.com")
    # The outbox is sent in order: once the last reset arrived, any earlier mail would have too.
    smtp_server.mailbox.wait_for(3)
    with mail_client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        queued = session.scalars(select(MailOutbox.kind)).all()
    assert sorted(queued) == ["confirm", "confirm", "reset"]  # none for the other two
    subjects = [(m["To"], m["Subject"]) for m in smtp_server.mailbox.mails]
    assert subjects == [("chika@example.com", "Confirm your email address for Stepwell"),
                        ("daiki@example.com", "Confirm your email address for Stepwell"),
                        ("daiki@example.com", "Reset your Stepwell password")]


def test_reset_requests_are_rate_limited(database_url: str, smtp_server: SmtpServer) -> None:
    settings = mail_settings(database_url, smtp_server.port, rate_limit_scale=1.0,
                             rate_password_reset_email="2/hour")
    with TestClient(create_app(settings)) as client:
        ask_reset(client, "someone@example.com")
        ask_reset(client, "Someone@example.com")
        limited = client.post("/api/v1/password-reset", json={"email": "someone@example.com"})
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert int(limited.headers["Retry-After"]) >= 1


def test_the_reset_pages_walk_through_the_gate(
        mail_client: TestClient, smtp_server: SmtpServer,
        confirmed_account: ConfirmedAccount) -> None:
    confirmed_account("emi", "emi@example.com")
    page = mail_client.get("/password-reset")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    refused = mail_client.post("/password-reset", data={"email": "emi@example.com", "csrf": "x"})
    assert refused.status_code == 403
    sent = mail_client.post("/password-reset", data={"email": "emi@example.com",
                                                     "csrf": csrf.group(1)})
    assert sent.status_code == ACCEPTED and 'id="reset-sent"' in sent.text
    link = link_in(smtp_server.mailbox.wait_for(2)[1], "/password-reset/confirm")
    form = mail_client.get(link)
    token = re.search(r'name="token" value="([^"]+)"', form.text)
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token is not None and csrf is not None
    short = mail_client.post("/password-reset/confirm", data={
        "token": token.group(1), "password": "short", "csrf": csrf.group(1)})
    assert short.status_code == 422 and "8 characters" in short.text
    done = mail_client.post("/password-reset/confirm", data={
        "token": token.group(1), "password": "a-new-password", "csrf": csrf.group(1)},
        follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].startswith("/account/email")
    account = mail_client.get(done.headers["location"])
    assert account.status_code == 200 and "emi@example.com" in account.text


