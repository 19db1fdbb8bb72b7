"""What a moderator's act tells the person concerned, live on their account channel."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.realtime.messages import Message

NoticeAction = Literal["hide_line", "mute", "unmute", "close", "dismiss_report",
                       "grant_moderator", "revoke_moderator"]


class ModerationNoticeOut(BaseModel):
    """A moderator's act that concerns you: what, why and when (never who)."""

    id: int
    action: NoticeAction = Field(description=(
        "`hide_line`: a line of yours was hidden; `mute`: you may not write in chat until "
        "`until`; `unmute`: that mute ended early; `close`: the account was closed; "
        "`dismiss_report`: your report was reviewed and no action taken; "
        "`grant_moderator` / `revoke_moderator`: your role changed."))
    reason: str = Field(description="The moderator's words.")
    created_at: str
    until: str | None = Field(None, description="`mute`: when it ends (UTC).")
    match_id: str | None = Field(None, description="The match of the chat line concerned.")
    line: str | None = Field(None, description="The chat line concerned, as it was written.")
    message: str = Field(description="The whole notice, in your language.")


class ModerationNoticeMessage(Message):
    """A moderator acted on something of yours (see `GET /api/v1/me/moderation`)."""

    type: Literal["moderation"]
    notice: ModerationNoticeOut
