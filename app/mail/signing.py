"""Signed link tokens (itsdangerous, keyed by the site's secret): a confirmation link names the
account, the address and a nonce; an unsubscribe link names the account and the address.

A signature proves the server wrote the link; single use is the database's part (the nonce's
hash is kept until the link is used)."""

from __future__ import annotations

import hashlib
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

CONFIRM_SALT = "stepwell-email-confirm"
UNSUBSCRIBE_SALT = "stepwell-unsubscribe"
CONFIRM_MAX_AGE_SECONDS = 7 * 24 * 3600


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def sign(secret_key: str, salt: str, payload: dict[str, Any]) -> str:
    return URLSafeTimedSerializer(secret_key, salt=salt).dumps(payload)


def unsign(secret_key: str, salt: str, token: str, max_age: int | None = None) -> dict[str, Any] | None:
    """The payload of a token this server signed (and not older than ``max_age``), else None."""
    try:
        payload = URLSafeTimedSerializer(secret_key, salt=salt).loads(token, max_age=max_age)
    except BadSignature:  # a bad or an expired signature alike
        return None
    return payload if isinstance(payload, dict) else None
