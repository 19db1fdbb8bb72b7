"""The served OpenAPI document is one generators and linters can use: each operation's security
is its door's, streams declare their lines, every answer is typed, model titles are unique, the
validation rules are in the schema, and Redocly's recommended rules find no error."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from app.http.doors import door_needs
from app.http.inventory import walk_routes
from app.http.openapi import NDJSON, security_requirement
from app.kernel.settings import Settings
from app.main import create_app
from app.protocol.messages import EventStreamMessage, MatchStreamMessage
from games import registry
from tests.conftest import make_guest

ROOT = Path(__file__).resolve().parents[2]
REDOCLY = ROOT / "node_modules" / ".bin" / "redocly"
SCHEMAS = "#/components/schemas/"


@pytest.fixture(scope="module")
def bare_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("openapi") / "openapi.db"
    return create_app(Settings(database_url=f"sqlite:///{path}", secret_key="openapi",
                               bots_enabled=False))


@pytest.fixture(scope="module")
def doc(bare_app: Any) -> dict[str, Any]:
    """The document of an app with no database behind it (building it reads none)."""
    with TestClient(bare_app) as client:
        served = client.get("/openapi.json")
    assert served.status_code == 200
    return served.json()  # type: ignore[no-any-return]


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, operation) for path, item in doc["paths"].items()
            for method, operation in item.items()]


def schema(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return doc["components"]["schemas"][name]  # type: ignore[no-any-return]


def test_each_operation_requires_what_its_door_declares(bare_app: Any,
                                                        doc: dict[str, Any]) -> None:
    schemes = doc["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    assert schemes["session"]["in"] == "cookie"
    checked = 0
    for route, path in walk_routes(bare_app.routes):
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        needs = door_needs(route.dependant)
        assert needs is not None, path
        for method in route.methods:
            declared = doc["paths"][path][method.lower()]["security"]
            assert declared == security_requirement(*needs)
            checked += 1
    assert checked == len(operations(doc))
    paths = doc["paths"]
    assert paths["/api/v1/matches/{match_id}/moves"]["post"]["security"] == [
        {"bearer": ["play"]}, {"oauth": ["play"]}, {"session": []}]
    assert paths["/api/v1/games"]["get"]["security"][0] == {}  # anyone
    assert paths["/api/v1/matches/{match_id}"]["get"]["security"] == [
        {}, {"bearer": ["read"]}, {"oauth": ["read"]}, {"session": []}]  # spectators too
    flow = schemes["oauth"]["flows"]["authorizationCode"]
    assert (flow["authorizationUrl"], flow["tokenUrl"]) == ("/oauth/authorize", "/api/v1/oauth/token")
    assert set(flow["scopes"]) == {"read", "play", "challenge", "bot"}
    assert paths["/api/v1/tokens"]["post"]["security"] == [{"bearer": ["account"]}, {"session": []}]


def test_docs_page_has_an_authorize_button(bare_app: Any) -> None:
    with TestClient(bare_app) as client:
        page = client.get("/docs").text
    assert '"persistAuthorization": true' in page  # Swagger UI shows Authorize for the schemes


def test_operation_ids_are_the_route_names_and_unique(doc: dict[str, Any]) -> None:
    ids = [operation["operationId"] for _, _, operation in operations(doc)]
    assert len(ids) == len(set(ids))
    assert doc["paths"]["/api/v1/matches/{match_id}/moves"]["post"]["operationId"] == "play_move"


def test_every_answer_is_typed_and_errors_are_error_out(doc: dict[str, Any]) -> None:
    untyped = []
    for method, path, operation in operations(doc):
        for status, response in operation["responses"].items():
            content = response.get("content", {})
            if status in ("204", "304"):  # no body, by HTTP's definition
                assert not content, (method, path)
                continue
            if not content or not all(media.get("schema") for media in content.values()):
                untyped.append(f"{method} {path} {status}")
            if status[0] in "45":
                assert content["application/json"]["schema"] == {"$ref": SCHEMAS + "ErrorOut"}
    assert not untyped


def test_model_titles_are_unique(doc: dict[str, Any]) -> None:
    names = doc["components"]["schemas"]
    titles = [body.get("title", name) for name, body in names.items()]
    assert len(titles) == len(set(titles)), sorted(t for t in titles if titles.count(t) > 1)
    assert not [name for name in names if "__" in name]  # FastAPI's names for a clash


@pytest.mark.parametrize(("path", "line", "union"), [
    ("/api/v1/stream/event", "EventStreamLine", EventStreamMessage),
    ("/api/v1/matches/{match_id}/stream", "MatchStreamLine", MatchStreamMessage)])
def test_streams_declare_their_lines_as_a_union_by_type(doc: dict[str, Any], path: str, line: str,
                                                       union: Any) -> None:
    content = doc["paths"][path]["get"]["responses"]["200"]["content"]
    assert content == {NDJSON: {"schema": {"$ref": SCHEMAS + line}}}
    items = schema(doc, line)
    members = union.__origin__.__args__
    assert items["oneOf"] == [{"$ref": SCHEMAS + model.__name__} for model in members]
    mapping = items["discriminator"]["mapping"]
    assert items["discriminator"]["propertyName"] == "type"
    assert sorted(mapping.values()) == sorted(SCHEMAS + model.__name__ for model in members)


def test_the_text_export_is_plain_text(doc: dict[str, Any]) -> None:
    content = doc["paths"]["/api/v1/matches/{match_id}/export"]["get"]["responses"]["200"]["content"]
    assert content["text/plain"]["schema"] == {"type": "string"}
    assert content["application/json"]["schema"] == {"$ref": SCHEMAS + "GameRecordOut"}


def test_game_state_and_game_full_carry_the_move_list(doc: dict[str, Any]) -> None:
    for name in ("GameFullEvent", "GameStateEvent"):
        assert schema(doc, name)["properties"]["moves"]["items"] == {"type": "string"}
    assert "several times in a row" in schema(doc, "MatchOut")["properties"]["to_move"]["description"]


def test_each_game_s_view_and_options_are_components(doc: dict[str, Any]) -> None:
    games = registry.all_games()
    for game in games:
        assert game.view_model is not None
        view = schema(doc, game.view_model.__name__)
        assert view["examples"] == [game.example_view()]
        assert view["additionalProperties"] is False
        assert schema(doc, game.options.__name__)["additionalProperties"] is False
    match_view = schema(doc, "MatchOut")["properties"]["view"]
    assert match_view["discriminator"] == {"propertyName": "game", "mapping": {
        game.id: SCHEMAS + game.view_model.__name__ for game in games if game.view_model}}
    assert schema(doc, "GameStateEvent")["properties"]["view"] == match_view


@pytest.mark.parametrize("body", ["MatchCreate", "SeekIn", "ChallengeIn", "TournamentCreate"])
def test_a_body_naming_a_game_is_one_of_the_games(doc: dict[str, Any], body: str) -> None:
    branches = schema(doc, body)["oneOf"]
    assert len(branches) == len(registry.all_games())
    for game, branch in zip(registry.all_games(), branches, strict=True):
        properties = branch["properties"]
        assert properties["game"]["const"] == game.id
        assert properties["options"] == {"$ref": SCHEMAS + game.options.__name__}
        assert branch["additionalProperties"] is False and "game" in branch["required"]
        if "players" in properties:
            counts = properties["players"]["anyOf"][0]
            assert (counts["minimum"], counts["maximum"]) == (game.min_players, game.max_players)


def test_either_or_bodies_are_one_of_complete_alternatives(doc: dict[str, Any]) -> None:
    chat = schema(doc, "ChatLineIn")["oneOf"]
    assert [b["title"] for b in chat] == ["ChatTextIn", "ChatPhraseIn"]
    assert chat[0]["properties"]["phrase"] == {"type": "null"} and "text" in chat[0]["required"]
    assert chat[1]["properties"]["text"] == {"type": "null"} and "phrase" in chat[1]["required"]
    assert all("room" in b["required"] for b in chat)
    board = schema(doc, "BoardIn")["oneOf"]
    titles = [b["title"] for b in board]
    assert titles[:2] == ["BoardFromState", "BoardFromMatch"]
    assert titles[2:] == [f"{g.id.title()}BoardFromGame" for g in registry.all_games()]
    assert board[0]["properties"]["moves"]["maxItems"] == 0
    assert board[1]["properties"]["options"] == {"type": "null"}


def test_password_length_and_plies_are_in_the_schema(doc: dict[str, Any]) -> None:
    assert schema(doc, "AccountIn")["properties"]["password"]["minLength"] == 8
    assert schema(doc, "ResetConfirmIn")["properties"]["password"]["minLength"] == 8
    ply = schema(doc, "MoveIn")["properties"]["ply"]
    assert ply["type"] == "integer" and ply["minimum"] == 0


def test_the_server_refuses_what_the_board_schema_refuses(client: TestClient) -> None:
    match = client.post("/api/v1/matches", json={"game": "stairs"},
                        headers=make_guest(client, "Ann")).json()
    both = client.post("/api/v1/analysis/board",
                       json={"match": match["id"], "options": {"swap": True}})
    assert both.status_code == 422 and both.json()["code"] == "invalid_request"
    alone = client.post("/api/v1/analysis/board", json={"match": match["id"]})
    assert alone.status_code == 200, alone.text


def test_redocly_finds_no_error(doc: dict[str, Any], tmp_path: Path) -> None:
    if not REDOCLY.exists():
        pytest.fail(f"{REDOCLY} is missing: run `npm ci` (make test does)")
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(doc))
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}
    result = subprocess.run([str(REDOCLY), "lint", str(document), "--extends", "recommended",
                             "--format", "json"], capture_output=True, text=True, env=env,
                            cwd=tmp_path, timeout=300, check=False)
    report = json.loads(result.stdout)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert result.returncode == 0 and not errors, json.dumps(errors, indent=1)[:4000]
