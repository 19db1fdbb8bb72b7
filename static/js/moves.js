// @ts-check
// Playing a move from the match page: over the match socket when it is open (one round trip, the
// new state follows on the same socket), over REST otherwise. No DOM access (tests/js drive it).

/** Play `move` at `ply`. Resolves with {match} (the updated match, from REST) or {ack} (the
 * socket's acknowledgement, {ply, …}: the state message follows on the socket). Rejects with the
 * server's typed error ({code, message}) either way; a socket that closed or went silent falls
 * back to REST.
 * @param {object} how
 * @param {import("./kit/socket.js").LiveSocket | null} [how.socket]  the match socket, if any
 * @param {boolean} [how.useSocket]  false: REST only
 * @param {(move: string, ply: number) => Promise<unknown>} how.rest  the REST call
 * @param {string} how.move
 * @param {number} how.ply
 * @returns {Promise<{ack: import("./kit/socket.js").SocketMessage} | {match: any}>} */
export async function sendMove({ socket, useSocket = true, rest, move, ply }) {
  if (useSocket && socket?.isOpen) {
    try {
      return { ack: await socket.request({ type: "move", move, ply }) };
    } catch (error) {
      const { code } = /** @type {{code?: string}} */ (error);
      if (code !== "closed" && code !== "no_answer") throw error;
    }
  }
  return { match: await rest(move, ply) };
}
