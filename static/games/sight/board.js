// @ts-check
// Sight board: a 5×5 Alquerque board of points; stacks drawn as piles of discs with a numeral.
// Placement phase: tap any empty point. Move phase: pick one of the highlighted tallest stacks,
// then an adjacent empty point (or drag it there with a mouse); the view's `clicks` says which
// move each click plays. Under the mouse or the keyboard focus, a target shows which of your
// pieces it would grow (view.growth) and the lines of sight to them; a move waiting for its
// confirmation (static/js/preview.js, the "Confirm moves" setting) is drawn by the page.
// Drawing: pieces.js; input: input.js.
import { clearer, dragMoves, focusGrid, moveAnnouncer, N_, stackKeyHelp, stackReading, svg, t } from "/static/js/kit/index.js";

import { pointGrid, WIDTH } from "./geometry.js";
import { drawActions, drawHits, options } from "./input.js";
import { drawBase, drawMarks, drawPieces, drawPreview } from "./pieces.js";

/** @import { BoardContext, BoardPayload, SeatInfo } from "/static/js/kit/boards.js" */
/** @typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked  this module is a renderer (kit/boards.js) */
/**
 * A move under consideration: played by `move`, from `source` (null when placing) to `target`.
 * @typedef {{move: string, source: string | null, target: string}} Preview
 *
 * The board's state, shared with input.js.
 * @typedef {object} SightBoard
 * @property {BoardContext} ctx
 * @property {SVGSVGElement} canvas
 * @property {Record<string, SVGGElement>} layers
 * @property {BoardPayload | null} match  the payload drawn (set before anything is drawn)
 * @property {string | null} selected     the stack picked in the move phase
 * @property {Preview | null} hovered     the move previewed under the mouse or focus
 * @property {Record<string, any>} tops   the top of each stack, as drawPieces() found them
 * @property {string | null} shownActions what the action strip shows (redrawn only on change)
 */

const COLOURS = { light: N_("Light"), dark: N_("Dark") };
const PIECE_WORDS = { light: N_("light"), dark: N_("dark") };

/** What a tap chose, for "why not here" (static/js/why.js): the points. */
export const tapAttributes = ["point"];

/** @type {SeatInfo} */
export function seatInfo(match, seat) {
  const colour = match.view?.colours?.[seat] ?? (seat === 0 ? "light" : "dark");
  return { label: t(COLOURS[colour]), colour: colour === "light" ? "#f4eee1" : "#3a3330" };
}

/** @param {SVGSVGElement} canvas */
function layers(canvas) {
  /** @type {Record<string, SVGGElement>} */
  const named = {};
  for (const name of ["base", "marks", "sightLines", "pieces", "badges", "hits"]) {
    named[name] = svg("g", { class: `sight-${name}` }, canvas);
  }
  for (const name of ["sightLines", "pieces", "badges"]) named[name].setAttribute("pointer-events", "none");
  return named;
}

/** @type {import("/static/js/kit/boards.js").MountBoard} */
export function mountBoard(root, ctx) {
  const canvas = svg("svg", { viewBox: `0 0 ${WIDTH} ${WIDTH}`, role: "img", "aria-label": t("Sight board"), class: "sight-board" }, root);
  // selected: the stack picked in the move phase; hovered: a move ({move, source, target})
  // under the mouse or the focus, its growth drawn.
  /** @type {SightBoard} */
  const board = { ctx, canvas, layers: layers(canvas), match: null, selected: null, hovered: null,
    tops: {}, shownActions: null };
  const reset = () => { board.selected = null; board.hovered = null; };
  const announcer = moveAnnouncer(ctx, { seatLabel: (payload, seat) => seatInfo(payload, seat).label });
  const keys = ctx.readOnly ? null : focusGrid(canvas, {
    label: t("Sight board"),
    cancel: () => { if (board.selected) { reset(); draw(); } },
    readers: [{ key: "s", help: stackKeyHelp(), read: readStack }],
  });
  // a mouse may drag the top piece of a movable stack onto an empty neighbour (kit/drag.js)
  if (!ctx.readOnly) {
    dragMoves(canvas, {
      source: (node) => node.closest("g.sight-point.movable"),
      key: (node) => node.getAttribute("data-point"),
      selected: (point) => point === board.selected,
      node: (point) => board.layers.hits.querySelector(`[data-point="${point}"]`),
      target: (node) => node.closest("g.sight-point.target"),
    });
  }

  /** The stack on `point`, bottom to top (the S key): all one colour in Sight. @param {string} point */
  function readStack(point) {
    const stack = board.match?.view.board[point];
    if (!board.match || stack === undefined) return null;
    return stackReading(point, stack ? Array(stack.height).fill(t(PIECE_WORDS[stack.colour])) : []);
  }

  function preview() {
    const { match, layers: l } = board;
    if (!match) return;
    const shown = match.preview ? null : board.hovered; // a previewed move draws the position after it
    canvas.dataset.preview = shown?.move ?? "";
    const colour = (match.your_seat === null ? null : match.view.colours?.[match.your_seat]) ?? "light";
    const grows = drawPreview(l.sightLines, l.badges, match.view, pointGrid(match), { preview: shown, tops: board.tops, colour });
    for (const group of l.hits.querySelectorAll(".preview-grow")) group.classList.remove("preview-grow");
    for (const point of shown ? grows : []) l.hits.querySelector(`[data-point="${point}"]`)?.classList.add("preview-grow");
    drawActions(board, shown ? grows : null);
  }

  function draw() {
    const { match, layers: l } = board;
    if (!match) return;
    const grid = pointGrid(match);
    const choices = options(board);
    drawBase(l.base, match.view, grid);
    const last = drawMarks(l.marks, match.view, grid, { ...choices, selected: board.selected });
    board.tops = drawPieces(l.pieces, match.view, grid);
    const cells = drawHits(l.hits, board, grid, choices, last, { onPoint, onPreview: preview });
    preview();
    keys?.attach(cells);
  }

  function onPoint(point) {
    const { sources, targets } = options(board);
    const move = targets[point];
    if (move) { ctx.submit(move); return; } // the selection stays while a preview waits
    board.hovered = null;
    if (point in sources) board.selected = board.selected === point ? null : point;
    draw();
  }

  canvas.addEventListener("click", () => { if (board.selected) { reset(); draw(); } });

  return {
    update(next) {
      const previous = board.match;
      if (!previous || next.ply !== previous.ply || next.your_seat !== previous.your_seat) reset();
      board.match = next;
      canvas.dataset.phase = next.view.phase ?? "over";
      draw();
      announcer.update(next);
    },
    destroy: clearer(root, ctx.actions),
  };
}

export { explainResult } from "./explain.js"; // the match page's result in words
