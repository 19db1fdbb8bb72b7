// @ts-check
// Scalas board: an isometric 3D view of the cube towers (default) or a flat height map (toggle,
// remembered in localStorage). Tap a highlighted square to place a cube; during forced placements
// the glowing targets are filled one tap at a time, in the order the player likes. What a tap
// plays comes from the view's `clicks`. Geometry: geometry.js; drawing: cubes.js, iso.js,
// flat.js; the bar, buttons and hint: panel.js.
// Test hooks: [data-square] groups with data-height / data-top, classes "legal" / "target" /
// "clickable", data-pending on forced targets; [data-hand], [data-tops], [data-view-toggle],
// .scalas-last on the last placed cube, button[data-move="pass"], root data-view="iso"|"flat".
import {
  buttonMoves, cellName, clearer, el, focusGrid, isMyTurn, moveAnnouncer, moveButtons, movePhrase, myMoves, N_, stackKeyHelp,
  stackReading, svg, t,
} from "/static/js/kit/index.js";

import { SWATCH } from "./cubes.js";
import { drawFlat } from "./flat.js";
import { startView } from "./geometry.js";
import { drawIso } from "./iso.js";
import { buildBar, buildFoot, drawBar, hintText, say } from "./panel.js";

/** @import { BoardPayload, SeatInfo } from "/static/js/kit/boards.js" */
/** @typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked  this module is a renderer (kit/boards.js) */

const STORAGE_KEY = "stepwell.scalas.view";
const TURN_KEY = "stepwell.scalas.turn";
const PHONE = "(max-width: 600px)"; // phones start in the flat view (the 3D one is small there)
const CUBE_WORDS = { red: N_("red"), blue: N_("blue") };
const STATE_WORDS = { legal: N_("place here"), forced: N_("forced placement"), last: N_("last move"), placed: N_("{square}, height {h}") };
const PLACE_WORDS = { cube: N_("a cube on {square}"), pass: N_("Pass") };


/** A placement in words, from the position after it: "c3, height 2". */
function describe(move, payload) {
  const square = payload.view?.squares?.find((s) => s.name === move);
  return square ? t(STATE_WORDS.placed, { square: move, h: square.height }) : movePhrase(move);
}

/** A move in words, for the move preview's title (kit/boards.js): "a cube on c3", "Pass".
 * @param {string} move */
export function describeMove(move) {
  return move === "pass" ? t(PLACE_WORDS.pass) : t(PLACE_WORDS.cube, { square: move });
}

/** "c3, red, height 2, place here": the square, its top cube, height and what a tap does. */
function squareName(square, match, info) {
  const states = [];
  if (info.pending[square.name]) states.push(t(STATE_WORDS.forced));
  else if (info.legal.has(square.name)) states.push(t(STATE_WORDS.legal));
  if (info.last === square.name) states.push(t(STATE_WORDS.last));
  const colour = square.top === null ? null : t(CUBE_WORDS[match.view.colours[square.top]]);
  return cellName({ square: square.name, colour, height: square.height, states });
}

/** What a tap chose, for "why not here" (static/js/why.js): the flat board's squares, the 3-D view's cube bodies and towers. */
export const tapAttributes = ["square", "body", "tower"];

/** @type {SeatInfo} */
export function seatInfo(match, seat) {
  const colour = match.view?.colours?.[seat] ?? (seat === 0 ? "red" : "blue");
  return { label: say(colour), colour: SWATCH[colour] };
}

const remembered = (key, read) => { try { return read(localStorage.getItem(key)); } catch { return read(null); } };
const remember = (key, value) => { try { localStorage.setItem(key, String(value)); } catch { /* private mode */ } };

/** What each square needs drawn: legal (clickable) squares, forced counts, the last placement.
 * A move's preview (static/js/preview.js) keeps its square tappable, so that tapping the same spot
 * again reaches it even where the new cube now stands higher. */
