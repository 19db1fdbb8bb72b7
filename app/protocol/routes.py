"""GET /api/v1/schemas: the socket and stream protocol, one model and one example per message."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.db.one_hop import OneHopRoute
from app.http.doors import PublicDoor
from app.protocol import messages as m
from app.protocol.catalog import catalog

router = APIRouter(route_class=OneHopRoute, tags=["protocol"])

AnyMessage = (
    m.StateMessage | m.ClockMessage | m.OfferMessage | m.ResultMessage | m.PresenceMessage
    | m.AckMessage | m.ErrorMessage | m.PongMessage | m.MoveRequest | m.SyncRequest
    | m.PingRequest | m.SeeksMessage | m.LobbyChallengeMessage | m.MatchStartedMessage
    | m.ChallengeDeclinedMessage | m.LiveMatchMessage | m.ChallengeEvent
    | m.ChallengeCanceledEvent | m.ChallengeDeclinedEvent | m.GameStartEvent
    | m.GameFinishEvent | m.GameFullEvent | m.GameStateEvent | m.StreamOfferEvent
    | m.OpponentGoneEvent | m.StreamFinishEvent | m.ChatLineMessage | m.YourTurnEvent
    | m.AccountOfferEvent | m.ChallengeCanceledMessage | m.AnalysisMessage | m.TournamentMessage
    | m.ChatHiddenMessage | m.ModerationNoticeMessage | m.FollowedGameEvent
)


class ChannelDoc(BaseModel):
    name: str
    description: str


class MessageDoc(BaseModel):
    channel: str = Field(description="Where it travels (a socket or a stream).")
    direction: Literal["server", "client"] = Field(
        description="`server`: sent to clients; `client`: clients send it.")
    type: str = Field(description="The message's `type` field.")
    model: str = Field(description="Its schema in the OpenAPI components.")
    schema_ref: str
    description: str
    example: AnyMessage


class MessageCatalog(BaseModel):
    protocol_version: int = Field(description=(
        "Grows only on an incompatible change; ignore fields and message types you do not know."))
    channels: list[ChannelDoc]
    messages: list[MessageDoc]


@router.get("/schemas", response_model=MessageCatalog, response_model_exclude_unset=True,
            dependencies=[PublicDoor])
def message_schemas() -> dict[str, Any]:
    """Every websocket and stream message with its schema (in the components below) and an
    example. Readable version: `/docs/messages`."""
    return catalog()
