// @ts-check
// What the analysis board sends for a position (pure, tested in tests/js/analysis.test.mjs).
// Every answer of POST /api/v1/analysis/board carries `state`, the position signed by the server:
// a move played on a position the page already has goes as {game, state, move}, so the server
// does not replay the whole line; anything else (a first load, a jump) sends the move list.

/** The request body for the position after `moves` (+ `move`); `known` is the answer already
 * received for `moves`, if any. */
export function boardBody(start, moves, move, known) {
  if (move && known?.state && known.moves?.length === moves.length) {
    return { ...(start.game ? { game: start.game } : {}), state: known.state, move };
  }
  return { ...start, moves, ...(move ? { move } : {}) };
}

/** Errors after which a signed state is dropped and the move list sent instead (the token
 * expired, or the server's secret changed since it was made). */
export function stateRefused(error) {
  return ["invalid_state", "state_expired"].includes(error?.code);
}
