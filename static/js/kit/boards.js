// @ts-check
// Loading a game's renderer and mounting it, live or read-only.
//
// ---- The renderer contract (every static/games/<id>/board.js, and the generic one) -------------
// These typedefs are the contract tsc checks (`make test`): each renderer declares, at its top,
//   /** @typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked */
// so a renderer missing `mountBoard`, or exporting one of the names below with another shape,
// fails the type check.
/**
 * @typedef {Record<string, any>} GameView  the game's view for this viewer
 *   (games/<id>/engine.py view()): what to draw, `clicks` (what a click plays) and running scores;
 *   its fields are the game's own.
 *
 * @typedef {object} SeatUser
 * @property {string} name
 * @property {string|number} [id]
 * @property {string} [kind]          "bot" for a program
 * @property {import("./rating.js").Rating | null} [rating]  where the page shows ratings
 *
 * @typedef {object} SeatEntry
 * @property {number} seat
 * @property {?SeatUser} user         null: an open seat
 *
 * @typedef {object} LastMove
 * @property {number} seat
 * @property {string} move
 * @property {number} [ply]
 *
 * @typedef {object} MatchResult
 * @property {number[]} winners
 * @property {string} [reason]
 * @property {string} [reason_label]
 * @property {number[]} [ranking]
 * @property {number[]} [scores]
 * @property {Record<string, any>} [details]  the engine's facts behind the result
 * @property {{seat: number, before: number, after: number, delta: number}[] | null} [rating_changes]
 *   a rated game's rating change per seat
 *
 * @typedef {object} BoardPayload  What a board draws: the match payload of GET /api/v1/matches/{id}
 *   and of the sockets, or a stand-in built by viewPayload() from a bare view.
 * @property {GameView} view
 * @property {string[]} legal_moves    the viewer's legal moves (empty unless it is their turn)
 * @property {string} status           "waiting" | "active" | "finished" | "aborted"
 * @property {number|null} to_move     seat to move
 * @property {number|null} your_seat   the viewer's seat (null: spectator)
 * @property {SeatEntry[]} seats
 * @property {number} ply
 * @property {?MatchResult} result     once finished
 * @property {?LastMove} [last_move]
 * @property {string} [id]             the match's id (absent on a bare view)
 * @property {boolean} [analysis]      the analysis board: the viewer sits at every turn
 * @property {{move: string, changes: {kind: string, message: string, targets?: string[]}[]}} [preview]
 *   set when the board draws a move's preview (static/js/preview.js): the position after `move`,
 *   drawn at the live ply with no legal moves; a board keeps its selection for when it ends
 *
 * @typedef {object} BoardContext
 * @property {(move: string) => Promise<unknown>} submit  play a move; settles when the server answered
 * @property {(msgid: string, values?: Record<string, unknown>) => string} t  translate (kit/i18n.js)
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
 * @callback SeatInfo  a seat's colour swatch and its name (the match page's player list)
 * @param {BoardPayload} payload
 * @param {number} seat
 * @returns {{label: string, colour: string}}
 *
 * @typedef {object} ResultStep  one step of how the result was decided
 * @property {string} text
 * @property {boolean} decided                       this step decided it
 * @property {Record<string, string[]>} [marks]      squares to outline on the final position, by kind
 *
 * @callback ExplainResult  the match page's step-by-step result (empty: nothing to explain)
 * @param {BoardPayload} match
 * @param {(seat: number) => string} nameOf  a seat's player name
 * @returns {ResultStep[]}
 *
 * @typedef {object} Renderer  what a renderer module exports
 * @property {MountBoard} mountBoard
 * @property {SeatInfo} [seatInfo]
 * @property {readonly string[]} [tapAttributes]  the data-* attributes (without "data-") whose
 *   values name what a tap chose — a square, point, slot or card, as the view's `clicks` map
 *   names it. "Why not here" (static/js/why.js) reads them to ask the server about a refused tap;
 *   a board without them gives no reasons.
 * @property {ExplainResult} [explainResult]
 * @property {(move: string, payload: BoardPayload) => string} [describeMove]  a move in words
 *   ("a1 to b2", "P3 to c2"): the move preview's title (static/js/preview.js)
 */
/**
 * A renderer module's own type, checked against the contract (see above).
 * @template {Renderer} T
 * @typedef {T} Implements
 */
import { t } from "./i18n.js";

const GENERIC_BOARD = "/static/games/generic/board.js";
/** @type {Map<string, Promise<Renderer>>} */
const loaded = new Map();

/** The renderer module at `url` (cached); the generic renderer if it cannot be loaded.
 * @param {string} [url]
 * @returns {Promise<Renderer>} */
export function loadRenderer(url = GENERIC_BOARD) {
  if (!loaded.has(url)) {
    loaded.set(url, import(url).catch((error) => {
      console.warn(`board renderer ${url} failed to load; using the generic one`, error);
      return import(GENERIC_BOARD);
    }));
  }
  return /** @type {Promise<Renderer>} */ (loaded.get(url));
}

/** A payload for drawing a bare view read-only (rules diagrams, replays): nobody's turn. Pure.
 * @param {GameView} view
 * @param {Partial<BoardPayload>} [extra]
 * @returns {BoardPayload} */
export function viewPayload(view, extra = {}) {
  return {
    view, legal_moves: [], status: "finished", to_move: null, your_seat: null, seats: [],
    ply: view?.ply ?? 0, result: null, last_move: null, ...extra,
  };
}

/** Mount `module`'s board in `root` read-only (no clicks, buttons or hints); returns the Board.
 * @param {HTMLElement} root
 * @param {Renderer} module
 * @returns {Board} */
export function mountReadOnly(root, module) {
  const actions = document.createElement("div");
  actions.hidden = true;
  return module.mountBoard(root, { submit: async () => {}, t, actions, readOnly: true });
}

/** Draw a bare view read-only (a diagram):
 *   mountView(root, await loadRenderer(game_assets(id).board), view)
 * `extra` overrides payload fields, e.g. {your_seat: 1} to see it from the second seat.
 * @param {HTMLElement} root
 * @param {Renderer} module
 * @param {GameView} view
 * @param {Partial<BoardPayload>} [extra]
 * @returns {Board} */
export function mountView(root, module, view, extra = {}) {
  const board = mountReadOnly(root, module);
  board.update(viewPayload(view, extra));
  return board;
}

/** A board's destroy(), for renderers that only add children to root.
 * @param {Element} root
 * @param {...(Element | null | undefined)} extra
 * @returns {() => void} */
export function clearer(root, ...extra) {
  return () => { root.replaceChildren(); for (const node of extra) node?.replaceChildren?.(); };
}