function marks(match, mine) {
  const view = match.view;
  const previewed = view.squares.some((s) => s.name === match.preview?.move) ? [match.preview.move] : [];
  const legal = new Set(mine ? Object.keys(view.clicks ?? {}) : previewed);
  const pending = {};
  if (match.status === "active") for (const name of view.pending ?? []) pending[name] = (pending[name] ?? 0) + 1;
  const last = view.last_marks?.[0] ?? null; // the square of the last placement
  return { legal, pending, last };
}

/** The test hooks and, on legal squares, the tap and keyboard handling. */
function decorator(match, info, play) {
  return (group, square) => {
    group.dataset.square = square.name;
    group.dataset.height = square.height;
    group.dataset.top = square.top === null ? "" : match.view.colours[square.top];
    const count = info.pending[square.name];
    if (count) { group.classList.add("target"); group.dataset.pending = count; }
    if (info.legal.has(square.name)) {
      group.classList.add(count ? "forced" : "legal", "clickable");
      const move = match.view.clicks?.[square.name];
      if (move) group.addEventListener("click", (event) => { event.stopPropagation(); play(move); });
    }
    group.setAttribute("aria-label", squareName(square, match, info));
    if (info.last === square.name) group.classList.add("last");
  };
}

/** @type {import("/static/js/kit/boards.js").MountBoard} */
export function mountBoard(root, ctx) {
  const frame = el("div", { class: "scalas" }, root);
  const bar = buildBar(frame);
  const canvas = svg("svg", { role: "img", "aria-label": say("board"), class: "scalas-svg" }, frame);
  const foot = buildFoot(frame, Boolean(ctx.readOnly));
  const parts = { ...bar, ...foot };
  let mode = remembered(STORAGE_KEY, (value) => startView(value, window.matchMedia?.(PHONE).matches));
  let turn = remembered(TURN_KEY, (value) => Number(value) % 4 || 0); // quarter turns of the 3D view
  /** @type {BoardPayload | null} */
  let match = null;
  let busy = false;
  const announcer = moveAnnouncer(ctx, { describe, seatLabel: (payload, seat) => seatInfo(payload, seat).label });
  const keys = ctx.readOnly ? null : focusGrid(canvas, {
    label: say("board"),
    readers: [{ key: "s", help: stackKeyHelp(), read: readStack }],
  });

  /** The tower on `name`, bottom to top (the S key): each cube's colour. @param {string} name */
  function readStack(name) {
    const square = match?.view.squares.find((s) => s.name === name);
    if (!match || !square) return null;
    const colours = match.view.colours;
    return stackReading(name, square.column.map((owner) => t(CUBE_WORDS[colours[owner]])));
  }

  async function play(move) {
    if (busy) return;
    busy = true;
    try { await ctx.submit(move); } finally { busy = false; render(); }
  }

  function render() {
    if (!match) return;
    const mine = !ctx.readOnly && isMyTurn(match);
    const info = marks(match, mine);
    frame.dataset.view = mode;
    frame.dataset.size = match.view.size;
    canvas.replaceChildren();
    canvas.classList.toggle("my-turn", mine);
    const decorate = decorator(match, info, play);
    const view = match.view;
    const cells = mode === "iso" ? drawIso(canvas, view, info, { turn, decorate, play: (name) => { if (mine) play(view.clicks[name]); } })
      : drawFlat(canvas, match.view, info, { decorate });
    keys?.attach(cells.map((cell) => ({ ...cell, label: cell.node.getAttribute("aria-label") })));
    drawBar(parts, match, mode);
    parts.hint.say(hintText(match, { mine }));
    ctx.actions.replaceChildren();
    const moves = buttonMoves(myMoves(match, ctx.readOnly), match.view.clicks);
    moveButtons(ctx.actions, moves, { submit: play, label: (move) => t(move === "pass" ? "Pass" : move), disabled: busy });
  }

  parts.toggle.addEventListener("click", () => { mode = mode === "iso" ? "flat" : "iso"; remember(STORAGE_KEY, mode); render(); });
  parts.rotate.addEventListener("click", () => { turn = (turn + 1) % 4; remember(TURN_KEY, turn); render(); });

  return {
    update(next) { match = next; render(); announcer.update(next); },
    destroy: clearer(root, ctx.actions),
  };
}

export { explainResult } from "./explain.js"; // the match page's result in words
