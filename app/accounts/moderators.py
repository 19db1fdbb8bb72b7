"""Granting and revoking the moderator role, from a shell on the server:

    python -m app.accounts.moderators grant <username> [reason…]
    python -m app.accounts.moderators revoke <username> [reason…]
    python -m app.accounts.moderators list

(with ``STEPWELL_DATABASE_URL`` as the server has it). Every grant and revocation is written to
the moderators' log (``moderation_actions``, the command line as its author). The role is read
from the database by every moderators' door, so it counts at once on every instance.
"""

from __future__ import annotations

import sys

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import ModerationAction, User
from app.kernel.errors import Invalid, NotFound

GRANT, REVOKE = "grant_moderator", "revoke_moderator"


def set_moderator(session: Session, username: str, on: bool = True, reason: str = "") -> User:
    """Grant (or revoke) the role of the open account ``username``, and log it."""
    user = session.scalar(select(User).where(func.lower(User.username) == username.lower()))
    if user is None or user.kind != "account":
        raise NotFound(f"There is no account {username!r}.", code="no_user")
    if user.closed_at is not None and on:
        raise Invalid(f"The account {username!r} is closed.", code="account_closed")
    user.is_moderator = on
    session.add(ModerationAction(moderator_id=None, target_id=user.id,
                                 action=GRANT if on else REVOKE,
                                 reason=reason or "command line", details={}))
    session.commit()
    return user


def moderators(session: Session) -> list[str]:
    return list(session.scalars(select(User.username).where(
        User.is_moderator.is_(True), User.username.is_not(None)).order_by(User.username)))


def main(argv: list[str]) -> int:
    from app.db.session import make_engine, make_session_factory
    from app.kernel.settings import Settings

    if not argv or argv[0] not in ("grant", "revoke", "list") or (argv[0] != "list"
                                                                  and len(argv) < 2):
        print(__doc__, file=sys.stderr)
        return 2
    engine = make_engine(Settings().database_url)
    try:
        with make_session_factory(engine)() as session:
            if argv[0] == "list":
                print("\n".join(moderators(session)))
                return 0
            try:
                user = set_moderator(session, argv[1], argv[0] == "grant", " ".join(argv[2:]))
            except (NotFound, Invalid) as error:
                print(error.message, file=sys.stderr)
                return 1
            print(f"{user.username}: moderator {'granted' if argv[0] == 'grant' else 'revoked'}")
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
