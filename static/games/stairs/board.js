// @ts-check
// Stairs board: 6×6 squares, each stack drawn as a pile of discs with its height as a numeral.
// Click a highlighted piece (it may move now), then one of the marked destinations; the view's
// `clicks` says which move that plays. Pass and swap are buttons under the board.
import {
  buttonMoves, cellName, clearer, clickStep, dragMoves, focusGrid, moveAnnouncer, moveButtons, movePhrase, myMoves, squareGrid,
  stackKeyHelp, stackReading, svg, t, N_,
} from "/static/js/kit/index.js";

export { explainResult } from "./explain.js"; // the match page's step-by-step result

/** @import { BoardPayload, SeatInfo } from "/static/js/kit/boards.js" */
/** @typedef {import("/static/js/kit/boards.js").Implements<typeof import("./board.js")>} Checked  this module is a renderer (kit/boards.js) */

const SIZE = 6;
const CELL = 64;
const MARGIN = 18;
const PIECE = { L: "var(--light-piece)", D: "var(--dark-piece)" };
const PIECE_EDGE = { L: "#9a8f7a", D: "#000" };
const BUTTON_WORDS = { pass: N_("Pass"), swap: N_("Swap colours") };
const COLOUR_WORDS = { light: N_("Light"), dark: N_("Dark") };
const PIECE_WORDS = { L: N_("light"), D: N_("dark") };
const STATE_WORDS = { movable: N_("can move"), selected: N_("selected"), target: N_("move here"), last: N_("last move") };

/** "c3, light, height 2, can move": the square, its top piece and height, what a click does. */
function squareName(square, stack, marks) {
  const states = [];
  if (square === marks.selected) states.push(t(STATE_WORDS.selected));
  else if (square in marks.pieces) states.push(t(STATE_WORDS.movable));
  if (square in marks.targets) states.push(t(STATE_WORDS.target));
  if (marks.last.includes(square)) states.push(t(STATE_WORDS.last));
  const top = stack[stack.length - 1];
  return cellName({ square, colour: top ? t(PIECE_WORDS[top]) : null, height: stack.length, states });
}

/** A move in words: "a1 to b2", "Pass", "Swap colours". */
function describe(move) {
  return BUTTON_WORDS[move] ? t(BUTTON_WORDS[move]) : movePhrase(move);
}

/** A move in words, for the move preview's title (kit/boards.js). @param {string} move */
export const describeMove = (move) => describe(move);

/** What a tap chose, for "why not here" (static/js/why.js): the squares. */
export const tapAttributes = ["square"];

/** @type {SeatInfo} */
export function seatInfo(match, seat) {
  const colour = match.view.colours?.[seat] ?? (seat === 0 ? "light" : "dark");
  return { label: t(COLOUR_WORDS[colour]), colour: colour === "light" ? "#f4eee1" : "#3a3330" };
}

function drawStack(group, stack, x, y) {
  const height = stack.length;
  if (height === 0) return;
  const step = Math.min(6, 30 / height);
  const base = y + CELL * 0.68;
  stack.forEach((piece, level) => {
    svg("ellipse", { cx: x + CELL / 2, cy: base - level * step, rx: CELL * 0.34, ry: CELL * 0.16,
      fill: PIECE[piece], stroke: PIECE_EDGE[piece], "stroke-width": 1.2 }, group);
  });
  const top = stack[height - 1];
  svg("text", { x: x + CELL / 2, y: base - (height - 1) * step + 5, "text-anchor": "middle", class: "height-label",
    "font-size": 15, fill: top === "L" ? "#3a3330" : "#f4eee1" }, group, String(height));
}

function drawCoordinates(canvas, grid) {
  const { files, ranks } = grid.labels();
  const bottom = grid.size.height - 4;
  for (const label of files) svg("text", { x: label.x + CELL / 2, y: bottom, "text-anchor": "middle", class: "coord" }, canvas, label.text);
  for (const label of ranks) svg("text", { x: 5, y: label.y + CELL / 2 + 3, class: "coord" }, canvas, label.text);
}

/** One square: its colour, the last-move mark, the stack, and the marks for what may be clicked. */
function drawSquare(canvas, grid, view, index, marks) {
  const square = view.squares[index];
  const { x, y } = grid.at(square);
  const { file, rank } = grid.parse(square);
  const group = svg("g", { "data-square": square, "data-height": view.heights[index] }, canvas);
  svg("rect", { x, y, width: CELL, height: CELL, class: (file + rank) % 2 === 0 ? "sq-dark" : "sq-light" }, group);
  if (marks.last.includes(square)) svg("rect", { x, y, width: CELL, height: CELL, class: "last-move" }, group);
  drawStack(group, view.board[index], x, y);
  if (marks.kinds[square]) svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: `mark-${marks.kinds[square]}` }, group);
  if (square in marks.pieces) {
    svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8,
      class: square === marks.selected ? "selected-ring" : "movable-ring" }, group);
    group.classList.add("clickable", "movable");
  }
  if (square in marks.targets) {
    svg("circle", { cx: x + CELL / 2, cy: y + CELL * 0.2, r: 7, class: "target-dot" }, group);
    group.classList.add("clickable", "target");
  }
  return group;
}

