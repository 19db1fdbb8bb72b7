// @ts-check
// Drawing Sight: the board, the stacks, the marks of the last move and of what may be clicked,
// and the preview of a move (lines of sight, +1 badges, a ghost piece).
import { svg } from "/static/js/kit/index.js";
import { GAP, MARGIN, WIDTH } from "./geometry.js";

const PIECE = { light: "var(--light-piece)", dark: "var(--dark-piece)" };
const PIECE_EDGE = { light: "#9a8f7a", dark: "#000" };
const PIECE_INK = { light: "#3a3330", dark: "#f4eee1" };

const line = (layer, a, b, className) => svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: className }, layer);

export function drawBase(layer, view, grid) {
  layer.replaceChildren();
  svg("rect", { x: 6, y: 6, width: WIDTH - 12, height: WIDTH - 12, rx: 18, class: "sight-wood" }, layer);
  const inner = MARGIN - 20;
  svg("rect", { x: inner, y: inner, width: WIDTH - inner * 2, height: WIDTH - inner * 2, rx: 10, class: "sight-field" }, layer);
  for (const [p, q] of view.edges) {
    const diagonal = p[0] !== q[0] && p[1] !== q[1];
    line(layer, grid.at(p), grid.at(q), diagonal ? "sight-line diagonal" : "sight-line");
  }
  for (const point of view.points) {
    const { x, y } = grid.at(point);
    svg("circle", { cx: x, cy: y, r: 4, class: "sight-dot" }, layer);
  }
  const { files, ranks } = grid.labels();
  for (const label of files) svg("text", { x: label.x, y: WIDTH - 15, "text-anchor": "middle", class: "coord sight-coord" }, layer, label.text);
  for (const label of ranks) svg("text", { x: 22, y: label.y + 5, "text-anchor": "middle", class: "coord sight-coord" }, layer, label.text);
}

/** A stack of `height` discs of `colour` at (x, y); returns the y of its top disc. */
export function drawStack(group, stack, x, y, extra = {}) {
  const height = stack.height;
  const step = Math.min(6, 32 / height);
  const base = y + 6 + Math.min(height - 1, 5) * 2;
  for (let level = 0; level < height; level++) {
    svg("ellipse", { cx: x, cy: base - level * step, rx: 25, ry: 12, fill: PIECE[stack.colour],
      stroke: PIECE_EDGE[stack.colour], "stroke-width": 1.3, ...extra }, group);
  }
  const topY = base - (height - 1) * step;
  svg("text", { x, y: topY + 5, "text-anchor": "middle", class: "height-label", "font-size": 16,
    fill: PIECE_INK[stack.colour], ...extra }, group, String(height));
  return topY;
}

/** Every stack; returns point -> the y of its top (for badges). */
export function drawPieces(layer, view, grid) {
  layer.replaceChildren();
  const tops = {};
  for (const point of view.points) {
    const stack = view.board[point];
    const { x, y } = grid.at(point);
    tops[point] = stack ? drawStack(layer, stack, x, y) : y;
  }
  return tops;
}

/** The last move (source, target, faint lines to what it grew), the stacks that may move and the
 * points a click would play. */
export function drawMarks(layer, view, grid, { phase, sources, targets, selected }) {
  layer.replaceChildren();
  const last = view.last_marks ?? []; // [source,] target
  const lastTarget = last[last.length - 1];
  if (lastTarget) {
    for (const point of view.last_grown || []) line(layer, grid.at(lastTarget), grid.at(point), "sight-ray last");
    for (const point of last) {
      const { x, y } = grid.at(point);
      svg("circle", { cx: x, cy: y, r: 32, class: point === lastTarget ? "sight-last" : "sight-last from" }, layer);
    }
  }
  for (const point of Object.keys(sources)) {
    const { x, y } = grid.at(point);
    svg("circle", { cx: x, cy: y, r: 36, class: point === selected ? "selected-ring" : "movable-ring sight-pulse" }, layer);
  }
  for (const point of Object.keys(targets)) {
    const { x, y } = grid.at(point);
    svg("circle", { cx: x, cy: y, r: phase === "place" ? 8 : 11, class: "target-dot sight-target" }, layer);
  }
  return last;
}

function badge(layer, grid, point, topY, text, kind) {
  const { x } = grid.at(point);
  const group = svg("g", { class: `sight-badge ${kind}` }, layer);
  svg("circle", { cx: x + 22, cy: topY - 12, r: 11 }, group);
  svg("text", { x: x + 22, y: topY - 8, "text-anchor": "middle" }, group, text);
}

/** What `preview` ({move, source, target}) would do: lines of sight from its target, +1 badges on
 * the pieces it grows, a ghost piece; without a preview, the +1 badges of the last move. */
export function drawPreview(lines, badges, view, grid, { preview, tops, colour }) {
  lines.replaceChildren();
  badges.replaceChildren();
  const grows = preview ? view.growth?.[preview.move] : null;
  if (!grows) {
    for (const point of view.last_grown || []) badge(badges, grid, point, tops[point], "+1", "last");
    return [];
  }
  const target = grid.at(preview.target);
  for (const point of view.sight?.[preview.target] || []) {
    if (!grows.includes(point)) line(lines, target, grid.at(point), "sight-ray seen");
  }
  for (const point of grows) line(lines, target, grid.at(point), "sight-ray grow");
  drawStack(svg("g", { class: "sight-ghost" }, badges), { colour, height: 1 }, target.x, target.y);
  if (preview.source) line(lines, grid.at(preview.source), target, "sight-step");
  for (const point of grows) badge(badges, grid, point, tops[point], "+1", "grow");
  return grows;
}

export const HIT_RADIUS = GAP / 2 - 2;
