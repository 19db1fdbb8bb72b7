"""The rules pages keep the house conventions: one label for every decision the site made, and no
fake italics in Japanese (the sheets' own readers get 「」 or bold)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "templates" / "rules"
LABEL = {"en": "<strong>How Stepwell plays this rule", "ja": "<strong>Stepwellでの解釈"}
PAGES = sorted(RULES.glob("*_*.html"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_decision_box_carries_the_one_label(page: Path) -> None:
    language = page.stem.rsplit("_", 1)[1]
    text = page.read_text(encoding="utf-8")
    boxes = re.findall(r'<div class="decision">\s*(<strong>[^<]*)', text)
    assert boxes, "every rules page states at least one decision"
    assert all(box.startswith(LABEL[language]) for box in boxes), boxes


@pytest.mark.parametrize("page", [p for p in PAGES if p.stem.endswith("_ja")], ids=lambda p: p.stem)
def test_japanese_pages_use_no_italics_and_the_sheets_terms(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "<em>" not in text
    assert "このサイトの決" not in text and "当サイト" not in text
    for wrong in ("ステアーズ", "アルケルケ", "中島正浩"):
        assert wrong not in text
    assert "町" not in text.replace("港町", "")  # the town is 街 / 街並; a harbour town is 港町


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_figure_is_drawn_from_diagram_data(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "<svg" not in text and "<figure" not in text
