"""What a door may ask of its caller, and what each credential grants.

A personal API token carries some of ``TOKEN_SCOPES``; a browser session, a guest token and the
token ``POST /api/v1/login`` returns have full access. Doors declare one of:

- ``PUBLIC``: anyone, signed in or not (a credential, if sent, must still be valid);
- ``READ``: reads as the caller (their seat's view, their games, the streams and sockets);
- ``PLAY``: moves, offers, resigning, aborting, claiming, chat, hints — on every transport;
- ``CHALLENGE``: creating and joining matches, seeks, challenges, quick play, tournaments;
- ``BOT``: turning one's account into a bot account (final);
- ``ACCOUNT``: managing tokens, relations and the account: full access only, never a scoped token;
- ``MODERATE``: the moderators' calls: full access only (never a scoped token), and the caller
  must be a moderator (the door asks the database on every call);
- ``PAGE``: an HTML page or form: a browser session only (a bearer token is not looked at).

A door may also require a *role* of its caller (``MODERATOR``): ``MODERATE`` doors always do,
and the moderators' pages are ``PAGE`` doors that do.
"""

from __future__ import annotations

PUBLIC, READ, PLAY, CHALLENGE, BOT, ACCOUNT, MODERATE, PAGE = (
    "public", "read", "play", "challenge", "bot", "account", "moderate", "page")
DOOR_SCOPES = (PUBLIC, READ, PLAY, CHALLENGE, BOT, ACCOUNT, MODERATE, PAGE)
TOKEN_SCOPES = (READ, PLAY, CHALLENGE, BOT)
"""The scopes a personal API token may be given, in the order they are listed."""
MODERATOR = "moderator"
"""The role a ``MODERATE`` door (and a moderators' page) requires: ``users.is_moderator``."""
__all__ = ["ACCOUNT", "BOT", "CHALLENGE", "DOOR_SCOPES", "MODERATE", "MODERATOR", "PAGE", "PLAY",
           "PUBLIC", "READ", "TOKEN_SCOPES", "grants"]


def grants(token_scopes: frozenset[str] | None, needed: str) -> bool:
    """Whether a credential with ``token_scopes`` (None: full access) may pass a door that needs
    ``needed``."""
    if needed == PUBLIC:
        return True
    if token_scopes is None:
        return True
    if needed in (ACCOUNT, MODERATE, PAGE):
        return False
    return needed in token_scopes
