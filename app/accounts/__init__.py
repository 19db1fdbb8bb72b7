"""Accounts: who a caller is and what they hold — users and guests, passwords, browser sessions,
personal API tokens, OAuth for apps, reserved names, mutes, blocks and follows, and the identity
cache every request resolves its credential through.

Other packages use only the names below; the modules behind them are this package's own.
"""

from app.accounts.browser import ensure_user, sign_in, sign_out, sign_out_everywhere
from app.accounts.follows import (
    MAX_FOLLOWS,
    FollowLink,
    follow,
    follow_state,
    followees_to_hear,
    followers_of,
    followers_to_tell,
    following_of,
    friends_of,
    unfollow,
)
from app.accounts.identity import create_guest, identity_of
from app.accounts.identity_cache import AUTH_CHANNEL, IdentityCache, identities
from app.accounts.oauth_routes import oauth_scheme
from app.accounts.oauth_routes import page_router as oauth_page_router
from app.accounts.oauth_routes import router as oauth_router
from app.accounts.play_settings import (
    CONFIRM_CHOICES,
    board_confirm_moves,
    checked_theme,
    confirm_moves_of,
    set_confirm_moves,
    set_theme,
)
from app.accounts.relations import blockers_among, blocks, hidden_from, relations_of, set_relation
from app.accounts.reserved_names import refuse_reserved
from app.accounts.service import (
    MIN_PASSWORD_LENGTH,
    authenticate,
    close_account,
    confirm_password,
    hash_password,
    replace_password,
)
from app.accounts.service import register as register_account
from app.accounts.token_routes import forget_revoked
from app.accounts.token_routes import router as token_router
from app.accounts.tokens import create_personal_token, list_personal_tokens, revoke_personal_token

__all__ = [
    "AUTH_CHANNEL",
    "CONFIRM_CHOICES",
    "MAX_FOLLOWS",
    "MIN_PASSWORD_LENGTH",
    "FollowLink",
    "IdentityCache",
    "authenticate",
    "blockers_among",
    "blocks",
    "board_confirm_moves",
    "checked_theme",
    "close_account",
    "confirm_moves_of",
    "confirm_password",
    "create_guest",
    "create_personal_token",
    "ensure_user",
    "follow",
    "follow_state",
    "followees_to_hear",
    "followers_of",
    "followers_to_tell",
    "following_of",
    "forget_revoked",
    "friends_of",
    "hash_password",
    "hidden_from",
    "identities",
    "identity_of",
    "list_personal_tokens",
    "oauth_page_router",
    "oauth_router",
    "oauth_scheme",
    "refuse_reserved",
    "register_account",
    "relations_of",
    "replace_password",
    "revoke_personal_token",
    "set_confirm_moves",
    "set_relation",
    "set_theme",
    "sign_in",
    "sign_out",
    "sign_out_everywhere",
    "token_router",
    "unfollow",
]
