"""OAuth 2.0 for apps: the authorization code flow with PKCE (S256 only) for public clients, on
Authlib's authorization server; the pages and endpoints are in ``oauth_routes``.

No app registers: the ``client_id`` names the app, shown on the consent page and beside the
token on the account page. A code is single-use, lives ``CODE_SECONDS``, and is bound to the
person who consented, the app, the exact redirect URI (http only for loopback), the consented
scopes and the PKCE challenge. The token it buys is a personal API token (``tokens``) carrying
exactly those scopes, so it is listed, revoked and ended on live connections like any other;
presenting a used code again revokes the token it bought (RFC 6749 §4.1.2).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from authlib.oauth2.rfc6749 import (
    AuthorizationCodeGrant,
    AuthorizationCodeMixin,
    AuthorizationServer,
    ClientMixin,
    InvalidGrantError,
    InvalidRequestError,
    OAuth2Payload,
    OAuth2Request,
    TokenMixin,
    list_to_scope,
    scope_to_list,
)
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.accounts.identity import hash_token, user_by_id
from app.accounts.reserved_names import is_reserved
from app.accounts.tokens import TOKEN_PREFIX
from app.db.models import ApiToken, OAuthCode
from app.http.scopes import TOKEN_SCOPES
from app.kernel.identity import Identity
from app.kernel.timesource import now

CODE_SECONDS = 60
TOKEN_SECONDS = 365 * 24 * 3600
"""A token granted to an app works for a year (or until revoked)."""
USED_CODES_KEPT_SECONDS = 3600
"""How long a code is remembered after it expired, so presenting it again still revokes."""
MAX_APP_NAME = 100
MAX_REDIRECT_URI = 1000
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
AUTHORIZATION_PARAMETERS = ("response_type", "client_id", "redirect_uri", "scope", "state",
                            "code_challenge", "code_challenge_method")
"""The authorization request's parameters, carried from the consent page to its answer."""
REUSED = "reused"
"""``oauth_codes.token_hash`` of a code presented twice before it bought a token (no SHA-256
looks like it): the exchange still under way then gets none."""
Fields = Mapping[str, Sequence[str]]
"""A query string or form: each name with every value sent for it."""


def app_name_allowed(client_id: str) -> bool:
    """Any app name of 1–100 printable characters (no bidi overrides), without spaces around
    it, that does not pass for the site itself (the reserved names of accounts)."""
    return 0 < len(client_id) <= MAX_APP_NAME and client_id.isprintable() \
        and client_id == client_id.strip() and not is_reserved(client_id)


def redirect_uri_allowed(uri: str) -> bool:
    """https anywhere; plain http only back to this computer (127.0.0.1, [::1], localhost);
    no fragment, no user name or password in it (RFC 6749 §3.1.2, RFC 8252 §7.3)."""
    if not 0 < len(uri) <= MAX_REDIRECT_URI or not uri.isprintable() or " " in uri or "#" in uri:
        return False
    try:
        parts = urlsplit(uri)
        host = parts.hostname
        _ = parts.port  # a malformed port raises ValueError
    except ValueError:
        return False
    if not host or parts.username is not None or parts.password is not None:
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and host in LOOPBACK_HOSTS)


def canonical_scopes(requested: str | None) -> str | None:
    """The requested scopes in the order tokens list them, or None when none (or an unknown
    one) was asked for."""
    names = set(scope_to_list(requested) or [])
    if not names or not names <= set(TOKEN_SCOPES):
        return None
    return str(list_to_scope([scope for scope in TOKEN_SCOPES if scope in names]))


class _Payload(OAuth2Payload):
    def __init__(self, fields: Fields) -> None:
        self._datalist: defaultdict[str, list[str]] = defaultdict(list)
        for name, values in fields.items():
            self._datalist[name].extend(values)
        self._data = {name: values[0] for name, values in self._datalist.items() if values}

    @property
    def data(self) -> dict[str, str]:
        return self._data

    @property
    def datalist(self) -> defaultdict[str, list[str]]:
        return self._datalist


