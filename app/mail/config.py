"""Whether this server sends mail, and where: the SMTP server and the public address, from the
settings (``STEPWELL_SMTP_URL``, ``STEPWELL_PUBLIC_URL``).

With either unset there is no email feature: the pages hide them and the API answers 404
``email_disabled``, so nobody types an address that no mail will ever reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

from app.kernel.errors import NotFound
from app.kernel.settings import Settings

DISABLED_MESSAGE = "This server sends no email (STEPWELL_SMTP_URL and STEPWELL_PUBLIC_URL are not set)."


@dataclass(frozen=True)
class SmtpTarget:
    """Where and how mail is handed over: ``security`` is ``starttls`` (``smtp://``, the upgrade
    required), ``tls`` (``smtps://``) or ``plain`` (``smtp://…?starttls=off``, a local relay)."""

    host: str
    port: int
    security: Literal["starttls", "tls", "plain"]
    username: str | None
    password: str | None

    @classmethod
    def from_url(cls, url: str) -> SmtpTarget:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("STEPWELL_SMTP_URL is smtp://[user:password@]host[:port] or smtps://…")
        options = parse_qs(parts.query)
        plain = options.get("starttls", [""])[0].lower() in ("off", "false", "0", "no")
        security: Literal["starttls", "tls", "plain"] = (
            "tls" if parts.scheme == "smtps" else "plain" if plain else "starttls")
        port = parts.port or (465 if security == "tls" else 587 if security == "starttls" else 25)
        return cls(host=parts.hostname, port=port, security=security,
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None)


def mail_enabled(settings: Settings) -> bool:
    """Whether the email features exist on this server."""
    return bool(settings.smtp_url and settings.public_url)


def require_mail(settings: Settings) -> None:
    """Refuse an email feature on a server that sends no mail (404 ``email_disabled``)."""
    if not mail_enabled(settings):
        raise NotFound(DISABLED_MESSAGE, code="email_disabled")


def public_link(settings: Settings, path: str) -> str:
    """An absolute link to ``path`` on this site, for a mail."""
    return (settings.public_url or "").rstrip("/") + path


def sender(settings: Settings) -> str:
    if settings.mail_from:
        return settings.mail_from
    host = urlsplit(settings.public_url or "").hostname or "localhost"
    return f"Stepwell <stepwell@{host}>"
