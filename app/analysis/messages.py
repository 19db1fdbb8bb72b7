"""The analysis progress a match's socket shows (WS /api/v1/matches/{id}/ws)."""

from __future__ import annotations

from typing import Literal

from app.realtime.messages import Message


class AnalysisMessage(Message):
    """The computer analysis of this (finished) match moved on: queued, running (`progress` of
    `total` positions done) or done / failed; read it with `GET /api/v1/matches/{id}/analysis`."""

    type: Literal["analysis"]
    match_id: str
    status: Literal["queued", "running", "done", "failed"]
    progress: int
    total: int
