// Whose turn it is, from a match payload (pure).

/** Whether the viewer may move now: the game is in play and the seat to move is theirs. */
export function isMyTurn(match) {
  return Boolean(match) && match.status === "active" && match.your_seat !== null
    && match.your_seat !== undefined && match.to_move === match.your_seat;
}

/** The display name of a seat's player, or `fallback` for an open seat. */
export function playerName(match, seat, fallback = "—") {
  return match?.seats?.[seat]?.user?.name ?? fallback;
}

/** Legal moves the viewer may play now (none when it is not their turn or the board is read-only). */
export function myMoves(match, readOnly = false) {
  return !readOnly && isMyTurn(match) ? match.legal_moves ?? [] : [];
}
