"""The match domain: one package, one public interface (the names in ``__all__``; other packages
import nothing else of it).

- ``records``  plain-data snapshots of a match (``MatchRecord``) that cross threads and the bus;
- ``store``    the only module that loads or locks a match, finds a user's seat, rebuilds a
               State, and ``commit``s a change under the core invariant (below);
- ``service``  the use cases: create, join, play, resign, flag, claim, abort;
- ``offers``   draw / agreed end / takeback / rematch; ``bots`` seats built-in bots;
- ``clocks``   typed time controls and clocks; ``timeouts`` flags overdue players;
- ``payloads`` the one place where a record becomes what a viewer may see;
- ``publish``  announces a committed change; ``outbox`` announces again what a publisher that
               died (or lost Redis) never did;
- ``results``  result reason codes.

The core invariant: a change is applied only if the match's ``version`` is still the one that
was read; a move row is unique per (match, ply); so a stale or duplicate submission changes
nothing, and the stored snapshot always equals a replay of the move log.

The entry point for use cases is :data:`Matches` (a request's :class:`MatchService`, built with
the app's publisher); jobs build ``MatchService(session, publish)`` with the publisher they were
given, and a read that never changes a match says so with ``MatchService.read_only(session)``.
The names are imported on first use (``app/kernel/exports.py``): a bot worker process imports
``bots`` alone and needs none of the rest.
"""

from typing import TYPE_CHECKING

from app.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from app.match.bot_runner import BotRunner
    from app.match.bots import (
        BOT_LEVELS,
        BOT_NAMES,
        bot_move,
        bot_username,
        ensure_bot_user,
        find_user_id,
        level_of,
        seat_bots,
    )
    from app.match.clock_keeper import keep_clocks
    from app.match.clocks import PublicClock, TimeControl, parse_time_control
    from app.match.clocks import deadline as clock_deadline
    from app.match.deps import Matches
    from app.match.export_routes import router as export_router
    from app.match.forms import (
        CLOCK_PRESETS,
        clock_from_form,
        option_fields,
        options_from_form,
        seat_from_form,
    )
    from app.match.game_records import GameRecordError, parse_seed, parse_text, seed_text
    from app.match.messages import (
        AckMessage,
        ClockMessage,
        LiveMatchMessage,
        MoveRequest,
        OfferMessage,
        PingRequest,
        RatedSeatOut,
        RatedUserOut,
        ResultMessage,
        StateMessage,
        SyncRequest,
    )
    from app.match.move_lane import MoveLane
    from app.match.option_privacy import (
        FIXED_DEAL_NOTE,
        fixed_deal_fields,
        public_options,
        refuse_secret_options_in_rated,
        secret_options_set,
    )
    from app.match.outbox import Announced, Relay, relay_at_start, relay_unannounced
    from app.match.payloads import (
        Known,
        MatchChange,
        change_messages,
        live_item,
        match_payload,
        once,
        seat_message,
        to_move_of,
        view_of,
    )
    from app.match.publish import MatchPublisher, publish_match
    from app.match.ratings import get_rating, rating_json, seat_ratings
    from app.match.ratings import leaderboard as rating_leaderboard
    from app.match.records import MatchHeader, MatchRecord, iso, record_of
    from app.match.routes import ERRORS as MATCH_ERRORS
    from app.match.routes import router as match_router
    from app.match.schemas import (
        AccountIn,
        ChallengeIn,
        LoginIn,
        MatchOut,
        QuickPlayIn,
        ResultOut,
        SeatOut,
        SeekIn,
        SeekOut,
        SessionOut,
        UserOut,
    )
    from app.match.sealing import CODE as SEALED_CODE
    from app.match.sealing import require_open, require_visible, sealed_error, sealed_for, unseal
    from app.match.service import MatchService, MatchSetup, new_seed, validate_setup
    from app.match.store import Publish, require_active, seat_of, state_of
    from app.match.store import load as load_match
    from app.match.store import read as read_match
    from app.match.warm import WarmMatches
    from app.match.why_routes import router as why_router

