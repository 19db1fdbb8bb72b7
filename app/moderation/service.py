"""The moderators' acts: hide a chat line for everyone, mute a person from chat for a time (and
end it early), close an account, and dismiss a report. Each is one transaction that writes the
act to the log (``moderation_actions``: who, what, to whom, why, when) beside its effect; then
the person concerned is told on their account channel, and the effect reaches every instance:

- a hidden line: ``chatHidden`` on its room's bus channel (every socket and stream reading it);
- a mute: ``users.chat_muted_until``, read by every chat line written anywhere;
- a closed account: no credential of it works (the rows are gone and lookups skip closed
  accounts), every instance drops it from its caches and ends its sockets and streams
  (``end_user`` on the bus), its open seeks expire and its games in play are resigned.

Moderators never act on moderators (themselves included): that is for whoever runs the site,
with ``python -m app.accounts.moderators``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.accounts import close_account
from app.chat import (
    DISMISSED,
    HIDDEN,
    ChatService,
    ReportCase,
    line_json,
    open_report,
    report_queue,
    resolve_reports,
)
from app.db.models import Match, MatchPlayer, ModerationAction, User, utcnow
from app.kernel import i18n
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.lobby import LobbyService, user_channel
from app.match import MatchService
from app.moderation.messages import ModerationNoticeMessage, ModerationNoticeOut
from app.realtime.messages import bus_form

HIDE_LINE, MUTE, UNMUTE, CLOSE, DISMISS = "hide_line", "mute", "unmute", "close", "dismiss_report"
MAX_MUTE_MINUTES = 30 * 24 * 60
MAX_REASON = 500
LOG_LIMIT = 200

Publish = Callable[[str, JSONObject], None]
EndUser = Callable[[int], None]
"""Ends every credential of a user on every instance (``IdentityCache.end_user``)."""

NOTICES = {
    HIDE_LINE: i18n.N_("A moderator hid your chat message: {reason}"),
    MUTE: i18n.N_("A moderator muted you from chat until {until} UTC: {reason}"),
    UNMUTE: i18n.N_("A moderator ended your chat mute: {reason}"),
    CLOSE: i18n.N_("A moderator closed your account: {reason}"),
    DISMISS: i18n.N_("A moderator reviewed your report and took no action: {reason}"),
    "grant_moderator": i18n.N_("You are a moderator now: {reason}"),
    "revoke_moderator": i18n.N_("You are no longer a moderator: {reason}"),
}
"""What each act tells the person concerned (``{reason}``: the moderator's words)."""
ACTION_LABELS = {
    HIDE_LINE: i18n.N_("chat line hidden"),
    MUTE: i18n.N_("muted from chat"),
    UNMUTE: i18n.N_("chat mute ended"),
    CLOSE: i18n.N_("account closed"),
    DISMISS: i18n.N_("report dismissed"),
    "grant_moderator": i18n.N_("made a moderator"),
    "revoke_moderator": i18n.N_("no longer a moderator"),
}
"""Each act in a word or two (the log, the person's page)."""


class PersonJSON(TypedDict):
    id: int
    name: str
    username: str | None


class ActionJSON(TypedDict):
    """One act of the log, as moderators read it."""

    id: int
    action: str
    reason: str
    created_at: str
    moderator: PersonJSON | None
    """None: the command line (``python -m app.accounts.moderators``)."""
    target: PersonJSON
    details: JSONObject


class NoticeJSON(TypedDict):
    """One act as the person concerned reads it (``ModerationNoticeOut``)."""

    id: int
    action: str
    reason: str
    created_at: str
    until: str | None
    match_id: str | None
    line: str | None
    message: str


def _iso(moment: datetime) -> str:
    return moment.isoformat() + "Z"


def clean_reason(reason: str) -> str:
    """The moderator's words: control characters out, 3–500 characters."""
    cleaned = " ".join("".join(ch for ch in reason if ch.isprintable()).split())
    if len(cleaned) < 3:
        raise Invalid("Say why (at least 3 characters): the person concerned reads it.",
                      code="reason_needed")
    return cleaned[:MAX_REASON]


def _person(user: User | None) -> PersonJSON | None:
    return None if user is None else {"id": user.id, "name": user.name,
                                      "username": user.username}


def notice_json(action: ModerationAction, translate: Callable[[str], str] = i18n.gettext
                ) -> NoticeJSON:
    details = action.details or {}
    until = details.get("until")
    template = translate(NOTICES.get(action.action, "{reason}"))
    shown_until = str(until)[:16].replace("T", " ") if until else ""
    return {"id": action.id, "action": action.action, "reason": action.reason,
            "created_at": _iso(action.created_at), "until": until,
            "match_id": details.get("match_id"), "line": details.get("line"),
            "message": template.format(reason=action.reason, until=shown_until)}


def _english(message: str) -> str:
    return message


class ModerationService:
    """One request's acts. ``publish`` sends bus messages; ``end_user`` ends a closed account's
    credentials everywhere; ``matches`` resigns its games in play."""

    def __init__(self, session: Session, publish: Publish, matches: MatchService,
                 end_user: EndUser) -> None:
        self.session = session
        self.publish = publish
        self.matches = matches
        self.end_user = end_user

    # -- acts -------------------------------------------------------------------------------------

    def hide_line(self, moderator: Identity, line_id: int, reason: str) -> ActionJSON:
        """Hide a chat line for everyone and resolve its open reports."""
        why = clean_reason(reason)
        chat = ChatService(self.session, self.publish)
        message = chat.message(line_id)
        self._target(message.user_id)
        line = line_json(message)
        chat.hide(line_id, moderator.id)
        resolved = resolve_reports(self.session, moderator.id, HIDDEN, message_id=line_id)
        action = self._log(moderator, message.user_id, HIDE_LINE, why, {
            "message_id": line_id, "match_id": message.match_id, "room": message.room,
            "line": line["text"], "reports": resolved})
        chat.announce_hidden(message)
        return self._told(action)

    def mute(self, moderator: Identity, user_id: int, minutes: int, reason: str) -> ActionJSON:
        """Mute a person from chat for ``minutes`` (1 minute to 30 days) from now."""
        why = clean_reason(reason)
        if not 1 <= minutes <= MAX_MUTE_MINUTES:
            raise Invalid(f"A mute lasts 1 to {MAX_MUTE_MINUTES} minutes.", code="invalid_minutes")
        user = self._target(user_id)
        until = utcnow() + timedelta(minutes=minutes)
        user.chat_muted_until = until
        return self._told(self._log(moderator, user.id, MUTE, why,
                                    {"until": _iso(until), "minutes": minutes}))

    def unmute(self, moderator: Identity, user_id: int, reason: str) -> ActionJSON:
        why = clean_reason(reason)
        user = self._target(user_id)
        if user.chat_muted_until is None or user.chat_muted_until <= utcnow():
            raise Conflict(f"{user.name} is not muted.", code="not_muted")
        user.chat_muted_until = None
        return self._told(self._log(moderator, user.id, UNMUTE, why, {}))

    def close(self, moderator: Identity, user_id: int, reason: str) -> ActionJSON:
        """Close an account (app/accounts/service.py ``close_account``); its open seeks expire
        and its games in play are resigned, so nobody waits for it."""
        why = clean_reason(reason)
        user = self._target(user_id)
        if user.builtin_bot is not None:
            raise Forbidden("Built-in bots are part of the site.", code="target_is_builtin_bot")
        if user.closed_at is not None:
            raise Conflict(f"{user.name}'s account is closed already.", code="already_closed")
        target = Identity(id=user.id, name=user.name, kind=user.kind)
        close_account(self.session, user.id)
        action = self._log(moderator, user.id, CLOSE, why, {})
        told = self._told(action)
        self.end_user(user.id)
        self._leave_games(target)
        return told

    def dismiss(self, moderator: Identity, report_id: int, reason: str) -> ActionJSON:
        """Resolve a report with no act on the line; its reporter is told."""
        why = clean_reason(reason)
        report = open_report(self.session, report_id)
        resolve_reports(self.session, moderator.id, DISMISSED, report_id=report_id)
        return self._told(self._log(moderator, report.reporter_id, DISMISS, why, {
            "report_id": report_id, "message_id": report.message_id,
            "match_id": report.match_id}))

    # -- reading ----------------------------------------------------------------------------------

    def queue(self, state: str) -> list[ReportCase]:
        return report_queue(self.session, state)

    def log(self, target_id: int | None = None, limit: int = LOG_LIMIT) -> list[ActionJSON]:
        """The log, newest first (one person's acts with ``target_id``)."""
        query = select(ModerationAction).order_by(ModerationAction.id.desc()).limit(limit)
        if target_id is not None:
            query = query.where(ModerationAction.target_id == target_id)
        return [self._action_json(row) for row in self.session.scalars(query)]

    # -- helpers ----------------------------------------------------------------------------------

    def _target(self, user_id: int) -> User:
        """The person acted on: anyone but a moderator (the acting one included)."""
        user = self.session.get(User, user_id)
        if user is None:
            raise NotFound(f"There is no user {user_id}.", code="no_user")
        if user.is_moderator:
            raise Forbidden("Moderators do not act on moderators: ask whoever runs the site.",
                            code="target_is_moderator")
        return user

    def _log(self, moderator: Identity, target_id: int, action: str, reason: str,
             details: JSONObject) -> ModerationAction:
        """Write the act beside its effect and commit both."""
        row = ModerationAction(moderator_id=moderator.id, target_id=target_id, action=action,
                               reason=reason, details=details, created_at=utcnow())
        self.session.add(row)
        self.session.commit()
        return row

    def _told(self, action: ModerationAction) -> ActionJSON:
        """Tell the person concerned, live (their pages and account streams, any instance)."""
        notice = ModerationNoticeOut.model_validate(notice_json(action, _english))
        self.publish(user_channel(action.target_id), bus_form(ModerationNoticeMessage(
            type="moderation", notice=notice)))
        return self._action_json(action)

    def _action_json(self, row: ModerationAction) -> ActionJSON:
        moderator = self.session.get(User, row.moderator_id) if row.moderator_id else None
        target = _person(self.session.get(User, row.target_id))
        assert target is not None  # the log is deleted with its person (cascade)
        return {"id": row.id, "action": row.action, "reason": row.reason,
                "created_at": _iso(row.created_at), "moderator": _person(moderator),
                "target": target, "details": dict(row.details or {})}

    def _leave_games(self, user: Identity) -> None:
        """A closed account's open seeks expire; its games in play are resigned."""
        LobbyService(self.session, self.matches, self.publish).expire_user(user.id)
        playing = list(self.session.scalars(
            select(Match.id).join(MatchPlayer, MatchPlayer.match_id == Match.id)
            .where(MatchPlayer.user_id == user.id, Match.status == "active")))
        for match_id in playing:
            try:
                self.matches.resign(match_id, user)
            except ServiceError:
                self.session.rollback()  # it ended meanwhile, or the seat is out already


def notices_for(session: Session, user_id: int, limit: int = 50) -> list[NoticeJSON]:
    """The acts that concern a person, newest first, in the caller's language."""
    rows = session.scalars(select(ModerationAction).where(ModerationAction.target_id == user_id)
                           .order_by(ModerationAction.id.desc()).limit(limit))
    return [notice_json(row) for row in rows]
