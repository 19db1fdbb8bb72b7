"""The server's VAPID key pair (RFC 8292): push services accept a push only with a JWT signed by
it, and browsers subscribe with its public key (``GET /api/v1/push/key``).

From ``STEPWELL_VAPID_PRIVATE_KEY`` (PEM, or the raw key in base64url) or, unset, kept in
``data/vapid_private.pem``, generated on first start: every instance and the worker of one
installation share it, as they share ``data/secret_key``. Changing the key invalidates every
subscription (browsers bind a subscription to the key they subscribed with).
"""

from __future__ import annotations

import base64
import os
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from app.kernel.settings import DATA_DIR

KEY_FILE = "vapid_private.pem"


def _from_text(text: str) -> Vapid02:
    text = text.strip()
    if text.startswith("-----BEGIN"):
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_raw(text.encode())


def _from_data_dir(folder: Path) -> Vapid02:
    path = folder / KEY_FILE
    if path.exists():
        return Vapid02.from_file(str(path))
    folder.mkdir(parents=True, exist_ok=True)
    vapid = Vapid02()
    vapid.generate_keys()
    pem = vapid.private_pem()
    # Created readable by the owner only, then renamed into place: two processes starting at
    # once both write a whole key and the last rename wins before either signs anything.
    temporary = folder / f".{KEY_FILE}.{os.getpid()}"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(pem)
    if path.exists():  # another process won: use its key
        temporary.unlink()
        return Vapid02.from_file(str(path))
    temporary.replace(path)
    return Vapid02.from_file(str(path))


@lru_cache(maxsize=8)
def vapid_key(configured: str | None, folder: Path = DATA_DIR) -> Vapid02:
    """The installation's VAPID key: the configured one, else the one in ``folder``."""
    if configured:
        return _from_text(configured)
    return _from_data_dir(folder)


def public_key(vapid: Vapid02) -> str:
    """The application server key a browser subscribes with: the uncompressed P-256 point,
    base64url without padding."""
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
