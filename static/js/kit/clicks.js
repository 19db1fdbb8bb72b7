// @ts-check
// What a click means, as the server says (pure). A game's view carries `clicks`: a map from what
// can be clicked first to either the move it plays or, for two-step moves, a map from the second
// click to the move, e.g. {"a1": {"b2": "a1-b2"}, "c3": "c3"}. Renderers never build move strings.

/**
 * The view's `clicks`: what can be clicked next, each leading to a move or to a further step.
 * @typedef {{[name: string]: string | Clicks}} Clicks
 *
 * @typedef {object} ClickStep
 * @property {Record<string, string | null>} targets  what may be clicked next: its move, or null
 * @property {string | null} move                     the move the path completes
 * @property {boolean} valid                          whether the path is one the clicks allow
 */

/** Where the clicks so far (`path`) lead: {targets: {name: move | null}, move: string | null}.
 * A target whose value is null opens a further step; `move` is set once a move is complete.
 * @param {Clicks | null | undefined} clicks
 * @param {string[]} [path]
 * @returns {ClickStep} */
export function clickStep(clicks, path = []) {
  /** @type {Clicks | string | null} */
  let node = clicks ?? {};
  for (const name of path) {
    if (node === null || typeof node !== "object" || !(name in node)) return { targets: {}, move: null, valid: false };
    node = node[name];
  }
  if (typeof node === "string") return { targets: {}, move: node, valid: true };
  /** @type {Record<string, string | null>} */
  const targets = {};
  for (const [name, next] of Object.entries(node ?? {})) targets[name] = typeof next === "string" ? next : null;
  return { targets, move: null, valid: true };
}

/** Every move reachable by clicks (the rest of the legal moves need buttons).
 * @param {Clicks | string | null | undefined} clicks
 * @returns {string[]} */
export function clickMoves(clicks) {
  if (typeof clicks === "string") return [clicks];
  return Object.values(clicks ?? {}).flatMap(clickMoves);
}

/** Legal moves no click reaches, in the server's order: they become buttons under the board.
 * @param {string[] | null | undefined} legalMoves
 * @param {Clicks | null | undefined} clicks
 * @returns {string[]} */
export function buttonMoves(legalMoves, clicks) {
  const reachable = new Set(clickMoves(clicks));
  return (legalMoves ?? []).filter((move) => !reachable.has(move));
}
