"""Web push over the API: the server's public key, a device's subscription (opt in, list,
remove), and the notification switches shared with mail.

Adding, listing and removing devices needs full access (``ACCOUNT``: the browser session, a
guest's token, the token of ``POST /api/v1/login``), never a scoped personal token: a device
keeps receiving notices after the token that added it is revoked, so a read-only token must not
be able to aim the account's notices at an endpoint of its choosing (docs/security.md).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import AccountOwner, Anyone, SignedInReader
from app.http.schemas import RowId
from app.kernel import i18n
from app.notices import preferences
from app.notices.devices import device_label
from app.notices.push_subscriptions import devices, subscribe, unsubscribe
from app.notices.vapid import public_key, vapid_key

router = APIRouter(route_class=OneHopRoute, tags=["push"])  # included under /api/v1


class PushKeyOut(BaseModel):
    publicKey: str = Field(description="The VAPID application server key (base64url, the "
                                       "uncompressed P-256 point): `applicationServerKey` of "
                                       "`PushManager.subscribe`.")


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=200, description="The browser's P-256 key, base64url.")
    auth: str = Field(max_length=100, description="The 16-byte auth secret, base64url.")


class SubscriptionIn(BaseModel):
    """What a browser's `PushSubscription.toJSON()` gives."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(max_length=1000, examples=["https://push.example.net/send/abc123"])
    expirationTime: float | None = None
    keys: SubscriptionKeys


class SubscriptionCreated(BaseModel):
    id: int


class DeviceOut(BaseModel):
    id: int
    label: str = Field(description="The browser and system it said it was, when it opted in.")
    host: str = Field(description="Its push service.")
    language: str = Field(description="The language its notifications are written in.")
    created_at: str
    last_sent_at: str | None


class PreferencesOut(BaseModel):
    push: dict[preferences.Kind, bool]
    mail: dict[preferences.MailKind, bool]


class PreferencesIn(BaseModel):
    """Switches to change; a value must be a JSON boolean (0 or "yes" are refused)."""

    model_config = ConfigDict(extra="forbid")

    push: dict[preferences.Kind, StrictBool] = {}
    mail: dict[preferences.MailKind, StrictBool] = {}


def _settings(request: Request) -> Any:
    return request.app.state.settings


@router.get("/push/key", response_model=PushKeyOut)
def push_key(request: Request, _caller: Anyone) -> dict[str, str]:
    """The VAPID public key to subscribe with (the same on every instance)."""
    return {"publicKey": public_key(vapid_key(_settings(request).vapid_private_key))}


@router.post("/push/subscriptions", response_model=SubscriptionCreated, status_code=201)
def add_subscription(body: SubscriptionIn, request: Request, user: AccountOwner,
                     session: SessionDep) -> dict[str, int]:
    """Opt this device in: the body is the browser's `PushSubscription.toJSON()`. Its
    notifications are written in the language of this request. The endpoint must be https
    (422 `invalid_endpoint`); keys that are not a browser's are 422 `invalid_subscription`;
    a 21st device is 409 `too_many_devices`. Full access only (not a scoped token)."""
    subscription_id = subscribe(
        session, user.id, body.endpoint, body.keys.p256dh, body.keys.auth,
        i18n.current_language.get(), device_label(request.headers.get("user-agent", "")),
        _settings(request).push_allow_insecure_endpoints)
    return {"id": subscription_id}


@router.get("/push/subscriptions", response_model=list[DeviceOut])
def list_subscriptions(user: AccountOwner, session: SessionDep) -> list[dict[str, Any]]:
    """Your devices that receive notifications (no keys)."""
    return devices(session, user.id)


@router.delete("/push/subscriptions/{subscription_id}", status_code=204)
def remove_subscription(subscription_id: RowId, user: AccountOwner, session: SessionDep) -> None:
    """Stop notifying a device. Another person's device is 404, as is one already removed."""
    unsubscribe(session, user.id, subscription_id)


@router.get("/notices/preferences", response_model=PreferencesOut)
def get_preferences(user: SignedInReader, session: SessionDep) -> dict[str, dict[str, bool]]:
    """Your notification switches, per channel and kind (`yourTurn`, `challenge`, `gameOver`,
    `tournament`, `clockReminder`, `followedGame`)."""
    return preferences.preferences_of(session, user.id)


@router.patch("/notices/preferences", response_model=PreferencesOut)
def change_preferences(body: PreferencesIn, user: AccountOwner,
                       session: SessionDep) -> dict[str, dict[str, bool]]:
    """Turn some switches on or off (those not named keep their value); returns them all."""
    sent = (("push", body.push), ("mail", body.mail))
    changes: dict[str, dict[str, bool]] = {
        channel: {str(kind): on for kind, on in kinds.items()} for channel, kinds in sent if kinds}
    return preferences.set_preferences(session, user.id, changes)
