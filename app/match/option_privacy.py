"""Options that fix hidden information (a deal, a deck order, a seed) stay on the server.

A game declares such an option secret in its options model:
``Field(default=None, json_schema_extra={"secret": True})``. The site then
- leaves secret options out of every payload (match, seek, live list, records): ``public_options``;
- refuses them in rated games, where a fixed deal would let its author know the others' cards:
  ``refuse_secret_options_in_rated``.
A game with hidden information that declares nothing keeps only options left at their default in
public, since any other value there might fix a deal.

A casual game may have a fixed deal, but never in secret: its seek, challenge and match say that
the creator fixed it (``fixed_deal``, without saying how), and its rematch is dealt afresh.
"""

from __future__ import annotations

import weakref
from typing import Any, TypedDict

from app.kernel import i18n
from app.kernel.errors import Invalid
from app.kernel.json_types import JSONObject
from games import Game, registry

FIXED_DEAL_NOTE = i18n.N_("Its creator fixed the deal (start cards or the order of a deck), so "
                          "they may know cards that you cannot see.")
"""The words of the disclosure (English in the API; pages and scripts show them translated)."""


_FACTS: weakref.WeakKeyDictionary[Game, tuple[frozenset[str], dict[str, Any]]] = \
    weakref.WeakKeyDictionary()
"""Per game: its secret option names and its options' defaults (as JSON). Both are fixed for a
game object and every match payload asks for them (twice a move), so they are read from the
game's options model once (a game registered at run time is a new object: read afresh)."""


def _facts(game: Game) -> tuple[frozenset[str], dict[str, Any]]:
    found = _FACTS.get(game)
    if found is None:
        names = set(getattr(game, "secret_options", None) or ())
        for name, field in game.options.model_fields.items():
            extra = field.json_schema_extra
            if isinstance(extra, dict) and extra.get("secret"):
                names.add(name)
        found = _FACTS[game] = (frozenset(names), game.options().model_dump(mode="json"))
    return found


def secret_option_names(game: Game) -> frozenset[str]:
    """The options the game marks ``secret`` (or lists in a ``secret_options`` attribute)."""
    return _facts(game)[0]


def _defaults(game: Game) -> dict[str, Any]:
    """The game's options left at their defaults, as stored (read only: shared)."""
    return _facts(game)[1]


def _game(game: Game | str) -> Game | None:
    if not isinstance(game, str):
        return game
    try:
        return registry.get(game)
    except registry.UnknownGame:
        return None


def public_options(game: Game | str, options: JSONObject | None) -> JSONObject:
    """The options anyone may see: secret ones left out (whether set or not, so their absence
    tells nothing)."""
    options = dict(options or {})
    found = _game(game)
    if found is None:
        return {}
    secret = secret_option_names(found)
    if secret or not found.hidden_information:
        return {k: v for k, v in options.items() if k not in secret}
    defaults = _defaults(found)
    return {k: v for k, v in options.items() if k in defaults and v == defaults[k]}


def secret_options_set(game: Game | str, options: JSONObject | None) -> list[str]:
    """The secret options given a value other than their default (e.g. a fixed deal)."""
    found = _game(game)
    if found is None or not options:
        return []
    defaults = _defaults(found)
    return sorted(name for name in secret_option_names(found)
                  if name in options and options[name] != defaults.get(name))


def refuse_secret_options_in_rated(game: Game | str, options: JSONObject | None,
                                   rated: bool) -> None:
    """422 ``secret_options_in_rated`` for a rated game whose options fix hidden information."""
    if not rated:
        return
    names = secret_options_set(game, options)
    if names:
        raise Invalid(f"Rated games are dealt by the server: leave out {', '.join(names)}.",
                      code="secret_options_in_rated")


def has_fixed_deal(game: Game | str, options: JSONObject | None,
                   tournament: str | None = None) -> bool:
    """Whether a player chose hidden information: a tournament's deal is drawn by the server."""
    return tournament is None and bool(secret_options_set(game, options))


class FixedDeal(TypedDict):
    fixed_deal: bool
    fixed_deal_note: str | None


def fixed_deal_fields(game: Game | str, options: JSONObject | None) -> FixedDeal:
    """``fixed_deal`` and its words, for a seek or challenge."""
    fixed = has_fixed_deal(game, options)
    return {"fixed_deal": fixed, "fixed_deal_note": FIXED_DEAL_NOTE if fixed else None}


def without_fixed_deal(game: Game | str, options: JSONObject | None) -> JSONObject:
    """The options with every secret one dropped: the same game, dealt by the server."""
    found = _game(game)
    secret = secret_option_names(found) if found is not None else frozenset()
    return {k: v for k, v in (options or {}).items() if k not in secret}
