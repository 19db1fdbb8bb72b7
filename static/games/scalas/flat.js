// @ts-check
// The flat view of Scalas: a height map, each square tinted by its top cube's colour and height,
// with its column as a strip of bricks.
import { svg } from "/static/js/kit/index.js";
import { badge, HUE, SWATCH } from "./cubes.js";
import { CELL, FILES } from "./geometry.js";

function drawSquare(layer, s, view, info, { x, y, tallest }) {
  const colour = s.top === null ? null : view.colours[s.top];
  const light = colour ? 70 - Math.min(s.height - 1, 6) * 6.5 : 0;
  const fill = colour ? `hsl(${HUE[colour]} 75% ${light}%)` : (s.file + s.rank) % 2 ? "#efe8d8" : "#e4dac4";
  svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 6, fill, class: "scalas-flat-square" }, layer);
  const brick = Math.min(7, (CELL - 16) / tallest); // the column, bottom to top, on the left edge
  s.column.forEach((owner, z) => {
    svg("rect", { x: x + 6, y: y + CELL - 8 - (z + 1) * brick, width: 9, height: Math.max(1, brick - 1),
      fill: SWATCH[view.colours[owner]], class: "scalas-brick" }, layer);
  });
  if (s.height > 0) {
    svg("text", { x: x + CELL / 2 + 5, y: y + CELL / 2 + 13, "text-anchor": "middle", class: "scalas-flat-height",
      fill: light < 60 ? "#fff" : "#1f2a36" }, layer, String(s.height));
  }
}

function drawMarks(group, s, info, x, y) {
  if (info.last === s.name) {
    svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 5, class: "scalas-flat-last" }, group);
    svg("circle", { cx: x + 14, cy: y + 14, r: 7, class: "scalas-flat-last-dot" }, group);
  }
  const count = info.pending[s.name];
  const ring = { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6 };
  if (count) svg("rect", { ...ring, class: "scalas-target-face" }, group);
  else if (info.legal.has(s.name)) svg("rect", { ...ring, class: "scalas-legal-face" }, group);
  if (count > 1) badge(group, x + CELL - 22, y + 18, `×${count}`);
  svg("rect", { x, y, width: CELL, height: CELL, class: "scalas-hit" }, group);
}

/** Draw the flat view; returns the keyboard cells [{id, x, y, node}] (kit focusGrid). */
export function drawFlat(canvas, view, info, { decorate }) {
  const n = view.size;
  const pad = 30;
  const side = n * CELL + pad * 2;
  canvas.setAttribute("viewBox", `0 0 ${side} ${side}`);
  const tallest = Math.max(1, ...view.squares.map((s) => s.height));
  const layer = svg("g", { class: "scalas-flat" }, canvas);
  const cells = [];
  for (const s of view.squares) {
    const x = pad + s.file * CELL;
    const y = pad + (n - 1 - s.rank) * CELL;
    const group = svg("g", { class: "scalas-square" }, layer);
    decorate(group, s);
    drawSquare(group, s, view, info, { x, y, tallest });
    drawMarks(group, s, info, x, y);
    cells.push({ id: s.name, x, y, node: group });
  }
  for (let i = 0; i < n; i++) {
    svg("text", { x: pad + i * CELL + CELL / 2, y: side - 7, "text-anchor": "middle", class: "scalas-coord" }, layer, FILES[i]);
    svg("text", { x: pad / 2, y: pad + (n - 1 - i) * CELL + CELL / 2 + 6, "text-anchor": "middle", class: "scalas-coord" }, layer, String(i + 1));
  }
  return cells;
}
