"""Loading, locking and committing matches: the only module that touches the match tables.

``read`` reads a match with its seats and their users in one Core statement into a plain
:class:`MatchRow`; ``load`` gives the ORM object, for the few changes that add seats. ``commit``
applies a change under the core invariant (the version read must still be current) and appends
move rows with Core statements, then builds the new record from what it just wrote — no
re-reading. A move therefore costs three statements: read, update, insert (plus the ratings,
once, when a rated game ends); on PostgreSQL two round trips (below), and no read at all when the
process has the match warm (app/match/warm.py).

Why Core on the move path (statements on the session's connection, not through the ORM's
``Session.execute``): profiled under load, the ORM's joined load (identity map, instance
states, collection loaders) and its bulk UPDATE/INSERT compilation were the largest share of
the server's CPU per move after the database driver itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from datetime import datetime
from typing import Any

from sqlalchemy import CursorResult, Engine, Executable, bindparam, delete, insert, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from app.db.direct import DirectConnection, Rows
from app.db.models import Match, MatchPlayer, Move, User
from app.kernel.errors import Conflict, Forbidden, NotFound
from app.kernel.identity import Identity
from app.kernel.timesource import now
from app.match import clocks
from app.match.archive_index import record_finish
from app.match.ratings import apply_rated_result, changes_json
from app.match.records import (
    LastMove,
    MatchRecord,
    MatchRow,
    MatchValues,
    MoveValues,
    PlayerRow,
    iso,
    record_fields,
    record_of,
)
from games import State, registry

Publish = Callable[[MatchRecord], None]


MATCHES = Match.__table__
MOVES = Move.__table__
PLAYERS = MatchPlayer.__table__
USERS = User.__table__


AnyMatch = Match | MatchRow

_MATCH_COLUMNS = [MATCHES.c[f.name] for f in fields(MatchRow) if f.name != "players"]
_READ = (select(*_MATCH_COLUMNS, PLAYERS.c.seat.label("p_seat"),
                PLAYERS.c.user_id.label("p_user_id"), USERS.c.name.label("p_name"),
                USERS.c.kind.label("p_kind"), USERS.c.username.label("p_username"),
                USERS.c.builtin_bot.label("p_builtin_bot"))
         .select_from(MATCHES.outerjoin(PLAYERS, PLAYERS.c.match_id == MATCHES.c.id)
                      .outerjoin(USERS, USERS.c.id == PLAYERS.c.user_id))
         .where(MATCHES.c.id == bindparam("match_id"))
         .order_by(PLAYERS.c.seat))
"""Built once: a statement made per call (``.where(id == value)``) had SQLAlchemy derive its
cache key and adapt the result's columns on every move (profiled: ~9 % of the CPU per move)."""
_LOCK = select(MATCHES.c.id).where(MATCHES.c.id == bindparam("match_id")).with_for_update()
_LAST_MOVE = select(MOVES.c.ply, MOVES.c.seat, MOVES.c.move).where(
    MOVES.c.match_id == bindparam("match_id"), MOVES.c.ply == bindparam("ply"))
_MATCH_FIELDS = len(_MATCH_COLUMNS)


# The SET clause comes from the parameters' keys; the statement is built once. Literal
# ``.values(**values)`` made SQLAlchemy derive a cache key from every value's type on every
# move (profiled: 17 % of the server's CPU under load, in TypeEngine._static_cache_key).
_GUARDED_UPDATE = update(MATCHES).where(MATCHES.c.id == bindparam("w_id"),
                                        MATCHES.c.version == bindparam("w_version"))


# -- PostgreSQL: a move in one statement, outside a transaction ------------------------------------
#
# A transaction costs PostgreSQL two more round trips than its statements (psycopg sends BEGIN on
# its own, then COMMIT), so a move read, updated and inserted in one was five. The version guard
# makes the read safe outside any transaction (what it read is checked by the UPDATE), and the
# UPDATE and the INSERT go as one statement — the UPDATE in a CTE whose RETURNING feeds the INSERT
# — which PostgreSQL applies atomically on its own: two round trips a move. A change that needs
# more (a rated game's ratings, a takeback's deletion) raises :class:`NeedsTransaction` before
# writing anything, and the caller runs it again in a transaction.

SINGLE_STATEMENT = "stepwell_single_statement"
"""``session.info`` key: the :class:`~app.db.direct.DirectConnection` a move reads and commits
through with single statements (PostgreSQL), in place of the session's own connection."""


class NeedsTransaction(Exception):
    """This change cannot be one statement: nothing was written; run it in a transaction."""


