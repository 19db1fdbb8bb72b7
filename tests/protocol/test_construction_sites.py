"""Messages reach clients only through their models: no hand-written ``{"type": …}`` message and
no socket send outside ``app.realtime.messages.send`` (which mypy holds to a model or a Wire)."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"

BUS_ENVELOPES = {
    ("match/publish.py", "change"), ("match/publish.py", "record"),
    ("accounts/identity_cache.py", "forget_token"), ("accounts/identity_cache.py", "forget_session"),
    ("accounts/identity_cache.py", "forget_user"), ("accounts/identity_cache.py", "end_user"),
    ("analysis/routes.py", "requested"), ("realtime/redis_bus.py", "RESYNC"),
    ("db/one_hop.py", "http.response.start"), ("db/one_hop.py", "http.response.body"),
    ("match/move_lane.py", "http.response.start"), ("match/move_lane.py", "http.response.body"),
    ("site/pwa.py", "image/png"), ("http/paging.py", "string"),
    ("http/cors.py", "http.response.start"), ("http/cors.py", "http.response.body"),
}
"""Dicts with a ``type`` that are not client messages: the bus's own envelopes between the
server's processes (a match's record or public change, the identity caches' announcements, the
analysis queue's wake-up), ASGI events, the web app manifest's icons (a MIME type) and the
OpenAPI schema of the paged answers' ``Link`` header."""

SCHEMA_TYPES = {"string", "integer", "number", "boolean", "object", "array", "null", "http",
                "apiKey", "oauth2"}
"""Dicts whose ``type`` is a JSON Schema type or an OpenAPI security scheme's: pieces of the
OpenAPI document (app/http/openapi.py, the games' part, bodies with alternatives), no message."""

BUILDERS = {"model_validate", "model_construct"}


def _type_of(node: ast.Dict) -> str | None:
    for key, value in zip(node.keys, node.values, strict=True):
        if isinstance(key, ast.Constant) and key.value == "type":
            return value.value if isinstance(value, ast.Constant) else ast.unparse(value)
    return None


def _hand_written_messages(tree: ast.AST, name: str) -> list[str]:
    """``{"type": …}`` dict literals that are not handed straight to a model."""
    handed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in BUILDERS:
            handed.update(id(arg) for arg in node.args)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and id(node) not in handed:
            kind = _type_of(node)
            if kind is not None and (name, kind) not in BUS_ENVELOPES \
                    and kind not in SCHEMA_TYPES:
                found.append(f"{name}:{node.lineno} {kind}")
    return found


EXAMPLES = "protocol/catalog.py"
"""The published examples (a test validates each against its model)."""


def _sources() -> list[tuple[str, ast.AST]]:
    return [(name, ast.parse(path.read_text(), str(path))) for path in sorted(APP.rglob("*.py"))
            if (name := path.relative_to(APP).as_posix()) != EXAMPLES]


def test_no_message_is_a_hand_written_dict() -> None:
    found = [hit for name, tree in _sources() for hit in _hand_written_messages(tree, name)]
    assert not found, f"build these from their models (app/<package>/messages.py): {found}"


def test_sockets_send_only_through_the_typed_send() -> None:
    found = []
    for name, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("send_json", "send_text", "send_bytes") \
                    and name != "realtime/messages.py":
                found.append(f"{name}:{node.lineno} {node.func.attr}")
    assert not found, f"send a model or a Wire with app.realtime.messages.send: {found}"


def test_the_scan_finds_a_hand_written_message() -> None:
    tree = ast.parse('publish(c, {"type": "seeks", "seeks": []})\n'
                     'ok = SeeksMessage.model_validate({"type": "seeks", "seeks": []})\n')
    assert _hand_written_messages(tree, "lobby/service.py") == ["lobby/service.py:1 seeks"]
