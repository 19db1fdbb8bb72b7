"""Writing a mail: plain text and HTML from ``templates/mail/``, in the person's language, with
an unsubscribe link in the body and in the ``List-Unsubscribe`` headers (one click, RFC 8058)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape

from app.kernel import i18n
from app.kernel.settings import PROJECT_ROOT, Settings
from app.mail.config import public_link, sender

MAIL_TEMPLATES = PROJECT_ROOT / "templates" / "mail"
SUBJECTS = {
    "confirm": i18n.N_("Confirm your email address for Stepwell"),
    "reset": i18n.N_("Reset your Stepwell password"),
    "digest": i18n.N_("Stepwell: games waiting for your move"),
    "reminder": i18n.N_("Stepwell: your clock is running out"),
}

environment = Environment(loader=FileSystemLoader(str(MAIL_TEMPLATES)),
                          autoescape=select_autoescape(["html"]), keep_trailing_newline=True,
                          extensions=["jinja2.ext.i18n"])
environment.install_gettext_callables(  # type: ignore[attr-defined]  # added by ext.i18n
    i18n.gettext, i18n.ngettext, newstyle=True)


@contextmanager
def language(code: str) -> Iterator[None]:
    token = i18n.current_language.set(code if code in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        i18n.current_language.reset(token)


def compose(settings: Settings, *, kind: str, address: str, lang: str, name: str,
            unsubscribe_token: str, **context: Any) -> EmailMessage:
    """The mail of ``kind`` to ``address``; ``context`` fills its templates (links, games)."""
    unsubscribe_page = public_link(settings, f"/unsubscribe?token={unsubscribe_token}")
    one_click = public_link(settings, f"/api/v1/unsubscribe?token={unsubscribe_token}")
    values = {"name": name, "site": public_link(settings, "/"), "unsubscribe": unsubscribe_page,
              "lang": lang, **context}
    with language(lang):
        subject = i18n.gettext(SUBJECTS[kind])
        text = environment.get_template(f"{kind}.txt").render(subject=subject, **values)
        html = environment.get_template(f"{kind}.html").render(subject=subject, **values)
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender(settings)
    message["To"] = address
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=urlsplit(settings.public_url or "").hostname or None)
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{one_click}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    message.add_alternative(html, subtype="html")
    return message
