"""A match as a portable game record: JSON for programs, and a PGN-like text for people.

The text is tag pairs (``[Game "stairs"]``) and then the moves in canonical notation, numbered by
ply (``1. c3-d4 2. e5-d4``). ``parse_text`` reads it back, and ``replay`` plays the parsed moves
through the engine, so a downloaded game can be studied or re-imported.

Nothing secret leaves through a record: options that fix hidden information are left out, and the
seed (which fixes every shuffle) is given only once the match is over or when the game has no
hidden information and no chance.

A seed is a whole number of up to 256 bits (new matches draw 128), too large for a JSON number
that every client reads exactly, so the JSON record carries it as a decimal string; the text
record's ``Seed`` tag is the same digits.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Match, Move
from app.kernel.errors import NotFound
from app.kernel.json_types import JSONObject
from app.match import sealing
from app.match.option_privacy import public_options
from app.match.ratings import get_rating, rating_json
from games import Game, State, registry
from games.chance import check_seed

FORMAT = "stepwell-record"
FORMAT_VERSION = 1
RATED_KINDS = ("account", "bot")
OVER = ("finished", "aborted")
LINE_WIDTH = 79

_TAG_LINE = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}")
_NUMBERED_MOVE = re.compile(r"(?P<ply>\d+)\.\s*(?P<move>[^\s.{}][^\s{}]*)")
_SEED = re.compile(r"[0-9]{1,78}")  # 2**256 has 78 digits


class GameRecordError(ValueError):
    """A text record that cannot be read (the message says where)."""


def seed_is_public(game: Game, status: str) -> bool:
    return status in OVER or not (game.hidden_information or game.has_chance)


def seed_text(seed: int) -> str:
    """A seed as JSON carries it: decimal digits in a string."""
    return str(seed)


def parse_seed(text: str) -> int:
    """A seed written as decimal digits (a record's tag, a JSON string); ValueError if it is
    not one (see ``games.chance.check_seed`` for the range)."""
    if not isinstance(text, str) or not _SEED.fullmatch(text.strip()):
        raise ValueError(f"a seed is written as decimal digits, not {str(text)[:40]!r}")
    return check_seed(int(text.strip()))


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def build_record(session: Session, match_id: str, viewer_id: int | None = None) -> JSONObject:
    """The JSON game record of one match, as anyone may see it (a sealed match: its seated
    players only, and without the seed until it opens)."""
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound(f"There is no match {match_id!r}.", code="no_match")
    sealing.require_visible(match, viewer_id)
    game = registry.get(match.game)
    taken = {p.seat: p for p in match.players}
    players = []
    for seat in range(match.num_seats):
        player = taken.get(seat)
        user = player.user if player else None
        rating = None
        if user is not None and user.kind in RATED_KINDS and user.username:
            stored = get_rating(session, user.id, match.game)
            rating = rating_json(stored)["display"] if stored is not None else None
        players.append({
            "seat": seat,
            "user": None if user is None else {
                "id": user.id, "name": user.name, "kind": user.kind, "bot": user.kind == "bot"},
            "rating": rating,
        })
    moves = session.scalars(select(Move).where(Move.match_id == match.id).order_by(Move.ply))
    started = match.started_at or match.created_at
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "match_id": match.id,
        "game": game.id,
        "title": game.title,
        "options": public_options(game, dict(match.options or {})),
        "seed": seed_text(match.seed)
        if seed_is_public(game, match.status) and not match.sealed else None,
        "num_seats": match.num_seats,
        "rules_version": match.rules_version or 1,
        "players": players,
        "rated": bool(match.rated),
        "time_control": match.time_control,
        "status": match.status,
        "date": started.strftime("%Y.%m.%d"),
        "created_at": _iso(match.created_at),
        "started_at": _iso(match.started_at),
        "finished_at": _iso(match.finished_at),
        "result": match.result,
        "moves": [{"ply": m.ply, "seat": m.seat, "move": m.move, "time_spent_ms": m.time_spent_ms}
                  for m in moves],
    }


# -- text ---------------------------------------------------------------------------------------

def time_control_text(control: dict[str, Any] | None) -> str:
    """``5+3`` (minutes + seconds per move), ``3d`` (days per move) or ``-`` (untimed)."""
    if not control:
        return "-"
    if control.get("kind") == "realtime":
        return f"{control['minutes']:g}+{control.get('increment', 0)}"
    return f"{control['days']}d"


def result_text(record: dict[str, Any]) -> str:
    """PGN-style for two seats (``1-0``, ``0-1``, ``1/2-1/2``), ``*`` while unfinished; with more
    seats the Ranking tag carries the order."""
    result = record.get("result")
    if record["status"] != "finished" or not result:
        return "*"
    if record["num_seats"] != 2:
        return "ranked"
    winners = result.get("winners", [])
    if len(winners) == 1:
        return "1-0" if winners[0] == 0 else "0-1"
    return "1/2-1/2"


def ranking_text(ranking: list[list[int]]) -> str:
    """``2 > 0 = 1 > 3``: best first, ``=`` joins a shared place."""
    return " > ".join(" = ".join(str(seat) for seat in group) for group in ranking)


def parse_ranking(text: str) -> list[list[int]]:
    return [[int(seat) for seat in group.split("=")] for group in text.split(">")]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def record_tags(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The tag pairs of the text form, in the order they are written."""
    tags = [("Format", f"{FORMAT} {record['version']}"), ("Site", "Stepwell"),
            ("Match", record["match_id"]), ("Game", record["game"]), ("Title", record["title"]),
            ("Date", record["date"]), ("Seats", str(record["num_seats"]))]
    for player in record["players"]:
        seat, user = player["seat"], player["user"]
        tags.append((f"Seat{seat}", user["name"] if user else "?"))
        if user:
            tags.append((f"Seat{seat}Kind", "BOT" if user["bot"] else user["kind"]))
        if player["rating"] is not None:
            tags.append((f"Seat{seat}Rating", f"{player['rating']:g}"))
    tags.append(("Options", json.dumps(record["options"], sort_keys=True, ensure_ascii=False)))
    if record.get("rules_version") is not None:
        tags.append(("Rules", str(record["rules_version"])))
    if record["seed"] is not None:
        tags.append(("Seed", str(record["seed"])))
    tags += [("Rated", "yes" if record["rated"] else "no"),
             ("TimeControl", time_control_text(record["time_control"])),
             ("Status", record["status"]), ("Result", result_text(record))]
    result = record.get("result")
    if result:
        tags.append(("Ranking", ranking_text(result["ranking"])))
        if result.get("scores") is not None:
            tags.append(("Scores", " ".join(f"{score:g}" for score in result["scores"])))
        tags.append(("Reason", str(result.get("reason", ""))))
    for key in ("started_at", "finished_at"):
        if record.get(key):
            tags.append(("Started" if key == "started_at" else "Finished", record[key]))
    return tags


def export_text(record: JSONObject) -> str:
    """The readable, re-importable text form of a JSON game record."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record_tags(record)]
    lines.append("")
    line = ""
    for entry in record["moves"]:
        token = f"{entry['ply']}. {entry['move']}"
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ParsedGame:
    """A text record read back: its tags (names as written) and its moves in order."""

    tags: dict[str, str]
    moves: list[str]

    @property
    def game_id(self) -> str:
        return self.tags["Game"]

    @property
    def num_seats(self) -> int:
        return int(self.tags["Seats"])

    @property
    def options(self) -> dict[str, Any]:
        return dict(json.loads(self.tags.get("Options", "{}")))

    @property
    def rules_version(self) -> int | None:
        """The rules version the game was played under (absent: the game's current rules)."""
        return int(self.tags["Rules"]) if "Rules" in self.tags else None

    @property
    def seed(self) -> int | None:
        """The Seed tag's number; GameRecordError when it is not a seed."""
        if "Seed" not in self.tags:
            return None
        try:
            return parse_seed(self.tags["Seed"])
        except ValueError as error:
            raise GameRecordError(f"the Seed tag: {error}") from None

    @property
    def players(self) -> list[str]:
        return [self.tags.get(f"Seat{seat}", "?") for seat in range(self.num_seats)]


def parse_text(text: str) -> ParsedGame:
    """Read a text record: tag lines first, then numbered moves (``{comments}`` are skipped).
    Raises GameRecordError naming the first line or ply it cannot read."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (lines[index].strip().startswith("[") or not lines[index].strip()):
        stripped = lines[index].strip()
        if stripped:
            found = _TAG_LINE.match(stripped)
            if found is None:
                raise GameRecordError(f"line {index + 1}: not a tag pair: {stripped[:60]!r}")
            tags[found["name"]] = _unescape(found["value"])
        index += 1
    for required in ("Game", "Seats"):
        if required not in tags:
            raise GameRecordError(f"the {required} tag is missing")
    body = _COMMENT.sub(" ", "\n".join(lines[index:]))
    moves: list[str] = []
    for found in _NUMBERED_MOVE.finditer(body):
        expected = len(moves) + 1
        if int(found["ply"]) != expected:
            raise GameRecordError(f"move {found['ply']} found where move {expected} was expected")
        moves.append(found["move"])
    rest = _NUMBERED_MOVE.sub(" ", body).split()
    if rest:
        raise GameRecordError(f"unexpected text among the moves: {rest[0][:40]!r}")
    return ParsedGame(tags, moves)


def replay(parsed: ParsedGame, seed: int | None = None) -> State:
    """The position after the parsed moves (the Seed tag, or ``seed`` when the record has none).
    Raises GameRecordError for an unknown game or a move the rules refuse."""
    try:
        game = registry.get(parsed.game_id)
    except registry.UnknownGame:
        raise GameRecordError(f"unknown game {parsed.game_id!r}") from None
    chosen = parsed.seed if parsed.seed is not None else seed
    try:
        state = game.replay_start(parsed.rules_version or game.rules_version,
                                  players=parsed.num_seats, options=parsed.options,
                                  seed=chosen or 0)
    except (ValueError, TypeError) as error:  # bad JSON, options or seat count
        raise GameRecordError(f"cannot set the game up: {error}") from None
    for ply, move in enumerate(parsed.moves, start=1):
        try:
            state = state.play(move)
        except ValueError as error:  # IllegalMove is a ValueError
            raise GameRecordError(f"move {ply} ({move}) is not legal: {error}") from None
    return state
