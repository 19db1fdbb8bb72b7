// @ts-check
// The isometric 3D view of Scalas: floor, towers back to front, then an overlay with dashed
// outlines of highlighted squares behind nearer towers, ×n badges and the hit areas.
// No square a player may need is ever hidden: the cubes of nearer towers that stand in front of a
// square the player may place on (or a forced target, or the last placement) are drawn see-through
// (class "see-through"), and that square's outline is drawn again on top; the towers in front of
// the square under the mouse or the keyboard focus turn see-through as a whole ("peek").
import { svg } from "/static/js/kit/index.js";
import { badge, drawLastCube, drawTower } from "./cubes.js";
import { coverers, face, FILES, isoViewBox, PLINTH, project, pts, tapAreas, towerOutline, turned } from "./geometry.js";

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
    svg("polygon", { points: pts(face(u, v, 0)), class: (s.file + s.rank) % 2 ? "scalas-tile light" : "scalas-tile dark", "data-tile": s.name }, floor);
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
    return { s, group, u, v, outline: towerOutline(u, v, h), top, centre: [cx, cy], depth: u - v };
  });
}

/** For each square the player needs, the nearer cubes in front of its centre turn see-through and
 * its outline is drawn again on top ([data-mark]); forced squares get their ×n badges. */
function drawOverlay(canvas, drawn, info, cover) {
  const overlay = svg("g", { class: "scalas-overlay" }, canvas);
  const towers = new Map(drawn.map((d) => [d.s.name, d.group]));
  for (const { s, top, centre } of drawn) {
    const count = info.pending[s.name];
    const needed = count || info.legal.has(s.name) || info.last === s.name;
    if (needed && cover[s.name].length) {
      for (const { tower, cube } of cover[s.name]) {
        const group = towers.get(tower);
        group.querySelector(`[data-cube="${cube}"]`)?.classList.add("see-through");
        if (!group.querySelector(`[data-cube="${cube + 1}"]`)) group.querySelector(".scalas-height")?.classList.add("see-through");
      }
      const kind = count ? "target" : info.legal.has(s.name) ? "legal" : "last";
      svg("polygon", { points: pts(top), class: `scalas-xray ${kind}`, "data-mark": s.name }, overlay);
    }
    if (count > 1) badge(overlay, centre[0], top[3][1] - 4, `×${count}`);
  }
  return towers;
}

/** The towers in front of square `name` turn see-through while it is hovered or focused. */
function peek(group, name, cover, towers) {
  const fronts = new Set(cover[name].map((c) => c.tower));
  const show = (on) => { for (const front of fronts) towers.get(front).classList.toggle("peek", on); };
  group.addEventListener("pointerenter", () => show(true));
  group.addEventListener("pointerleave", () => show(false));
  group.addEventListener("focus", () => show(true));
  group.addEventListener("blur", () => show(false));
}

/** Taps go to highlighted squares only: first to a top face (nearer ones win, hidden ones included:
 * their outline shows where they are), else to the body of a highlighted tower. */
function drawHits(canvas, drawn, info, { decorate, play, cover, towers }) {
  const bodies = svg("g", { class: "scalas-bodies" }, canvas);
  const faces = svg("g", { class: "scalas-hits" }, canvas);
  const cells = [];
  // tappable faces that overlap on screen share it: each keeps the half nearer its own centre
  const areas = tapAreas(drawn.filter(({ s }) => info.legal.has(s.name))
    .map(({ s, top, centre }) => ({ name: s.name, polygon: top, centre })));
  for (const { s, outline, top, centre, u, v } of drawn) {
    const group = svg("g", { class: "scalas-square" }, faces);
    decorate(group, s);
    // data-centre: the middle of the whole face, which a clipped tap area no longer centres on
    svg("polygon", { points: pts(areas[s.name] ?? top), class: "scalas-hit", "data-centre": pts([centre]) }, group);
    peek(group, s.name, cover, towers);
    // arrow keys: Right/Left along the board's u axis (down-right on screen), Up/Down along v
    cells.push({ id: s.name, x: u, y: -v, node: group });
    if (info.legal.has(s.name) && s.height > 0) {
      const body = svg("polygon", { points: pts(outline), class: "scalas-hit scalas-body", "data-body": s.name }, bodies);
      body.addEventListener("click", () => play(s.name));
    }
  }
  return cells;
}

/** Draw the 3D view; returns the keyboard cells [{id, x, y, node}] (kit focusGrid). */
export function drawIso(canvas, view, info, { turn, decorate, play }) {
  const n = view.size;
  const cells = view.squares.map((s) => { const [u, v] = turned(s.file, s.rank, n, turn); return { s, u, v }; });
  canvas.setAttribute("viewBox", isoViewBox(cells, n));
  drawFloor(canvas, cells, n);
  const drawn = drawTowers(canvas, cells, view, info);
  const cover = coverers(drawn.map(({ s, u, v }) => ({ name: s.name, u, v, h: s.height })));
  const towers = drawOverlay(canvas, drawn, info, cover);
  return drawHits(canvas, drawn, info, { decorate, play, cover, towers });
}