def begin_single_statements(session: Session) -> bool:
    """On PostgreSQL, run a move's statements each on its own (autocommit), on a pooled
    connection used through its driver (app/db/direct.py: the session's and the connection's
    layers cost as much CPU as the driver); ``commit`` then writes in one statement. Must come
    before any statement of the session. Returns whether it did (other databases keep their
    transaction)."""
    bind = session.get_bind()
    if bind.dialect.name != "postgresql" or session.in_transaction():
        return False
    assert isinstance(bind, Engine)
    session.info[SINGLE_STATEMENT] = DirectConnection(bind)
    return True


def end_single_statements(session: Session) -> None:
    """Give the connection back to the pool, as it was."""
    direct = session.info.pop(SINGLE_STATEMENT, None)
    try:
        if direct is not None:
            direct.close()
    finally:
        session.close()


def _execute(session: Session, statement: Executable, params: dict[str, Any]
             ) -> Rows | CursorResult[Any]:
    """One of the move path's statements, on the single-statement connection when there is
    one, else on the session's."""
    direct: DirectConnection | None = session.info.get(SINGLE_STATEMENT)
    if direct is not None:
        return direct.execute(statement, params)
    return session.connection().execute(statement, params)


_MOVE_COLUMNS = ("ply", "seat", "move", "time_spent_ms", "created_at")
_SINGLE: dict[tuple[frozenset[str], int], Executable] = {}


def _single_statement(keys: frozenset[str], rows: int) -> Executable:
    """The guarded UPDATE of ``keys`` and the INSERT of ``rows`` (≥ 1) move rows, as one
    statement (built once per shape, with bind parameters only: see ``_GUARDED_UPDATE``)."""
    found = _SINGLE.get((keys, rows))
    if found is None:
        updated = (update(MATCHES)
                   .where(MATCHES.c.id == bindparam("w_id"),
                          MATCHES.c.version == bindparam("w_version"))
                   .values({MATCHES.c[k]: bindparam(f"v_{k}", type_=MATCHES.c[k].type)
                            for k in sorted(keys)})
                   .returning(MATCHES.c.id).cte("updated"))
        selects = [select(updated.c.id, *(bindparam(f"m{i}_{c}", type_=MOVES.c[c].type)
                                          for c in _MOVE_COLUMNS))
                   for i in range(rows)]
        # The rows it inserted come back (SQLAlchemy gives no rowcount for an INSERT whose CTE
        # returns rows): none when the version guard stopped the UPDATE.
        found = insert(MOVES).from_select(
            ["match_id", *_MOVE_COLUMNS],
            selects[0] if rows == 1 else union_all(*selects)).returning(MOVES.c.ply)
        _SINGLE[(keys, rows)] = found
    return found


def _changed_meanwhile() -> Conflict:
    return Conflict("The match changed meanwhile: refresh and try again.", code="stale_ply")


def _commit_single(session: Session, match: AnyMatch, values: Mapping[str, Any],
                   moves: Sequence[Mapping[str, Any]]) -> None:
    """Write the change in one statement; Conflict ``stale_ply`` if the version moved on."""
    guard = {"w_id": match.id, "w_version": match.version}
    if not moves:  # the guarded UPDATE alone is one statement already
        if _execute(session, _GUARDED_UPDATE, {**values, **guard}).rowcount != 1:
            raise _changed_meanwhile()
        return
    params: dict[str, Any] = {f"v_{k}": v for k, v in values.items()} | guard
    for i, row in enumerate(moves):
        params |= {f"m{i}_{c}": row[c] for c in _MOVE_COLUMNS}
    try:
        written = len(_execute(session, _single_statement(frozenset(values), len(moves)),
                               params).all())
    except IntegrityError:
        written = 0
    if written != len(moves):
        raise _changed_meanwhile()


def _lock(session: Session, match_id: str) -> None:
    _execute(session, _LOCK, {"match_id": match_id})


def lock(session: Session, match_id: str) -> None:
    """Hold the match's row lock until the transaction ends (PostgreSQL; SQLite's transactions
    are serial already): what is read after it cannot change under a move meanwhile."""
    _lock(session, match_id)


