"""A person's play settings: "Confirm moves" — whether a move waits for a second tap, its preview
shown meanwhile (static/js/preview.js): ``always``, ``phones`` (the default: touch screens of a
phone's size) or ``never``; and the colour theme (app/web/theme.py). Accounts keep them here; a
guest's browser keeps its own (static/js/kit/confirm.js reads the page's value first, then the
browser's)."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.db.models import User
from app.kernel.errors import Invalid
from app.kernel.identity import Identity
from app.web.theme import THEME_CHOICES, Theme

ConfirmMoves = Literal["always", "phones", "never"]
CONFIRM_CHOICES: tuple[ConfirmMoves, ...] = ("always", "phones", "never")
DEFAULT_CONFIRM: ConfirmMoves = "phones"


def confirm_moves_of(session: Session, user_id: int) -> ConfirmMoves:
    """The person's choice (the default for one who never chose, or who is gone)."""
    value = session.scalar(select(User.confirm_moves).where(User.id == user_id))
    return value if value in CONFIRM_CHOICES else DEFAULT_CONFIRM


def set_confirm_moves(session: Session, user_id: int, value: str) -> ConfirmMoves:
    """Keep the person's choice and commit; an unknown value is refused (422 ``invalid_choice``)."""
    if value not in CONFIRM_CHOICES:
        raise Invalid(f"Confirm moves is one of {', '.join(CONFIRM_CHOICES)}.", code="invalid_choice")
    session.execute(update(User).where(User.id == user_id).values(confirm_moves=value))
    session.commit()
    return value


def board_confirm_moves(session: Session, viewer: Identity | None) -> ConfirmMoves | None:
    """What a board page puts in its data-confirm-moves: an account's choice; None for a guest or
    a visitor, whose browser keeps theirs."""
    if viewer is None or viewer.kind != "account":
        return None
    return confirm_moves_of(session, viewer.id)


def checked_theme(value: str) -> Theme:
    """``value`` as a theme; an unknown one is refused (422 ``invalid_choice``)."""
    for choice in THEME_CHOICES:
        if value == choice:
            return choice
    raise Invalid(f"Theme is one of {', '.join(THEME_CHOICES)}.", code="invalid_choice")


def set_theme(session: Session, user_id: int, value: str) -> Theme:
    """Keep the person's colour theme and commit; an unknown value is refused (422
    ``invalid_choice``)."""
    choice = checked_theme(value)
    session.execute(update(User).where(User.id == user_id).values(theme=choice))
    session.commit()
    return choice
