"""OAuth for apps over HTTP: the metadata (RFC 8414), the consent page (the authorization
endpoint), and the token and revocation endpoints (RFC 6749, RFC 7009), the protocol being
Authlib's (``oauth``).

The consent page is a page like any other (browser session only, CSRF-checked forms). The token
and revocation endpoints read no credential of the caller: the app proves itself with the code
and its PKCE verifier, or with the token it revokes, so a cookie sent along changes nothing.
Their errors are RFC 6749's JSON (``error``, ``error_description``) with the API's ``code`` and
``message`` beside them.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from authlib.oauth2.rfc6749 import OAuth2Error
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from app.accounts.identity_cache import identities
from app.accounts.oauth import (
    AUTHORIZATION_PARAMETERS,
    LOOPBACK_HOSTS,
    Fields,
    OAuthAnswer,
    OAuthRequest,
    OAuthServer,
)
from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http import scopes
from app.http.doors import PageDoor, PublicDoor, declared
from app.http.openapi import OAUTH
from app.http.ratelimit import client_address, limiter_for
from app.kernel import i18n
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.web.forms import check_csrf, page_viewer
from app.web.templating import render

METADATA_PATH = "/.well-known/oauth-authorization-server"
AUTHORIZE_PATH = "/oauth/authorize"
TOKEN_PATH = "/api/v1/oauth/token"
REVOKE_PATH = "/api/v1/oauth/revoke"
RATE_LIMIT = "oauth"

SCOPE_WORDS = {
    scopes.READ: i18n.N_("See your games, your profile and your account's live events."),
    scopes.PLAY: i18n.N_("Play in your games: moves, draw and takeback offers, resigning, chat."),
    scopes.CHALLENGE: i18n.N_("Start games for you: create and join games, seeks, challenges, "
                              "quick play and tournaments."),
    scopes.BOT: i18n.N_("Turn your account into a bot account. This cannot be undone."),
}
"""What each scope lets an app do, in the words of the consent page."""
REDIRECT_RULE = i18n.N_("An app's redirect URI is an https address, or a plain http one on this "
                        "computer only (127.0.0.1, [::1] or localhost).")

router = APIRouter(route_class=OneHopRoute, include_in_schema=False)
"""The metadata and the token and revocation endpoints (full paths)."""
page_router = APIRouter(route_class=OneHopRoute, include_in_schema=False,
                        dependencies=[PageDoor])
"""The consent page."""


async def request_fields(request: Request) -> dict[str, list[str]]:
    """The query string and, for a form post, the form: each name with all its values."""
    fields: dict[str, list[str]] = {}
    for name, value in request.query_params.multi_items():
        fields.setdefault(name, []).append(value)
    if request.method == "POST":
        for name, item in (await request.form()).multi_items():
            if isinstance(item, str):
                fields.setdefault(name, []).append(item)
    return fields


FieldsDep = Annotated[dict[str, list[str]], Depends(request_fields)]


def _server(request: Request, session: Session) -> OAuthServer:
    cache = identities(request)
    return OAuthServer(session, cache.forget_token)


def _oauth_request(request: Request, fields: Fields) -> OAuthRequest:
    return OAuthRequest(request.method, str(request.url), request.headers, fields)


def issuer(request: Request) -> str:
    """This server's address as apps reach it: the public URL when set, else the request's."""
    public: str | None = request.app.state.settings.public_url
    return (public or str(request.base_url)).rstrip("/")


@router.get(METADATA_PATH, dependencies=[PublicDoor])
def metadata(request: Request) -> dict[str, Any]:
    """Authorization server metadata (RFC 8414): where apps send people and codes."""
    base = issuer(request)
    return {
        "issuer": base,
        "authorization_endpoint": base + AUTHORIZE_PATH,
        "token_endpoint": base + TOKEN_PATH,
        "revocation_endpoint": base + REVOKE_PATH,
        "scopes_supported": list(scopes.TOKEN_SCOPES),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "ui_locales_supported": list(i18n.LANGUAGES),
        "service_documentation": base + "/docs",
    }


# -- the consent page ------------------------------------------------------------------------------


def _refused_page(request: Request, answer: OAuthAnswer) -> Response:
    """An authorization request that cannot go back to its app (no valid redirect URI): said
    on a page, never sent to an address nobody vouched for."""
    body = answer.body if isinstance(answer.body, dict) else {}
    detail = str(body.get("error_description") or body.get("error") or "")
    message = i18n.gettext("The app sent a request this site cannot accept.")
    if "redirect" in detail.lower():
        message += " " + i18n.gettext(REDIRECT_RULE)
    return render(request, "error.html", status_code=400, status=400,
                  heading=i18n.gettext("This app's sign-in request is not valid"),
                  message=f"{message} {detail}".strip())


def _answer_authorization(request: Request, answer: OAuthAnswer) -> Response:
    location = answer.location
    if location is not None:  # the code, or an error, back at the app's own redirect URI
        return RedirectResponse(location, status_code=303 if request.method == "POST" else 302)
    return _refused_page(request, answer)


def _error_answer(server: OAuthServer, oauth_request: OAuthRequest | None,
                  error: OAuth2Error) -> OAuthAnswer:
    if oauth_request is not None and error.state is None:
        error.state = oauth_request.payload.state
    answer: OAuthAnswer = server.handle_error_response(oauth_request, error)
    return answer


def _account(viewer: Identity | None) -> Identity | None:
    """Apps act for accounts (and bot accounts), as personal tokens do; a guest signs in first."""
    return viewer if viewer is not None and viewer.kind in ("account", "bot") else None


def _login_first(request: Request) -> Response:
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(here, safe='')}", status_code=303)


def _consent_page(request: Request, viewer: Identity, grant: Any) -> Response:
    payload = grant.request.payload.data
    target = urlsplit(grant.redirect_uri)
    response = render(
        request, "oauth_consent.html", app_name=grant.client.client_id, account=viewer,
        scopes=[(name, SCOPE_WORDS[name]) for name in str(grant.request.scope).split()],
        fields={name: payload[name] for name in AUTHORIZATION_PARAMETERS if name in payload},
        redirect_origin=f"{target.scheme}://{target.netloc}",
        loopback=target.hostname in LOOPBACK_HOSTS)
    response.headers["X-Frame-Options"] = "DENY"  # no one frames the button that grants access
    response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
    return response


def _checked(request: Request, server: OAuthServer, fields: Fields,
             viewer: Identity | None) -> tuple[OAuthRequest, Any] | Response:
    """The app's authorization request as Authlib checked it, with its grant; or the answer
    refusing it (back at the app's redirect URI when that one is valid, else a page)."""
    oauth_request = None
    try:
        oauth_request = _oauth_request(request, fields)
        return oauth_request, server.get_consent_grant(oauth_request, end_user=viewer)
    except OAuth2Error as error:
        return _answer_authorization(request, _error_answer(server, oauth_request, error))


@page_router.get(AUTHORIZE_PATH)
def authorize_page(request: Request, session: SessionDep, fields: FieldsDep) -> Response:
    """The authorization endpoint: an app's request, checked, then the person's consent (after
    signing in, if they are not)."""
    viewer = _account(page_viewer(request, session))
    checked = _checked(request, _server(request, session), fields, viewer)
    if isinstance(checked, Response):
        return checked
    if viewer is None:
        return _login_first(request)
    return _consent_page(request, viewer, checked[1])


@page_router.post(AUTHORIZE_PATH)
def authorize(request: Request, session: SessionDep, fields: FieldsDep) -> Response:
    """The consent form's answer: a code for the app, or ``access_denied``, at its redirect URI."""
    check_csrf(request, (fields.get("csrf") or [""])[0])
    viewer = _account(page_viewer(request, session))
    if viewer is None:
        return _login_first(request)
    approved = (fields.get("decision") or [""])[0] == "approve"
    oauth_fields = {name: fields[name] for name in AUTHORIZATION_PARAMETERS if name in fields}
    server = _server(request, session)
    checked = _checked(request, server, oauth_fields, viewer)
    if isinstance(checked, Response):
        return checked
    oauth_request, grant = checked
    answer = server.create_authorization_response(
        oauth_request, grant_user=viewer if approved else None, grant=grant)
    return _answer_authorization(request, answer)


# -- the token and revocation endpoints ------------------------------------------------------------


def _json_answer(answer: OAuthAnswer) -> Response:
    body = dict(answer.body) if isinstance(answer.body, dict) else {}
    if "error" in body:  # the API's own error fields beside RFC 6749's
        body["code"] = body["error"]
        body["message"] = body.get("error_description") or body["error"]
    headers = {name: value for name, value in answer.headers if name.lower() != "content-type"}
    return JSONResponse(body, status_code=answer.status, headers=headers)


def _over_limit(request: Request) -> Response | None:
    """Token and revocation requests are counted per client address (codes are guessable
    only by trying)."""
    wait = limiter_for(request.app).check(RATE_LIMIT, client_address(request))
    if wait is None:
        return None
    seconds = max(1, round(wait))
    message = f"Too many requests: try again in {seconds} s."
    return JSONResponse({"error": "rate_limited", "error_description": message,
                         "code": "rate_limited", "message": message}, status_code=429,
                        headers={"Retry-After": str(seconds), "Cache-Control": "no-store"})


async def _endpoint(request: Request, session: Session, fields: Fields,
                    answer: Any) -> Response:
    refused = _over_limit(request)
    if refused is not None:
        return refused

    def work() -> OAuthAnswer:
        server = _server(request, session)
        try:
            oauth_request = _oauth_request(request, fields)
        except OAuth2Error as error:
            return _error_answer(server, None, error)
        found: OAuthAnswer = answer(server, oauth_request)
        return found

    return _json_answer(await asyncio.to_thread(work))


@router.post(TOKEN_PATH, dependencies=[Depends(declared(scopes.PUBLIC))])
async def token(request: Request, session: SessionDep, fields: FieldsDep) -> Response:
    """Exchange a code and its PKCE verifier for a token (form: ``grant_type``, ``code``,
    ``redirect_uri``, ``client_id``, ``code_verifier``)."""
    return await _endpoint(request, session, fields,
                           lambda server, oauth_request: server.create_token_response(oauth_request))


@router.post(REVOKE_PATH, dependencies=[Depends(declared(scopes.PUBLIC))])
async def revoke(request: Request, session: SessionDep, fields: FieldsDep) -> Response:
    """Revoke a token an app was granted (form: ``token``, ``client_id``)."""
    return await _endpoint(request, session, fields, lambda server, oauth_request: (
        server.create_endpoint_response("revocation", oauth_request)))


SCOPE_SUMMARIES = {
    scopes.READ: "Read your games, challenges and account.",
    scopes.PLAY: "Play moves and use the match's chat and offers.",
    scopes.CHALLENGE: "Create, accept and decline challenges and seeks.",
    scopes.BOT: "Play as a bot account.",
}


def oauth_scheme(doc: JSONObject) -> None:
    """The OpenAPI document's ``oauth`` scheme (authorization code with PKCE); every operation a
    scoped token may call names it beside the bearer token (``security_requirement``)."""
    doc.setdefault("components", {}).setdefault("securitySchemes", {})[OAUTH] = {
        "type": "oauth2",
        "description": "Authorization code with PKCE (S256); no client registration: the "
                       "client_id names the app. See the metadata at " + METADATA_PATH + ".",
        "flows": {"authorizationCode": {
            "authorizationUrl": AUTHORIZE_PATH, "tokenUrl": TOKEN_PATH,
            "scopes": {scope: SCOPE_SUMMARIES[scope] for scope in scopes.TOKEN_SCOPES}}},
    }
