"""The archive search: finished games by player, opponent, game, options, rated or casual, the
player's result, the end reason and a date range, newest first, a page at a time (keyset
pagination on ``(finished_at, match id)``, app/http/paging.py), and the bulk export of every
game a search finds as game records.

With a player the search reads ``archive_entries`` (one row per seat of a finished match,
app/match/archive_index.py) through its ``(user_id, …, finished_at, match_id)`` indexes, so a
page costs an index range scan whatever the person's number of games; without one it reads
``matches`` through ``ix_matches_finished``. ``bench/archive.py`` measures both.

What a viewer may not see never shows: a sealed match only to its seated players (as on
profiles and in the archive stream), and options that fix hidden information can neither be
searched on nor read (a filter on them would tell which games had them set).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal, TypedDict

import orjson
from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    exists,
    false,
    func,
    literal,
    or_,
    select,
    tuple_,
)
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Session, aliased, load_only, sessionmaker

from app.db.models import ArchiveEntry, Match
from app.http.paging import Key, PageRequest
from app.kernel import i18n
from app.kernel.errors import Invalid
from app.kernel.json_types import JSONObject
from app.match import (
    SITE_REASONS,
    build_record,
    export_text,
    find_user_id,
    option_fields,
    public_options,
    reason_code,
    secret_option_names,
    validate_setup,
)
from app.people.profiles import visible_to
from games import registry

Outcome = Literal["win", "loss", "draw"]
OUTCOMES: tuple[str, ...] = ("win", "loss", "draw")
EXPORT_BATCH = 100
MAX_OPTIONS = 8
OPPONENT_NEEDS_PLAYER = i18n.N_("Searching by opponent needs a player too.")
RESULT_NEEDS_PLAYER = i18n.N_("Searching by result needs a player (whose win, loss or draw).")
BAD_RESULT = i18n.N_("A result is win, loss or draw.")
OPTION_NEEDS_GAME = i18n.N_("Searching by option needs a game.")
BACKWARD_RANGE = i18n.N_("The range ends before it starts.")


class ArchiveSeat(TypedDict):
    seat: int
    user_id: int
    name: str
    kind: str


class ArchiveGame(TypedDict):
    """One game a search found, as the API and the search page show it."""

    id: str
    game: str
    rated: bool
    finished_at: str
    players: list[ArchiveSeat]
    winners: list[int]
    reason: str | None
    outcome: str | None  # the searched player's: win, loss or draw
    options: JSONObject
    replay_url: str


@dataclass(frozen=True, slots=True)
class SearchInput:
    """A search as asked (names, not ids yet); every field optional."""

    player: str | None = None
    opponent: str | None = None
    game: str | None = None
    options: tuple[str, ...] = ()
    rated: bool | None = None
    result: str | None = None
    reason: str | None = None
    start: date | None = None
    end: date | None = None


@dataclass(frozen=True, slots=True)
class GameSearch:
    """A checked search: users by id, options typed, the dates as a half-open time range."""

    player_id: int | None = None
    opponent_id: int | None = None
    game: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    rated: bool | None = None
    result: str | None = None
    reasons: tuple[str, ...] = ()
    since: datetime | None = None
    before: datetime | None = None


def _bad(message: str, code: str) -> Invalid:
    return Invalid(message, code=code)


def searchable_options(game_id: str) -> list[str]:
    """The options of a game one may search on: those its form offers and anyone may see. A
    game with hidden information that marks no option secret shows only options left at their
    default, so none of its options is searchable."""
    game = registry.get(game_id)
    secret = secret_option_names(game)
    if game.hidden_information and not secret:
        return []
    return [spec["name"] for spec in option_fields(game_id) if spec["name"] not in secret]


def _option_value(game_id: str, name: str, text: str) -> Any:
    spec = next(spec for spec in option_fields(game_id) if spec["name"] == name)
    if spec["kind"] == "checkbox":
        if text.lower() in ("true", "1", "yes", "on"):
            return True
        if text.lower() in ("false", "0", "no", "off"):
            return False
    elif spec["kind"] == "number":
        if text.strip().lstrip("-").isdigit() and len(text.strip()) <= 9:
            return int(text)
    else:
        for choice in spec["choices"]:
            if str(choice) == text:
                return choice
    raise _bad(f"The option {name} of {game_id} cannot be {text[:40]!r}.", "bad_option")


def reason_codes(game_id: str | None) -> list[str]:
    """The end reasons one may search on: the site's and the game's (every game's when none)."""
    games = [registry.get(game_id)] if game_id else registry.all_games()
    codes = list(SITE_REASONS)
    for game in games:
        codes += [code for code in game.words.reasons if code not in codes]
    return codes


def _stored_reasons(code: str, game_id: str | None) -> tuple[str, ...]:
    """The reason texts stored for a code: the code and the older texts that mean it."""
    games = [registry.get(game_id)] if game_id else registry.all_games()
    texts = {code} | {text for text in ("resignation", "timeout", "opponent left",
                                        "last player standing", "draw agreed")
                      if reason_code(text) == code}
    for game in games:
        texts |= {text for text, meant in game.words.former_reasons.items() if meant == code}
    return tuple(sorted(texts))


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time())


