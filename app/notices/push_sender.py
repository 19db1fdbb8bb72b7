"""Sends one payload to one device: encrypted (aes128gcm, RFC 8291), signed (VAPID, RFC 8292),
with retries.

A push service that answers 404 or 410 has dropped the subscription: the row is deleted and the
device receives nothing more. 429, 5xx and an unreachable service are tried again after each of
``retry_seconds``; any other refusal (400, 401, 403, 413) is the sender's fault and is logged,
not retried. Runs in the worker's push job, in a thread (``requests`` blocks), never in a
request.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from py_vapid import Vapid02

from app.kernel.metrics import PUSHES
from app.notices.messages import PushPayload

log = logging.getLogger(__name__)

GONE = (404, 410)
TTL_SECONDS = 24 * 3600
"""How long a push service keeps a push for a device that is off (a turn waits that long)."""
TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Device:
    """What sending needs of a ``PushSubscription`` row (read before the thread sends)."""

    id: int
    endpoint: str
    p256dh: str
    auth: str


class PushSender:
    def __init__(self, vapid: Vapid02, subject: str, retry_seconds: Sequence[float],
                 forget: Callable[[int], None], sent: Callable[[int], None] | None = None) -> None:
        """``forget(id)``: delete a subscription its push service dropped; ``sent(id)``: note a
        delivery (the device list shows when each device last received one)."""
        self.vapid = vapid
        self.subject = subject
        self.retry_seconds = list(retry_seconds)
        self.forget = forget
        self.sent = sent
        import requests  # here, as pywebpush below: only the process that sends needs them

        self.http = requests.Session()
        self.network_errors: tuple[type[Exception], ...] = (requests.RequestException, OSError,
                                                            ValueError)

    def _post(self, device: Device, payload: PushPayload, urgency: str) -> int:
        """One attempt; the push service's status (a network failure raises). pywebpush is
        imported here, by the process that sends: it brings aiohttp, half a second of CPU that
        a web instance's start need not pay."""
        from pywebpush import WebPushException, webpush

        try:
            response = webpush(
                {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
                data=payload.wire().decode(), vapid_private_key=self.vapid,
                vapid_claims={"sub": self.subject}, content_encoding="aes128gcm",
                ttl=TTL_SECONDS, timeout=TIMEOUT_SECONDS, headers={"Urgency": urgency},
                requests_session=self.http)
        except WebPushException as refused:
            if refused.response is None:
                raise
            return int(refused.response.status_code)
        return int(response.status_code)

    async def send(self, device: Device, payload: PushPayload, urgency: str = "normal") -> bool:
        """Deliver, retrying while the push service is away; True once it accepted."""
        waits = [0.0, *self.retry_seconds]
        for attempt, wait in enumerate(waits):
            if wait:
                await asyncio.sleep(wait)
            try:
                status = await asyncio.to_thread(self._post, device, payload, urgency)
            except self.network_errors as failure:
                log.info("push to device %s failed (attempt %d): %s", device.id, attempt + 1, failure)
                PUSHES.labels("retried").inc()
                continue
            if status < 300:
                PUSHES.labels("sent").inc()
                if self.sent is not None:
                    await asyncio.to_thread(self.sent, device.id)
                return True
            if status in GONE:
                PUSHES.labels("gone").inc()
                await asyncio.to_thread(self.forget, device.id)
                return False
            if status == 429 or status >= 500:
                PUSHES.labels("retried").inc()
                continue
            PUSHES.labels("refused").inc()
            log.warning("push service refused a push to device %s: %s", device.id, status)
            return False
        PUSHES.labels("dropped").inc()
        log.warning("push to device %s dropped after %d attempts", device.id, len(waits))
        return False

    def close(self) -> None:
        self.http.close()
