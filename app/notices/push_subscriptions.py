"""The devices a person opted in to web push: add (from a browser's ``PushSubscription``), list,
remove. The endpoint is where the worker will POST, so it is checked like any outgoing URL: https
only (unless ``push_allow_insecure_endpoints``), and never a loopback, private or link-local
address written as an IP (a subscription must not aim the worker at the site's own network).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db.models import PushSubscription
from app.db.session import rows_matched
from app.kernel.errors import Conflict, Invalid, NotFound

MAX_DEVICES = 20
"""Devices one person may opt in at a time (a 21st is refused: remove one first)."""


def _decoded(value: str, length: int, field: str) -> None:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) == length and field == "p256dh":
        try:  # a point on P-256, or encrypting to it would fail at every push
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError:
            raw = b""
    if len(raw) != length:
        raise Invalid(f"keys.{field} is not a browser's push key (base64url, {length} bytes).",
                      code="invalid_subscription")


def check_endpoint(endpoint: str, allow_insecure: bool) -> None:
    """Refuse an endpoint the worker must not POST to (raises ``Invalid``)."""
    parts = urlsplit(endpoint)
    if parts.scheme != "https" and not (allow_insecure and parts.scheme == "http"):
        raise Invalid("A push endpoint must be an https URL.", code="invalid_endpoint")
    host = parts.hostname or ""
    if not host:
        raise Invalid("A push endpoint must name a host.", code="invalid_endpoint")
    if allow_insecure:
        return
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith(".localhost"):
            raise Invalid("A push endpoint may not be this machine.", code="invalid_endpoint") from None
        return
    if not address.is_global:
        raise Invalid("A push endpoint may not be a private address.", code="invalid_endpoint")


def subscribe(session: Session, user_id: int, endpoint: str, p256dh: str, auth: str,
              language: str, label: str, allow_insecure: bool) -> int:
    """Store a device (or move an endpoint already known to this person); returns its id. The
    same endpoint subscribed by someone else (another account in the same browser) becomes
    this person's: a device notifies whoever opted it in last."""
    check_endpoint(endpoint, allow_insecure)
    _decoded(p256dh, 65, "p256dh")
    _decoded(auth, 16, "auth")
    known = session.scalar(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
    if known is None:
        count = session.scalar(select(func.count()).select_from(PushSubscription)
                               .where(PushSubscription.user_id == user_id)) or 0
        if count >= MAX_DEVICES:
            raise Conflict(f"At most {MAX_DEVICES} devices may receive notifications: remove one "
                           "first.", code="too_many_devices")
        known = PushSubscription(endpoint=endpoint, user_id=user_id)
        session.add(known)
    known.user_id = user_id
    known.p256dh, known.auth = p256dh, auth
    known.language, known.label = language, label[:120]
    session.commit()
    return known.id


def devices(session: Session, user_id: int) -> list[dict[str, Any]]:
    """The person's devices, newest first, without their keys; ``host``: the push service."""
    rows = session.scalars(select(PushSubscription).where(PushSubscription.user_id == user_id)
                           .order_by(PushSubscription.id.desc()))
    return [{"id": row.id, "label": row.label, "host": urlsplit(row.endpoint).hostname or "",
             "language": row.language, "created_at": row.created_at.isoformat(),
             "last_sent_at": row.last_sent_at.isoformat() if row.last_sent_at else None}
            for row in rows]


def unsubscribe(session: Session, user_id: int, subscription_id: int) -> None:
    """Remove one of the person's devices; someone else's id is not found (404), like none."""
    removed = session.execute(delete(PushSubscription).where(
        PushSubscription.id == subscription_id, PushSubscription.user_id == user_id))
    session.commit()
    if not rows_matched(removed):
        raise NotFound("No such device.", code="subscription_not_found")


def subscriptions_of(session: Session, user_ids: set[int]) -> list[PushSubscription]:
    if not user_ids:
        return []
    return list(session.scalars(select(PushSubscription)
                                .where(PushSubscription.user_id.in_(user_ids))))


def forget(session: Session, subscription_id: int) -> None:
    """The push service said the subscription is gone (404/410)."""
    session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))
    session.commit()
