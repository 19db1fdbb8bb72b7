"""Which notifications a person wants, per kind and channel: the one place push and mail ask.

Kinds: ``yourTurn``, ``challenge``, ``gameOver``, ``tournament``, ``clockReminder``,
``followedGame`` (a person one follows with ``notify`` on started a game: the follow's own
switch is the opt-in, app/accounts/follows.py; this one turns its pushes off); channels:
``push`` (the devices the person opted in) and ``mail``. A switch never set is the channel's
default (``DEFAULTS``): push is on for every kind, because a device receives nothing until its
owner opted it in; mail carries only the clock reminder, and only when no device took it (the
digest has its own opt-in, app/mail).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.db.models import NoticePreference
from app.kernel.errors import Invalid

Kind = Literal["yourTurn", "challenge", "gameOver", "tournament", "clockReminder",
               "followedGame"]
MailKind = Literal["clockReminder"]
"""The kinds that go by mail too."""
Channel = Literal["push", "mail"]
KINDS: tuple[Kind, ...] = ("yourTurn", "challenge", "gameOver", "tournament", "clockReminder",
                           "followedGame")
CHANNELS: tuple[Channel, ...] = ("push", "mail")
DEFAULTS: dict[Channel, dict[Kind, bool]] = {
    "push": {kind: True for kind in KINDS},
    "mail": {"clockReminder": True},
}
"""The kinds each channel carries, with their defaults."""


def wants(session: Session, user_id: int, kind: Kind, channel: Channel) -> bool:
    """Whether the person wants ``kind`` notifications on ``channel``."""
    if kind not in DEFAULTS[channel]:
        return False
    enabled = session.scalar(select(NoticePreference.enabled).where(
        NoticePreference.user_id == user_id, NoticePreference.kind == kind,
        NoticePreference.channel == channel))
    return DEFAULTS[channel][kind] if enabled is None else bool(enabled)


def who_wants(session: Session, user_ids: Iterable[int], kind: Kind, channel: Channel) -> set[int]:
    """Of ``user_ids``, those who want ``kind`` on ``channel`` (one query)."""
    ids = set(user_ids)
    if not ids or kind not in DEFAULTS[channel]:
        return set()
    set_rows = dict(session.execute(select(NoticePreference.user_id, NoticePreference.enabled).where(
        NoticePreference.user_id.in_(ids), NoticePreference.kind == kind,
        NoticePreference.channel == channel)).all())
    default = DEFAULTS[channel][kind]
    return {user_id for user_id in ids if set_rows.get(user_id, default)}


def preferences_of(session: Session, user_id: int) -> dict[str, dict[str, bool]]:
    """Every switch of the person: ``{channel: {kind: enabled}}``, defaults filled in."""
    shown: dict[str, dict[str, bool]] = {
        channel: {str(kind): on for kind, on in DEFAULTS[channel].items()} for channel in CHANNELS}
    for row in session.scalars(select(NoticePreference).where(NoticePreference.user_id == user_id)):
        if row.channel in shown and row.kind in shown[row.channel]:
            shown[row.channel][row.kind] = row.enabled
    return shown


def set_preferences(session: Session, user_id: int,
                    changes: dict[str, dict[str, bool]]) -> dict[str, dict[str, bool]]:
    """Set some switches (``{channel: {kind: enabled}}``) and commit; returns them all."""
    for channel, kinds in changes.items():
        if channel not in CHANNELS:
            raise Invalid(f"Unknown notification channel {channel!r}.", code="invalid_channel")
        for kind, enabled in kinds.items():
            if kind not in DEFAULTS[channel]:
                raise Invalid(f"No {kind!r} notifications go by {channel}.", code="invalid_kind")
            session.execute(delete(NoticePreference).where(
                NoticePreference.user_id == user_id, NoticePreference.kind == kind,
                NoticePreference.channel == channel))
            session.add(NoticePreference(user_id=user_id, kind=kind, channel=channel,
                                         enabled=bool(enabled)))
    session.commit()
    return preferences_of(session, user_id)
