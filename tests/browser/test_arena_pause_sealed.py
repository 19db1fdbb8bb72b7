"""Issue-21 pages in the browser, at 375 and 1366 px in English and Japanese:
- an arena player pauses from the tournament page (the note and the standings' badge appear,
  the pairing stops) and comes back;
- a duplicate round's table seen from outside says it is sealed until the round ends;
- a finished tournament game leads back to its tournament (no rematch);
- the create form makes a Swiss with days per move (never an arena)."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.browser.conftest import screenshot
from tests.browser.screens import EACH_WIDTH_AND_LANGUAGE
from tests.browser.test_tournament_page import log_in
from tests.live.helpers import account, guest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_an_arena_player_pauses_and_comes_back(live_server: str, new_page, width: int,  # type: ignore[no-untyped-def]
                                               lang: str) -> None:
    host = account(live_server, f"ah{width}{lang}")
    player = f"ap{width}{lang}"
    account(live_server, player)
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": f"Arena {width} {lang}", "kind": "arena", "game": "sight", "minutes": 30,
        "time_control": {"kind": "realtime", "minutes": 3, "increment": 2},
        "starts_at": "2099-01-01T10:00:00Z"}).json()
    url = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    httpx.post(f"{url}/join", headers=host).raise_for_status()

    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    log_in(page, live_server, player)
    page.goto(f"{live_server}/lang/{lang}?next=/tournaments/{tournament['id']}")
    page.locator("#join-button").click()
    page.locator("#withdraw-button").wait_for()
    assert page.locator("#pause-button").is_hidden()  # not before the arena runs
    httpx.post(f"{url}/start", headers=host).raise_for_status()
    page.locator("#pairings a[href^='/m/']").wait_for(timeout=15000)
    page.locator("#pause-button").click()
    page.locator("#paused-note").wait_for()
    page.locator("#standings tr.me .paused-badge").wait_for()
    assert page.locator("#resume-button").is_visible()
    assert page.locator("#pause-button").is_hidden()
    assert httpx.get(url).json()["standings"][0]["paused"] in (True, False)
    screenshot(page, f"arena-paused-{width}-{lang}")
    page.locator("#resume-button").click()
    page.locator("#pause-button").wait_for()
    assert page.locator("#paused-note").is_hidden()
    assert page.locator("#standings .paused-badge").count() == 0
    assert not page.js_errors


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_a_sealed_table_says_so(live_server: str, new_page, width: int,  # type: ignore[no-untyped-def]
                                lang: str) -> None:
    host = account(live_server, f"dh{width}{lang}")
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": f"Duplicate {width} {lang}", "kind": "duplicate", "game": "town", "rounds": 1,
        "starts_at": "2099-01-01T10:00:00Z"}).json()
    url = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    seated = [guest(live_server, f"D{i}") for i in range(2)]
    for headers in seated:
        httpx.post(f"{url}/join", headers=headers).raise_for_status()
    httpx.post(f"{url}/start", headers=host).raise_for_status()
    deadline = time.monotonic() + 15
    while not (games := httpx.get(url, headers=seated[0]).json()["games"]):
        assert time.monotonic() < deadline, "the job did not pair the round"
        time.sleep(0.2)
    match_id = games[0]["match_id"]  # a seated player sees the link; the visitor below does not
    assert match_id and httpx.get(url).json()["games"][0]["match_id"] is None
    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    page.goto(f"{live_server}/lang/{lang}?next=/m/{match_id}")
    sealed = "ラウンドが終わるまで非公開" if lang == "ja" else "sealed until the round ends"
    page.locator(".error-message", has_text=sealed).wait_for()
    screenshot(page, f"sealed-table-{width}-{lang}")
    page.locator(f"a[href='/tournaments/{tournament['id']}']").click()  # the way back
    page.locator("#standings tbody tr").first.wait_for()
    assert not page.js_errors


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_a_finished_tournament_game_leads_back_to_its_tournament(  # type: ignore[no-untyped-def]
        live_server: str, new_page, width: int, lang: str) -> None:
    """No rematch after a tournament game (a duplicate table's rematch would replay the round's
    deal in the open): the way back to the tournament instead."""
    host = account(live_server, f"rh{width}{lang}")
    player = f"rp{width}{lang}"
    headers = account(live_server, player)
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": f"Cup {width} {lang}", "kind": "swiss", "game": "sight", "rounds": 1,
        "starts_at": "2099-01-01T10:00:00Z"}).json()
    url = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    for who in (host, headers):
        httpx.post(f"{url}/join", headers=who).raise_for_status()
    httpx.post(f"{url}/start", headers=host).raise_for_status()
    deadline = time.monotonic() + 15
    while not (games := httpx.get(url, headers=headers).json()["games"]):
        assert time.monotonic() < deadline, "the job did not pair the round"
        time.sleep(0.2)
    match_id = games[0]["match_id"]
    httpx.post(f"{live_server}/api/v1/matches/{match_id}/resign", headers=host).raise_for_status()
    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    log_in(page, live_server, player)
    page.goto(f"{live_server}/lang/{lang}?next=/m/{match_id}")
    back = page.locator("[data-action=back-to-tournament]")
    back.wait_for()
    assert page.locator("[data-action=offer-rematch]").count() == 0
    screenshot(page, f"tournament-game-over-{width}-{lang}")
    back.click()
    page.wait_for_url(f"**/tournaments/{tournament['id']}")
    assert not page.js_errors


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_a_swiss_with_days_per_move_from_the_form(live_server: str, new_page, width: int,  # type: ignore[no-untyped-def]
                                                  lang: str) -> None:
    """The create form offers correspondence clocks (days per move) for Swiss and duplicate
    events, never for an arena (which runs on a real-time clock)."""
    maker = f"cm{width}{lang}"
    account(live_server, maker)
    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    log_in(page, live_server, maker)
    page.goto(f"{live_server}/lang/{lang}?next=/tournaments")
    page.locator("#create-tournament summary").click()
    form = page.locator("#tournament-form")
    form.locator("select[name=kind]").select_option("arena")
    assert form.locator("option[value='d:3']").is_disabled()
    form.locator("select[name=kind]").select_option("swiss")
    assert form.locator("option[value='d:3']").is_enabled()
    form.locator("input[name=name]").fill(f"Slow Swiss {width} {lang}")
    form.locator("select[name=clock]").select_option("d:3")
    screenshot(page, f"tournament-form-days-{width}-{lang}")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/tournaments/*")
    tournament_id = page.url.rsplit("/", 1)[1]
    shown = "1手3日" if lang == "ja" else "3 d/move"
    page.locator(".tournament-head", has_text=shown).wait_for()
    control = httpx.get(f"{live_server}/api/v1/tournaments/{tournament_id}").json()["time_control"]
    assert (control["kind"], control["days"]) == ("correspondence", 3)
    screenshot(page, f"tournament-days-{width}-{lang}")
    assert not page.js_errors


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_an_arena_player_goes_berserk_from_the_tournament_page(  # type: ignore[no-untyped-def]
        live_server: str, new_page, width: int, lang: str) -> None:
    host = account(live_server, f"bh{width}{lang}")
    player = f"bp{width}{lang}"
    account(live_server, player)
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": f"Berserk {width} {lang}", "kind": "arena", "game": "sight", "minutes": 30,
        "time_control": {"kind": "realtime", "minutes": 3, "increment": 2},
        "starts_at": "2099-01-01T10:00:00Z"}).json()
    url = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    httpx.post(f"{url}/join", headers=host).raise_for_status()
    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    log_in(page, live_server, player)
    page.goto(f"{live_server}/lang/{lang}?next=/tournaments/{tournament['id']}")
    page.locator("#join-button").click()
    page.locator("#withdraw-button").wait_for()
    httpx.post(f"{url}/start", headers=host).raise_for_status()
    button = page.locator("[data-action=berserk]")
    button.wait_for(timeout=15000)  # only on one's own game in play
    assert button.count() == 1
    screenshot(page, f"arena-berserk-button-{width}-{lang}")
    button.click()
    page.locator("#pairings .berserk-badge").wait_for()
    assert page.locator("[data-action=berserk]").count() == 0
    seats = httpx.get(url).json()["games"][0]["seats"]
    assert [s["user"]["name"] for s in seats if s["berserk"]] == [player]
    screenshot(page, f"arena-berserk-{width}-{lang}")
    assert not page.js_errors


@pytest.mark.parametrize(("width", "lang"), EACH_WIDTH_AND_LANGUAGE)
def test_a_finished_sealed_table_waits_for_the_round_before_its_analysis(  # type: ignore[no-untyped-def]
        live_server: str, new_page, width: int, lang: str) -> None:
    """Its own player sees the finished table, but its analysis (the whole deal) waits until
    the round has ended at every table; then the page offers it, live."""
    host = account(live_server, f"wh{width}{lang}")
    names = [f"w{i}{width}{lang}" for i in range(5)]
    players = {name: account(live_server, name) for name in names}
    tournament = httpx.post(f"{live_server}/api/v1/tournaments", headers=host, json={
        "name": f"Sealed {width} {lang}", "kind": "duplicate", "game": "town", "rounds": 1,
        "starts_at": "2099-01-01T10:00:00Z"}).json()
    url = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    for headers in players.values():
        httpx.post(f"{url}/join", headers=headers).raise_for_status()
    httpx.post(f"{url}/start", headers=host).raise_for_status()
    tables: dict[str, list[str]] = {}
    deadline = time.monotonic() + 15
    while sum(len(seated) for seated in tables.values()) < len(players):
        assert time.monotonic() < deadline, "the job did not pair the round"
        time.sleep(0.2)
        tables.clear()
        for name, headers in players.items():
            mine = [g for g in httpx.get(url, headers=headers).json()["games"] if g["match_id"]]
            if mine:
                tables.setdefault(mine[0]["match_id"], []).append(name)
    (pair_id, pair), (trio_id, trio) = sorted(tables.items(), key=lambda item: len(item[1]))
    assert len(pair) == 2 and len(trio) == 3
    base = f"{live_server}/api/v1/matches"
    httpx.post(f"{base}/{pair_id}/resign", headers=players[pair[0]]).raise_for_status()

    page = new_page(width=width, locale="ja-JP" if lang == "ja" else "en-GB")
    log_in(page, live_server, pair[1])
    page.goto(f"{live_server}/lang/{lang}?next=/m/{pair_id}")
    page.locator("#analysis-sealed").wait_for()
    assert page.locator("#analysis-request").count() == 0
    screenshot(page, f"sealed-table-own-analysis-{width}-{lang}")
    for name in trio[:2]:  # the other table ends: the round is over everywhere
        httpx.post(f"{base}/{trio_id}/resign", headers=players[name]).raise_for_status()
    page.locator("#analysis-request").wait_for(timeout=15000)  # opened live
    assert page.locator("#analysis-sealed").count() == 0
    assert not page.js_errors
