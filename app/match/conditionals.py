"""Conditional moves: "if they play X, I reply Y", a few plies deep, in correspondence games.

A seat keeps lines of moves from the current position (the opponent's move first, the owner's
reply after it, and so on: at most :data:`MAX_PLIES` plies, :data:`MAX_LINES` lines). Each line
is checked move by move with the engine's own parser (``State.parse_move``) when it is set, and
stored in its canonical notation with the ply it starts from (``base_ply``).

When the opponent moves, the move's transaction (``MatchService._move``) first takes the match's
row lock and reads the lines (:func:`plan`); the engine loop then asks :meth:`Plan.follow` for
the owner's reply after each move, so a matching reply is played at once, in the same commit,
and announced like any move (its clock: no time spent). :meth:`Plan.settle` then keeps only the
lines the game is still on, shortened to the new position, and drops the rest. A takeback, the
end of the game or anything else that moves the game off ``base_ply`` drops them
(:func:`clear`; a stale row is never followed).

Only for two-player games without hidden information or chance (Stairs, Sight, Scalas): the
legality of an opponent's move then reveals nothing. The lines are private: this table is read
by the owner's ``GET /conditional`` and the move path only, never by a record, payload, stream
or export.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from app.db.models import MatchConditional
from app.kernel.errors import Conflict, Invalid
from app.kernel.identity import Identity
from app.kernel.timesource import now
from app.match import store, why
from games import IllegalMove, State, registry

MAX_PLIES = 8
"""Plies in one line: four pairs of their move and your reply."""
MAX_LINES = 16

TABLE = MatchConditional.__table__
_READ = select(TABLE.c.seat, TABLE.c.user_id, TABLE.c.base_ply, TABLE.c.lines)


def supports(game_id: str) -> bool:
    """Whether a game takes conditional moves: two players, nothing hidden, no chance."""
    game = registry.get(game_id)
    return game.max_players == 2 and not game.hidden_information and not game.has_chance


def applies(match: store.AnyMatch) -> bool:
    """Whether this match may hold conditional moves: a correspondence game that takes them."""
    return (match.time_control is not None
            and match.time_control.get("kind") == "correspondence" and supports(match.game))


# -- the move path -----------------------------------------------------------------------------

@dataclass
class _Lines:
    seat: int
    base_ply: int
    lines: list[list[str]]


@dataclass
class Plan:
    """The stored lines of a match at the start of a move's transaction (row lock held)."""

    match_id: str
    ply: int
    rows: dict[int, _Lines]

    def follow(self, state: State, played: Sequence[str]) -> tuple[int, str] | None:
        """The reply the seat to move has set for the moves ``played`` so far in this commit
        (from the match's ply), or None."""
        seat = state.to_move
        if seat is None:
            return None
        row = self.rows.get(seat)
        if row is None or row.base_ply != self.ply or state.is_over:
            return None
        depth = len(played)
        for line in row.lines:
            if len(line) > depth and line[:depth] == list(played):
                try:
                    return seat, state.parse_move(line[depth])
                except IllegalMove:
                    return None  # cannot happen for a checked line; never a reason to refuse
        return None

    def settle(self, session: Session, played: Sequence[str], finished: bool) -> None:
        """Write what is left of each seat's lines after ``played``, in the move's transaction."""
        played = list(played)
        depth = len(played)
        for row in self.rows.values():
            left = [] if finished or row.base_ply != self.ply else [
                line[depth:] for line in row.lines
                if len(line) > depth and line[:depth] == played]
            if left:
                session.execute(update(TABLE).where(
                    TABLE.c.match_id == self.match_id, TABLE.c.seat == row.seat)
                    .values(base_ply=self.ply + depth, lines=left, updated_at=now()))
            else:
                session.execute(delete(TABLE).where(
                    TABLE.c.match_id == self.match_id, TABLE.c.seat == row.seat))


def plan(session: Session, match: store.AnyMatch) -> Plan | None:
    """The lines a move of ``match`` must follow, read under the match's row lock; None when
    the match takes none or none are set. A move on PostgreSQL's single statements is played
    again in a transaction (``store.NeedsTransaction``): the lines and the move commit together.
    """
    if not applies(match):
        return None
    if session.info.get(store.SINGLE_STATEMENT) is not None:
        raise store.NeedsTransaction
    store.lock(session, match.id)
    rows = session.execute(_READ.where(TABLE.c.match_id == match.id)).all()
    if not rows:
        return None
    return Plan(match.id, match.ply, {row.seat: _Lines(row.seat, row.base_ply, list(row.lines))
                                      for row in rows})


def clear(session: Session, match: store.AnyMatch) -> None:
    """Drop every line of the match (a takeback, the end of the game), in the caller's
    transaction."""
    if applies(match):
        session.execute(delete(TABLE).where(TABLE.c.match_id == match.id))


