"""A real SMTP server in the test process (aiosmtpd): it keeps every mail it accepts and lets a
test wait for the next one."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import ssl
import threading
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mailbox:
    """The aiosmtpd handler: every accepted mail, parsed, in arrival order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        parsed = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.changed:
            self.mails.append(parsed)
            self.changed.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 30.0) -> list[EmailMessage]:
        """The first ``count`` mails, once that many have arrived (fails after ``timeout``)."""
        with self.changed:
            arrived = self.changed.wait_for(lambda: len(self.mails) >= count, timeout)
            assert arrived, f"expected {count} mails, got {len(self.mails)}"
            return list(self.mails[:count])


class SmtpServer:
    """``with SmtpServer(port) as server:`` an SMTP server on 127.0.0.1:port (STARTTLS offered
    and required when given a TLS context)."""

    def __init__(self, port: int | None = None, tls: ssl.SSLContext | None = None,
                 mailbox: Mailbox | None = None) -> None:
        self.port = port or free_port()
        self.mailbox = mailbox or Mailbox()
        extra: dict[str, Any] = {}
        if tls is not None:
            extra = {"tls_context": tls, "require_starttls": True}
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port,
                                     server_hostname="localhost", **extra)

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


def text_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def html_of(mail: EmailMessage) -> str:
    part = mail.get_body(("html",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def link_in(mail: EmailMessage, path: str) -> str:
    """The site-relative link to ``path`` (with its query) that the mail's text carries."""
    found = re.search(r"http://stepwell\.test(" + re.escape(path) + r"\?token=[A-Za-z0-9_.\-]+)",
                      text_of(mail))
    assert found, text_of(mail)
    return found.group(1)
