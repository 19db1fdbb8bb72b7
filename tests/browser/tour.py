"""One page of every kind, with the data behind it made through the API: a live match of each
game, a match waiting for its invitee, a finished game, a seek in the lobby, a tournament and a
profile. The accessibility test (tests/browser/test_accessibility.py) and the Lighthouse bench
(bench/lighthouse.py) walk the same pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx

from games import registry

PASSWORD = "correct horse"
TIMEOUT = 60  # seconds: a loaded machine's server may be slow to answer (a guard, not a timing)


@dataclass(frozen=True)
class Tour:
    """Paths by page name; ``host`` is the account that plays, hosts and owns every match."""

    host: str
    pages: dict[str, str]


def make_tour(base: str, prefix: str = "tour") -> Tour:
    """Create the data and return the pages (``prefix`` keeps names apart between runs)."""
    host_name, rival_name = f"{prefix}host", f"{prefix}rival"
    host, rival = _account(base, host_name), _account(base, rival_name)
    pages = {"home": "/", "watch": "/watch", "rules": "/rules", "leaderboard": "/leaderboard",
             "tournaments": "/tournaments", "daily": "/daily", "login": "/login", "signup": "/signup",
             "profile": f"/u/{host_name}", "tokens": "/account/tokens"}
    first = registry.ids()[0]
    pages["rules-game"] = f"/rules/{first}"
    pages["analysis-board"] = f"/analysis/{first}"
    for game in registry.ids():
        match = _post(base, "/api/v1/matches", host, {"game": game, "seat": 0})
        _post(base, f"/api/v1/matches/{match['id']}/join", rival, {})
        pages[f"match-{game}"] = f"/m/{match['id']}"
    finished = _post(base, "/api/v1/matches", host, {"game": first, "seat": 0})
    _post(base, f"/api/v1/matches/{finished['id']}/join", rival, {})
    _post(base, f"/api/v1/matches/{finished['id']}/resign", rival, {})
    pages["analysis"] = f"/m/{finished['id']}"
    waiting = _post(base, "/api/v1/matches", host, {"game": first, "seat": 0})
    pages["invite"] = f"/m/{waiting['id']}"
    _post(base, "/api/v1/seeks", rival, {"game": first})
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    cup = _post(base, "/api/v1/tournaments", host, {
        "name": f"{prefix} cup", "kind": "swiss", "game": first, "rounds": 1, "starts_at": later})
    _post(base, f"/api/v1/tournaments/{cup['id']}/join", host, {})
    _post(base, f"/api/v1/tournaments/{cup['id']}/join", rival, {})
    pages["tournament"] = f"/tournaments/{cup['id']}"
    return Tour(host=host_name, pages=pages)


def _account(base: str, username: str) -> dict[str, str]:
    token = _post(base, "/api/v1/accounts", {}, {"username": username, "password": PASSWORD})["token"]
    return {"Authorization": f"Bearer {token}"}


def _post(base: str, path: str, headers: dict[str, str], body: dict[str, object]) -> dict[str, str]:
    response = httpx.post(base + path, headers=headers, json=body, timeout=TIMEOUT)
    response.raise_for_status()
    return response.json()  # type: ignore[no-any-return]
