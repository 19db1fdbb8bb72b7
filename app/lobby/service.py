"""The lobby: open seeks, quick play, and challenges to named users.

A seek collects players (``joined``, creator first); when the last seat fills, the match is
created with every seat taken and the seek is marked matched, in one transaction. Everyone
watching the lobby is told the seek list changed; every seated player is told where to go.

A challenge invites one or more named users (``invitees``: a 3–4-player Town challenge invites
two or three); it becomes a match when every one of them accepted, and ends when any of them
declines (with a reason code, ``DeclineIn.reason``) or its creator cancels it. Everyone in it is
told of each of these on their own channel (the event stream and the lobby socket).
"""

from __future__ import annotations

import random
import secrets
import string
from collections.abc import Callable, Iterable
from typing import TypedDict

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.accounts import blocks, identity_of
from app.db.json_shapes import StoredTimeControl
from app.db.models import Match, Seek, User, utcnow
from app.db.session import rows_matched
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound
from app.kernel.identity import Identity
from app.kernel.json_types import JSONObject
from app.lobby.messages import (
    ChallengeCanceledMessage,
    ChallengeDeclinedMessage,
    LobbyChallengeMessage,
    MatchStartedMessage,
    SeeksMessage,
)
from app.match import (
    DECLINE_REASONS,
    FixedDeal,
    MatchService,
    RatingJSON,
    TimeControl,
    ensure_bot_copy,
    find_user_id,
    fixed_deal_fields,
    get_rating,
    level_of,
    parse_time_control,
    playbanned_among,
    public_options,
    rating_json,
    refuse_playban,
    refuse_secret_options_in_rated,
    validate_setup,
)
from app.realtime.bus import NOTICES_CHANNEL
from app.realtime.messages import bus_form

RATED_KINDS = ("account", "bot")
"""Users who play rated games: accounts and bot accounts."""

SEEK_ID_LENGTH = 8
ACCEPT_ATTEMPTS = 5
QUICK_WINDOW = 3.0
QUICK_WINDOW_GROWTH = 0.5  # mu per second waited
LOBBY_CHANNEL = "lobby"

Publish = Callable[[str, JSONObject], None]
"""Sends a message (already in its wire form, ``bus_form``) to a channel."""


class SeekUser(TypedDict):
    """A seek's creator or challenged user; ``rating`` for those who play rated games."""

    id: int
    name: str
    kind: str
    username: str | None
    rating: RatingJSON | None


class JoinedUser(TypedDict):
    id: int
    name: str


class SeekJSON(FixedDeal):
    """A seek, challenge or quick-play wait as the API, the lobby socket and the pages carry it
    (``SeekOut`` documents it)."""

    id: str
    kind: str
    game: str
    options: JSONObject  # the public ones (app/match/option_privacy.py)
    seats: int
    rated: bool
    time_control: StoredTimeControl | None
    creator: SeekUser | None
    target: SeekUser | None
    targets: list[SeekUser]
    joined: list[JoinedUser]
    status: str
    match_id: str | None
    created_at: str
    decline_reason: str | None
    declined_by: JoinedUser | None


def user_channel(user_id: int) -> str:
    return f"user:{user_id}"


def seeks_message(seeks: list[SeekJSON]) -> JSONObject:
    """The lobby channel's ``seeks`` message (every open seek: each socket keeps those its
    viewer may see)."""
    return bus_form(SeeksMessage.model_validate({"type": "seeks", "seeks": seeks}))


def involved(seek: SeekJSON) -> list[int]:
    """The ids of a challenge's creator and invited users (a seek's creator alone)."""
    creator = seek["creator"]
    target = seek.get("target")
    targets = seek.get("targets") or ([] if target is None else [target])
    return ([] if creator is None else [creator["id"]]) + [invited["id"] for invited in targets]


def invitees_of(seek: Seek) -> list[int]:
    """A challenge's invited users in order (one made before multi-player challenges: its
    target alone)."""
    if seek.invitees:
        return [int(uid) for uid in seek.invitees]
    return [seek.target_id] if seek.target_id is not None else []


def _new_seek_id() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(SEEK_ID_LENGTH))


