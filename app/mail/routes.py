"""The email API: your address and digest opt-in, confirming an address, password reset, and
the one-click unsubscribe a mail client posts (RFC 8058).

On a server that sends no mail every route answers 404 ``email_disabled``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import MIN_PASSWORD_LENGTH, hash_password, identities
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import AccountOwner, PublicDoor
from app.http.ratelimit import client_address, limiter_for
from app.kernel import i18n
from app.kernel.settings import Settings
from app.mail import addresses, resets
from app.mail.config import require_mail
from app.match import SessionOut

router = APIRouter(route_class=OneHopRoute, tags=["email"])


class EmailOut(BaseModel):
    email: str | None = Field(description="Your address (only you ever see it).")
    confirmed: bool
    digest: bool = Field(description="The daily digest of correspondence games waiting for you.")
    language: str = Field(description="The language your mails are written in.")


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str | None = Field(max_length=254, examples=["aiko@example.com"],
                              description="The new address (a confirmation mail is sent); "
                                          "null or an empty string removes it.")


class DigestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    digest: bool


class EmailTokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=400)


class ResetIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str = Field(min_length=1, max_length=254)


class ResetConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=400)
    password: str = Field(min_length=1, max_length=200, json_schema_extra={
        "minLength": MIN_PASSWORD_LENGTH}, description=(
        f"At least {MIN_PASSWORD_LENGTH} characters (422 `weak_password` otherwise)."))


class AcceptedOut(BaseModel):
    message: str


RESET_ACCEPTED = ("If an account confirmed that address, a reset link is on its way; it works "
                  "once, for one hour.")


def mail_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    require_mail(settings)
    return settings


def enforce_reset_limits(request: Request, address: str) -> None:
    """Reset requests per client address and per address asked about, known or not (429)."""
    limiter = limiter_for(request.app)
    limiter.enforce("password_reset", client_address(request), request)
    limiter.enforce("password_reset_email", address.strip().lower(), request)


@router.get("/account/email", response_model=EmailOut)
def get_email(request: Request, user: AccountOwner, session: SessionDep) -> dict[str, Any]:
    """Your address, whether it is confirmed, and your digest opt-in."""
    mail_settings(request)
    addresses.require_account(session, user.id)
    return addresses.email_state(session, user.id)


@router.put("/account/email", response_model=EmailOut, status_code=202)
def put_email(body: EmailIn, request: Request, user: AccountOwner,
              session: SessionDep) -> dict[str, Any]:
    """Set your address (202: a confirmation mail is queued; the link in it confirms the
    address, once, within seven days) or remove it (`null`). Mails are written in the language
    of this request (`Accept-Language`, `?lang=`). Limited per account (429)."""
    mail_settings(request)
    if body.email:
        limiter_for(request.app).enforce("email_change", f"u:{user.id}", request)
    return addresses.set_address(session, user.id, body.email, i18n.current_language.get())


@router.put("/account/email/digest", response_model=EmailOut)
def put_digest(body: DigestIn, request: Request, user: AccountOwner,
               session: SessionDep) -> dict[str, Any]:
    """Opt in or out of the daily digest: at most one mail a day listing your correspondence
    games waiting for your move (none when nothing waits). Needs a confirmed address (409
    `email_unconfirmed`)."""
    mail_settings(request)
    return addresses.set_digest(session, user.id, body.digest, i18n.current_language.get())


@router.post("/email/confirm", response_model=EmailOut, dependencies=[PublicDoor])
def confirm_email(body: EmailTokenIn, request: Request, session: SessionDep) -> dict[str, Any]:
    """Confirm an address with the token of its mail's link (no sign-in: the link is the proof).
    422 `invalid_link`: forged, older than seven days, used already, or superseded."""
    settings = mail_settings(request)
    user_id = addresses.confirm_address(session, settings.secret_key, body.token)
    return addresses.email_state(session, user_id)


@router.post("/password-reset", response_model=AcceptedOut, status_code=202,
             dependencies=[PublicDoor])
def password_reset(body: ResetIn, request: Request, session: SessionDep) -> dict[str, str]:
    """Ask for a password-reset link by email. Always 202, whether or not an account confirmed
    the address (a mail goes only to one that did). Limited per client and per address (429)."""
    mail_settings(request)
    enforce_reset_limits(request, body.email)
    resets.request_reset(session, body.email)
    return {"message": RESET_ACCEPTED}


@router.post("/password-reset/confirm", response_model=SessionOut, dependencies=[PublicDoor])
def password_reset_confirm(body: ResetConfirmIn, request: Request,
                           session: SessionDep) -> dict[str, Any]:
    """Set a new password with the token of a reset mail (once, within the hour: else 422
    `invalid_reset_token`). Every browser session and token of the account ends, on every
    instance, sockets included; the answer carries one fresh login token."""
    mail_settings(request)
    resets.require_live_token(session, body.token)
    password_hash = hash_password(body.password)
    user, token = resets.confirm_reset(session, body.token, password_hash)
    identities(request).end_user(user.id)
    return {"token": token, "user": user.public()}


@router.post("/unsubscribe", status_code=204, dependencies=[PublicDoor])
def unsubscribe(request: Request, session: SessionDep,
                token: str = Query(min_length=1, max_length=400)) -> None:
    """The one-click unsubscribe of a mail's `List-Unsubscribe` header: no more digests to that
    address (an unconfirmed address is removed from its account). No sign-in: the token is
    signed by the server. 422 `invalid_link` for a forged one."""
    settings = mail_settings(request)
    addresses.unsubscribe(session, settings.secret_key, token)