# -- the owner's API ---------------------------------------------------------------------------

def _owner_seat(match: store.AnyMatch, user: Identity) -> int:
    seat = store.seat_of(match, user)
    if not supports(match.game):
        raise Conflict("This game takes no conditional moves.", code="no_conditional_moves")
    if match.time_control is None or match.time_control.get("kind") != "correspondence":
        raise Conflict("Conditional moves are for correspondence games.",
                       code="no_conditional_moves")
    return seat


def read(session: Session, match_id: str, user: Identity) -> dict[str, Any]:
    """The caller's lines as of the match's ply (none once the game moved off them)."""
    match = store.read(session, match_id)
    seat = _owner_seat(match, user)
    row = session.execute(_READ.where(TABLE.c.match_id == match_id,
                                      TABLE.c.seat == seat)).first()
    lines = [] if row is None or row.base_ply != match.ply or match.status != "active" \
        else list(row.lines)
    return {"ply": match.ply, "lines": lines}


def _checked(state: State, seat: int, lines: list[list[str]]) -> list[list[str]]:
    """The lines in canonical notation; Invalid ``illegal_conditional`` with the line, the
    move and the engine's reason for the first that is not legal, or for a line that does not
    end with the owner's reply or contradicts another."""
    if len(lines) > MAX_LINES:
        raise Invalid(f"At most {MAX_LINES} lines.", code="too_many_conditionals")
    checked: list[list[str]] = []
    for number, line in enumerate(lines, 1):
        if not 2 <= len(line) <= MAX_PLIES:
            raise Invalid(f"Line {number}: between 2 and {MAX_PLIES} moves.",
                          code="illegal_conditional")
        position, canonical = state, []
        for ply, text in enumerate(line, 1):
            try:
                move = position.parse_move(text)
                position = position.play(move)
            except IllegalMove as error:
                reason = why.illegal_move_error(state.game_id, error).message
                raise Invalid(f"Line {number}, move {ply}: {reason}",
                              code="illegal_conditional") from None
            canonical.append(move)
        if position.to_move == seat:
            raise Invalid(f"Line {number}: end it with your own reply.",
                          code="illegal_conditional")
        checked.append(canonical)
    _consistent(state, seat, checked)
    return _without_prefixes(checked)


def _consistent(state: State, seat: int, lines: list[list[str]]) -> None:
    """Two lines that agree up to a position where the owner moves must reply alike."""
    replies: dict[tuple[str, ...], str] = {}
    for number, line in enumerate(lines, 1):
        position = state
        for depth, move in enumerate(line):
            if position.to_move == seat:
                key = tuple(line[:depth])
                if replies.setdefault(key, move) != move:
                    raise Invalid(f"Line {number} answers the same moves differently.",
                                  code="conflicting_conditionals")
            position = position.play(move)


def _without_prefixes(lines: list[list[str]]) -> list[list[str]]:
    """Each line once; a line that another continues is kept only inside it."""
    unique = list(dict.fromkeys(tuple(line) for line in lines))
    return [list(line) for line in unique
            if not any(len(other) > len(line) and other[:len(line)] == line for other in unique)]


def write(session: Session, match_id: str, user: Identity, ply: int,
          lines: list[list[str]]) -> dict[str, Any]:
    """Replace the caller's lines, checked from the position at ``ply`` (which must still be
    the match's: 409 ``stale_ply``), under the match's row lock so a move cannot slip between
    the check and the write. Only while the opponent is to move (409 ``your_turn``)."""
    store.lock(session, match_id)
    match = store.read(session, match_id)
    seat = _owner_seat(match, user)
    store.require_active(match)
    if ply != match.ply:
        session.rollback()
        raise Conflict(f"The match is at ply {match.ply}, not {ply}: refresh and try again.",
                       code="stale_ply")
    state = store.state_of(match)
    if state.to_move == seat and lines:
        session.rollback()
        raise Conflict("It is your turn: play your move.", code="your_turn")
    checked = _checked(state, seat, lines)
    session.execute(delete(TABLE).where(TABLE.c.match_id == match_id, TABLE.c.seat == seat))
    if checked:
        session.execute(insert(TABLE).values(match_id=match_id, seat=seat, user_id=user.id,
                                             base_ply=match.ply, lines=checked,
                                             updated_at=now()))
    session.commit()
    return {"ply": match.ply, "lines": checked}



def write_empty(session: Session, match_id: str, user: Identity) -> dict[str, Any]:
    """Remove the caller's lines (at any ply, whoever is to move)."""
    match = store.read(session, match_id)
    seat = _owner_seat(match, user)
    session.execute(delete(TABLE).where(TABLE.c.match_id == match_id, TABLE.c.seat == seat))
    session.commit()
    return {"ply": match.ply, "lines": []}
