// @ts-check
// Sight board: a 5×5 Alquerque board of points; stacks drawn as piles of discs with a numeral.
// Placement phase: tap any empty point. Move phase: pick one of the highlighted tallest stacks,
// then an adjacent empty point (the view's `clicks` says which move each click plays). Before a
// move is committed the board previews which of your pieces it would grow (view.growth) and draws
// the lines of sight to them: on hover with a mouse, or on a first tap on touch screens (tap
// again, or press the confirm button, to play it). Drawing: pieces.js; input: input.js.
import { clearer, focusGrid, moveAnnouncer, N_, svg, t } from "/static/js/kit/index.js";

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
 * @property {Preview | null} pending     the move tapped once, waiting for confirmation
 * @property {string} pointerType         how the last tap came: "mouse", "touch", "pen", "keyboard"
 * @property {Record<string, any>} tops   the top of each stack, as drawPieces() found them
 * @property {string | null} shownActions what the action strip shows (redrawn only on change)
 */

const COLOURS = { light: N_("Light"), dark: N_("Dark") };

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
  // selected: the stack picked in the move phase; hovered / pending: a previewed move
  // ({move, source, target}) under the mouse or focus / tapped once, waiting for confirmation.
  /** @type {SightBoard} */
  const board = { ctx, canvas, layers: layers(canvas), match: null, selected: null, hovered: null,
    pending: null, pointerType: "mouse", tops: {}, shownActions: null };
  const reset = () => { board.selected = null; board.pending = null; board.hovered = null; };
  const announcer = moveAnnouncer(ctx, { seatLabel: (payload, seat) => seatInfo(payload, seat).label });
  const keys = ctx.readOnly ? null : focusGrid(canvas, {
    label: t("Sight board"),
    beforeClick: () => { board.pointerType = "keyboard"; },
    cancel: () => { if (board.selected || board.pending) { reset(); draw(); } },
  });

  function preview() {
    const { match, layers: l } = board;
    if (!match) return;
    const shown = board.pending ?? board.hovered;
    canvas.dataset.preview = shown?.move ?? "";
    const colour = (match.your_seat === null ? null : match.view.colours?.[match.your_seat]) ?? "light";
    const grows = drawPreview(l.sightLines, l.badges, match.view, pointGrid(match), { preview: shown, tops: board.tops, colour });
    for (const group of l.hits.querySelectorAll(".preview-grow")) group.classList.remove("preview-grow");
    for (const point of shown ? grows : []) l.hits.querySelector(`[data-point="${point}"]`)?.classList.add("preview-grow");
    drawActions(board, shown ? grows : null, { commit, cancel: () => { board.pending = null; preview(); } });
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
    if (move && (board.pointerType === "touch" || board.pointerType === "pen") && board.pending?.move !== move) {
      board.pending = { move, target: point, source: board.selected };
      preview();
    } else if (move) commit(move);
    else {
      board.pending = null;
      board.hovered = null;
      if (point in sources) board.selected = board.selected === point ? null : point;
      draw();
    }
  }

  function commit(move) {
    reset();
    draw();
    ctx.submit(move);
  }

  canvas.addEventListener("pointerdown", (/** @type {PointerEvent} */ event) => { board.pointerType = event.pointerType || "mouse"; });
  canvas.addEventListener("click", () => { if (board.pending || board.selected) { reset(); draw(); } });

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