def read(session: Session, match_id: str, *, lock: bool = False) -> MatchRow:
    """The match with its seats and users, in one statement (after the lock, if ``lock``:
    see :func:`load` for why the lock is a statement of its own)."""
    if lock:
        _lock(session, match_id)
    rows = _execute(session, _READ, {"match_id": match_id}).all()
    if not rows:
        raise NotFound(f"There is no match {match_id!r}.", code="no_match")
    first = rows[0]
    players = [PlayerRow(row.p_seat, row.p_user_id, row.p_name, row.p_kind, row.p_username,
                         row.p_builtin_bot) for row in rows if row.p_seat is not None]
    return MatchRow(*first[:_MATCH_FIELDS], players=players)  # type: ignore[misc]  # the star is the columns


def load(session: Session, match_id: str, *, lock: bool = False) -> Match:
    """The match with its seats and users (one statement).

    ``lock`` first takes the row lock in a statement of its own: under READ COMMITTED a locking
    read that waited sees the locked row anew but the joined seats as they were when it started,
    so the seats must be read after the lock is held (two joins racing would pick one seat)."""
    if lock:
        _lock(session, match_id)
    query = (select(Match).where(Match.id == match_id)
             .options(joinedload(Match.players).joinedload(MatchPlayer.user)))
    match = session.scalars(query).unique().one_or_none()
    if match is None:
        raise NotFound(f"There is no match {match_id!r}.", code="no_match")
    return match


def seat_of(match: AnyMatch, user: Identity) -> int:
    """The user's seat (the first, for a bot filling several); 403 for anyone else."""
    for player in match.players:
        if player.user_id == user.id:
            return player.seat
    raise Forbidden("You are not a player in this match.", code="not_a_player")


def check_seat(match: AnyMatch, user: Identity, seat: int) -> int:
    if not any(p.seat == seat and p.user_id == user.id for p in match.players):
        raise Forbidden("You do not hold that seat.", code="not_a_player")
    return seat


def state_of(match: AnyMatch | MatchRecord) -> State:
    """The engine state of a stored match or of a record (the one place that rebuilds it)."""
    if isinstance(match, MatchRecord):
        return match.state
    return registry.get(match.game).from_json(match.snapshot)


def require_active(match: AnyMatch) -> None:
    if match.status != "active":
        raise Conflict(f"The match is {match.status}, not in play.", code="match_not_active")


def insert_match(session: Session, match: MatchRow) -> None:
    """Write a new match with no seat taken yet (``match.players`` empty; the seats follow
    through :func:`seat_player`), every column as ``match`` holds it."""
    assert not match.players
    values = {f.name: getattr(match, f.name) for f in fields(MatchRow)
              if f.name != "players" and not (f.name in _UNSET_WHEN_NONE and getattr(match, f.name) is None)}
    session.connection().execute(insert(MATCHES), values)


_UNSET_WHEN_NONE = frozenset({"clock", "offers", "result"})
"""JSON columns a new match leaves unset (SQL NULL, as the ORM's insert left them): a None
given to a JSON column is written as JSON ``null``."""


_USER_OF_SEAT = select(USERS.c.name, USERS.c.kind, USERS.c.username, USERS.c.builtin_bot).where(
    USERS.c.id == bindparam("user_id"))


def seat_player(session: Session, match: MatchRow, seat: int, user_id: int) -> None:
    """Seat ``user_id`` at ``match`` (read under its lock in this transaction): the seat's row
    is inserted and added to ``match.players`` as ``read`` would now find it. Raises the
    database's IntegrityError when the seat was taken meanwhile (the caller rolls back)."""
    connection = session.connection()
    connection.execute(insert(PLAYERS), {"match_id": match.id, "seat": seat, "user_id": user_id})
    user = connection.execute(_USER_OF_SEAT, {"user_id": user_id}).one()
    match.players.append(PlayerRow(seat, user_id, user.name, user.kind, user.username,
                                   user.builtin_bot))
    match.players.sort(key=lambda player: player.seat)


def start_values(match: MatchRow) -> MatchValues:
    """What a join writes besides the seat: the start of the clocks once the last seat is
    taken (as :func:`start_if_full`); else nothing changes but the version."""
    if match.status != "waiting" or len(match.players) != match.num_seats:
        return {"updated_at": match.updated_at}
    moment = now()
    clock = clocks.new_clock(match.time_control, match.num_seats, moment)
    return {"status": "active", "started_at": moment, "updated_at": moment, "clock": clock,
            "deadline_at": clocks.deadline(match.time_control, clock, state_of(match).to_move)}


def start_if_full(match: Match) -> None:
    """Start the clocks of a waiting match whose last seat was just taken (caller commits)."""
    if match.status == "waiting" and len(match.players) == match.num_seats:
        moment = now()
        match.status = "active"
        match.started_at = match.updated_at = moment
        match.clock = clocks.new_clock(match.time_control, match.num_seats, moment)
        match.deadline_at = clocks.deadline(match.time_control, match.clock,
                                            state_of(match).to_move)


