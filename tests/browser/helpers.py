"""Shared steps for the browser play tests: create and join a match through the UI, talk to the API
with a page's own cookies, and finish a game through the API."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx


def create_match(page, base: str, game: str, name: str, seat: str = "0",  # type: ignore[no-untyped-def]
                 players: int | None = None, options: dict[str, str] | None = None) -> str:
    """Fill the home page's create form for ``game`` as a new guest; returns the match id."""
    page.goto(base + "/")
    form = page.locator(f"#create-{game}")
    form.locator('input[name="name"]').fill(name)
    form.locator('select[name="seat"]').select_option(seat)
    if players is not None:
        form.locator('select[name="players"]').select_option(str(players))
    for field, value in (options or {}).items():
        form.locator(f'select[name="opt_{field}"]').select_option(value)
    form.locator('button[value="private"]').click()
    page.wait_for_url("**/m/*")
    page.wait_for_selector('#match[data-status="waiting"]')
    return page.url.rsplit("/", 1)[1].split("?")[0]


def join_match(page, url: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """Open the invite link as a new guest and press the join button."""
    page.goto(url)
    page.locator('.join-form input[name="name"]').fill(name)
    page.locator("#join-button").click()
    page.wait_for_selector("#match[data-ply]")


def api_client(base: str, page) -> httpx.Client:  # type: ignore[no-untyped-def]
    """An httpx client carrying the page's cookies and CSRF token (the same person as the page)."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    return httpx.Client(base_url=base, cookies=cookies, headers={"X-CSRF-Token": csrf})


def wait_ply(pages, ply: int) -> None:  # type: ignore[no-untyped-def]
    for page in pages:
        page.wait_for_selector(f'#match[data-ply="{ply}"]')


def play(client: httpx.Client, match_id: str, move: str, ply: int) -> dict[str, Any]:
    response = client.post(f"/api/v1/matches/{match_id}/moves", json={"move": move, "ply": ply})
    assert response.status_code == 200, response.text
    return response.json()


def finish_randomly(clients: dict[int, httpx.Client], match_id: str, seed: int,
                    stop=None) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Play random legal moves with the seat's own client until the game ends (or ``stop(state)``)."""
    rng = random.Random(seed)
    any_client = next(iter(clients.values()))
    state = any_client.get(f"/api/v1/matches/{match_id}").json()
    while state["status"] == "active" and not (stop and stop(state)):
        mine = clients[state["to_move"]].get(f"/api/v1/matches/{match_id}").json()
        state = play(clients[state["to_move"]], match_id, rng.choice(mine["legal_moves"]), mine["ply"])
    return state


def check_banners(pages_by_seat: dict[int, Any], spectator, names: list[str],  # type: ignore[no-untyped-def]
                  result: dict[str, Any]) -> None:
    """Every page shows the result banner with the winner's name (the winner's own page says
    "You win!" without it); players see You win / You lose."""
    winners = result["winners"]
    for seat, page in [*pages_by_seat.items(), (None, spectator)]:
        page.wait_for_selector('#match[data-status="finished"]')
        banner = page.locator("#result-banner")
        assert banner.is_visible()
        text = banner.inner_text()
        if len(winners) == 1 and seat == winners[0]:
            assert names[winners[0]] not in text, text
        elif len(winners) == 1:
            assert names[winners[0]] in text, text
        elif winners:
            assert all(names[w] in text for w in winners), text
    if len(winners) == 1:
        for seat, page in pages_by_seat.items():
            expected = "You win" if seat == winners[0] else "You lose"
            assert expected in page.locator("#result-banner").inner_text()


def has_class(name: str) -> re.Pattern[str]:
    """For ``expect(locator).to_have_class``: the class list contains ``name``."""
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


def show_final_position(page) -> None:  # type: ignore[no-untyped-def]
    """Once a finished game's replay bar has loaded, step to its end (the live final position).

    A finished page already shows the final position (test_play_scalas.py checks that); this
    makes the check independent of how the replay bar was left.
    """
    page.wait_for_selector("#replay:not([hidden])")
    page.locator('#replay [data-step="end"]').click()
    page.wait_for_function("() => !new URL(location.href).searchParams.has('ply')")