def check(session: Session, asked: SearchInput) -> GameSearch:
    """The search ``asked`` checked: 404 ``no_user`` / ``no_game`` for someone or something
    unknown, 422 for a filter that cannot apply (a result or opponent without a player, an
    option of no game or a secret one, a reason no game has, a range that ends before it
    starts)."""
    if asked.opponent and not asked.player:
        raise _bad(OPPONENT_NEEDS_PLAYER, "player_needed")
    if asked.result is not None:
        if asked.result not in OUTCOMES:
            raise _bad(BAD_RESULT, "bad_result")
        if not asked.player:
            raise _bad(RESULT_NEEDS_PLAYER, "player_needed")
    player_id = find_user_id(session, asked.player) if asked.player else None
    opponent_id = find_user_id(session, asked.opponent) if asked.opponent else None
    if asked.game:
        validate_setup(asked.game, None)  # 404 no_game
    options: list[tuple[str, Any]] = []
    if len(asked.options) > MAX_OPTIONS:
        raise _bad(f"At most {MAX_OPTIONS} options.", "bad_option")
    for text in asked.options:
        if not asked.game:
            raise _bad(OPTION_NEEDS_GAME, "game_needed")
        name, equals, value = text.partition("=")
        if not equals or name not in searchable_options(asked.game):
            raise _bad(f"{text[:40]!r} is not name=value of an option of {asked.game} one may "
                       "search on.", "bad_option")
        options.append((name, _option_value(asked.game, name, value)))
    reasons: tuple[str, ...] = ()
    if asked.reason:
        if asked.reason not in reason_codes(asked.game):
            raise _bad(f"No game ends for the reason {asked.reason[:40]!r}.", "bad_reason")
        reasons = _stored_reasons(asked.reason, asked.game)
    if asked.start and asked.end and asked.end < asked.start:
        raise _bad(BACKWARD_RANGE, "bad_range")
    return GameSearch(
        player_id, opponent_id, asked.game or None, tuple(options), asked.rated, asked.result,
        reasons, _start_of(asked.start) if asked.start else None,
        _start_of(asked.end + timedelta(days=1)) if asked.end else None)


def _option_clause(game_id: str, name: str, value: Any) -> ColumnElement[bool]:
    stored = Match.options[name]
    default = registry.get(game_id).options().model_dump(mode="json").get(name)
    if isinstance(value, bool):
        typed: Any = stored.as_boolean()
    elif isinstance(value, int):
        typed = stored.as_integer()
    else:
        typed = stored.as_string()
    matches: ColumnElement[bool] = typed == value
    if value == default:  # a match stored without the option has its default
        return or_(matches, typed.is_(None))
    return matches


