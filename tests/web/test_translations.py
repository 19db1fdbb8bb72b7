"""Every string marked for translation in the templates and the app has a Japanese translation."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir

from app.web import i18n

ROOT = Path(__file__).resolve().parents[2]
METHODS = [("app/**.py", "python"), ("templates/**.html", "jinja2")]


def test_every_marked_string_is_translated_to_japanese() -> None:
    japanese = i18n.catalog("ja")
    marked = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), METHODS, keywords={"_": None, "N_": None, "gettext": None})
    }
    marked.discard("")
    missing = sorted(m for m in marked if m not in japanese)
    assert not missing, f"untranslated (run `make translations`, then translate): {missing}"


def test_script_messages_follow_the_language() -> None:
    token = i18n.current_language.set("ja")
    try:
        assert i18n.script_messages()["your_turn"] == "あなたの番です"
    finally:
        i18n.current_language.reset(token)
    assert i18n.script_messages()["your_turn"] == "Your turn"
