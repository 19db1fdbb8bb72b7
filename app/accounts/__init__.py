"""Accounts: who a caller is and what they hold — users and guests, passwords, browser sessions,
personal API tokens, reserved names, mutes and blocks, and the identity cache every request
resolves its credential through.

Other packages use only the names below; the modules behind them are this package's own.
"""

from app.accounts.browser import ensure_user, sign_in, sign_out, sign_out_everywhere
from app.accounts.identity import create_guest, identity_of
from app.accounts.identity_cache import AUTH_CHANNEL, IdentityCache, identities
from app.accounts.relations import blockers_among, blocks, hidden_from, relations_of, set_relation
from app.accounts.reserved_names import refuse_reserved
from app.accounts.service import authenticate, confirm_password
from app.accounts.service import register as register_account
from app.accounts.token_routes import forget_revoked
from app.accounts.token_routes import router as token_router
from app.accounts.tokens import create_personal_token, list_personal_tokens, revoke_personal_token

__all__ = [
    "AUTH_CHANNEL",
    "IdentityCache",
    "authenticate",
    "blockers_among",
    "blocks",
    "confirm_password",
    "create_guest",
    "create_personal_token",
    "ensure_user",
    "forget_revoked",
    "hidden_from",
    "identities",
    "identity_of",
    "list_personal_tokens",
    "refuse_reserved",
    "register_account",
    "relations_of",
    "revoke_personal_token",
    "set_relation",
    "sign_in",
    "sign_out",
    "sign_out_everywhere",
    "token_router",
]
