"""The match domain: one package, one public interface (the names in ``__all__``; other packages
import nothing else of it).

- ``records``  plain-data snapshots of a match (``MatchRecord``) that cross threads and the bus;
- ``store``    the only module that loads or locks a match, finds a user's seat, rebuilds a
               State, and ``commit``s a change under the core invariant (below);
- ``service``  the use cases: create, join, play, resign, flag, claim, abort;
- ``offers``   draw / agreed end / takeback / rematch; ``bots`` seats built-in bots;
- ``clocks``   typed time controls and clocks; ``timeouts`` flags overdue players;
- ``payloads`` the one place where a record becomes what a viewer may see;
- ``results``  result reason codes.

The core invariant: a change is applied only if the match's ``version`` is still the one that
was read; a move row is unique per (match, ply); so a stale or duplicate submission changes
nothing, and the stored snapshot always equals a replay of the move log.

The entry point for use cases is :data:`Matches` (a request's :class:`MatchService`, built with
the app's publisher); jobs build ``MatchService(session, publish)`` with the publisher they were
given, and a read that never changes a match says so with ``MatchService.read_only(session)``.
"""

from app.match.bot_runner import BotRunner
from app.match.bots import (
    BOT_LEVELS,
    BOT_NAMES,
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
from app.match.option_privacy import (
    FIXED_DEAL_NOTE,
    fixed_deal_fields,
    public_options,
    refuse_secret_options_in_rated,
    secret_options_set,
)
from app.match.payloads import (
    Known,
    MatchChange,
    live_item,
    match_payload,
    seat_message,
    to_move_of,
    view_of,
)
from app.match.publish import publish_match
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
    "BotRunner",
    "ChallengeIn",
    "GameRecordError",
    "Known",
    "LoginIn",
    "MatchChange",
    "MatchHeader",
    "MatchOut",
    "MatchRecord",
    "MatchService",
    "MatchSetup",
    "Matches",
    "PublicClock",
    "Publish",
    "QuickPlayIn",
    "ResultOut",
    "SeatOut",
    "SeekIn",
    "SeekOut",
    "SessionOut",
    "TimeControl",
    "UserOut",
    "WarmMatches",
    "bot_username",
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
