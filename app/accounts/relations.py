"""Mutes and blocks between users: who hides whose chat, and who may not challenge whom.

A mute only hides the target's chat lines from the owner. A block also refuses the target's
challenges to the owner and their writing in a players' room the owner sits in, and removes the
follows between the two, both ways (app/accounts/follows.py). Both are stored
per user id, so an account's list is remembered across sessions (a guest's lasts as long as the
guest identity does).
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.accounts.follows import drop_between
from app.db.models import User, UserRelation
from app.kernel.errors import Invalid, NotFound

RelationKind = Literal["mute", "block"]
KINDS: tuple[str, ...] = ("mute", "block")


def set_relation(session: Session, owner_id: int, target_id: int, kind: str, on: bool) -> None:
    """Mute/block (``on``) or undo it; idempotent either way."""
    if kind not in KINDS:
        raise Invalid(f"Unknown relation {kind!r}.", code="invalid_request")
    if owner_id == target_id:
        raise Invalid("You cannot mute or block yourself.", code="cannot_relate_self")
    if session.get(User, target_id) is None:
        raise NotFound(f"There is no user {target_id}.", code="no_user")
    exists = session.scalar(select(UserRelation.id).where(
        UserRelation.owner_id == owner_id, UserRelation.target_id == target_id,
        UserRelation.kind == kind))
    if on and exists is None:
        session.add(UserRelation(owner_id=owner_id, target_id=target_id, kind=kind))
    if on and kind == "block":
        drop_between(session, owner_id, target_id)
    elif not on and exists is not None:
        session.execute(delete(UserRelation).where(UserRelation.id == exists))
    session.commit()


def relations_of(session: Session, owner_id: int) -> dict[str, list[int]]:
    """``{"mute": [user ids], "block": [user ids]}`` for one owner."""
    found: dict[str, list[int]] = {kind: [] for kind in KINDS}
    rows = session.execute(select(UserRelation.kind, UserRelation.target_id)
                           .where(UserRelation.owner_id == owner_id).order_by(UserRelation.id))
    for kind, target in rows:
        found.setdefault(kind, []).append(target)
    return found


def hidden_from(session: Session, owner_id: int | None) -> set[int]:
    """The users whose chat lines ``owner_id`` does not see (muted or blocked)."""
    if owner_id is None:
        return set()
    return set(session.scalars(select(UserRelation.target_id)
                               .where(UserRelation.owner_id == owner_id)))


def blocks(session: Session, owner_id: int, target_id: int) -> bool:
    """Whether ``owner_id`` has blocked ``target_id``."""
    return session.scalar(select(UserRelation.id).where(
        UserRelation.owner_id == owner_id, UserRelation.target_id == target_id,
        UserRelation.kind == "block")) is not None


def blockers_among(session: Session, target_id: int, owners: list[int]) -> set[int]:
    """Which of ``owners`` have blocked ``target_id``."""
    if not owners:
        return set()
    return set(session.scalars(select(UserRelation.owner_id).where(
        UserRelation.target_id == target_id, UserRelation.kind == "block",
        UserRelation.owner_id.in_(owners))))
