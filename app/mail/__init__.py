"""Email: an account's optional address (confirmed by a signed single-use link), password reset
by mail, the daily correspondence digest, one-click unsubscribe, and the outbox the worker sends
through SMTP with retries (``STEPWELL_SMTP_URL``; links use ``STEPWELL_PUBLIC_URL``).

Other packages use only the names below.
"""

from app.mail.addresses import clean_address, digest_enabled, email_state, set_address, set_digest
from app.mail.config import mail_enabled, require_mail
from app.mail.delivery import deliver_mail
from app.mail.digest import queue_digests
from app.mail.pages import router as mail_page_router
from app.mail.reminders import queue_reminder
from app.mail.routes import router as mail_router

__all__ = [
    "clean_address",
    "deliver_mail",
    "digest_enabled",
    "email_state",
    "mail_enabled",
    "mail_page_router",
    "mail_router",
    "queue_digests",
    "queue_reminder",
    "require_mail",
    "set_address",
    "set_digest",
]
