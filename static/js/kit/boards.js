// Loading a game's renderer and mounting it, live or read-only.
//
// ---- The renderer contract (every static/games/<id>/board.js, and the generic one) -------------
/**
 * @typedef {object} BoardPayload  What a board draws: the match payload of GET /api/v1/matches/{id}
 *   and of the sockets, or a stand-in built by viewPayload() from a bare view.
 * @property {object} view             the game's view for this viewer (games/<id>/engine.py view()):
 *                                     what to draw, `clicks` (what a click plays) and running scores
 * @property {string[]} legal_moves    the viewer's legal moves (empty unless it is their turn)
 * @property {string} status           "waiting" | "active" | "finished" | "aborted"
 * @property {number|null} to_move     seat to move
 * @property {number|null} your_seat   the viewer's seat (null: spectator)
 * @property {Array<{seat: number, user: ?{name: string}}>} seats
 * @property {number} ply
 * @property {?object} result          {winners, ranking, scores, reason, details} once finished
 *
 * @typedef {object} BoardContext
 * @property {(move: string) => Promise<void>} submit  play a move; settles when the server answered
 * @property {(msgid: string, values?: object) => string} t  translate (kit/i18n.js)
 * @property {HTMLElement} actions    a strip outside the board for the hint line and move buttons
 * @property {boolean} [readOnly]     draw the position only: no clicks, buttons, hints or side
 *                                    panels (Watch thumbnails, replays, rules diagrams)
 *
 * @typedef {object} Board
 * @property {(payload: BoardPayload) => void} update  draw this payload (called on every change)
 * @property {() => void} destroy                      remove everything the board added
 * @property {(squares?: string[], kind?: string) => void} [mark]  optional: outline `squares` with
 *                                     class `mark-<kind>` (replacing that kind's); no argument clears
 *
 * @callback MountBoard
 * @param {HTMLElement} root   an empty element the board fills
 * @param {BoardContext} ctx
 * @returns {Board}
 *
 * A renderer module exports `mountBoard` (a MountBoard) and may export
 * `seatInfo(payload, seat) -> {label, colour}` (the seat's colour swatch and its name) and
 * `tapAttributes` (string[]): the data-* attributes (without "data-") whose values name what a tap
 * chose — a square, point, slot or card, as the view's `clicks` map names it. "Why not here"
 * (static/js/why.js) reads them to ask the server about a refused tap; a board without them
 * gives no reasons.
 */
import { t } from "./i18n.js";

const GENERIC_BOARD = "/static/games/generic/board.js";
const loaded = new Map();

/** The renderer module at `url` (cached); the generic renderer if it cannot be loaded. */
export function loadRenderer(url = GENERIC_BOARD) {
  if (!loaded.has(url)) {
    loaded.set(url, import(url).catch((error) => {
      console.warn(`board renderer ${url} failed to load; using the generic one`, error);
      return import(GENERIC_BOARD);
    }));
  }
  return loaded.get(url);
}

/** A payload for drawing a bare view read-only (rules diagrams, replays): nobody's turn. Pure. */
export function viewPayload(view, extra = {}) {
  return {
    view, legal_moves: [], status: "finished", to_move: null, your_seat: null, seats: [],
    ply: view?.ply ?? 0, result: null, last_move: null, ...extra,
  };
}

/** Mount `module`'s board in `root` read-only (no clicks, buttons or hints); returns the Board. */
export function mountReadOnly(root, module) {
  const actions = document.createElement("div");
  actions.hidden = true;
  return module.mountBoard(root, { submit: async () => {}, t, actions, readOnly: true });
}

/** Draw a bare view read-only (a diagram):
 *   mountView(root, await loadRenderer(game_assets(id).board), view)
 * `extra` overrides payload fields, e.g. {your_seat: 1} to see it from the second seat. */
export function mountView(root, module, view, extra = {}) {
  const board = mountReadOnly(root, module);
  board.update(viewPayload(view, extra));
  return board;
}

/** A board's destroy(), for renderers that only add children to root. */
export function clearer(root, ...extra) {
  return () => { root.replaceChildren(); for (const node of extra) node?.replaceChildren?.(); };
}
