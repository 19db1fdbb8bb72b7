"""The domains meet through typed values: every name a domain's entry module exports, and every
public function and method of the service modules the routes call, takes and returns pydantic
models, dataclasses, TypedDicts or plain types — no ``Any`` and no ``dict[str, Any]`` in their
signatures. ``JSONObject`` (app/kernel/json_types.py) is the one allowed loose shape: a JSON
object whose shape a game or a client decides."""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Iterator

import pytest

DOMAINS = ["accounts", "analysis", "chat", "jobs", "lobby", "match", "moderation", "notices",
           "people", "protocol", "site", "tournaments"]
SERVICES = ["app.accounts.tokens", "app.analysis.service", "app.chat.reports", "app.chat.service",
            "app.lobby.service", "app.match.playban", "app.match.service",
            "app.moderation.service", "app.people.bots", "app.people.profiles",
            "app.tournaments.service"]
"""Modules whose use cases the routes and pages call (beside the entry modules' names)."""

LOOSE = re.compile(r"\bAny\b")


def _text(annotation: object) -> str:
    if annotation is inspect.Parameter.empty:
        return ""
    return annotation if isinstance(annotation, str) else repr(annotation)


def _loose_parts(where: str, function: Callable[..., object]) -> Iterator[str]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature
        return
    for parameter in signature.parameters.values():
        if LOOSE.search(_text(parameter.annotation)):
            yield f"{where}({parameter.name}: {_text(parameter.annotation)})"
    if LOOSE.search(_text(signature.return_annotation)):
        yield f"{where} -> {_text(signature.return_annotation)}"


def _members(cls: type) -> Iterator[tuple[str, Callable[..., object]]]:
    """The public methods (and ``__init__``) that the app's own classes in ``cls``'s MRO define."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("app."):
            continue
        for name, member in vars(klass).items():
            if name.startswith("_") and name != "__init__":
                continue
            if isinstance(member, staticmethod | classmethod):
                member = member.__func__
            if isinstance(member, property):
                member = member.fget
            if inspect.isfunction(member):
                yield name, member


def _loose(where: str, value: object) -> Iterator[str]:
    if inspect.isclass(value) and value.__module__.startswith("app."):
        for name, member in _members(value):
            yield from _loose_parts(f"{where}.{name}", member)
    elif inspect.isfunction(value) and value.__module__.startswith("app."):
        yield from _loose_parts(where, value)


def _boundary() -> Iterator[tuple[str, object]]:
    for domain in DOMAINS:
        entry = importlib.import_module(f"app.{domain}")
        for name in entry.__all__:
            yield f"app.{domain}.{name}", getattr(entry, name)
    for module_name in SERVICES:
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module_name:
                yield f"{module_name}:{name}", value


def test_the_boundary_is_found() -> None:
    names = dict(_boundary())
    assert "app.match.MatchService" in names
    assert "app.lobby.LobbyService" in names
    assert "app.tournaments.service:TournamentService" in names


@pytest.mark.parametrize("loose", [
    "def f(x: dict[str, Any]) -> int: ...",
    "def f(x: int) -> list[dict[str, Any]]: ...",
    "def f(x: Any) -> int: ...",
])
def test_a_loose_signature_is_caught(loose: str) -> None:
    namespace: dict[str, object] = {}
    exec("from __future__ import annotations\nfrom typing import Any\n" + loose, namespace)
    function = namespace["f"]
    assert inspect.isfunction(function)
    assert list(_loose_parts("f", function))


def test_domain_boundaries_are_typed() -> None:
    loose = sorted({part for where, value in _boundary() for part in _loose(where, value)})
    assert not loose, "Any at a domain boundary (type it, or JSONObject for a game's shape):\n" + (
        "\n".join(loose))
