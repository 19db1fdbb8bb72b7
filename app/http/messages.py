"""The error message of every socket: a refused connection, an ended credential, a failed
request (the same codes as the REST API's error bodies)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.realtime.messages import Message

ERROR_CODES = ("stale_ply", "not_your_turn", "illegal_move", "time_out", "not_a_player",
               "match_not_active", "rate_limited", "invalid_token", "no_match", "invalid_request",
               "missing_scope", "credential_ended", "match_sealed")


class ErrorMessage(Message):
    """A request on the socket failed (same codes as the REST API), or the socket is refused
    (`invalid_token`, `no_match`; the socket then closes with 4401 / 4404)."""

    type: Literal["error"]
    id: str | int | None = None
    code: str = Field(examples=list(ERROR_CODES))
    message: str
    reason: str | dict[str, Any] | None = Field(default=None, description=(
        "`illegal_move`: why, as a code with parameters (`{code, params}`); `credential_ended`: "
        "`revoked`, `logged_out` or `expired`."))
    retry_after: float | None = Field(default=None, description=(
        "`rate_limited`, `server_busy`, `database_unavailable`: seconds to wait."))
