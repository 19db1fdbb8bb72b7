// @ts-check
// Input on Sight's board: what may be clicked (from the view's `clicks`), the hit areas with their
// mouse, touch and keyboard handling, and the hint line with the confirm/cancel buttons.
import { cellName, clickStep, el, isMyTurn, myMoves, N_, svg, t } from "/static/js/kit/index.js";
import { HIT_RADIUS } from "./pieces.js";

const WORDS = {
  place: N_("Place a piece on any empty point."),
  move: N_("Move the top piece of a highlighted stack (height {h}) to a neighbouring empty point."),
  target: N_("Now choose an empty point next to {p}."),
  grows: N_("{move}: {n} of your pieces grow ({points})."),
  grows_one: N_("{move}: 1 of your pieces grows ({points})."),
  grows_none: N_("{move}: none of your pieces would grow."),
};
const PIECE_WORDS = { light: N_("light"), dark: N_("dark") };
const STATE_WORDS = {
  movable: N_("can move"), selected: N_("selected"), target: N_("move here"), place: N_("place here"), last: N_("last move"),
};

/** "c3, light, height 2, can move": the point, its stack, what a click does there. */
export function pointName(point, view, { phase, sources, targets }, board, last) {
  const stack = view.board[point];
  const states = [];
  if (point === board.selected) states.push(t(STATE_WORDS.selected));
  else if (point in sources) states.push(t(STATE_WORDS.movable));
  const targetWord = phase === "place" ? STATE_WORDS.place : STATE_WORDS.target;
  if (point in targets) states.push(t(targetWord));
  if (last.includes(point)) states.push(t(STATE_WORDS.last));
  return cellName({ square: point, colour: stack ? t(PIECE_WORDS[stack.colour]) : null, height: stack ? stack.height : 0, states });
}

/** What may be clicked now: {phase, sources: point -> null, targets: point -> move}. */
export function options(board) {
  const { match, ctx, selected } = board;
  const clicks = myMoves(match, ctx.readOnly).length ? match.view.clicks ?? {} : {};
  if (Object.keys(clicks).length === 0) return { phase: null, sources: {}, targets: {} };
  if (match.view.phase === "place") return { phase: "place", sources: {}, targets: clickStep(clicks).targets };
  const targets = selected ? clickStep(clicks, [selected]).targets : {};
  return { phase: "move", sources: clickStep(clicks).targets, targets };
}

function decorate(group, point, view, { sources, targets }, board, last) {
  const stack = view.board[point];
  group.dataset.height = String(stack ? stack.height : 0);
  if (stack) group.dataset.colour = stack.colour;
  if ((view.last_grown || []).includes(point)) group.classList.add("grown");
  if (last.includes(point)) group.classList.add("last");
  if (point in sources) group.classList.add("movable");
  if (point === board.selected) group.classList.add("selected");
  if (point in targets) { group.classList.add("target"); group.dataset.move = targets[point]; }
  if (point in sources || point in targets) group.classList.add("clickable");
}

function listen(group, point, board, preview, handlers) {
  group.addEventListener("click", (event) => { event.stopPropagation(); handlers.onPoint(point); });
  if (!preview) return;
  const show = (on) => {
    if (!on && board.hovered?.move !== preview.move) return;
    board.hovered = on ? preview : null;
    handlers.onPreview();
  };
  group.addEventListener("pointerenter", (event) => { if (event.pointerType === "mouse") show(true); });
  group.addEventListener("pointerleave", (event) => { if (event.pointerType === "mouse") show(false); });
  group.addEventListener("focus", () => show(true));
  group.addEventListener("blur", () => show(false));
}

/** One transparent hit area per point, carrying the test hooks (data-point, data-move, classes);
 * returns the keyboard cells (kit focusGrid). */
export function drawHits(layer, board, grid, choices, last, handlers) {
  layer.replaceChildren();
  const view = board.match.view;
  const cells = [];
  for (const point of view.points) {
    const { x, y } = grid.at(point);
    const group = svg("g", { "data-point": point, class: "sight-point" }, layer);
    decorate(group, point, view, choices, board, last);
    svg("circle", { cx: x, cy: y, r: HIT_RADIUS, class: "sight-hit" }, group);
    const move = choices.targets[point];
    listen(group, point, board, move ? { move, target: point, source: board.selected } : null, handlers);
    cells.push({ id: point, x, y, node: group, label: pointName(point, view, choices, board, last) });
  }
  return cells;
}

function hintText(board, grows) {
  const { match, hovered, selected } = board;
  const view = match.view;
  if (board.ctx.readOnly || !isMyTurn(match)) return "";
  if (hovered && grows) {
    const key = grows.length === 0 ? "grows_none" : grows.length === 1 ? "grows_one" : "grows";
    return t(WORDS[key], { move: hovered.move, n: grows.length, points: grows.join(", ") });
  }
  if (view.phase === "place") return t(WORDS.place);
  if (selected) return t(WORDS.target, { p: selected });
  const first = Object.keys(view.sources || {})[0];
  return t(WORDS.move, { h: first ? view.board[first].height : "" });
}

/** The hint line, rebuilt only when it changes (screen readers hear it once). */
export function drawActions(board, grows) {
  const text = hintText(board, grows);
  const key = JSON.stringify([board.match.ply, text]);
  if (key === board.shownActions) return;
  board.shownActions = key;
  const strip = board.ctx.actions;
  strip.replaceChildren();
  if (text) el("p", { class: "sight-hint" }, strip, text);
}