def _after(key: Key) -> tuple[datetime, str]:
    if len(key) != 2 or not isinstance(key[0], int) or not isinstance(key[1], str):
        raise Invalid("That cursor belongs to another list.", code="invalid_cursor")
    try:
        when = datetime.fromtimestamp(key[0] / 1_000_000, UTC).replace(tzinfo=None)
    except (OverflowError, OSError, ValueError):
        raise Invalid("That cursor belongs to another list.", code="invalid_cursor") from None
    return when, key[1]


def key_of(finished_at: datetime, match_id: str) -> Key:
    """A game's place in the archive's order (a cursor's key): microseconds, then the id."""
    return round(finished_at.replace(tzinfo=UTC).timestamp() * 1_000_000), match_id


CUSTOM_PLANS = sql_text("SET LOCAL plan_cache_mode = force_custom_plan")
COUNT_CAP = 2000


def _games_of(session: Session, user_id: int) -> int:
    """How many games a person has finished, counted up to ``COUNT_CAP`` (an index-only scan
    of at most that many rows): which side of a player + opponent search to walk."""
    few = select(ArchiveEntry.match_id).where(ArchiveEntry.user_id == user_id).limit(COUNT_CAP)
    return int(session.scalar(select(func.count()).select_from(few.subquery())) or 0)


def found_ids_statement(search: GameSearch, viewer_id: int | None, page: PageRequest,
                        by_opponent: bool = False) -> Select[Any]:
    """The query of :func:`found_ids`: (match id, finished at, outcome), one more than a page.
    ``by_opponent``: walk the opponent's games and find the player in each (the opponent has
    played fewer), rather than the player's, looking for the opponent."""
    finished: Any
    match_id: Any
    chosen: Any
    if search.player_id is not None:
        entry = ArchiveEntry
        driver = entry
        chosen = select(entry.match_id, entry.finished_at, entry.outcome)
        if search.opponent_id is not None:
            other = aliased(ArchiveEntry)
            if by_opponent:
                driver = other
                chosen = (chosen.select_from(other)
                          .join(entry, and_(entry.match_id == other.match_id,
                                            entry.user_id == search.player_id,
                                            entry.seat != other.seat))
                          .where(other.user_id == search.opponent_id))
            else:
                chosen = chosen.where(exists().where(
                    other.match_id == entry.match_id, other.user_id == search.opponent_id,
                    other.seat != entry.seat))
        if driver is entry:
            chosen = chosen.where(entry.user_id == search.player_id)
        chosen = chosen.join(Match, Match.id == entry.match_id)
        finished, match_id = driver.finished_at, driver.match_id
        if search.game:
            chosen = chosen.where(driver.game == search.game)
        if search.rated is not None:
            chosen = chosen.where(driver.rated.is_(search.rated))
        if search.result:
            chosen = chosen.where(entry.outcome == search.result)
    else:
        finished, match_id = Match.finished_at, Match.id
        chosen = (select(Match.id, Match.finished_at, literal(None).label("outcome"))
                  .where(Match.status == "finished", Match.finished_at.is_not(None)))
        if search.game:
            chosen = chosen.where(Match.game == search.game)
        if search.rated is not None:
            chosen = chosen.where(Match.rated.is_(search.rated))
    if search.since is not None:
        chosen = chosen.where(finished >= search.since)
    if search.before is not None:
        chosen = chosen.where(finished < search.before)
    if search.reasons:
        chosen = chosen.where(Match.result["reason"].as_string().in_(search.reasons))
    for name, value in search.options:
        assert search.game is not None
        chosen = chosen.where(_option_clause(search.game, name, value))
    if page.after is not None:
        chosen = chosen.where(tuple_(finished, match_id) < tuple_(*_after(page.after)))
    statement: Select[Any] = (chosen.where(visible_to(viewer_id))
                              .order_by(finished.desc(), match_id.desc()).limit(page.limit + 1))
    return statement