class OAuthRequest(OAuth2Request):
    """An authorization, token or revocation request as Authlib reads it. ``uri`` is the URL the
    request came to (the scheme the proxy saw): Authlib refuses plain http except on loopback."""

    def __init__(self, method: str, uri: str, headers: Mapping[str, str], fields: Fields) -> None:
        super().__init__(method, uri, headers=dict(headers))
        self.payload = _Payload(fields)

    @property
    def args(self) -> dict[str, str]:
        return self.payload.data

    @property
    def form(self) -> dict[str, str]:
        return self.payload.data


class PublicApp(ClientMixin):
    """An app, known only by the name it gives: public (no secret), authorization code only."""

    def __init__(self, client_id: str) -> None:
        self.client_id = client_id

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> None:
        return None  # every request names its redirect URI

    def get_allowed_scope(self, scope: str | None) -> str | None:
        return canonical_scopes(scope)

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri_allowed(redirect_uri)

    def check_client_secret(self, client_secret: str) -> bool:
        return False

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method == "none"

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type == "authorization_code"


@dataclass
class IssuedCode(AuthorizationCodeMixin):
    """A claimed authorization code, as the token request checks it."""

    id: int
    user_id: int
    redirect_uri: str
    scopes: str
    code_challenge: str
    code_challenge_method: str = "S256"

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scopes


@dataclass
class GrantedToken(TokenMixin):
    """A token an app was granted, as the revocation endpoint checks it."""

    id: int
    token_hash: str
    app: str

    def check_client(self, client: PublicApp) -> bool:
        return self.app == client.client_id


