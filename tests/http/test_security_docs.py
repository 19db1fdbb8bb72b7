"""docs/security.md lists every door with the scope the code declares: printed from the app, so
the docs cannot drift from what the gate enforces."""

from __future__ import annotations

from pathlib import Path

from app.http.inventory import markdown
from app.kernel.settings import Settings
from app.main import create_app

DOC = Path(__file__).resolve().parents[2] / "docs" / "security.md"
START, END = "<!-- doors: python scripts/doors.py -->\n", "<!-- /doors -->"


def test_the_security_page_lists_every_door_as_the_app_declares_it() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = text.split(START, 1)[1].split(END, 1)[0]
    assert documented == markdown(create_app(Settings(secret_key="docs"))), (
        "docs/security.md's door table is stale: paste `python scripts/doors.py` into it")