__all__ = [
    "BOT_LEVELS",
    "BOT_NAMES",
    "CLOCK_PRESETS",
    "FIXED_DEAL_NOTE",
    "MATCH_ERRORS",
    "SEALED_CODE",
    "AccountIn",
    "AckMessage",
    "Announced",
    "BotRunner",
    "ChallengeIn",
    "ClockMessage",
    "GameRecordError",
    "Known",
    "LiveMatchMessage",
    "LoginIn",
    "MatchChange",
    "MatchHeader",
    "MatchOut",
    "MatchPublisher",
    "MatchRecord",
    "MatchService",
    "MatchSetup",
    "Matches",
    "MoveLane",
    "MoveRequest",
    "OfferMessage",
    "PingRequest",
    "PublicClock",
    "Publish",
    "QuickPlayIn",
    "RatedSeatOut",
    "RatedUserOut",
    "Relay",
    "ResultMessage",
    "ResultOut",
    "SeatOut",
    "SeekIn",
    "SeekOut",
    "SessionOut",
    "StateMessage",
    "SyncRequest",
    "TimeControl",
    "UserOut",
    "WarmMatches",
    "bot_move",
    "bot_username",
    "change_messages",
    "clock_deadline",
    "clock_from_form",
    "ensure_bot_user",
    "export_router",
    "find_user_id",
    "fixed_deal_fields",
    "get_rating",
    "iso",
    "keep_clocks",
    "level_of",
    "live_item",
    "load_match",
    "match_payload",
    "match_router",
    "new_seed",
    "once",
    "option_fields",
    "options_from_form",
    "parse_seed",
    "parse_text",
    "parse_time_control",
    "public_options",
    "publish_match",
    "rating_json",
    "rating_leaderboard",
    "read_match",
    "record_of",
    "refuse_secret_options_in_rated",
    "relay_at_start",
    "relay_unannounced",
    "require_active",
    "require_open",
    "require_visible",
    "sealed_error",
    "sealed_for",
    "seat_bots",
    "seat_from_form",
    "seat_message",
    "seat_of",
    "seat_ratings",
    "secret_options_set",
    "seed_text",
    "state_of",
    "to_move_of",
    "unseal",
    "validate_setup",
    "view_of",
    "why_router",
]

