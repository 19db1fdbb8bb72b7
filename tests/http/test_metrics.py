"""``/metrics``: Prometheus text with requests by route template and status, moves' decision
time and open connections; only for callers on this host or a private network."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.conftest import make_guest, start_match


def _value(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)"
    found = re.search(pattern, text)
    return float(found.group(1)) if found else 0.0


def test_metrics_count_requests_by_route_and_time_moves(client: TestClient) -> None:
    before = client.get("/metrics").text
    for _ in range(3):
        assert client.get("/api/v1/games").status_code == 200
    assert client.get("/api/v1/matches/nosuchmatch").status_code == 404
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    match = start_match(client, alice, bob)
    move = client.get(f"/api/v1/matches/{match['id']}", headers=alice).json()["legal_moves"][0]
    assert client.post(f"/api/v1/matches/{match['id']}/moves", headers=alice,
                       json={"move": move, "ply": 0}).status_code == 200
    after = client.get("/metrics")
    assert after.status_code == 200 and after.headers["content-type"].startswith("text/plain")
    text = after.text
    games = dict(method="GET", route="/api/v1/games", status="200")
    assert _value(text, "stepwell_http_requests_total", **games) - _value(
        before, "stepwell_http_requests_total", **games) == 3
    missing = dict(method="GET", route="/api/v1/matches/{match_id}", status="404")
    assert _value(text, "stepwell_http_requests_total", **missing) >= 1  # a template, not the id
    assert "nosuchmatch" not in text
    assert _value(text, "stepwell_move_commit_seconds_count") > _value(
        before, "stepwell_move_commit_seconds_count")


def test_metrics_are_not_shown_to_the_internet(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app, client=("203.0.113.7", 4000)) as outsider:
        assert outsider.get("/metrics").status_code == 404
    with TestClient(app, client=("10.1.2.3", 4000)) as prometheus:
        assert prometheus.get("/metrics").status_code == 200
