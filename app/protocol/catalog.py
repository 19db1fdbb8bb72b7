"""The catalog of protocol messages: for each, where it travels, which way, and an example.

Served as JSON at ``GET /api/v1/schemas`` and as a page at ``/docs/messages``; a test checks that
every example is valid for its own model, so the examples cannot drift from the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from app.kernel.json_types import JSONObject
from app.protocol import messages as m
from games import registry

MATCH_SOCKET = "WS /api/v1/matches/{id}/ws"
LOBBY_SOCKET = "WS /api/v1/lobby/ws"
LIVE_SOCKET = "WS /api/v1/live/ws"
EVENT_STREAM = "GET /api/v1/stream/event"
MATCH_STREAM = "GET /api/v1/matches/{id}/stream"
TOURNAMENT_SOCKETS = "WS /api/v1/tournaments/ws, WS /api/v1/tournaments/{id}/ws"

CHANNELS: dict[str, str] = {
    MATCH_SOCKET: "One match, live. Browsers use their session cookie; programs add `?token=`.",
    LOBBY_SOCKET: "The open seeks, and personal lobby events.",
    LIVE_SOCKET: "Every match in play, public views only (the Watch page).",
    EVENT_STREAM: ("NDJSON: one JSON object per line, an empty line every ~6 s to keep the "
                   "connection open. Needs a token (`read` scope). The same messages come on "
                   "`WS /api/v1/stream/event/ws`."),
    MATCH_STREAM: ("NDJSON for one match as the token's seat (or as a spectator): `gameFull` "
                   "first, then changes; closes after `gameFinish`. Empty keep-alive lines."),
    TOURNAMENT_SOCKETS: "Every tournament's changes (the list), or one tournament's.",
}

_USER = {"id": 7, "name": "Aiko", "kind": "account"}
_RATING = {"mu": 1512.4, "sigma": 96.1, "games": 23, "provisional": False, "display": 1512.4}
_BOT = {"id": 2, "name": "Bot (easy)", "kind": "bot"}
_CLOCK = {"remaining_ms": [291200, 300000], "ticking": 1, "running": True, "first_move_ms": None,
          "as_of": "2026-11-23T04:00:03.120000Z", "kind": "realtime"}


def _position(plies: int) -> dict[str, Any]:
    """A real Stairs position after ``plies`` moves, as seat 0 sees it: the fields of a match
    payload that follow from it, and the moves that led there."""
    state, moves = registry.get("stairs").example_line(plies)
    to_move = state.to_move
    return {"ply": plies, "version": plies + 1, "to_move": to_move,
            "view": state.view(0), "legal_moves": state.legal_moves() if to_move == 0 else [],
            "last_move": {"ply": plies, "seat": (plies - 1) % 2, "move": moves[-1]},
            "moves": moves}


_AFTER_3, _AFTER_4 = _position(3), _position(4)
MATCH_EXAMPLE: dict[str, Any] = {
    "id": "Ab12Cd34", "game": "stairs", "options": {"swap": False}, "fixed_deal": False,
    "status": "active",
    "seats": [{"seat": 0, "user": _USER}, {"seat": 1, "user": _BOT}],
    **{k: v for k, v in _AFTER_3.items() if k != "moves"}, "your_seat": 0,
    "result": None, "rated": True,
    "time_control": {"kind": "realtime", "minutes": 5, "increment": 3, "initial_ms": 300000,
                     "increment_ms": 3000},
    "clock": _CLOCK, "offers": {}, "eliminated": [], "rematch_of": None,
    "tournament": None, "sealed": False,
    "offer_kinds": ["end", "rematch"], "created_at": "2026-11-23T03:59:00Z",
    "started_at": "2026-11-23T03:59:20Z", "finished_at": None,
}
RESULT_EXAMPLE = {"winners": [0], "ranking": [[0], [1]], "scores": None,
                  "reason": "highest_piece", "details": {}}
_SEEK = {"id": "Sk9Lm2Qp", "kind": "challenge", "game": "sight", "options": {"priority": "absolute"},
         "fixed_deal": False, "fixed_deal_note": None, "seats": 2, "rated": False, "time_control": None,
         "creator": {**_USER, "username": "aiko", "rating": None},
         "target": {"id": 9, "name": "Stepper", "kind": "bot", "username": "stepper",
                    "rating": None},
         "targets": [{"id": 9, "name": "Stepper", "kind": "bot", "username": "stepper",
                      "rating": None}],
         "joined": [{"id": 7, "name": "Aiko"}], "status": "open", "match_id": None,
         "created_at": "2026-11-23T04:00:00Z", "decline_reason": None, "declined_by": None}
_DECLINED = {**_SEEK, "status": "declined", "decline_reason": "tooFast",
             "declined_by": {"id": 9, "name": "Stepper"}}
_SUMMARY = {"id": "Ab12Cd34", "game": "stairs", "status": "active",
            "seats": MATCH_EXAMPLE["seats"], "your_seat": 0, "rated": True,
            "time_control": MATCH_EXAMPLE["time_control"], "result": None, "url": "/m/Ab12Cd34",
            "tournament": None}

_CHAT_LINE = {"id": 41, "match_id": "Ab12Cd34", "room": "players", "user": _USER,
              "text": "good luck!", "phrase": None, "created_at": "2026-11-23T04:00:05Z"}
_BRIEF = {"id": "Ab12Cd34", "game": "stairs", "status": "active", "ply": 4, "your_seat": 0,
          "opponents": ["Bot (easy)"], "time_control": {"kind": "correspondence", "days": 3},
          "last_move": {"ply": 4, "seat": 1, "move": "c3-d4"}, "url": "/m/Ab12Cd34"}


@dataclass(frozen=True)
class Entry:
    channel: str
    direction: str  # "server" (server → client) or "client" (client → server)
    model: type[BaseModel]
    example: dict[str, Any]


ENTRIES: list[Entry] = [
    Entry(MATCH_SOCKET, "server", m.StateMessage, {"type": "state", **MATCH_EXAMPLE}),
    Entry(MATCH_SOCKET, "server", m.ClockMessage, {"type": "clock", "ply": 3, **_CLOCK}),
    Entry(MATCH_SOCKET, "server", m.OfferMessage,
          {"type": "offer", "ply": 3, "offers": {"end": [0]}}),
    Entry(MATCH_SOCKET, "server", m.ResultMessage,
          {"type": "result", "status": "finished", "result": RESULT_EXAMPLE}),
    Entry(MATCH_SOCKET, "server", m.PresenceMessage,
          {"type": "presence", "spectators": 3, "online_seats": [0, 1]}),
    Entry(MATCH_SOCKET, "server", m.AckMessage, {"type": "ack", "id": "m-17", "ply": 4, "version": 5}),
    Entry(MATCH_SOCKET, "server", m.ErrorMessage,
          {"type": "error", "id": "m-17", "code": "stale_ply",
           "message": "The match is at ply 4, not 3: refresh and try again."}),
    Entry(MATCH_SOCKET, "server", m.PongMessage, {"type": "pong"}),
    Entry(MATCH_SOCKET, "server", m.AnalysisMessage,
          {"type": "analysis", "match_id": "Ab12Cd34", "status": "running", "progress": 12,
           "total": 41}),
    Entry(MATCH_SOCKET, "client", m.MoveRequest,
          {"type": "move", "move": "c3-d4", "ply": 3, "id": "m-17"}),
    Entry(MATCH_SOCKET, "client", m.SyncRequest, {"type": "sync"}),
    Entry(MATCH_SOCKET, "client", m.PingRequest, {"type": "ping"}),
    Entry(LOBBY_SOCKET, "server", m.SeeksMessage,
          {"type": "seeks", "seeks": [{**_SEEK, "kind": "open", "target": None}]}),
    Entry(LOBBY_SOCKET, "server", m.LobbyChallengeMessage, {"type": "challenge", "seek": _SEEK}),
    Entry(LOBBY_SOCKET, "server", m.MatchStartedMessage,
          {"type": "match_started", "match_id": "Ab12Cd34", "seek_id": "Sk9Lm2Qp"}),
    Entry(LOBBY_SOCKET, "server", m.ChallengeDeclinedMessage,
          {"type": "challenge_declined", "seek": _DECLINED}),
    Entry(LOBBY_SOCKET, "server", m.ChallengeCanceledMessage,
          {"type": "challenge_canceled", "seek": {**_SEEK, "status": "cancelled"}}),
    Entry(LOBBY_SOCKET, "server", m.PongMessage, {"type": "pong"}),
    Entry(LOBBY_SOCKET, "client", m.PingRequest, {"type": "ping"}),
    Entry(LIVE_SOCKET, "server", m.LiveMatchMessage,
          {"type": "match", **MATCH_EXAMPLE, "your_seat": None, "spectators": 3,
           "seats": [{"seat": 0, "user": {**_USER, "rating": _RATING}},
                     {"seat": 1, "user": {**_BOT, "rating": _RATING}}]}),
    Entry(EVENT_STREAM, "server", m.ChallengeEvent,
          {"type": "challenge", "challenge": _SEEK, "direction": "in"}),
    Entry(EVENT_STREAM, "server", m.ChallengeCanceledEvent,
          {"type": "challengeCanceled", "challenge": {**_SEEK, "status": "cancelled"},
           "direction": "in"}),
    Entry(EVENT_STREAM, "server", m.ChallengeDeclinedEvent,
          {"type": "challengeDeclined", "challenge": _DECLINED, "direction": "out"}),
    Entry(EVENT_STREAM, "server", m.GameStartEvent, {"type": "gameStart", "game": _SUMMARY}),
    Entry(EVENT_STREAM, "server", m.GameFinishEvent,
          {"type": "gameFinish", "game": {**_SUMMARY, "status": "finished",
                                          "result": RESULT_EXAMPLE}}),
    Entry(MATCH_STREAM, "server", m.GameFullEvent,
          {"type": "gameFull", "protocol": m.PROTOCOL_VERSION, **MATCH_EXAMPLE,
           "moves": _AFTER_3["moves"]}),
    Entry(MATCH_STREAM, "server", m.GameStateEvent,
          {"type": "gameState", **MATCH_EXAMPLE, **_AFTER_4}),
    Entry(MATCH_STREAM, "server", m.StreamOfferEvent,
          {"type": "offer", "ply": 4, "offers": {"draw": [1]}}),
    Entry(MATCH_STREAM, "server", m.OpponentGoneEvent,
          {"type": "opponentGone", "gone": True, "seats": [1], "claim_win_in_seconds": 45}),
    Entry(MATCH_STREAM, "server", m.StreamFinishEvent,
          {"type": "gameFinish", "status": "finished", "result": RESULT_EXAMPLE}),
    Entry(MATCH_SOCKET, "server", m.ChatLineMessage, {"type": "chatLine", **_CHAT_LINE}),
    Entry(MATCH_STREAM, "server", m.ChatLineMessage,
          {"type": "chatLine", **_CHAT_LINE, "text": "Good game", "phrase": "good_game"}),
    Entry(EVENT_STREAM, "server", m.YourTurnEvent, {"type": "yourTurn", "game": _BRIEF}),
    Entry(EVENT_STREAM, "server", m.AccountOfferEvent,
          {"type": "offer", "kind": "draw", "game": _BRIEF}),
    Entry(EVENT_STREAM, "server", m.FollowedGameEvent,
          {"type": "followedGame", "user": {"id": 7, "name": "Aiko"},
           "game": {**_SUMMARY, "your_seat": None}}),
    Entry(MATCH_SOCKET, "server", m.ChatHiddenMessage,
          {"type": "chatHidden", "id": 41, "match_id": "Ab12Cd34", "room": "players"}),
    Entry(MATCH_STREAM, "server", m.ChatHiddenMessage,
          {"type": "chatHidden", "id": 41, "match_id": "Ab12Cd34", "room": "spectators"}),
    Entry(EVENT_STREAM, "server", m.ModerationNoticeMessage, {"type": "moderation", "notice": {
        "id": 12, "action": "mute", "reason": "insults in chat",
        "created_at": "2026-11-23T04:10:00Z", "until": "2026-11-24T04:10:00Z",
        "match_id": None, "line": None,
        "message": "A moderator muted you from chat until 2026-11-24 04:10 UTC: insults in chat"}}),
    Entry(TOURNAMENT_SOCKETS, "server", m.TournamentMessage,
          {"type": "tournament", "id": "Tn4Rk8Wd", "status": "running", "round": 2,
           "version": 9}),
    Entry(TOURNAMENT_SOCKETS, "server", m.PongMessage, {"type": "pong"}),
    Entry(TOURNAMENT_SOCKETS, "client", m.PingRequest, {"type": "ping"}),
]


def catalog() -> JSONObject:
    """The JSON served at /api/v1/schemas."""
    return {
        "protocol_version": m.PROTOCOL_VERSION,
        "channels": [{"name": name, "description": text} for name, text in CHANNELS.items()],
        "messages": [{
            "channel": entry.channel, "direction": entry.direction,
            "type": entry.example["type"], "model": entry.model.__name__,
            "schema_ref": f"#/components/schemas/{entry.model.__name__}",
            "description": " ".join((entry.model.__doc__ or "").split()),
            "example": entry.example,
        } for entry in ENTRIES],
    }
