"""An independent web push service on loopback, for the tests: what a browser vendor's push
service does with a push, checked as strictly.

It serves ``POST /push/<device>``, verifies the VAPID ``Authorization`` header (RFC 8292: an
ES256 JWT whose signature must verify with the key in ``k=``, for this origin, not expired, with
a ``sub``), and, holding the private key of each device's subscription (made here as a browser
makes it: a P-256 key pair and a 16-byte auth secret), decrypts the aes128gcm body (RFC 8291)
with ``http_ece``. What it received is kept per device; a device can be told to answer a given
status (410: the subscription is gone).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's push subscription: its keys stay here, the server gets ``subscription``."""

    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    answer: int = 201
    received: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    @property
    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}


def verify_vapid(header: str, origin: str) -> tuple[dict[str, Any], str]:
    """The JWT's claims and the sender's public key, once both are checked (AssertionError if not)."""
    assert header.startswith("vapid "), header
    parts = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
    token, key = parts["t"], parts["k"]
    head_b64, claims_b64, signature_b64 = token.split(".")
    assert json.loads(unb64url(head_b64)) == {"typ": "JWT", "alg": "ES256"}
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    signature = unb64url(signature_b64)
    assert len(signature) == 64
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"),
                               int.from_bytes(signature[32:], "big"))
    public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(unb64url(claims_b64))
    assert claims["aud"] == origin, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert claims["sub"].startswith(("mailto:", "https:")), claims
    return claims, key


class PushService:
    """Runs on its own thread and loop; ``wait_for`` blocks a test until a push arrives."""

    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.rejected: list[str] = []
        self.sender_keys: set[str] = set()
        self._arrived = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.origin = ""

    def device(self, name: str) -> Device:
        found = self.devices[name] = Device(name, f"{self.origin}/push/{name}")
        return found

    async def _receive(self, request: web.Request) -> web.Response:
        device = self.devices.get(request.match_info["name"])
        if device is None:
            return web.Response(status=404)
        body = await request.read()
        try:
            _claims, key = verify_vapid(request.headers.get("Authorization", ""), self.origin)
            assert request.headers.get("Content-Encoding") == "aes128gcm"
            assert int(request.headers["TTL"]) > 0
            plain = http_ece.decrypt(body, private_key=device.key, auth_secret=device.auth,
                                     version="aes128gcm")
            payload = json.loads(plain)
        except (AssertionError, InvalidSignature, KeyError, ValueError) as error:
            self.rejected.append(f"{device.name}: {error!r}")
            return web.Response(status=400)
        with self._arrived:
            self.sender_keys.add(key)
            device.headers.append(dict(request.headers))
            if device.answer < 300:
                device.received.append(payload)
            self._arrived.notify_all()
        return web.Response(status=device.answer)

    def start(self) -> PushService:
        app = web.Application()
        app.router.add_post("/push/{name}", self._receive)
        runner = web.AppRunner(app)
        self._thread.start()

        async def serve() -> int:
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            return site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

        port = asyncio.run_coroutine_threadsafe(serve(), self._loop).result(10)
        self.origin = f"http://127.0.0.1:{port}"
        self._runner = runner
        return self

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def wait_for(self, device: Device, count: int = 1, timeout: float = 30.0,
                 attempts: bool = False) -> list[dict[str, Any]]:
        """Block until ``device`` received ``count`` pushes (``attempts``: requests, whatever it
        answered); fails after ``timeout`` (a guard against hanging, not a measure)."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(device.headers if attempts else device.received) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{device.name} got {len(device.received)} of {count} pushes; " \
                                 f"rejected: {self.rejected}"
                self._arrived.wait(left)
            return list(device.received)