def last_move(session: Session, match: AnyMatch) -> LastMove | None:
    if match.ply == 0:
        return None
    row = _execute(session, _LAST_MOVE, {"match_id": match.id, "ply": match.ply}).first()
    return None if row is None else {"ply": row.ply, "seat": row.seat, "move": row.move}


def record(session: Session, match: AnyMatch) -> MatchRecord:
    return record_of(match, last_move(session, match))


_ISO_FIELDS = ("finished_at", "started_at")
_RECORD_FIELDS = ("status", "ply", "snapshot", "result", "clock", "offers", "eliminated")


def _record_after(before: dict[str, Any], values: Mapping[str, Any],
                  moves: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The record's fields as the database now holds them, from the fields before
    (``record_fields``) and the values written."""
    changes: dict[str, Any] = {k: values[k] for k in _RECORD_FIELDS if k in values}
    changes |= {k: iso(values[k]) for k in _ISO_FIELDS if k in values}
    if moves:
        changes["last_move"] = {k: moves[-1][k] for k in ("ply", "seat", "move")}
    elif "ply" in values and values["ply"] != before["ply"]:
        changes["last_move"] = None  # a takeback: the caller passes the new last move
    return before | changes | {"version": values["version"]}


def commit(session: Session, match: AnyMatch, values: MatchValues,
           moves: list[MoveValues] | None = None, *, delete_after_ply: int | None = None,
           last_move_after: LastMove | None = None, state: State | None = None
           ) -> MatchRecord:
    """Apply ``values`` if nobody changed the match since it was read (its version), append
    ``moves`` (dicts of Move columns), rate a rated game that just finished, and commit.
    ``state``: the engine state whose ``to_json()`` is ``values["snapshot"]``, given to the new
    record so nobody parses the snapshot back (once per move: the publisher, the seats' views).

    Raises Conflict ``stale_ply`` and changes nothing when another change got there first.
    """
    single = session.info.get(SINGLE_STATEMENT, False)
    if single and (delete_after_ply is not None or values.get("status") == "finished"):
        raise NeedsTransaction  # a rated game's ratings; every finished game's archive rows
    before = record_fields(match, None if moves else last_move(session, match))
    values = {"updated_at": now(), **values, "version": match.version + 1}
    if single:
        _commit_single(session, match, values, moves or [])
        return _finish_record(before, values, moves, state=state)
    connection = session.connection()
    updated = connection.execute(_GUARDED_UPDATE,
                                 {**values, "w_id": match.id, "w_version": match.version})
    if updated.rowcount != 1:
        session.rollback()
        raise _changed_meanwhile()
    try:
        if delete_after_ply is not None:
            connection.execute(delete(MOVES).where(MOVES.c.match_id == match.id,
                                                   MOVES.c.ply > delete_after_ply))
        if moves:
            connection.execute(insert(MOVES), moves)
        if values.get("status") == "finished":
            record_finish(connection, match, values)
            model = session.get(Match, match.id, populate_existing=True)
            assert model is not None
            changes = apply_rated_result(session, model)
            before_rating = values.get("result")
            if changes and before_rating:  # the result says what it did to the ratings
                result = {**before_rating, "rating_changes": changes_json(changes)}
                model.result = result
                values = {**values, "result": result}
        session.commit()
    except IntegrityError:
        session.rollback()
        raise Conflict("Another move was played first: refresh and try again.",
                       code="stale_ply") from None
    return _finish_record(before, values, moves, last_move_after=last_move_after,
                          delete_after_ply=delete_after_ply, state=state)


def _finish_record(before: dict[str, Any], values: Mapping[str, Any],
                   moves: Sequence[Mapping[str, Any]] | None, *, last_move_after: LastMove | None = None,
                   delete_after_ply: int | None = None, state: State | None = None
                   ) -> MatchRecord:
    """The record after a commit, from the fields before and what was written (no re-reading),
    built once."""
    fields = _record_after(before, values, moves or [])
    if last_move_after is not None or delete_after_ply is not None:
        fields["last_move"] = last_move_after
    after = MatchRecord(**fields)
    if state is not None:
        after.prime_state(state)
    return after


def move_row(match: AnyMatch, ply: int, seat: int, move: str, spent_ms: int,
             moment: datetime) -> MoveValues:
    return {"match_id": match.id, "ply": ply, "seat": seat, "move": move,
            "time_spent_ms": spent_ms, "created_at": moment}
