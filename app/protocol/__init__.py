"""The wire protocol: every message the sockets and the NDJSON streams carry, as pydantic models
(``messages``), their catalog with an example each (``catalog``) and the route that publishes
them (``routes``).

Other packages use only the names in ``__all__``.
"""

from app.protocol.catalog import catalog as message_catalog
from app.protocol.messages import (
    PROTOCOL_VERSION,
    AccountOfferEvent,
    ChallengeCanceledEvent,
    ChallengeDeclinedEvent,
    ChallengeEvent,
    EventStreamLine,
    FollowedGameEvent,
    GameFinishEvent,
    GameFullEvent,
    GameStartEvent,
    GameStateEvent,
    MatchStreamLine,
    ModerationNoticeMessage,
    OpponentGoneEvent,
    StreamFinishEvent,
    StreamOfferEvent,
    TournamentMessage,
    YourTurnEvent,
)
from app.protocol.routes import router as schema_router

__all__ = [
    "PROTOCOL_VERSION",
    "AccountOfferEvent",
    "ChallengeCanceledEvent",
    "ChallengeDeclinedEvent",
    "ChallengeEvent",
    "EventStreamLine",
    "FollowedGameEvent",
    "GameFinishEvent",
    "GameFullEvent",
    "GameStartEvent",
    "GameStateEvent",
    "MatchStreamLine",
    "ModerationNoticeMessage",
    "OpponentGoneEvent",
    "StreamFinishEvent",
    "StreamOfferEvent",
    "TournamentMessage",
    "YourTurnEvent",
    "message_catalog",
    "schema_router",
]
