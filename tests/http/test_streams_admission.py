"""Open streams are long-lived: they must not use up the server's admission limit, and one token
may hold only so many (``max_streams_per_token``, streams and sockets together)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.live.doors import first_message, socket, socket_ends
from tests.live.helpers import StreamReader, guest, live_server


def test_open_streams_do_not_count_against_the_admission_limit(tmp_path: Path) -> None:
    with live_server(tmp_path, STEPWELL_BOTS_ENABLED="false",
                     STEPWELL_MAX_PENDING_REQUESTS="3") as base:
        readers = [StreamReader(f"{base}/api/v1/stream/event", guest(base, f"P{n}"))
                   for n in range(4)]
        try:
            assert all(reader.status == 200 for reader in readers)
            assert httpx.get(f"{base}/api/v1/games").status_code == 200
        finally:
            for reader in readers:
                reader.close()


def test_a_token_holds_a_limited_number_of_streams_and_sockets(tmp_path: Path) -> None:
    with live_server(tmp_path, STEPWELL_BOTS_ENABLED="false",
                     STEPWELL_MAX_STREAMS_PER_TOKEN="2") as base:
        alice = guest(base, "Alice")
        token = alice["Authorization"].split()[1]
        held = StreamReader(f"{base}/api/v1/stream/event", alice)
        try:
            with socket(base, "/api/v1/lobby/ws", token) as lobby:
                first_message(lobby)
                refused = httpx.get(f"{base}/api/v1/stream/event", headers=alice)
                assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
                assert int(refused.headers["retry-after"]) >= 1
                with socket(base, "/api/v1/live/ws", token) as third:
                    error = first_message(third)
                    assert error["code"] == "rate_limited"
                    ending = socket_ends(third, time.monotonic())
                    assert ending.code == 4429
                other = StreamReader(f"{base}/api/v1/stream/event", guest(base, "Bob"))
                assert other.status == 200, "another token has its own allowance"
                other.close()
            assert _eventually(lambda: _opens(f"{base}/api/v1/stream/event", alice)), (
                "a closed socket frees its place")
        finally:
            held.close()


def _opens(url: str, headers: dict[str, str]) -> bool:
    """Whether a stream opens (it is closed again at once)."""
    with httpx.stream("GET", url, headers=headers, timeout=5) as response:
        return response.status_code == 200


def _eventually(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
