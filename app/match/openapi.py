"""The games' part of the OpenAPI document, read from each game's own folder: its options and
its view (the position a seat sees) as components, the per-game rules of every request that
names a game, and the view of every answer that carries one.

Models mark what this completes, so the schemas need not know the games:

- ``GAME_RULES`` on a request model (``json_schema_extra``), or on one of its alternatives
  (``app.http.schemas.Alternative.marks``): one ``oneOf`` branch per game, fixing ``options``
  to that game's options and ``players`` to its player counts;
- ``GAME_VIEW`` on a field: the view of whichever game the object belongs to, one of the
  games' view schemas chosen by its ``game`` field, with a real example from each game.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from app.http.schemas import Alternative, one_of
from app.kernel.json_types import JSONObject
from games import Game, registry

GAME_RULES = "x-game-rules"
GAME_VIEW = "x-game-view"
REF = "#/components/schemas/{model}"
SECRET = "secret"
SECRET_NOTE = ("Fixes hidden information: never shown to the other players, and refused in rated "
               "games.")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _add_components(components: dict[str, Any], games: list[Game]) -> None:
    """Each game's options and view models (and what they refer to) as components."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (game.options, "validation") for game in games]
    models += [(game.view_model, "serialization") for game in games if game.view_model]
    _, found = models_json_schema(models, ref_template=REF)
    for name, schema in found.get("$defs", {}).items():
        if components.get(name, schema) != schema:
            raise ValueError(f"two different schemas are named {name!r}")
        components[name] = schema
    for game in games:
        for option in components[game.options.__name__].get("properties", {}).values():
            if option.pop(SECRET, False):  # not a JSON Schema keyword: an extension
                option["x-secret"] = True
                option.setdefault("description", SECRET_NOTE)
        if game.view_model is not None:
            components[game.view_model.__name__].setdefault("examples", [game.example_view()])


def _fixed_for(game: Game, properties: dict[str, Any]) -> dict[str, Any]:
    """The property schemas a body naming ``game`` must meet: its id, its options and its
    player counts (each still nullable where the body's own property is)."""
    fixed: dict[str, Any] = {"game": {"type": "string", "const": game.id}}
    for name, schema in (("options", _ref(game.options.__name__)),
                         ("players", {"type": "integer", "minimum": game.min_players,
                                      "maximum": game.max_players})):
        if name in properties:
            nullable = {"type": "null"} in properties[name].get("anyOf", [])
            fixed[name] = {"anyOf": [schema, {"type": "null"}]} if nullable else schema
    return fixed


def _rules(schema: dict[str, Any], games: list[Game]) -> list[Alternative]:
    """One alternative per game, named after the game and the body."""
    properties = schema.get("properties", {})
    return [Alternative(f"{_class_name(game)}{schema.get('title', '')}",
                        fixes=_fixed_for(game, properties)) for game in games]


def _per_game(branches: list[dict[str, Any]], games: list[Game]) -> list[dict[str, Any]]:
    """``oneOf`` branches with each branch marked ``GAME_RULES`` split into one per game."""
    found = []
    for branch in branches:
        if not branch.pop(GAME_RULES, False):
            found.append(branch)
            continue
        for game in games:
            properties = {**branch["properties"], **_fixed_for(game, branch["properties"])}
            found.append({**branch, "title": f"{_class_name(game)}{branch.get('title', '')}",
                          "properties": properties})
    return found


def _class_name(game: Game) -> str:
    return "".join(part.title() for part in game.id.replace("-", "_").split("_"))


def _view(games: list[Game], description: str) -> dict[str, Any]:
    """The view of any game: one of the games' view schemas, by its ``game`` field (an object,
    when some game publishes no view model)."""
    if any(game.view_model is None for game in games):
        return {"type": "object", "additionalProperties": True, "description": description}
    names = {game.id: game.view_model.__name__ for game in games if game.view_model}
    return {
        "description": description,
        "oneOf": [_ref(name) for name in names.values()],
        "discriminator": {"propertyName": "game", "mapping": {
            game_id: REF.format(model=name) for game_id, name in names.items()}},
    }


def game_schemas(doc: JSONObject) -> None:
    """Complete ``doc`` (the OpenAPI document) with the registered games."""
    games = registry.all_games()
    components: dict[str, Any] = doc.setdefault("components", {}).setdefault("schemas", {})
    _add_components(components, games)
    for schema in list(components.values()):
        if schema.pop(GAME_RULES, False):
            one_of(schema, _rules(schema, games))
        elif "oneOf" in schema:
            schema["oneOf"] = _per_game(schema["oneOf"], games)
        for name, field in schema.get("properties", {}).items():
            if field.pop(GAME_VIEW, False):
                schema["properties"][name] = _view(games, field.get("description", ""))
