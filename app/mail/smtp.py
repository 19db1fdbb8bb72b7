"""Handing a mail to the SMTP server (the standard library's client, run in a worker thread):
STARTTLS required for ``smtp://``, TLS from the start for ``smtps://``, plain only when the URL
says ``starttls=off``. The server's certificate is always checked."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage

from app.mail.config import SmtpTarget

TIMEOUT_SECONDS = 20.0


class SendFailed(Exception):
    """The mail was not accepted; worth retrying later."""


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=ca_file)


def send(target: SmtpTarget, message: EmailMessage, ca_file: str | None = None) -> None:
    """Deliver ``message`` to the server; raises :class:`SendFailed` when it was not accepted
    (server away, refused, TLS or login failed)."""
    try:
        client: smtplib.SMTP
        if target.security == "tls":
            client = smtplib.SMTP_SSL(target.host, target.port, timeout=TIMEOUT_SECONDS,
                                      context=tls_context(ca_file))
        else:
            client = smtplib.SMTP(target.host, target.port, timeout=TIMEOUT_SECONDS)
        with client:
            client.ehlo()
            if target.security == "starttls":
                if not client.has_extn("starttls"):
                    raise SendFailed("the SMTP server offers no STARTTLS (smtp:// requires it)")
                client.starttls(context=tls_context(ca_file))
                client.ehlo()
            if target.username:
                client.login(target.username, target.password or "")
            client.send_message(message)
    except SendFailed:
        raise
    except (OSError, smtplib.SMTPException) as error:
        raise SendFailed(f"{type(error).__name__}: {error}") from error