/** @type {import("/static/js/kit/boards.js").MountBoard} */
export function mountBoard(root, ctx) {
  const grid0 = squareGrid({ files: SIZE, ranks: SIZE, pitch: CELL, margin: MARGIN });
  const { width } = grid0.size;
  const canvas = svg("svg", { viewBox: `0 0 ${width} ${width}`, role: "img", "aria-label": t("Stairs board") }, root);
  /** @type {string | null} */
  let selected = null;
  /** @type {BoardPayload | null} */
  let match = null;
  /** @type {Record<string, string[]>} kind -> squares, from mark() (the match page's result explanation) */
  const marked = {};
  const announcer = moveAnnouncer(ctx, { describe, seatLabel: (payload, seat) => seatInfo(payload, seat).label });
  const keys = ctx.readOnly ? null : focusGrid(canvas, {
    label: t("Stairs board"),
    cancel: () => { if (selected) { selected = null; draw(); } },
    readers: [{ key: "s", help: stackKeyHelp(), read: readStack }],
  });
  // a mouse may drag a piece that can move onto one of its destinations (kit/drag.js)
  if (!ctx.readOnly) {
    dragMoves(canvas, {
      source: (node) => node.closest("g.movable"),
      key: (node) => node.getAttribute("data-square"),
      selected: (square) => square === selected,
      node: (square) => canvas.querySelector(`g[data-square="${square}"]`),
      target: (node) => node.closest("g.target"),
    });
  }

  /** The stack on `square`, bottom to top (the S key). @param {string} square */
  function readStack(square) {
    const index = match?.view.squares.indexOf(square) ?? -1;
    if (!match || index < 0) return null;
    return stackReading(square, match.view.board[index].map((piece) => t(PIECE_WORDS[piece])));
  }

  function draw() {
    if (!match) return;
    canvas.replaceChildren();
    const view = match.view;
    const grid = squareGrid({ files: SIZE, ranks: SIZE, pitch: CELL, margin: MARGIN, flipped: view.your_colour === "dark" });
    const live = myMoves(match, ctx.readOnly).length > 0;
    const clicks = live ? view.clicks ?? {} : {};
    const marks = {
      selected,
      pieces: clickStep(clicks).targets,
      targets: selected ? clickStep(clicks, [selected]).targets : {},
      last: view.last_marks ?? [],
      kinds: Object.fromEntries(Object.entries(marked).flatMap(([kind, list]) => list.map((sq) => [sq, kind]))),
    };
    const cells = [];
    view.squares.forEach((square, index) => {
      const group = drawSquare(canvas, grid, view, index, marks);
      if (live) group.addEventListener("click", () => onSquare(square, clicks));
      const { x, y } = grid.at(square);
      cells.push({ id: square, x, y, node: group, label: squareName(square, view.board[index], marks) });
    });
    drawCoordinates(canvas, grid);
    drawButtons(clicks);
    keys?.attach(cells);
  }

  function onSquare(square, clicks) {
    const move = selected ? clickStep(clicks, [selected, square]).move : null;
    if (move) { ctx.submit(move); return; } // the selection stays while a preview waits
    selected = square in clickStep(clicks).targets && selected !== square ? square : null;
    draw();
  }

  function drawButtons(clicks) {
    ctx.actions.replaceChildren();
    const moves = buttonMoves(myMoves(match, ctx.readOnly), clicks);
    moveButtons(ctx.actions, moves, { submit: ctx.submit, label: (move) => t(BUTTON_WORDS[move] ?? move) });
    if (moves.includes("swap")) { // the pie rule, said where the button is
      const note = document.createElement("p");
      note.className = "swap-hint muted";
      note.textContent = t("Swap colours (pie rule): you take light and the move light just made; your opponent then plays dark and moves next. Or just play a move as dark.");
      ctx.actions.append(note);
    }
  }

  return {
    update(next) {
      if (!match || next.ply !== match.ply) selected = null;
      match = next;
      draw();
      announcer.update(next);
    },
    mark(squares, kind) { // kit/boards.js: outline squares until marked again
      if (kind === undefined) for (const key of Object.keys(marked)) delete marked[key];
      else marked[kind] = squares ?? [];
      if (match) draw();
    },
    destroy: clearer(root, ctx.actions),
  };
}
