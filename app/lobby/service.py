"""The lobby: open seeks, quick play, and challenges to a named user.

A seek collects players (``joined``, creator first); when the last seat fills, the match is
created with every seat taken and the seek is marked matched, in one transaction. Everyone
watching the lobby is told the seek list changed; every seated player is told where to go.
"""

from __future__ import annotations

import random
import secrets
import string
from collections.abc import Callable
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.accounts import blocks, identity_of
from app.db.models import Seek, User, utcnow
from app.db.session import rows_matched
from app.kernel.errors import Conflict, Forbidden, Invalid, NotFound
from app.kernel.identity import Identity
from app.lobby.messages import (
    ChallengeCanceledMessage,
    ChallengeDeclinedMessage,
    LobbyChallengeMessage,
    MatchStartedMessage,
    SeeksMessage,
)
from app.match import (
    MatchService,
    TimeControl,
    ensure_bot_user,
    find_user_id,
    fixed_deal_fields,
    get_rating,
    level_of,
    parse_time_control,
    public_options,
    rating_json,
    refuse_secret_options_in_rated,
    validate_setup,
)
from app.realtime.messages import bus_form

RATED_KINDS = ("account", "bot")
"""Users who play rated games: accounts and bot accounts."""

SEEK_ID_LENGTH = 8
QUICK_WINDOW = 3.0
QUICK_WINDOW_GROWTH = 0.5  # mu per second waited
LOBBY_CHANNEL = "lobby"

Publish = Callable[[str, dict[str, Any]], None]


def user_channel(user_id: int) -> str:
    return f"user:{user_id}"


def seeks_message(seeks: list[dict[str, Any]]) -> dict[str, Any]:
    """The lobby channel's ``seeks`` message (every open seek: each socket keeps those its
    viewer may see)."""
    return bus_form(SeeksMessage.model_validate({"type": "seeks", "seeks": seeks}))


def _new_seek_id() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(SEEK_ID_LENGTH))


