"""Follows between people: who follows whom, friends (follows both ways), and who wants to hear
when someone starts a game.

A follow is refused between two people when either has blocked the other, and a block removes
the follows both ways (``relations.set_relation`` calls :func:`drop_between`), so a blocked pair
never sees each other's presence or games through a follow. One person follows at most
``MAX_FOLLOWS`` others.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from app.db.models import Follow, User, UserRelation
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound
from app.kernel.i18n import N_

MAX_FOLLOWS = 1000
FOLLOWABLE_KINDS = ("account", "bot")
"""Guests come and go with a browser: only accounts and bots can be followed."""


@dataclass(frozen=True, slots=True)
class FollowLink:
    """One follow as a list shows it: the other person's id, since when, and the flags."""

    user_id: int
    since: datetime
    notify: bool
    mutual: bool


def _blocked_between(session: Session, one: int, other: int) -> bool:
    return session.scalar(select(UserRelation.id).where(
        UserRelation.kind == "block",
        or_(and_(UserRelation.owner_id == one, UserRelation.target_id == other),
            and_(UserRelation.owner_id == other, UserRelation.target_id == one))).limit(1)
    ) is not None


def follow(session: Session, follower_id: int, followee_id: int, notify: bool | None = None
           ) -> FollowLink:
    """Follow ``followee_id`` (idempotent; ``notify`` None keeps the current switch, off for a
    new follow) and commit. 404 ``no_user``, 422 ``cannot_follow_self`` / ``cannot_follow``
    (a guest), 403 ``blocked``, 409 ``too_many_follows``."""
    if follower_id == followee_id:
        raise Invalid(N_("You cannot follow yourself."), code="cannot_follow_self")
    target = session.get(User, followee_id)
    if target is None:
        raise NotFound(f"There is no user {followee_id}.", code="no_user")
    if target.kind not in FOLLOWABLE_KINDS:
        raise Invalid(N_("Only accounts and bots can be followed."), code="cannot_follow")
    if _blocked_between(session, follower_id, followee_id):
        raise Forbidden(N_("One of you has blocked the other."), code="blocked")
    row = session.scalar(select(Follow).where(Follow.follower_id == follower_id,
                                              Follow.followee_id == followee_id))
    if row is None:
        count = session.scalar(select(func.count()).select_from(Follow).where(
            Follow.follower_id == follower_id)) or 0
        if count >= MAX_FOLLOWS:
            raise Conflict(N_("You follow as many people as one may: unfollow someone first."),
                           code="too_many_follows")
        row = Follow(follower_id=follower_id, followee_id=followee_id, notify=bool(notify))
        session.add(row)
        try:
            session.flush()
        except IntegrityError:  # the same follow, sent twice at once: the other one stands
            session.rollback()
            row = session.scalar(select(Follow).where(Follow.follower_id == follower_id,
                                                      Follow.followee_id == followee_id))
            if row is None:
                raise
    if notify is not None:
        row.notify = notify
    session.commit()
    return FollowLink(followee_id, row.created_at, row.notify,
                      follows(session, followee_id, follower_id))


def unfollow(session: Session, follower_id: int, followee_id: int) -> None:
    """Stop following (idempotent); 404 ``no_user`` for an unknown user."""
    if session.get(User, followee_id) is None:
        raise NotFound(f"There is no user {followee_id}.", code="no_user")
    session.execute(delete(Follow).where(Follow.follower_id == follower_id,
                                         Follow.followee_id == followee_id))
    session.commit()


def drop_between(session: Session, one: int, other: int) -> None:
    """Remove the follows between two people, both ways (the caller commits): a block's."""
    session.execute(delete(Follow).where(or_(
        and_(Follow.follower_id == one, Follow.followee_id == other),
        and_(Follow.follower_id == other, Follow.followee_id == one))))


def follows(session: Session, follower_id: int, followee_id: int) -> bool:
    return session.scalar(select(Follow.id).where(Follow.follower_id == follower_id,
                                                  Follow.followee_id == followee_id)) is not None


def follow_state(session: Session, viewer_id: int, other_id: int) -> FollowLink | None:
    """The viewer's follow of ``other_id`` (with whether it is mutual), None if none."""
    row = session.scalar(select(Follow).where(Follow.follower_id == viewer_id,
                                              Follow.followee_id == other_id))
    if row is None:
        return None
    return FollowLink(other_id, row.created_at, row.notify,
                      follows(session, other_id, viewer_id))


def _links(session: Session, user_id: int, outgoing: bool, friends_only: bool
           ) -> list[FollowLink]:
    """The follows from (``outgoing``) or to ``user_id``, with whether the other side follows
    back."""
    back = aliased(Follow)
    me, other = (Follow.follower_id, Follow.followee_id) if outgoing else (
        Follow.followee_id, Follow.follower_id)
    back_me, back_other = (back.followee_id, back.follower_id) if outgoing else (
        back.follower_id, back.followee_id)
    query = (select(other, Follow.created_at, Follow.notify, back.id)
             .outerjoin(back, and_(back_me == me, back_other == other))
             .where(me == user_id).order_by(Follow.id))
    if friends_only:
        query = query.where(back.id.is_not(None))
    return [FollowLink(other_id, created, bool(notify), back_id is not None)
            for other_id, created, notify, back_id in session.execute(query)]


def following_of(session: Session, user_id: int) -> list[FollowLink]:
    """Whom ``user_id`` follows, in the order they were followed (``notify``: their switch)."""
    return _links(session, user_id, True, False)


def followers_of(session: Session, user_id: int) -> list[FollowLink]:
    """Who follows ``user_id`` (``notify`` is the follower's own switch: not shown to others)."""
    return [FollowLink(link.user_id, link.since, False, link.mutual)
            for link in _links(session, user_id, False, False)]


def friends_of(session: Session, user_id: int) -> list[FollowLink]:
    """The people ``user_id`` follows who follow back."""
    return _links(session, user_id, True, True)


def followers_to_tell(session: Session, followee_ids: list[int]) -> dict[int, list[int]]:
    """For each of ``followee_ids``, the followers who asked to hear when they start a game
    (``notify``) and between whom and them there is no block; one query."""
    if not followee_ids:
        return {}
    block = aliased(UserRelation)
    blocked = select(block.id).where(block.kind == "block", or_(
        and_(block.owner_id == Follow.follower_id, block.target_id == Follow.followee_id),
        and_(block.owner_id == Follow.followee_id, block.target_id == Follow.follower_id)
    )).exists()
    found: dict[int, list[int]] = {}
    for followee, follower in session.execute(
            select(Follow.followee_id, Follow.follower_id).where(
                Follow.followee_id.in_(followee_ids), Follow.notify.is_(True), ~blocked)
            .order_by(Follow.id)):
        found.setdefault(followee, []).append(follower)
    return found


def followees_to_hear(session: Session, follower_id: int) -> set[int]:
    """Whom ``follower_id`` follows with ``notify`` on (the account stream's watch list)."""
    return set(session.scalars(select(Follow.followee_id).where(
        Follow.follower_id == follower_id, Follow.notify.is_(True))))
