"""The email pages: your address and digest (``/account/email``), confirming an address from
its mail, password reset (ask, then set a new password from the mail's link), unsubscribe.

Every form posts through the page door with its CSRF token; the links a mail carries are GETs
whose signed or single-use token is the proof (no sign-in). On a server that sends no mail
these pages are not linked and answer 404."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.accounts import hash_password, identities, sign_in
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.ratelimit import RateLimited, limiter_for
from app.kernel import i18n
from app.kernel.errors import ServiceError
from app.mail import addresses, resets
from app.mail.routes import enforce_reset_limits, mail_settings
from app.web.forms import check_csrf, page_viewer
from app.web.templating import render

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])
TOO_MANY = i18n.N_("Too many attempts: please wait %(seconds)s s and try again.")
NO_REFERRER = {"Referrer-Policy": "no-referrer"}
"""A page whose address carries a secret never passes it on to another site."""


def _message(error: ServiceError) -> str:
    if isinstance(error, RateLimited):
        return i18n.gettext(TOO_MANY) % {"seconds": error.retry_after_seconds}
    return i18n.gettext(error.message)


def _private(page: Response) -> Response:
    page.headers.update(NO_REFERRER)
    return page


def _status(error: ServiceError) -> int:
    return 429 if isinstance(error, RateLimited) else 422


def _account_page(request: Request, session: SessionDep, user_id: int, status_code: int = 200,
                  notice: str | None = None, error: str | None = None) -> Response:
    return render(request, "account_email.html", status_code=status_code, notice=notice,
                  error=error, state=addresses.email_state(session, user_id))


def _signed_in_account(request: Request, session: SessionDep) -> int | None:
    viewer = page_viewer(request, session)
    return viewer.id if viewer is not None and viewer.kind == "account" else None


@router.get("/account/email")
def email_page(request: Request, session: SessionDep, changed: str = "") -> Response:
    """Your address (set, change, remove) and the digest opt-in. Mails are written in the
    language this page was last read in."""
    mail_settings(request)
    user_id = _signed_in_account(request, session)
    if user_id is None:
        return RedirectResponse("/login?next=/account/email", status_code=303)
    addresses.set_language(session, user_id, i18n.current_language.get())
    notice = (i18n.gettext("Your password was changed: every other session and token of the "
                           "account has ended.") if changed == "password" else None)
    return _account_page(request, session, user_id, notice=notice)


@router.post("/account/email")
def set_email_from_form(request: Request, session: SessionDep, csrf: str = Form(""),
                        email: str = Form("")) -> Response:
    check_csrf(request, csrf)
    mail_settings(request)
    user_id = _signed_in_account(request, session)
    if user_id is None:
        return RedirectResponse("/login?next=/account/email", status_code=303)
    try:
        if email.strip():
            limiter_for(request.app).enforce("email_change", f"u:{user_id}", request)
        addresses.set_address(session, user_id, email, i18n.current_language.get())
    except ServiceError as error:
        return _account_page(request, session, user_id, _status(error), error=_message(error))
    notice = (i18n.gettext("A confirmation mail is on its way: open its link to confirm the address.")
              if email.strip() else i18n.gettext("Your email address was removed."))
    return _account_page(request, session, user_id, notice=notice)


@router.post("/account/email/digest")
def set_digest_from_form(request: Request, session: SessionDep, csrf: str = Form(""),
                         digest: str = Form("")) -> Response:
    check_csrf(request, csrf)
    mail_settings(request)
    user_id = _signed_in_account(request, session)
    if user_id is None:
        return RedirectResponse("/login?next=/account/email", status_code=303)
    try:
        addresses.set_digest(session, user_id, digest == "on", i18n.current_language.get())
    except ServiceError as error:
        return _account_page(request, session, user_id, 409, error=_message(error))
    return _account_page(request, session, user_id, notice=i18n.gettext("Saved."))


@router.get("/email/confirm")
def confirm_email_page(request: Request, session: SessionDep, token: str = "") -> Response:
    """The link of a confirmation mail."""
    settings = mail_settings(request)
    page_viewer(request, session)
    try:
        addresses.confirm_address(session, settings.secret_key, token[:400])
    except ServiceError as error:
        return _private(render(request, "mail_result.html", status_code=422, ok=False,
                               message=_message(error)))
    return _private(render(request, "mail_result.html", ok=True,
                           message=i18n.gettext("Your email address is confirmed.")))


@router.get("/unsubscribe")
def unsubscribe_page(request: Request, session: SessionDep, token: str = "") -> Response:
    """A mail's unsubscribe link: one click, no sign-in."""
    settings = mail_settings(request)
    page_viewer(request, session)
    try:
        addresses.unsubscribe(session, settings.secret_key, token[:400])
    except ServiceError as error:
        return render(request, "mail_result.html", status_code=422, ok=False,
                      message=_message(error))
    return render(request, "mail_result.html", ok=True, message=i18n.gettext(
        "You are unsubscribed: no more digests will be sent to this address."))


@router.get("/password-reset")
def reset_page(request: Request, session: SessionDep) -> Response:
    mail_settings(request)
    page_viewer(request, session)
    return render(request, "password_reset.html", step="ask", error=None, sent=False)


@router.post("/password-reset")
def reset_from_form(request: Request, session: SessionDep, csrf: str = Form(""),
                    email: str = Form("")) -> Response:
    """Always the same answer, whether or not the address is known (a rate limit aside)."""
    check_csrf(request, csrf)
    mail_settings(request)
    page_viewer(request, session)
    try:
        enforce_reset_limits(request, email)
    except RateLimited as error:
        page = render(request, "password_reset.html", status_code=429, step="ask",
                      error=_message(error), sent=False)
        page.headers["Retry-After"] = str(error.retry_after_seconds)
        return page
    if email.strip():
        resets.request_reset(session, email[:254])
    return render(request, "password_reset.html", status_code=202, step="ask", error=None,
                  sent=True)


@router.get("/password-reset/confirm")
def reset_confirm_page(request: Request, session: SessionDep, token: str = "") -> Response:
    """The link of a reset mail: the new-password form (the token is spent only by the post)."""
    mail_settings(request)
    page_viewer(request, session)
    token = token[:400]
    live = bool(token) and resets.token_is_live(session, token)
    return _private(render(request, "password_reset.html", status_code=200 if live else 422,
                           step="choose" if live else "dead", token=token, error=None,
                           sent=False))


@router.post("/password-reset/confirm")
def reset_confirm_from_form(request: Request, session: SessionDep, csrf: str = Form(""),
                            token: str = Form(""), password: str = Form("")) -> Response:
    check_csrf(request, csrf)
    mail_settings(request)
    page_viewer(request, session)
    try:
        resets.require_live_token(session, token[:400])
        password_hash = hash_password(password)
        user, _token = resets.confirm_reset(session, token[:400], password_hash)
    except ServiceError as error:
        dead = error.code == "invalid_reset_token"
        return _private(render(request, "password_reset.html", status_code=422,
                               step="dead" if dead else "choose", token=token[:400],
                               error=_message(error), sent=False))
    identities(request).end_user(user.id)
    sign_in(request, session, user.id)
    return RedirectResponse("/account/email?changed=password", status_code=303)
