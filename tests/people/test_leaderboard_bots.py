"""Bots are marked BOT on the leaderboard too (as on every page)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.db.models import Rating, User


def test_a_rated_bot_is_marked_bot_on_the_leaderboard(client: TestClient) -> None:
    with client.app.state.session_factory() as session:  # type: ignore[attr-defined]
        bot = User(name="Deep Stair", kind="bot", username="deepstair")
        person = User(name="Aiko", kind="account", username="aiko")
        session.add_all([bot, person])
        session.flush()
        session.add_all([Rating(user_id=bot.id, game="stairs", mu=30.0, sigma=2.0, games=20),
                         Rating(user_id=person.id, game="stairs", mu=28.0, sigma=2.0, games=20)])
        session.commit()
    page = client.get("/leaderboard?game=stairs").text
    rows = page.split("<tr>")[2:]
    assert "Deep Stair" in rows[0] and "BOT" in rows[0]
    assert "Aiko" in rows[1] and "BOT" not in rows[1]
