"""Structured logs: every request has an id (``X-Request-ID``, echoed or made), the JSON lines
written during a request carry it, and a game's logs hold no secret (token, cookie, seed)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Match
from app.kernel.logs import JsonFormatter, RedactFilter, RequestIdFilter
from tests.conftest import make_guest


@pytest.fixture
def json_lines() -> Iterator[list[str]]:
    """Every log record of the test, formatted as the JSON lines production writes."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect(level=logging.DEBUG)
    handler.addFilter(RequestIdFilter())
    handler.addFilter(RedactFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    # A server run earlier in this process (uvicorn.Config) stops "uvicorn" from propagating to
    # the root and sets "uvicorn.error" to its own log level (warning in the suite's servers).
    served = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "uvicorn.access")]
    kept = [(logger.propagate, logger.level, logger.disabled) for logger in served]
    for logger in served:
        logger.propagate, logger.disabled = True, False
        logger.setLevel(logging.NOTSET)
    try:
        yield lines
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        for logger, (propagate, logger_level, disabled) in zip(served, kept, strict=True):
            logger.propagate, logger.disabled = propagate, disabled
            logger.setLevel(logger_level)


def test_every_answer_carries_a_request_id_and_a_forged_one_is_replaced(
        client: TestClient) -> None:
    made = client.get("/api/v1/games").headers["x-request-id"]
    assert len(made) == 16
    assert client.get("/api/v1/games", headers={"X-Request-ID": "lb-1234abcd"}
                      ).headers["x-request-id"] == "lb-1234abcd"
    forged = client.get("/api/v1/games", headers={"X-Request-ID": "x\" level=error"})
    assert forged.headers["x-request-id"] != "x\" level=error"


def test_a_log_line_written_in_a_request_names_it(no_database: TestClient,
                                                  json_lines: list[str]) -> None:
    answer = no_database.get("/api/v1/me", headers={"X-Request-ID": "probe-0001",
                                                   "Authorization": "Bearer sw_not-cached"})
    assert answer.status_code == 503  # the door's lookup fails, and the app logs a warning
    logging.getLogger("app.probe").info("outside any request")
    records = [json.loads(line) for line in json_lines]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert records[-1]["message"] == "outside any request" and "request_id" not in records[-1]
    in_request = [r for r in records if r.get("request_id") == "probe-0001"]
    assert any("database unavailable" in r["message"] for r in in_request), records


def test_a_town_game_logs_no_secret(client: TestClient, json_lines: list[str]) -> None:
    players = [make_guest(client, name) for name in ("Aiko", "Bo")]
    match = client.post("/api/v1/matches", headers=players[0],
                        json={"game": "town", "players": 2, "seat": 0}).json()
    client.post(f"/api/v1/matches/{match['id']}/join", headers=players[1]).raise_for_status()
    for _ in range(6):
        state = client.get(f"/api/v1/matches/{match['id']}", headers=players[0]).json()
        mover = players[state["to_move"]]
        mine = client.get(f"/api/v1/matches/{match['id']}", headers=mover).json()
        client.post(f"/api/v1/matches/{match['id']}/moves", headers=mover,
                    json={"move": mine["legal_moves"][0], "ply": mine["ply"]}).raise_for_status()
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        seed = session.scalar(select(Match.seed).where(Match.id == match["id"]))
    text = "\n".join(json_lines)
    assert json_lines
    secrets = [headers["Authorization"].split()[1] for headers in players] + [str(seed)]
    assert not [secret for secret in secrets if secret in text]


def test_a_token_quoted_in_a_message_is_blanked(json_lines: list[str]) -> None:
    """uvicorn logs a socket's URL with its query string: the token must not reach the line."""
    token = "sw_YejjBfaECxkcWmH2Xl1PrMGSXfR58FNnd51mm_OvhJQ"
    logging.getLogger("uvicorn.error").info(
        '%s - "WebSocket %s" [accepted]', "127.0.0.1:0", f"/api/v1/matches/m1/ws?token={token}")
    logging.getLogger("app").info("bearer %s in a message", token)
    written = "\n".join(json_lines)
    assert token not in written and "sw_YejjBfaE" not in written
    assert "token=[redacted]" in written and "/api/v1/matches/m1/ws" in written
