"""The perfect-information games build a position's view once per state: a server shows every
position to both players and all spectators, so a view per seat was the views' CPU times three."""

from __future__ import annotations

import pytest

from games import registry

GAMES = ["stairs", "sight", "scalas"]


def _played(game: str, plies: int = 6):  # type: ignore[no-untyped-def]
    state = registry.get(game).new_state(players=2, seed=3)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(state.legal_moves()[0])
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_position_is_viewed_once_whoever_looks(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _played(game)
    cls = type(state)
    calls = []
    original = cls._position_view

    def counted(self):  # type: ignore[no-untyped-def]
        calls.append(self)
        return original(self)

    monkeypatch.setattr(cls, "_position_view", counted)
    views = [state.view(seat) for seat in (0, 1, None, 0)]
    assert len(calls) == 1
    nxt = state.play(state.legal_moves()[0])
    nxt.view(1)
    assert len(calls) == 2, "a new state builds its own view"
    assert [v["seat"] for v in views] == [0, 1, None, 0]
    assert all({k: v for k, v in view.items() if k not in ("seat", "your_colour")}
               == {k: v for k, v in views[0].items() if k not in ("seat", "your_colour")}
               for view in views)


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_view_is_its_own_dict(game: str) -> None:
    state = _played(game)
    mine = state.view(0)
    mine["seat"] = "changed"
    mine["extra"] = True
    assert state.view(1)["seat"] == 1 and "extra" not in state.view(1)
