"""An account's address: given at sign-up or later, confirmed by the link of a real mail (once),
seen by its owner only; without SMTP settings every email feature is absent."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from tests.mail.conftest import ConfirmedAccount, sign_up
from tests.mail.smtp_server import SmtpServer, html_of, link_in, text_of


def test_the_confirmation_mail_arrives_and_its_link_confirms_once(
        mail_client: TestClient, smtp_server: SmtpServer) -> None:
    headers = sign_up(mail_client, "aiko", "Aiko@Example.com")
    assert mail_client.get("/api/v1/account/email", headers=headers).json() == {
        "email": "Aiko@Example.com", "confirmed": False, "digest": False, "language": "en"}
    [mail] = smtp_server.mailbox.wait_for(1)
    assert mail["To"] == "Aiko@Example.com"
    assert mail["Subject"] == "Confirm your email address for Stepwell"
    assert "aiko" in text_of(mail) and "<a href=" in html_of(mail)
    unsubscribe = mail["List-Unsubscribe"]
    assert unsubscribe.startswith("<http://stepwell.test/api/v1/unsubscribe?token=")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/unsubscribe?token=" in text_of(mail)

    link = link_in(mail, "/email/confirm")
    first = mail_client.get(link)
    assert first.status_code == 200 and "confirmed" in first.text
    assert first.headers["Referrer-Policy"] == "no-referrer"
    assert mail_client.get("/api/v1/account/email", headers=headers).json()["confirmed"] is True
    again = mail_client.get(link)
    assert again.status_code == 422
    token = link.split("token=")[1]
    api_again = mail_client.post("/api/v1/email/confirm", json={"token": token})
    assert api_again.status_code == 422 and api_again.json()["code"] == "invalid_link"


def test_a_newer_address_makes_the_older_link_useless(
        mail_client: TestClient, smtp_server: SmtpServer) -> None:
    headers = sign_up(mail_client, "ben", "ben@example.com")
    [first] = smtp_server.mailbox.wait_for(1)
    changed = mail_client.put("/api/v1/account/email", json={"email": "ben@example.org"},
                              headers=headers)
    assert changed.status_code == 202 and changed.json()["email"] == "ben@example.org"
    second = smtp_server.mailbox.wait_for(2)[1]
    assert second["To"] == "ben@example.org"
    assert mail_client.get(link_in(first, "/email/confirm")).status_code == 422
    assert mail_client.get(link_in(second, "/email/confirm")).status_code == 200
    state = mail_client.get("/api/v1/account/email", headers=headers).json()
    assert state["email"] == "ben@example.org" and state["confirmed"] is True


def test_a_forged_link_is_refused(mail_client: TestClient) -> None:
    forged = mail_client.post("/api/v1/email/confirm", json={"token": "eyJ1IjoxfQ.forged.sig"})
    assert forged.status_code == 422 and forged.json()["code"] == "invalid_link"
    assert mail_client.post("/api/v1/unsubscribe?token=nope").status_code == 422


def test_mail_is_written_in_the_persons_language(
        mail_client: TestClient, smtp_server: SmtpServer) -> None:
    sign_up(mail_client, "hana", "hana@example.jp", headers={"Accept-Language": "ja"})
    [mail] = smtp_server.mailbox.wait_for(1)
    assert mail["Subject"] == "Stepwell のメールアドレスを確認してください"
    assert "確認" in text_of(mail) and 'lang="ja"' in html_of(mail)


def test_the_address_is_its_owners_secret(mail_client: TestClient,
                                          confirmed_account: ConfirmedAccount) -> None:
    owner = confirmed_account("chika", "chika@example.com")
    other = sign_up(mail_client, "daiki")
    assert mail_client.get("/api/v1/account/email", headers=other).json()["email"] is None
    for path in ("/api/v1/users/chika", "/api/v1/users?q=chi", "/u/chika"):
        answer = mail_client.get(path, headers=other)
        assert answer.status_code == 200 and "chika@example.com" not in answer.text
    guest = mail_client.post("/api/v1/guests", json={"name": "G"}).json()["token"]
    refused = mail_client.get("/api/v1/account/email", headers={"Authorization": f"Bearer {guest}"})
    assert refused.status_code == 403
    scoped = mail_client.post("/api/v1/tokens", headers=owner, json={
        "description": "reader", "scopes": ["read"]}).json()["token"]
    assert mail_client.get("/api/v1/account/email",
                           headers={"Authorization": f"Bearer {scoped}"}).status_code == 403


def test_a_bad_address_is_refused_before_the_account_exists(mail_client: TestClient) -> None:
    refused = mail_client.post("/api/v1/accounts", json={
        "username": "emi", "password": "correct-horse", "email": "not an address"})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_email"
    assert mail_client.get("/api/v1/users/emi").status_code == 404


def test_without_smtp_settings_every_email_feature_is_absent(database_url: str) -> None:
    settings = Settings(database_url=database_url, secret_key="test-secret")
    with TestClient(create_app(settings)) as client:
        headers = sign_up(client, "fumi")
        for method, path, body in [("GET", "/api/v1/account/email", None),
                                   ("PUT", "/api/v1/account/email", {"email": "f@example.com"}),
                                   ("POST", "/api/v1/password-reset", {"email": "f@example.com"}),
                                   ("POST", "/api/v1/password-reset/confirm",
                                    {"token": "x", "password": "long-enough"})]:
            answer = client.request(method, path, json=body, headers=headers)
            assert answer.status_code == 404 and answer.json()["code"] == "email_disabled", path
        with_email = client.post("/api/v1/accounts", json={
            "username": "gen", "password": "correct-horse", "email": "g@example.com"})
        assert with_email.status_code == 404 and with_email.json()["code"] == "email_disabled"
        assert 'name="email"' not in client.get("/signup").text
        assert "/password-reset" not in client.get("/login").text
        assert client.get("/password-reset").status_code == 404
        assert client.get("/account/email").status_code == 404


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_the_pages_set_confirm_and_remove_an_address(
        mail_client: TestClient, smtp_server: SmtpServer) -> None:
    signup = mail_client.get("/signup")
    assert 'name="email"' in signup.text
    made = mail_client.post("/signup", follow_redirects=False, data={
        "csrf": csrf_of(signup.text), "username": "iori", "password": "correct-horse",
        "email": "iori@example.com"})
    assert made.status_code == 303
    [mail] = smtp_server.mailbox.wait_for(1)
    page = mail_client.get("/account/email")
    assert "iori@example.com" in page.text and 'id="email-state"' in page.text
    assert mail_client.get(link_in(mail, "/email/confirm")).status_code == 200
    page = mail_client.get("/account/email")
    forged = mail_client.post("/account/email/digest", data={"csrf": "nope", "digest": "on"})
    assert forged.status_code == 403
    saved = mail_client.post("/account/email/digest", data={"csrf": csrf_of(page.text),
                                                             "digest": "on"})
    assert saved.status_code == 200 and "checked" in saved.text
    removed = mail_client.post("/account/email", data={"csrf": csrf_of(page.text), "email": ""})
    assert removed.status_code == 200 and "iori@example.com" not in removed.text
    assert 'href="/account/email"' in mail_client.get("/account/tokens").text