class S256Challenge(CodeChallenge):
    """PKCE, required, with S256 only: a missing challenge or any other method is refused at the
    authorization endpoint (Authlib's own check lets a request without one through there)."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]  # noqa: RUF012  (Authlib's class attribute)

    def validate_code_challenge(self, grant: Any, redirect_uri: str) -> None:
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("PKCE is required: send code_challenge and "
                                      "code_challenge_method=S256.")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("code_challenge_method must be S256 (plain is not accepted).")
        super().validate_code_challenge(grant, redirect_uri)


class CodeGrant(AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]  # noqa: RUF012  (Authlib's class attribute)

    def save_authorization_code(self, code: str, request: OAuthRequest) -> None:
        self.server.codes.save(code, request.user, request.client.client_id,
                               request.payload.redirect_uri, request.scope,
                               request.payload.data["code_challenge"])

    def query_authorization_code(self, code: str, client: PublicApp) -> IssuedCode | None:
        return self.server.codes.claim(code, client.client_id)  # type: ignore[no-any-return]

    def delete_authorization_code(self, authorization_code: IssuedCode) -> None:
        """Nothing to do: the code was spent when it was claimed."""

    def authenticate_user(self, authorization_code: IssuedCode) -> Identity | None:
        return self.server.codes.user(authorization_code.user_id)  # type: ignore[no-any-return]


class TokenRevocation(RevocationEndpoint):
    """RFC 7009: an app revokes a token it was granted, naming itself with ``client_id``. An
    unknown token, or one no app was granted, changes nothing and is answered 200 all the same."""

    CLIENT_AUTH_METHODS = ["none"]  # noqa: RUF012  (Authlib's class attribute)

    def query_token(self, token_string: str, token_type_hint: str | None) -> GrantedToken | None:
        return self.server.codes.granted_token(token_string)  # type: ignore[no-any-return]

    def revoke_token(self, token: GrantedToken, request: OAuthRequest) -> None:
        self.server.codes.revoke(token.token_hash)


class CodeStore:
    """Codes and the tokens they buy, in the database (so any instance answers any step)."""

    def __init__(self, session: Session, forget_token: Callable[[str], None]) -> None:
        self.session = session
        self.forget_token = forget_token

    def save(self, code: str, user: Identity, client_id: str, redirect_uri: str, scopes: str,
             code_challenge: str) -> None:
        moment = now()
        self.session.execute(delete(OAuthCode).where(
            OAuthCode.expires_at < moment - timedelta(seconds=USED_CODES_KEPT_SECONDS)))
        self.session.add(OAuthCode(
            code_hash=hash_token(code), user_id=user.id, client_id=client_id,
            redirect_uri=redirect_uri, scopes=scopes, code_challenge=code_challenge,
            created_at=moment, expires_at=moment + timedelta(seconds=CODE_SECONDS)))
        self.session.commit()

    def claim(self, code: str, client_id: str) -> IssuedCode | None:
        """Spend the code (whatever follows: a wrong verifier burns it too); None unless it was
        unspent, unexpired and issued to this app. Spent already: revoke what it bought."""
        code_hash = hash_token(code)
        moment = now()
        claimed = self.session.execute(
            update(OAuthCode).where(OAuthCode.code_hash == code_hash, OAuthCode.used_at.is_(None))
            .values(used_at=moment)).rowcount  # type: ignore[attr-defined]
        row = self.session.scalar(select(OAuthCode).where(OAuthCode.code_hash == code_hash))
        if row is None:
            self.session.commit()
            return None
        if not claimed:
            self._revoke_bought(row)
            return None
        found = IssuedCode(row.id, row.user_id, row.redirect_uri, row.scopes, row.code_challenge)
        usable = row.client_id == client_id and row.expires_at > moment
        self.session.commit()
        return found if usable else None

    def _revoke_bought(self, row: OAuthCode) -> None:
        """A spent code presented again: the token it bought is revoked, and a token request
        still under way for it (between claim and issue) will not get one."""
        bought = row.token_hash if row.token_hash != REUSED else None
        row.token_hash = bought or REUSED
        if bought:
            self.session.execute(delete(ApiToken).where(ApiToken.token_hash == bought))
        self.session.commit()
        if bought:
            self.forget_token(bought)

    def issue(self, token: Mapping[str, Any], code: IssuedCode, client_id: str) -> None:
        """Store the token bought with ``code``, unless the code was presented again meanwhile."""
        token_hash = hash_token(str(token["access_token"]))
        linked = self.session.execute(
            update(OAuthCode).where(OAuthCode.id == code.id, OAuthCode.token_hash.is_(None))
            .values(token_hash=token_hash)).rowcount  # type: ignore[attr-defined]
        if not linked:
            self.session.rollback()
            raise InvalidGrantError("That code was presented twice.")
        self.session.add(ApiToken(
            user_id=code.user_id, token_hash=token_hash, label=client_id[:60], app=client_id,
            scopes=str(token["scope"]),
            expires_at=now() + timedelta(seconds=int(token["expires_in"]))))
        self.session.commit()

    def user(self, user_id: int) -> Identity | None:
        found = user_by_id(self.session, user_id)
        return found if found is not None and found.kind in ("account", "bot") else None

    def granted_token(self, token: str) -> GrantedToken | None:
        row = self.session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token)))
        if row is None or row.app is None:
            return None
        return GrantedToken(row.id, row.token_hash, row.app)

    def revoke(self, token_hash: str) -> None:
        self.session.execute(delete(ApiToken).where(ApiToken.token_hash == token_hash))
        self.session.commit()
        self.forget_token(token_hash)


@dataclass(frozen=True)
class OAuthAnswer:
    """What Authlib answers: a status, a body (JSON object, or empty) and headers."""

    status: int
    body: dict[str, Any] | str
    headers: list[tuple[str, str]]

    @property
    def location(self) -> str | None:
        return next((value for name, value in self.headers if name.lower() == "location"), None)


def _new_token(**_: Any) -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class OAuthServer(AuthorizationServer):
    """Authlib's authorization server over one database session (made per request)."""

    def __init__(self, session: Session, forget_token: Callable[[str], None]) -> None:
        super().__init__(scopes_supported=list(TOKEN_SCOPES))
        self.codes = CodeStore(session, forget_token)
        self.register_grant(CodeGrant, [S256Challenge(required=True)])
        self.register_endpoint(TokenRevocation)
        self.register_token_generator("default", BearerTokenGenerator(
            _new_token, expires_generator=TOKEN_SECONDS))

    def query_client(self, client_id: str) -> PublicApp | None:
        return PublicApp(client_id) if app_name_allowed(client_id) else None

    def save_token(self, token: dict[str, Any], request: OAuthRequest) -> None:
        self.codes.issue(token, request.authorization_code, request.client.client_id)

    def create_oauth2_request(self, request: OAuthRequest) -> OAuthRequest:
        return request

    def handle_response(self, status: int, body: dict[str, Any] | str,
                        headers: list[tuple[str, str]]) -> OAuthAnswer:
        return OAuthAnswer(status, body, list(headers))

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        """No listeners: revocation tells the identity caches itself."""