class LobbyService:
    def __init__(self, session: Session, matches: MatchService, publish: Publish | None = None,
                 on_seek_created: Callable[[int], None] | None = None) -> None:
        self.session = session
        self.matches = matches
        self.publish = publish or (lambda channel, message: None)
        self.on_seek_created = on_seek_created or (lambda user_id: None)

    # -- presentation ---------------------------------------------------------------------------

    def _user_json(self, user: User | None, game: str) -> dict[str, Any] | None:
        if user is None:
            return None
        rating = get_rating(self.session, user.id, game) if user.kind in RATED_KINDS else None
        return {"id": user.id, "name": user.name, "kind": user.kind, "username": user.username,
                "rating": rating_json(rating) if user.kind in RATED_KINDS else None}

    def seek_json(self, seek: Seek) -> dict[str, Any]:
        names = {u.id: u for u in self.session.scalars(select(User).where(User.id.in_(seek.joined)))}
        return {
            "id": seek.id, "kind": seek.kind, "game": seek.game,
            "options": public_options(seek.game, seek.options),
            **fixed_deal_fields(seek.game, seek.options),
            "seats": seek.num_seats, "rated": seek.rated, "time_control": seek.time_control,
            "creator": self._user_json(seek.creator, seek.game),
            "target": self._user_json(seek.target, seek.game),
            "joined": [{"id": uid, "name": names[uid].name if uid in names else "?"}
                       for uid in seek.joined],
            "status": seek.status, "match_id": seek.match_id,
            "created_at": seek.created_at.isoformat() + "Z",
        }

    def open_seeks(self) -> list[dict[str, Any]]:
        rows = self.session.scalars(
            select(Seek).where(Seek.status == "open").order_by(Seek.created_at))
        return [self.seek_json(seek) for seek in rows]

    @staticmethod
    def visible_to(seeks: list[dict[str, Any]], viewer_id: int | None) -> list[dict[str, Any]]:
        """Challenges are private to their two users; other seeks are public."""
        return [s for s in seeks if s["kind"] != "challenge"
                or viewer_id in (s["creator"]["id"], (s["target"] or {}).get("id"))]

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

    def create_seek(self, user: Identity, game: str, options: dict[str, Any] | None = None,
                    players: int | None = None, rated: bool = False,
                    time_control: TimeControl | dict[str, Any] | None = None,
                    seat: int | str = "random",
                    kind: str = "open", target: User | None = None) -> dict[str, Any]:
        setup = validate_setup(game, options, players)
        refuse_secret_options_in_rated(setup.game, setup.options, rated)
        time_control = parse_time_control(time_control)
        self._check_rated(rated, user)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < setup.num_seats):
            raise Invalid(f"Seat must be 0–{setup.num_seats - 1} or 'random'.", code="invalid_seat")
        seek = Seek(id=_new_seek_id(), kind=kind, game=setup.game.id, options=setup.options,
                    num_seats=setup.num_seats, rated=rated, time_control=time_control,
                    seat=str(seat), creator_id=user.id, target_id=target.id if target else None,
                    joined=[user.id], status="open", version=0)
        self.session.add(seek)
        self.session.commit()
        self.session.refresh(seek)
        self._lobby_changed()
        if target is not None:
            self.publish(user_channel(target.id), bus_form(LobbyChallengeMessage.model_validate(
                {"type": "challenge", "seek": self.seek_json(seek)})))
        self.on_seek_created(user.id)
        return self.seek_json(seek)

    def accept(self, seek_id: str, user: Identity) -> dict[str, Any]:
        """Join a seek; the last player to join starts the match (returned as ``match_id``)."""
        seek = self._load(seek_id)
        if seek.status != "open":
            raise Conflict("This seek is no longer open.", code="seek_closed")
        if user.id in seek.joined:
            raise Conflict("You are already in this seek.", code="already_joined")
        if seek.kind == "challenge" and user.id != seek.target_id:
            raise Forbidden("This challenge is for someone else.", code="not_your_challenge")
        self._check_rated(seek.rated, user)
        joined = [*seek.joined, user.id]
        values: dict[str, Any] = {"joined": joined, "version": seek.version + 1}
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
            raise Conflict("Someone else answered this seek first.", code="seek_closed")
        self.session.commit()
        self.session.refresh(seek)
        if match is not None:
            self.matches.announce(match)
            for user_id in joined:
                self.publish(user_channel(user_id), bus_form(MatchStartedMessage(
                    type="match_started", match_id=match.id, seek_id=seek.id)))
        self._lobby_changed()
        return self.seek_json(seek)

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

    def _save(self, seek: Seek) -> dict[str, Any]:
        """Commit a change to one seek and tell the lobby."""
        seek.version += 1
        self.session.commit()
        self._lobby_changed()
        return self.seek_json(seek)

    def cancel(self, seek_id: str, user: Identity) -> dict[str, Any]:
        seek = self._load(seek_id)
        if user.id != seek.creator_id:
            if user.id in seek.joined and seek.status == "open":  # leave a multi-seat seek
                seek.joined = [uid for uid in seek.joined if uid != user.id]
                return self._save(seek)
            raise Forbidden("Only its creator can cancel a seek.", code="not_your_seek")
        if seek.status != "open":
            raise Conflict("This seek is no longer open.", code="seek_closed")
        seek.status = "cancelled"
        cancelled = self._save(seek)
        self._tell_target_cancelled(seek, cancelled)
        return cancelled

    def _tell_target_cancelled(self, seek: Seek, seek_json: dict[str, Any]) -> None:
        if seek.kind == "challenge" and seek.target_id is not None:
            self.publish(user_channel(seek.target_id), bus_form(ChallengeCanceledMessage.model_validate(
                {"type": "challenge_canceled", "seek": seek_json})))

    def decline(self, seek_id: str, user: Identity) -> dict[str, Any]:
        seek = self._load(seek_id)
        if seek.kind != "challenge" or user.id != seek.target_id:
            raise Forbidden("Only the challenged player can decline.", code="not_your_challenge")
        if seek.status != "open":
            raise Conflict("This challenge is no longer open.", code="seek_closed")
        seek.status = "declined"
        declined = self._save(seek)
        self.publish(user_channel(seek.creator_id), bus_form(ChallengeDeclinedMessage.model_validate(
            {"type": "challenge_declined", "seek": declined})))
        return declined

    def challenge(self, user: Identity, target_name: str, game: str,
                  options: dict[str, Any] | None = None, rated: bool = False,
                  time_control: TimeControl | dict[str, Any] | None = None,
                  seat: int | str = "random") -> dict[str, Any]:
        """Challenge a named player; ``seat`` is the challenger's (0 = first player, or "random")."""
        level = level_of(target_name)
        if level is not None:  # a built-in bot exists from its first game on
            target: User | None = ensure_bot_user(self.session, level)
            self.session.commit()
        else:
            target = self.session.get(User, find_user_id(self.session, target_name))
        assert target is not None
        if target.id == user.id:
            raise Invalid("You cannot challenge yourself.", code="self_challenge")
        if blocks(self.session, target.id, user.id):  # blocked by the target
            raise Forbidden(f"{target.name} does not accept your challenges.", code="blocked")
        if rated and target.kind not in RATED_KINDS:
            raise Invalid("Rated games are for accounts.", code="rated_needs_account")
        created = self.create_seek(user, game, options, None, rated, time_control, seat,
                                   kind="challenge", target=target)
        if target.builtin_bot is not None:
            return self.accept(created["id"], identity_of(target))  # built-in bots always accept
        return created

    def quick_play(self, user: Identity, game: str) -> dict[str, Any]:
        """Wait in the quick-play pool and get paired with the closest rating in reach.

        Two seekers pair when their ratings (mu) differ by at most the pairing window, which
        widens the longer the older of them has waited (see ``pairing_window``). Returns the
        caller's seek: ``matched`` with a ``match_id`` at once if a partner was in reach.
        """
        setup = validate_setup(game, None)
        if user.kind == "bot":
            raise Forbidden("Bots play through challenges, not quick play with people.",
                            code="bots_no_quick_play")
        rated = user.kind == "account"
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
        """Pair compatible quick-play seekers, oldest first, each with the closest in reach."""
        waiting = list(self.session.scalars(
            select(Seek).where(Seek.status == "open", Seek.kind == "quick")
            .order_by(Seek.created_at)))
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
            partner.match_id = self.accept(oldest.id, identity_of(creator))["match_id"]
            self.session.commit()
            paired += 1
        return paired

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
                self._tell_target_cancelled(seek, self.seek_json(seek))
        return changed

    def pending_for(self, user: Identity) -> list[dict[str, Any]]:
        rows = self.session.scalars(select(Seek).where(Seek.status == "open").order_by(Seek.created_at))
        return [self.seek_json(s) for s in rows
                if s.kind == "challenge" and user.id in (s.creator_id, s.target_id)]
