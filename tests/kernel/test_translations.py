"""Every string marked for translation in the templates and the app has a Japanese translation."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from app.kernel import i18n
from games import Game, registry

ROOT = Path(__file__).resolve().parents[2]
METHODS = [("app/**.py", "python"), ("templates/**.html", "jinja2"), ("static/**.js", "javascript")]


def test_every_marked_string_is_translated_to_japanese() -> None:
    japanese = i18n.catalog("ja")
    marked = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), METHODS, keywords={"_": None, "N_": None, "gettext": None, "t": None},
            options_map={"static/**.js": {"parse_template_string": "true"}})
    }
    marked.discard("")
    missing = sorted(m for m in marked if m not in japanese)
    assert not missing, f"untranslated (run `make translations`, then translate): {missing}"


def test_script_messages_follow_the_language() -> None:
    from app.web import script_words

    token = i18n.current_language.set("ja")
    try:
        assert script_words.catalog([])["Your turn"] == "あなたの番です"
    finally:
        i18n.current_language.reset(token)
    assert "Your turn" not in script_words.catalog([])  # English: the msgid itself


def test_script_words_reach_the_page_in_its_language() -> None:
    """A board's words (static/games/<id>/*.js) are embedded translated for the page that draws it."""
    from app.web import script_words

    token = i18n.current_language.set("ja")
    try:
        words = script_words.catalog(["sight"])
        assert words["Place a piece on any empty point."] == "空いている点をひとつ選んで駒を置きます。"
        assert "Offer cards" not in words  # another game's words stay off this page
        assert script_words.catalog([])["Your turn"] == "あなたの番です"
    finally:
        i18n.current_language.reset(token)
    assert script_words.catalog(["sight"]) == {}  # English needs no catalog: msgids are English


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_every_word_of_every_game_is_translated_to_japanese(game: Game) -> None:
    """A game's words live in its folder: marked with N_ there, translated in its own .po."""
    japanese = i18n.game_catalog(game, "ja")
    marked = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(game.folder()), [("**.py", "python")], keywords={"N_": None})
    }
    words = set(game.words.all())
    assert words <= marked, f"words not marked with N_: {sorted(words - marked)}"
    missing = sorted(m for m in marked if m not in japanese)
    assert not missing, f"untranslated (run `make translations`, then translate): {missing}"


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_game_titles_options_and_reasons_come_out_in_japanese(game: Game) -> None:
    japanese = i18n.game_catalog(game, "ja")
    token = i18n.current_language.set("ja")
    try:
        assert i18n.gettext(game.title) == japanese[game.title]
        for name, label in game.words.options.items():
            assert i18n.gettext(i18n.option_label(game, name)) == japanese[label]
        for code, label in game.words.reasons.items():
            assert i18n.reason_label(game.id, code) == japanese[label]
    finally:
        i18n.current_language.reset(token)
    for code, label in game.words.reasons.items():
        assert i18n.reason_label(game.id, code) == label


def test_a_reason_stored_by_an_older_version_still_gets_its_label() -> None:
    stairs = registry.get("stairs")
    assert stairs.reason_label("highest piece") == stairs.reason_label("highest_piece")
    assert i18n.reason_label("stairs", "resignation") == "resignation"
    assert i18n.reason_label("no-such-game", "x") == "x"


def test_the_extractor_sees_every_script_msgid() -> None:
    """Babel's JavaScript extractor misses some calls (e.g. a second t() inside one template
    literal); a msgid it misses would silently stay English, so every literal must be found."""
    import re

    from app.web import script_words

    literal = re.compile(r"""(?<![\w$.])(?:t|N_)\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]""")
    missed = {}
    for path in sorted((ROOT / "static").rglob("*.js")):
        code = re.sub(r"(?m)^\s*//.*$", "", path.read_text(encoding="utf-8"))  # comments
        written = {match.group(1) for match in literal.finditer(code)}
        if written - set(script_words._msgids(path)):
            missed[str(path.relative_to(ROOT))] = sorted(written - set(script_words._msgids(path)))
    assert not missed, f"not extracted (move the call out of the template literal): {missed}"


def test_every_plural_has_its_japanese_forms_and_counts_choose_the_form() -> None:
    plurals = {
        message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), METHODS, keywords={"ngettext": (1, 2), "nt": (1, 2)},
            options_map={"static/**.js": {"parse_template_string": "true"}})
        if isinstance(message, tuple)
    }
    assert {"%(num)s game played", "{n} blunder"} <= plurals
    japanese = i18n.plural_catalog("ja")
    missing = sorted(p for p in plurals if p not in japanese)
    assert not missing, f"no Japanese plural forms: {missing}"
    token = i18n.current_language.set("en")
    try:
        shown = [i18n.ngettext("%(num)s game played", "%(num)s games played", n) for n in (0, 1, 2)]
        assert shown == ["%(num)s games played", "%(num)s game played", "%(num)s games played"]
    finally:
        i18n.current_language.reset(token)
    token = i18n.current_language.set("ja")
    try:
        assert i18n.ngettext("%(num)s game played", "%(num)s games played", 1) == "%(num)s局対局"
        from app.web import script_words

        assert script_words.catalog([])["{n} blunder" + script_words.PLURAL_KEY] == "大悪手{n}回"
    finally:
        i18n.current_language.reset(token)
