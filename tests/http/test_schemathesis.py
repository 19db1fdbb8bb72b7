"""Schemathesis over the whole OpenAPI document, against a live server seeded with real accounts,
matches in every state, seeks, challenges, chat lines and tokens; any server error or answer that
does not conform to the document fails the suite.

The run is seeded and bounded (``MAX_SECONDS``), with every check on except where named below.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live.server import live_server

SEED = 20261123
MAX_SECONDS = 30
MAX_EXAMPLES = 6
SPARE_GUESTS = 120  # created first, so the fuzzer's own token id is far from small integers

# ensure_resource_availability ("a resource just created answers 404") is left out: a match just
# created has no analysis until someone requests one, so GET .../analysis answering 404
# ``no_analysis`` is the documented answer. Schemathesis's per-operation switch for the check
# does not reach its stateful phase, which met that link in some runs and not in others. That
# every created match, seek, token and tournament can be read back is the domains' tests' subject.
EXCLUDED_CHECKS: set[str] = {"ensure_resource_availability"}
# positive_data_acceptance: game rules decide what a schema-valid request may do (a legal move, a
# free seat, options that fit the game, a seat the user holds), so such requests are refused with
# 403/409/422 and a specific code. Those statuses are expected; a 400 or a 5xx still fails it.
POSITIVE_DATA_EXPECTED = ["2xx", "3xx", 401, 403, 404, 409, 422, 429]
# Operations left out: the NDJSON streams never end by design (a client follows them for the
# whole game); tests/notices/test_streams.py checks their lines against the message schemas.
EXCLUDED_PATHS = r"/stream"


def seed(base: str) -> dict[str, Any]:
    """Accounts, guests, matches waiting/active/finished/aborted, seeks, a challenge, chat lines,
    personal tokens; returns the identifiers and the fuzzer's bearer token."""
    with httpx.Client(base_url=base, timeout=20) as http:
        def post(path: str, token: str | None = None, **body: Any) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            response = http.post(path, json=body or None, headers=headers)
            assert response.status_code < 300, (path, response.text)
            return response.json() if response.content else None

        for i in range(SPARE_GUESTS):
            post("/api/v1/guests", name=f"Spare {i}")
        rival = post("/api/v1/accounts", username="rival", password="sesame123")
        fuzzer = post("/api/v1/accounts", username="fuzzer", password="sesame123", name="Fuzzer")
        guest = post("/api/v1/guests", name="Guest")
        me, other, third = fuzzer["token"], rival["token"], guest["token"]
        waiting = post("/api/v1/matches", me, game="stairs")
        town = post("/api/v1/matches", me, game="town", players=3)
        active = post("/api/v1/matches", me, game="stairs")
        post(f"/api/v1/matches/{active['id']}/join", other)
        for _ in range(4):
            state = http.get(f"/api/v1/matches/{active['id']}").json()
            mover = me if state["to_move"] == 0 else other
            mine = http.get(f"/api/v1/matches/{active['id']}",
                            headers={"Authorization": f"Bearer {mover}"}).json()
            post(f"/api/v1/matches/{active['id']}/moves", mover, move=mine["legal_moves"][0],
                 ply=mine["ply"])
        post(f"/api/v1/matches/{active['id']}/chat", me, room="players", text="Good luck!")
        lines = http.get(f"/api/v1/matches/{active['id']}/chat", params={"room": "players"},
                         headers={"Authorization": f"Bearer {me}"}).json()
        finished = post("/api/v1/matches", me, game="sight")
        post(f"/api/v1/matches/{finished['id']}/join", third)
        post(f"/api/v1/matches/{finished['id']}/resign", third)
        aborted = post("/api/v1/matches", me, game="scalas")
        post(f"/api/v1/matches/{aborted['id']}/join", other)
        post(f"/api/v1/matches/{aborted['id']}/abort", me)
        seek = post("/api/v1/seeks", other, game="sight")
        challenge = post("/api/v1/challenges", other, user="fuzzer", game="stairs")
        spare_token = post("/api/v1/tokens", me, description="spare", scopes=["read"])
        return {
            "token": me,  # the account's own login token: every operation is open to it
            "match_ids": [waiting["id"], town["id"], active["id"], finished["id"], aborted["id"]],
            "seek_ids": [seek["id"], challenge["id"]],
            "names": ["fuzzer", "rival", str(rival["user"]["id"]), str(guest["user"]["id"])],
            "user_ids": [rival["user"]["id"], guest["user"]["id"]],
            "line_ids": [line["id"] for line in lines] or [1],
            "token_ids": [spare_token["id"]],
        }


def config_text(seeded: dict[str, Any]) -> str:
    def values(items: list[Any]) -> str:
        return json.dumps(items)

    return f"""
seed = {SEED}
workers = 1  # two workers crash hypothesis's lambda repr on Python 3.11 (ast.parse in threads)
request-timeout = 15
max-time = {MAX_SECONDS}
headers = {{ Authorization = "Bearer {seeded['token']}" }}

[generation]
max-examples = {MAX_EXAMPLES}
no-shrink = true

[checks.positive_data_acceptance]
expected-statuses = {json.dumps(POSITIVE_DATA_EXPECTED)}

[dictionaries]
match_ids = {{ values = {values(seeded['match_ids'])} }}
seek_ids = {{ values = {values(seeded['seek_ids'])} }}
names = {{ values = {values(seeded['names'])} }}
games = {{ values = ["stairs", "sight", "scalas", "town"] }}
user_ids = {{ values = {values(seeded['user_ids'])} }}
line_ids = {{ values = {values(seeded['line_ids'])} }}
token_ids = {{ values = {values(seeded['token_ids'])} }}

[parameters]
"path.match_id" = {{ dictionary = "match_ids", probability = 0.8 }}
"path.seek_id" = {{ dictionary = "seek_ids", probability = 0.8 }}
"path.name" = {{ dictionary = "names", probability = 0.8 }}
"path.game" = {{ dictionary = "games", probability = 0.8 }}
"path.user_id" = {{ dictionary = "user_ids", probability = 0.8 }}
"path.line_id" = {{ dictionary = "line_ids", probability = 0.8 }}
"path.token_id" = {{ dictionary = "token_ids", probability = 1.0 }}

[[operations]]
include-path-regex = "{EXCLUDED_PATHS}"
enabled = false
"""


def run_schemathesis(base: str, config: Path, report: Path) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).with_name("schemathesis")), "--config-file", str(config),
               "run", f"{base}/openapi.json", "--checks", "all", "--no-color",
               "--report", "junit", "--report-junit-path", str(report)]
    if EXCLUDED_CHECKS:
        command += ["--exclude-checks", ",".join(sorted(EXCLUDED_CHECKS))]
    return subprocess.run(command, capture_output=True, text=True, timeout=MAX_SECONDS * 4,
                          check=False, cwd=config.parent)  # its cache folder goes there too


@pytest.mark.postgres
def test_schemathesis_finds_no_server_error_and_no_nonconformance(postgres_database_url: str,
                                                                   tmp_path: Path) -> None:
    """Against PostgreSQL, the production database (the API's answers do not depend on which
    database holds them; both databases' behaviour is the other tests' subject)."""
    with live_server(postgres_database_url, tmp_path, bots_enabled="false") as base:
        seeded = seed(base)
        config = tmp_path / "schemathesis.toml"
        config.write_text(config_text(seeded))
        result = run_schemathesis(base, config, tmp_path / "junit.xml")
    summary = result.stdout[-6000:]
    print(summary)
    assert result.returncode == 0, summary + result.stderr[-2000:]
    assert "passed" in result.stdout
