"""A new match from a page form: the game's options, the seat wish and the clock, read from
form fields the same way on every page that offers a game."""

from __future__ import annotations

from typing import Any, TypedDict

from app.kernel import i18n
from app.kernel.json_types import JSONObject
from app.web.forms import form_int
from games import registry

OPTION_PREFIX = "opt_"

# The time controls offered in the forms: value -> (label, time control for the API).
CLOCK_PRESETS: dict[str, tuple[str, JSONObject | None]] = {
    "none": (i18n.N_("No clock"), None),
    "rt:3:2": ("3+2", {"kind": "realtime", "minutes": 3, "increment": 2}),
    "rt:5:3": ("5+3", {"kind": "realtime", "minutes": 5, "increment": 3}),
    "rt:10:5": ("10+5", {"kind": "realtime", "minutes": 10, "increment": 5}),
    "rt:15:10": ("15+10", {"kind": "realtime", "minutes": 15, "increment": 10}),
    "rt:30:0": ("30+0", {"kind": "realtime", "minutes": 30, "increment": 0}),
    "cp:1": (i18n.N_("1 day per move"), {"kind": "correspondence", "days": 1}),
    "cp:3": (i18n.N_("3 days per move"), {"kind": "correspondence", "days": 3}),
    "cp:7": (i18n.N_("7 days per move"), {"kind": "correspondence", "days": 7}),
    "cp:14": (i18n.N_("14 days per move"), {"kind": "correspondence", "days": 14}),
}


class OptionField(TypedDict):
    """One of a game's options as a form field (the pages' templates draw it)."""

    name: str
    kind: str  # select, checkbox or number
    title: str
    description: str
    choices: list[object]  # a select's values, as the game's schema lists them
    default: object
    choice_labels: list[str]
    minimum: int | None
    maximum: int | None


def option_fields(game_id: str) -> list[OptionField]:
    """Form fields for a game's options, derived from its options schema (arrays stay API-only)."""
    described = registry.get(game_id).describe()
    schema, defaults = described["options"], described["defaults"]
    fields: list[OptionField] = []
    for name, spec in schema.get("properties", {}).items():
        spec = _resolve(spec, schema)
        if "enum" in spec:
            kind = "select"
        elif spec.get("type") == "boolean":
            kind = "checkbox"
        elif spec.get("type") == "integer":
            kind = "number"
        else:
            continue
        title = i18n.option_label(registry.get(game_id), name, spec.get("title"))
        fields.append({"name": name, "kind": kind, "title": title,
                       "description": spec.get("description", ""),
                       "choices": spec.get("enum", []), "default": defaults.get(name),
                       "choice_labels": [i18n.choice_label(registry.get(game_id), choice)
                                         for choice in spec.get("enum", [])],
                       "minimum": spec.get("minimum"), "maximum": spec.get("maximum")})
    return fields


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in spec:
        resolved: dict[str, Any] = schema.get("$defs", {}).get(spec["$ref"].split("/")[-1], spec)
        return resolved
    if "anyOf" in spec:  # Optional[...] -> the non-null branch
        branches = [s for s in spec["anyOf"] if s.get("type") != "null"]
        return {**spec, **(branches[0] if len(branches) == 1 else {})}
    return spec


def options_from_form(game_id: str, form: JSONObject, prefix: str = "") -> JSONObject:
    """The game's options from a form's ``<prefix>opt_<name>`` fields (a form offering several
    games prefixes each game's fields with ``<game>:``)."""
    options: JSONObject = {}
    for field in option_fields(game_id):
        raw = form.get(prefix + OPTION_PREFIX + field["name"])
        if field["kind"] == "checkbox":
            options[field["name"]] = raw is not None
        elif raw is None or raw == "":
            continue
        elif field["kind"] == "select":
            matching = [c for c in field["choices"] if str(c) == raw]
            options[field["name"]] = matching[0] if matching else raw
        else:
            number = form_int(raw)
            options[field["name"]] = raw if number is None else number
    return options


def seat_from_form(form: JSONObject) -> int | str:
    raw = str(form.get("seat", "0"))
    number = form_int(raw, minimum=0)
    return "random" if raw == "random" else 0 if number is None else number


def clock_from_form(form: JSONObject) -> JSONObject | None:
    """The time control a form's ``clock`` preset stands for, as the API takes it."""
    return CLOCK_PRESETS.get(str(form.get("clock", "none")), CLOCK_PRESETS["none"])[1]