def found_ids(session: Session, search: GameSearch, viewer_id: int | None, page: PageRequest
              ) -> tuple[list[tuple[str, str | None]], Key | None]:
    """(match id, the player's outcome) of a page of the games found, newest first, and the
    next page's key (None on the last page)."""
    if session.get_bind().dialect.name == "postgresql":
        # A prepared statement's generic plan (psycopg prepares a statement run five times;
        # PostgreSQL goes generic after five more) is made for an average person's few games:
        # for someone with a hundred thousand it took seconds where the plan for the actual
        # values takes a millisecond (bench/archive.py). Plan each search for its values.
        session.execute(CUSTOM_PLANS)
    by_opponent = search.opponent_id is not None and search.player_id is not None and (
        _games_of(session, search.opponent_id) < _games_of(session, search.player_id))
    rows: list[Any] = list(session.execute(
        found_ids_statement(search, viewer_id, page, by_opponent)).all())
    found: list[tuple[str, str | None]] = []
    for row in rows[:page.limit]:
        if not found or found[-1][0] != row[0]:  # a bot in two seats of one match: once
            found.append((row[0], row[2]))
    following = key_of(rows[page.limit - 1][1], rows[page.limit - 1][0]) \
        if len(rows) > page.limit else None
    return found, following


def _iso(moment: datetime | None) -> str:
    return "" if moment is None else moment.isoformat() + "Z"


def search(session: Session, search: GameSearch, viewer_id: int | None, page: PageRequest
           ) -> tuple[list[ArchiveGame], Key | None]:
    """A page of the games found, as :class:`ArchiveGame`, and the next page's key."""
    found, following = found_ids(session, search, viewer_id, page)
    matches = {match.id: match for match in session.scalars(
        select(Match).where(Match.id.in_([match_id for match_id, _ in found]) if found else false())
        .options(load_only(Match.id, Match.game, Match.rated, Match.options, Match.result,
                           Match.finished_at, Match.num_seats)))}
    games: list[ArchiveGame] = []
    for match_id, outcome in found:
        match = matches[match_id]
        result = match.result or {}
        games.append({
            "id": match.id, "game": match.game, "rated": bool(match.rated),
            "finished_at": _iso(match.finished_at),
            "players": [{"seat": p.seat, "user_id": p.user_id, "name": p.user.name,
                         "kind": p.user.kind} for p in match.players],
            "winners": list(result.get("winners") or []),
            "reason": reason_code(str(result["reason"])) if result.get("reason") else None,
            "outcome": outcome, "options": public_options(match.game, match.options),
            "replay_url": f"/m/{match.id}"})
    return games, following


ExportFormat = Literal["json", "text"]


def export_lines(session_factory: sessionmaker[Session], search_: GameSearch,
                 viewer_id: int | None, form: ExportFormat) -> Iterator[bytes]:
    """Every game the search finds, newest first, as game records (the archive stream's JSON,
    one a line; or the text records one after another, a blank line between): built a batch
    at a time, each batch in a session of its own closed before its lines go out."""
    after: Key | None = None
    while True:
        with session_factory() as session:
            found, after = found_ids(session, search_, viewer_id, PageRequest(EXPORT_BATCH, after))
            records = [build_record(session, match_id, viewer_id) for match_id, _ in found]
        if form == "text":
            yield b"".join(export_text(record).encode() + b"\n" for record in records)
        else:
            yield b"".join(orjson.dumps(record) + b"\n" for record in records)
        if after is None:
            return


def as_query(search_: SearchInput) -> list[tuple[str, str]]:
    """The query string of a search (for links: the next page, the export, the form)."""
    pairs: list[tuple[str, str]] = []
    for name in ("player", "opponent", "game"):
        if value := getattr(search_, name):
            pairs.append((name, value))
    pairs += [("option", text) for text in search_.options]
    if search_.rated is not None:
        pairs.append(("rated", "true" if search_.rated else "false"))
    for name, value in (("result", search_.result), ("reason", search_.reason)):
        if value:
            pairs.append((name, value))
    if search_.start:
        pairs.append(("from", search_.start.isoformat()))
    if search_.end:
        pairs.append(("to", search_.end.isoformat()))
    return pairs

