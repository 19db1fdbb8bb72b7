// The isometric 3D view of Scalas: floor, towers back to front, then an overlay with dashed
// outlines of highlighted squares hidden behind nearer towers, ×n badges and the hit areas.
import { svg } from "/static/js/kit/index.js";
import { badge, drawLastCube, drawTower } from "./cubes.js";
import { face, FILES, inside, isoViewBox, PLINTH, project, pts, turned } from "./geometry.js";

function edgeLabel(at, a, b) {
  return a.rank === b.rank ? FILES[a.file] : String(a.rank + 1);
}

function drawFloor(canvas, cells, n) {
  const floor = svg("g", { class: "scalas-floor" }, canvas);
  const [lx, ly] = project(0, 0, 0);
  const [bx, by] = project(n, 0, 0);
  const [rx, ry] = project(n, n, 0);
  svg("polygon", { points: pts([[lx, ly], [bx, by], [bx, by + PLINTH], [lx, ly + PLINTH]]), class: "scalas-plinth-left" }, floor);
  svg("polygon", { points: pts([[bx, by], [rx, ry], [rx, ry + PLINTH], [bx, by + PLINTH]]), class: "scalas-plinth-right" }, floor);
  for (const { s, u, v } of cells) {
    svg("polygon", { points: pts(face(u, v, 0)), class: (s.file + s.rank) % 2 ? "scalas-tile light" : "scalas-tile dark" }, floor);
  }
  const at = new Map(cells.map((c) => [`${c.u},${c.v}`, c.s]));
  for (let i = 0; i < n; i++) { // each front edge is labelled with the coordinate that changes along it
    const [fx, fy] = project(i + 0.5, 0, 0);
    svg("text", { x: fx - 14, y: fy + PLINTH + 20, class: "scalas-coord", "text-anchor": "middle" }, floor,
      edgeLabel(at, at.get(`${i},0`), at.get(`${(i + 1) % n},0`)));
    const [qx, qy] = project(n, i + 0.5, 0);
    svg("text", { x: qx + 14, y: qy + PLINTH + 20, class: "scalas-coord", "text-anchor": "middle" }, floor,
      edgeLabel(at, at.get(`${n - 1},${i}`), at.get(`${n - 1},${(i + 1) % n}`)));
  }
}

/** Towers back to front (a view ray only ever passes into squares of larger u − v); returns
 * {s, outline, top, centre, depth} per square in drawing order. */
function drawTowers(canvas, cells, view, info) {
  const order = [...cells].sort((p, q) => (p.u - p.v) - (q.u - q.v) || p.u - q.u);
  const towers = svg("g", { class: "scalas-towers" }, canvas);
  return order.map(({ s, u, v }) => {
    const group = svg("g", { class: "scalas-tower", "data-tower": s.name }, towers);
    drawTower(group, s.column, view.colours, u, v);
    const h = s.height;
    const top = face(u, v, h);
    const [cx, cy] = project(u + 0.5, v + 0.5, h);
    if (info.last === s.name && h > 0) drawLastCube(group, u, v, h);
    if (info.pending[s.name]) svg("polygon", { points: pts(top), class: "scalas-target-face" }, group);
    else if (info.legal.has(s.name)) svg("polygon", { points: pts(top), class: "scalas-legal-face" }, group);
    if (h > 0) svg("text", { x: cx, y: cy + 8, class: "scalas-height", "text-anchor": "middle" }, group, String(h));
    const base = face(u, v, 0);
    return { s, outline: [top[0], top[3], top[2], base[2], base[1], base[0]], top, centre: [cx, cy], depth: u - v };
  });
}

const hiddenBehind = (drawn, index) => {
  const { centre, depth } = drawn[index];
  return drawn.slice(index + 1).some((t) => t.depth > depth && t.s.height > 0 && inside(centre, t.outline));
};

/** Dashed outlines of hidden highlighted squares and the ×n badges; returns how many legal
 * squares are hidden. */
function drawOverlay(canvas, drawn, info) {
  const overlay = svg("g", { class: "scalas-overlay" }, canvas);
  let hiddenLegal = 0;
  drawn.forEach(({ s, top, centre }, index) => {
    const count = info.pending[s.name];
    if (!count && !info.legal.has(s.name)) return;
    if (hiddenBehind(drawn, index)) {
      svg("polygon", { points: pts(top), class: count ? "scalas-xray target" : "scalas-xray" }, overlay);
      if (info.legal.has(s.name)) hiddenLegal += 1;
    }
    if (count > 1) badge(overlay, centre[0], top[3][1] - 4, `×${count}`);
  });
  const last = drawn.findIndex(({ s }) => s.name === info.last);
  if (last >= 0 && hiddenBehind(drawn, last)) svg("polygon", { points: pts(drawn[last].top), class: "scalas-xray last" }, overlay);
  return hiddenLegal;
}

/** Taps go to highlighted squares only: first to a top face (nearer ones win, hidden ones included:
 * their outline shows where they are), else to the body of a highlighted tower. */
function drawHits(canvas, drawn, info, decorate, play) {
  const bodies = svg("g", { class: "scalas-bodies" }, canvas);
  const faces = svg("g", { class: "scalas-hits" }, canvas);
  for (const { s, outline, top } of drawn) {
    const group = svg("g", { class: "scalas-square" }, faces);
    decorate(group, s);
    svg("polygon", { points: pts(top), class: "scalas-hit" }, group);
    if (info.legal.has(s.name) && s.height > 0) {
      const body = svg("polygon", { points: pts(outline), class: "scalas-hit scalas-body", "data-body": s.name }, bodies);
      body.addEventListener("click", () => play(s.name));
    }
  }
}

/** Draw the 3D view; returns whether some legal square is hidden behind a nearer tower. */
export function drawIso(canvas, view, info, { turn, decorate, play }) {
  const n = view.size;
  const cells = view.squares.map((s) => { const [u, v] = turned(s.file, s.rank, n, turn); return { s, u, v }; });
  canvas.setAttribute("viewBox", isoViewBox(cells, n));
  drawFloor(canvas, cells, n);
  const drawn = drawTowers(canvas, cells, view, info);
  const hidden = drawOverlay(canvas, drawn, info);
  drawHits(canvas, drawn, info, decorate, play);
  return hidden > 0;
}
