"""Consequence previews: what a move would do, before it is played, as typed change items.

``State.preview(move, seat)`` answers with the view ``seat`` would get after the move (the moves
the rules then make by themselves played, as the server plays them) and a list of
:class:`Change` items: a ``kind`` (snake_case), the board cells or positions it concerns
(``targets``, named as the game's notation names them) and typed ``params``. Each item's
sentence is a template of the game's ``words.changes`` (English msgid, translated in the game's
``translations/<lang>.po``): :func:`sentence` fills it, translating the fields that are words
(``terms``) with the translation function it is given.

Pure, like every engine: the site only translates and serves what is computed here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Term = str | tuple[str, ...]


class Ended(Protocol):
    """What :func:`game_end` reads of a ``games.base.Result``."""

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def reason(self) -> str: ...

    @property
    def scores(self) -> tuple[float, ...] | None: ...

    @property
    def details(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Change:
    """One consequence of a move.

    ``kind``: what happens (a game's own vocabulary, e.g. Stairs ``lands``, Scalas ``forced``).
    ``targets``: the cells or positions it concerns, in the game's notation, in order.
    ``params``: its typed values (JSON: numbers, strings, lists, objects).
    ``wording``: the key of its sentence in the game's ``words.changes`` (default: ``kind``).
    ``fields``: values the sentence shows besides ``params`` (not sent as params).
    ``terms``: fields of the sentence that are words for people: English msgids of the game's
    words, translated when the sentence is built (a tuple is a list of words, joined).
    """

    kind: str
    targets: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    wording: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)
    terms: Mapping[str, Term] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The key of its sentence in the game's ``words.changes``."""
        return self.wording or self.kind

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "targets": list(self.targets), "params": dict(self.params)}


@dataclass(frozen=True)
class Preview:
    """A move's preview: the canonical move, the view after it, and its changes in order."""

    move: str
    view: dict[str, Any]
    changes: tuple[Change, ...]


def _shown(value: Any) -> str:
    """A field's value as a sentence shows it: lists joined by commas, nothing as a dash."""
    if value is None:
        return "—"
    if isinstance(value, list | tuple):
        return ", ".join(_shown(item) for item in value)
    return str(value)


def sentence(change: Change, template: str, translate: Callable[[str], str]) -> str:
    """``template`` (already in the reader's language) filled with the change's values, its
    ``terms`` translated with ``translate``."""
    values = {name: _shown(value) for name, value in change.params.items()}
    values |= {name: _shown(value) for name, value in change.fields.items()}
    for name, term in change.terms.items():
        words = (term,) if isinstance(term, str) else term
        values[name] = ", ".join(translate(word) for word in words)
    return template.format(**values)


def english(change: Change, templates: Mapping[str, str]) -> str:
    """The change's sentence in English, from a game's ``words.changes`` (tests, and engines
    used without the site)."""
    return sentence(change, templates[change.key], lambda word: word)


def passes(forced: Sequence[tuple[int, str]], name: Callable[[int], str],
           move: str = "pass") -> list[Change]:
    """A ``passes`` item for each forced pass (the game words it ``passes``: ``{player}``)."""
    return [Change("passes", params={"seat": seat}, terms={"player": name(seat)})
            for seat, played in forced if played == move]


def game_end(result: Ended | None, name: Callable[[int], str],
             reason_label: Callable[[str], str]) -> list[Change]:
    """A ``game_over`` item when the game is over (``result``): its winners and reason (the game
    words it ``game_over``: ``{winners}``, ``{reason}``; ``game_drawn`` when nobody wins)."""
    if result is None:
        return []
    params = {"winners": list(result.winners), "reason": result.reason,
              "scores": None if result.scores is None else list(result.scores)}
    if not result.winners:
        return [Change("game_over", params=params, wording="game_drawn",
                       terms={"reason": reason_label(result.reason)})]
    return [Change("game_over", params=params,
                   terms={"winners": tuple(name(seat) for seat in result.winners),
                          "reason": reason_label(result.reason)})]