__getattr__ = lazy_exports(__name__, {
    "SyncRequest": ("app.match.messages", "SyncRequest"),
    "StateMessage": ("app.match.messages", "StateMessage"),
    "ResultMessage": ("app.match.messages", "ResultMessage"),
    "RatedUserOut": ("app.match.messages", "RatedUserOut"),
    "RatedSeatOut": ("app.match.messages", "RatedSeatOut"),
    "PingRequest": ("app.match.messages", "PingRequest"),
    "OfferMessage": ("app.match.messages", "OfferMessage"),
    "MoveRequest": ("app.match.messages", "MoveRequest"),
    "ClockMessage": ("app.match.messages", "ClockMessage"),
    "once": ("app.match.payloads", "once"),
    "change_messages": ("app.match.payloads", "change_messages"),
    "AckMessage": ("app.match.messages", "AckMessage"),
    "LiveMatchMessage": ("app.match.messages", "LiveMatchMessage"),
    "MoveLane": ("app.match.move_lane", "MoveLane"),
    "bot_move": ("app.match.bots", "bot_move"),
    "Announced": ("app.match.outbox", "Announced"),
    "Relay": ("app.match.outbox", "Relay"),
    "relay_at_start": ("app.match.outbox", "relay_at_start"),
    "relay_unannounced": ("app.match.outbox", "relay_unannounced"),
    "MatchPublisher": ("app.match.publish", "MatchPublisher"),
    "AccountIn": ("app.match.schemas", "AccountIn"),
    "BOT_LEVELS": ("app.match.bots", "BOT_LEVELS"),
    "BOT_NAMES": ("app.match.bots", "BOT_NAMES"),
    "BotRunner": ("app.match.bot_runner", "BotRunner"),
    "CLOCK_PRESETS": ("app.match.forms", "CLOCK_PRESETS"),
    "ChallengeIn": ("app.match.schemas", "ChallengeIn"),
    "FIXED_DEAL_NOTE": ("app.match.option_privacy", "FIXED_DEAL_NOTE"),
    "GameRecordError": ("app.match.game_records", "GameRecordError"),
    "Known": ("app.match.payloads", "Known"),
    "LoginIn": ("app.match.schemas", "LoginIn"),
    "MATCH_ERRORS": ("app.match.routes", "ERRORS"),
    "MatchChange": ("app.match.payloads", "MatchChange"),
    "MatchHeader": ("app.match.records", "MatchHeader"),
    "MatchOut": ("app.match.schemas", "MatchOut"),
    "MatchRecord": ("app.match.records", "MatchRecord"),
    "MatchService": ("app.match.service", "MatchService"),
    "MatchSetup": ("app.match.service", "MatchSetup"),
    "Matches": ("app.match.deps", "Matches"),
    "PublicClock": ("app.match.clocks", "PublicClock"),
    "Publish": ("app.match.store", "Publish"),
    "QuickPlayIn": ("app.match.schemas", "QuickPlayIn"),
    "ResultOut": ("app.match.schemas", "ResultOut"),
    "SEALED_CODE": ("app.match.sealing", "CODE"),
    "SeatOut": ("app.match.schemas", "SeatOut"),
    "SeekIn": ("app.match.schemas", "SeekIn"),
    "SeekOut": ("app.match.schemas", "SeekOut"),
    "SessionOut": ("app.match.schemas", "SessionOut"),
    "TimeControl": ("app.match.clocks", "TimeControl"),
    "UserOut": ("app.match.schemas", "UserOut"),
    "WarmMatches": ("app.match.warm", "WarmMatches"),
    "bot_username": ("app.match.bots", "bot_username"),
    "clock_deadline": ("app.match.clocks", "deadline"),
    "clock_from_form": ("app.match.forms", "clock_from_form"),
    "ensure_bot_user": ("app.match.bots", "ensure_bot_user"),
    "export_router": ("app.match.export_routes", "router"),
    "find_user_id": ("app.match.bots", "find_user_id"),
    "fixed_deal_fields": ("app.match.option_privacy", "fixed_deal_fields"),
    "get_rating": ("app.match.ratings", "get_rating"),
    "iso": ("app.match.records", "iso"),
    "keep_clocks": ("app.match.clock_keeper", "keep_clocks"),
    "level_of": ("app.match.bots", "level_of"),
    "live_item": ("app.match.payloads", "live_item"),
    "load_match": ("app.match.store", "load"),
    "match_payload": ("app.match.payloads", "match_payload"),
    "match_router": ("app.match.routes", "router"),
    "new_seed": ("app.match.service", "new_seed"),
    "option_fields": ("app.match.forms", "option_fields"),
    "options_from_form": ("app.match.forms", "options_from_form"),
    "parse_seed": ("app.match.game_records", "parse_seed"),
    "parse_text": ("app.match.game_records", "parse_text"),
    "parse_time_control": ("app.match.clocks", "parse_time_control"),
    "public_options": ("app.match.option_privacy", "public_options"),
    "publish_match": ("app.match.publish", "publish_match"),
    "rating_json": ("app.match.ratings", "rating_json"),
    "rating_leaderboard": ("app.match.ratings", "leaderboard"),
    "read_match": ("app.match.store", "read"),
    "record_of": ("app.match.records", "record_of"),
    "refuse_secret_options_in_rated": ("app.match.option_privacy", "refuse_secret_options_in_rated"),
    "require_active": ("app.match.store", "require_active"),
    "require_open": ("app.match.sealing", "require_open"),
    "require_visible": ("app.match.sealing", "require_visible"),
    "sealed_error": ("app.match.sealing", "sealed_error"),
    "sealed_for": ("app.match.sealing", "sealed_for"),
    "seat_bots": ("app.match.bots", "seat_bots"),
    "seat_from_form": ("app.match.forms", "seat_from_form"),
    "seat_message": ("app.match.payloads", "seat_message"),
    "seat_of": ("app.match.store", "seat_of"),
    "seat_ratings": ("app.match.ratings", "seat_ratings"),
    "secret_options_set": ("app.match.option_privacy", "secret_options_set"),
    "seed_text": ("app.match.game_records", "seed_text"),
    "state_of": ("app.match.store", "state_of"),
    "to_move_of": ("app.match.payloads", "to_move_of"),
    "unseal": ("app.match.sealing", "unseal"),
    "validate_setup": ("app.match.service", "validate_setup"),
    "view_of": ("app.match.payloads", "view_of"),
    "why_router": ("app.match.why_routes", "router"),
})
