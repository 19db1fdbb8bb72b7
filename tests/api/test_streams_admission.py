"""Open streams are long-lived: they must not use up the server's admission limit."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.api.live import StreamReader, guest, live_server


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