class LobbyService:
    def __init__(self, session: Session, matches: MatchService, publish: Publish | None = None,
                 on_seek_created: Callable[[int], None] | None = None,
                 gone: Callable[[Iterable[int]], set[int]] | None = None) -> None:
        self.session = session
        self.gone = gone or (lambda user_ids: set())
        """Which of these users have closed their last socket (the presence's ``gone_users``)."""
        self.matches = matches
        self.publish = publish or (lambda channel, message: None)
        self.on_seek_created = on_seek_created or (lambda user_id: None)

    # -- presentation ---------------------------------------------------------------------------

    def _user_json(self, user: User | None, game: str) -> SeekUser | None:
        if user is None:
            return None
        rating = get_rating(self.session, user.id, game) if user.kind in RATED_KINDS else None
        return {"id": user.id, "name": user.name, "kind": user.kind, "username": user.username,
                "rating": rating_json(rating) if user.kind in RATED_KINDS else None}

    def seek_json(self, seek: Seek) -> SeekJSON:
        invited = invitees_of(seek)
        wanted = {*seek.joined, *invited, *([seek.declined_by] if seek.declined_by else [])}
        names = {u.id: u for u in self.session.scalars(select(User).where(User.id.in_(wanted)))}
        declined_by = names.get(seek.declined_by) if seek.declined_by is not None else None
        return {
            "id": seek.id, "kind": seek.kind, "game": seek.game,
            "options": public_options(seek.game, seek.options),
            **fixed_deal_fields(seek.game, seek.options),
            "seats": seek.num_seats, "rated": seek.rated, "time_control": seek.time_control,
            "creator": self._user_json(seek.creator, seek.game),
            "target": self._user_json(seek.target, seek.game),
            "targets": [found for uid in invited
                        if (found := self._user_json(names.get(uid), seek.game)) is not None],
            "joined": [{"id": uid, "name": names[uid].name if uid in names else "?"}
                       for uid in seek.joined],
            "status": seek.status, "match_id": seek.match_id,
            "created_at": seek.created_at.isoformat() + "Z",
            "decline_reason": seek.decline_reason,
            "declined_by": None if declined_by is None else {"id": declined_by.id,
                                                             "name": declined_by.name},
        }

    def open_seeks(self) -> list[SeekJSON]:
        rows = self.session.scalars(
            select(Seek).where(Seek.status == "open").order_by(Seek.created_at))
        return [self.seek_json(seek) for seek in rows]

    @staticmethod
    def visible_to(seeks: list[SeekJSON], viewer_id: int | None) -> list[SeekJSON]:
        """Challenges are private to their creator and invited users; other seeks are public."""
        return [s for s in seeks if s["kind"] != "challenge" or viewer_id in involved(s)]

    def _lobby_changed(self) -> None:
        self.publish(LOBBY_CHANNEL, seeks_message(self.open_seeks()))

    # -- use cases --------------------------------------------------------------------------------

    def _load(self, seek_id: str) -> Seek:
        seek = self.session.get(Seek, seek_id)
        if seek is None:
            raise NotFound(f"There is no seek {seek_id!r}.", code="no_seek")
        return seek

    def _check_rated(self, rated: bool, *users: Identity) -> None:
        if rated and any(u.kind not in RATED_KINDS for u in users):
            raise Invalid("Rated games are for accounts: sign up first (your games stay yours).",
                          code="rated_needs_account")

    def create_seek(self, user: Identity, game: str, options: JSONObject | None = None,
                    players: int | None = None, rated: bool = False,
                    time_control: TimeControl | JSONObject | None = None,
                    seat: int | str = "random",
                    kind: str = "open", targets: list[User] | None = None) -> SeekJSON:
        setup = validate_setup(game, options, players)
        refuse_secret_options_in_rated(setup.game, setup.options, rated)
        stored = parse_time_control(time_control)
        self._check_rated(rated, user)
        if rated:
            refuse_playban(self.session, user.id)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < setup.num_seats):
            raise Invalid(f"Seat must be 0–{setup.num_seats - 1} or 'random'.", code="invalid_seat")
        seek = Seek(id=_new_seek_id(), kind=kind, game=setup.game.id, options=setup.options,
                    num_seats=setup.num_seats, rated=rated, time_control=stored,
                    seat=str(seat), creator_id=user.id,
                    target_id=targets[0].id if targets else None,
                    invitees=[u.id for u in targets] if targets else None,
                    joined=[user.id], status="open", version=0)
        self.session.add(seek)
        self.session.commit()
        self.session.refresh(seek)
        self._lobby_changed()
        if targets:
            challenge = bus_form(LobbyChallengeMessage.model_validate(
                {"type": "challenge", "seek": self.seek_json(seek)}))
            self._tell_everyone(seek, challenge)
            self.publish(NOTICES_CHANNEL, challenge)  # the push job's
        self.on_seek_created(user.id)
        return self.seek_json(seek)

    def _tell_everyone(self, seek: Seek, message: JSONObject, but: int | None = None) -> None:
        """``message`` on the own channel of the creator and every invited user (``but`` one)."""
        for user_id in dict.fromkeys([seek.creator_id, *invitees_of(seek)]):
            if user_id != but:
                self.publish(user_channel(user_id), message)

    def accept(self, seek_id: str, user: Identity) -> SeekJSON:
        """Join a seek; the last player to join starts the match (returned as ``match_id``).

        Joins race on the seek's version. With more than two seats the loser of a race reads
        the seek again and joins it if it is still open (two invited players accepting at once
        both get in); with two, the seek is gone once anyone answered it."""
        for attempt in range(ACCEPT_ATTEMPTS):
            seek = self._load(seek_id)
            done, match = self._joined(seek, user)
            if done:
                break
            if seek.num_seats <= 2 or attempt == ACCEPT_ATTEMPTS - 1:
                raise Conflict("Someone else answered this seek first.", code="seek_closed")
        self.session.refresh(seek)
        if match is not None:
            self.matches.announce(match)
            for user_id in seek.joined:
                self.publish(user_channel(user_id), bus_form(MatchStartedMessage(
                    type="match_started", match_id=match.id, seek_id=seek.id)))
        self._lobby_changed()
        return self.seek_json(seek)

    def _joined(self, seek: Seek, user: Identity) -> tuple[bool, Match | None]:
        """Add ``user`` to ``seek`` and commit: (True, the match it started, or None if it
        waits for more), or (False, None) when another answer changed the seek first (rolled
        back)."""
        if seek.status != "open":
            raise Conflict("This seek is no longer open.", code="seek_closed")
        if user.id in seek.joined:
            raise Conflict("You are already in this seek.", code="already_joined")
        if seek.kind == "challenge" and user.id not in invitees_of(seek):
            raise Forbidden("This challenge is for someone else.", code="not_your_challenge")
        self._check_rated(seek.rated, user)
        if seek.rated:
            self._refuse_playban(seek, user)
        joined = [*seek.joined, user.id]
        values: JSONObject = {"joined": joined, "version": seek.version + 1}
        match = None
        if len(joined) == seek.num_seats:
            setup = validate_setup(seek.game, seek.options, seek.num_seats)
            match = self.matches.create_started(setup, self._seating(seek, joined), seek.rated,
                                                seek.time_control, creator_id=seek.creator_id)
            self.session.flush()
            values |= {"status": "matched", "match_id": match.id}
        updated = self.session.execute(
            update(Seek).where(Seek.id == seek.id, Seek.version == seek.version,
                               Seek.status == "open").values(**values)
            .execution_options(synchronize_session=False))
        if rows_matched(updated) != 1:
            self.session.rollback()
            return False, None
        self.session.commit()
        return True, match

    def _refuse_playban(self, seek: Seek, user: Identity) -> None:
        """A rated seek starts no game with anyone who abandoned rated games lately: 403
        ``playban`` for the caller; a seek whose other players include one is called off."""
        refuse_playban(self.session, user.id)
        if playbanned_among(self.session, seek.joined):
            seek.status = "cancelled"
            self._save(seek)
            raise Conflict("A player of this seek may not start a rated game now.",
                           code="seek_closed")

    @staticmethod
    def _seating(seek: Seek, joined: list[int]) -> list[int]:
        """User ids in seat order: the creator's wish first, everyone else in a random order."""
        others = joined[1:]
        random.shuffle(others)
        if seek.seat == "random":
            order = [joined[0], *others]
            random.shuffle(order)
            return order
        order = others[:]
        order.insert(int(seek.seat), joined[0])
        return order

    def _save(self, seek: Seek) -> SeekJSON:
        """Commit a change to one seek and tell the lobby."""
        seek.version += 1
        self.session.commit()
        self._lobby_changed()
        return self.seek_json(seek)

    def cancel(self, seek_id: str, user: Identity, only_challenges: bool = False) -> SeekJSON:
        """Cancel your seek or challenge, or leave a multi-seat seek you joined
        (``only_challenges``: the challenge endpoint, which cancels nothing else)."""
        seek = self._load(seek_id)
        if only_challenges and seek.kind != "challenge":
            raise NotFound(f"There is no challenge {seek_id!r}.", code="no_seek")
        if user.id != seek.creator_id:
            if seek.kind == "challenge" and user.id in invitees_of(seek):
                raise Forbidden("Only its creator cancels a challenge: decline it instead.",
                                code="not_your_seek")
            if user.id in seek.joined and seek.status == "open":  # leave a multi-seat seek
                seek.joined = [uid for uid in seek.joined if uid != user.id]
                return self._save(seek)
            raise Forbidden("Only its creator can cancel a seek.", code="not_your_seek")
        if seek.status != "open":
            raise Conflict("This seek is no longer open.", code="seek_closed")
        if not self._ended(seek, status="cancelled"):
            raise Conflict("This seek is no longer open.", code="seek_closed")
        cancelled = self.seek_json(seek)
        self._tell_cancelled(seek, cancelled)
        return cancelled

    def _tell_cancelled(self, seek: Seek, seek_json: SeekJSON) -> None:
        if seek.kind == "challenge":
            self._tell_everyone(seek, bus_form(ChallengeCanceledMessage.model_validate(
                {"type": "challenge_canceled", "seek": seek_json})))

    def _ended(self, seek: Seek, **values: object) -> bool:
        """End an open seek with ``values`` (its new status…), unless someone answered it
        meanwhile (the last acceptance starting its match): False then, and nothing changed."""
        updated = self.session.execute(
            update(Seek).where(Seek.id == seek.id, Seek.version == seek.version,
                               Seek.status == "open").values(version=seek.version + 1, **values)
            .execution_options(synchronize_session=False))
        if rows_matched(updated) != 1:
            self.session.rollback()
            return False
        self.session.commit()
        self.session.refresh(seek)
        self._lobby_changed()
        return True

    def decline(self, seek_id: str, user: Identity, reason: str = "generic") -> SeekJSON:
        """An invited user says no, with a reason code: the challenge ends for everyone in it."""
        seek = self._load(seek_id)
        if seek.kind != "challenge" or user.id not in invitees_of(seek):
            raise Forbidden("Only a challenged player can decline.", code="not_your_challenge")
        if reason not in DECLINE_REASONS:
            raise Invalid(f"Decline reasons are {', '.join(DECLINE_REASONS)}.",
                          code="invalid_decline_reason")
        if seek.status != "open":
            raise Conflict("This challenge is no longer open.", code="seek_closed")
        if not self._ended(seek, status="declined", decline_reason=reason, declined_by=user.id):
            raise Conflict("This challenge is no longer open.", code="seek_closed")
        declined = self.seek_json(seek)
        self._tell_everyone(seek, bus_form(ChallengeDeclinedMessage.model_validate(
            {"type": "challenge_declined", "seek": declined})))
        return declined

    def challenge(self, user: Identity, target_names: list[str], game: str,
                  options: JSONObject | None = None, rated: bool = False,
                  time_control: TimeControl | JSONObject | None = None,
                  seat: int | str = "random") -> SeekJSON:
        """Challenge named players (one per other seat: the match has one seat more than there
        are names); ``seat`` is the challenger's (0 = first player, or "random"). A built-in
        bot's name may be given more than once: each further one seats a copy of that bot."""
        targets = self._invited(user, target_names, rated)
        created = self.create_seek(user, game, options, len(targets) + 1, rated, time_control,
                                   seat, kind="challenge", targets=targets)
        for target in targets:
            if target.builtin_bot is not None:  # built-in bots always accept
                created = self.accept(created["id"], identity_of(target))
        return created

    def _invited(self, user: Identity, names: list[str], rated: bool) -> list[User]:
        if not names:
            raise Invalid("Name at least one player to challenge.", code="invalid_request")
        targets: list[User] = []
        for name in names:
            level = level_of(name)
            if level is not None:  # a built-in bot exists from its first game on
                target: User | None = ensure_bot_copy(self.session, level, {u.id for u in targets})
                self.session.commit()
            else:
                target = self.session.get(User, find_user_id(self.session, name))
            assert target is not None
            if target.closed_at is not None:  # a closed account never answers
                raise NotFound(f"{target.name}'s account is closed.", code="account_closed")
            if target.id == user.id:
                raise Invalid("You cannot challenge yourself.", code="self_challenge")
            if any(other.id == target.id for other in targets):
                raise Invalid(f"{target.name} is invited twice.", code="duplicate_invitee")
            if blocks(self.session, target.id, user.id):  # blocked by the target
                raise Forbidden(f"{target.name} does not accept your challenges.", code="blocked")
            if rated and target.kind not in RATED_KINDS:
                raise Invalid("Rated games are for accounts.", code="rated_needs_account")
            targets.append(target)
        return targets

    def quick_play(self, user: Identity, game: str) -> SeekJSON:
        """Wait in the quick-play pool and get paired with the closest rating in reach.

        Two seekers pair when their ratings (mu) differ by at most the pairing window, which
        widens the longer the older of them has waited (see ``pairing_window``). Returns the
        caller's seek: ``matched`` with a ``match_id`` at once if a partner was in reach.
        """
        setup = validate_setup(game, None)
        rated = user.kind in RATED_KINDS
        if rated:
            refuse_playban(self.session, user.id)
        mine = self.session.scalar(select(Seek).where(
            Seek.status == "open", Seek.kind == "quick", Seek.game == setup.game.id,
            Seek.creator_id == user.id))
        if mine is None:
            created = self.create_seek(user, setup.game.id, None, setup.num_seats, rated,
                                       kind="quick")
            mine = self._load(created["id"])
        self.pair_waiting()
        self.session.refresh(mine)
        return self.seek_json(mine)

    @staticmethod
    def pairing_window(waited_seconds: float) -> float:
        """How far apart (in openskill mu) two quick-play seekers may be to pair."""
        return QUICK_WINDOW + QUICK_WINDOW_GROWTH * waited_seconds

    def pair_waiting(self) -> int:
        """Pair compatible quick-play seekers, oldest first, each with the closest in reach.

        A seeker whose last socket has closed is never paired (their seek waits for them to come
        back, or expires with the grace period): a game against an empty seat is no game."""
        waiting = list(self.session.scalars(
            select(Seek).where(Seek.status == "open", Seek.kind == "quick")
            .order_by(Seek.created_at)))
        gone = self.gone({s.creator_id for s in waiting}) if len(waiting) > 1 else set()
        waiting = [s for s in waiting if s.creator_id not in gone]
        waiting = self._without_playbans(waiting)
        now = utcnow()
        paired = 0
        taken: set[str] = set()
        for oldest in waiting:
            if oldest.id in taken:
                continue
            mu = self._mu(oldest.creator_id, oldest.game)
            window = self.pairing_window((now - oldest.created_at).total_seconds())
            partners = [s for s in waiting if s.id not in taken and s.id != oldest.id
                        and s.game == oldest.game and s.rated == oldest.rated
                        and s.creator_id != oldest.creator_id]
            scored = sorted(((abs(self._mu(s.creator_id, s.game) - mu), s.created_at, s)
                             for s in partners), key=lambda item: item[:2])
            if not scored or scored[0][0] > window:
                continue
            partner = scored[0][2]
            taken |= {oldest.id, partner.id}
            partner.status = "matched"  # its creator joins the older seek instead
            self.session.flush()
            creator = self.session.get(User, partner.creator_id)
            assert creator is not None
            try:
                partner.match_id = self.accept(oldest.id, identity_of(creator))["match_id"]
            except Conflict:
                # Another round (another instance's quick play, or the worker's) answered the
                # older seek first: its pairing stands, and this round, read before it, ends.
                self.session.rollback()
                return paired
            self.session.commit()
            paired += 1
        return paired

    def _without_playbans(self, waiting: list[Seek]) -> list[Seek]:
        """The rated quick-play seeks of people with a wait in effect expire (their wait
        began while they waited); the others."""
        banned = playbanned_among(self.session, [s.creator_id for s in waiting if s.rated])
        if not banned:
            return waiting
        for seek in waiting:
            if seek.rated and seek.creator_id in banned:
                seek.status = "expired"
                seek.version += 1
        self.session.commit()
        self._lobby_changed()
        return [s for s in waiting if s.status == "open"]

    def _mu(self, user_id: int, game: str) -> float:
        return float(rating_json(get_rating(self.session, user_id, game))["mu"])

    def expire_user(self, user_id: int) -> int:
        """The user went offline: their open seeks expire and they leave seeks they joined."""
        changed = 0
        expired: list[Seek] = []
        for seek in self.session.scalars(select(Seek).where(Seek.status == "open")):
            if seek.creator_id == user_id:
                seek.status = "expired"
                expired.append(seek)
            elif user_id in seek.joined:
                seek.joined = [uid for uid in seek.joined if uid != user_id]
            else:
                continue
            seek.version += 1
            changed += 1
        if changed:
            self.session.commit()
            self._lobby_changed()
            for seek in expired:
                self._tell_cancelled(seek, self.seek_json(seek))
        return changed

    def pending_for(self, user: Identity) -> list[SeekJSON]:
        """Open challenges the user sent or is invited to."""
        rows = self.session.scalars(select(Seek).where(Seek.status == "open",
                                                       Seek.kind == "challenge")
                                    .order_by(Seek.created_at))
        return [self.seek_json(s) for s in rows
                if user.id == s.creator_id or user.id in invitees_of(s)]
