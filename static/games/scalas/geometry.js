// @ts-check
// Scalas geometry (pure): the isometric projection, the board's quarter turns, point-in-polygon.

// Half a tile's width and height, one cube's height and the plinth's, in viewBox units.
export const A = 40;
export const B = 29;
export const C = 39;
export const PLINTH = 16;
export const CELL = 80; // a square of the flat view
export const FILES = "abcdefg";

/** @typedef {[number, number]} Point  a screen position */

/** Screen position of board point (x, y) at height z.
 * @param {number} x @param {number} y @param {number} z
 * @returns {Point} */
export const project = (x, y, z) => [(x + y) * A, (x - y) * B - z * C];

/** Display cell (u, v) of square (file, rank) after `turn` quarter turns of an n×n board. */
export function turned(file, rank, n, turn) {
  return [[file, rank], [rank, n - 1 - file], [n - 1 - file, n - 1 - rank], [n - 1 - rank, file]][turn];
}

/** The four corners of cell (u, v)'s face at height z. */
export const face = (u, v, z) => [project(u, v, z), project(u + 1, v, z), project(u + 1, v + 1, z), project(u, v + 1, z)];

/** Whether point p lies inside the convex polygon (either winding).
 * @param {Point} point @param {Point[]} polygon */
export function inside([x, y], polygon) {
  let sign = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [ax, ay] = polygon[i];
    const [bx, by] = polygon[(i + 1) % polygon.length];
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (Math.abs(cross) < 1e-6) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** The part of convex polygon `polygon` nearer to point `own` than to point `other` (pure):
 * Sutherland–Hodgman clipping by their perpendicular bisector.
 * @param {Point[]} polygon @param {Point} own @param {Point} other
 * @returns {Point[]} */
export function nearerPart(polygon, [ax, ay], [bx, by]) {
  const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
  const side = (/** @type {Point} */ [x, y]) => (x - mx) * (bx - ax) + (y - my) * (by - ay); // <= 0: own side
  /** @type {Point[]} */
  const out = [];
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i];
    const q = polygon[(i + 1) % polygon.length];
    const sp = side(p);
    const sq = side(q);
    if (sp <= 0) out.push(p);
    if ((sp < 0 && sq > 0) || (sp > 0 && sq < 0)) {
      const k = sp / (sp - sq);
      out.push([p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k]);
    }
  }
  return out;
}

/** The tap area of each square (pure): `faces` are [{name, polygon, centre}] of the squares that
 * may be tapped; where two overlap on screen (a taller tower's top over a face behind it), each
 * keeps the part nearer its own centre, so no tap area covers another's centre and every square
 * can be tapped in the middle. Returns {name: polygon}.
 * @param {{name: string, polygon: Point[], centre: Point}[]} faces */
export function tapAreas(faces) {
  /** @type {Record<string, Point[]>} */
  const areas = {};
  for (const face of faces) {
    let area = face.polygon;
    for (const other of faces) {
      if (other === face) continue;
      const overlap = other.polygon.some((p) => inside(p, face.polygon)) || face.polygon.some((p) => inside(p, other.polygon));
      if (overlap) area = nearerPart(area, face.centre, other.centre);
    }
    areas[face.name] = area;
  }
  return areas;
}

/** SVG points attribute of a list of [x, y]. */
export const pts = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

/** The viewBox that fits an n×n board whose tallest tower reaches `minY`. */
export function isoViewBox(cells, n) {
  let minY = -n * B;
  for (const { s, u, v } of cells) minY = Math.min(minY, (u - v - 1) * B - s.height * C);
  minY -= 30; // room for a badge above the tallest tower
  const pad = 14;
  const maxY = n * B + PLINTH + 34;
  return `${-pad} ${minY.toFixed(0)} ${2 * n * A + 2 * pad} ${(maxY - minY).toFixed(0)}`;
}

/** The outline of the tower of height h on display cell (u, v): its silhouette on screen. */
export function towerOutline(u, v, h) {
  const top = face(u, v, h);
  const base = face(u, v, 0);
  return [top[0], top[3], top[2], base[2], base[1], base[0]];
}

/** The silhouette of cube z (0 = the bottom one) of the tower on display cell (u, v). */
export function cubeOutline(u, v, z) {
  const top = face(u, v, z + 1);
  const low = face(u, v, z);
  return [top[0], top[3], top[2], low[2], low[1], low[0]];
}

/** For each square, the cubes of nearer towers that cover the centre of its top face (pure):
 * cells are [{name, u, v, h}] in display cells; returns {name: [{tower, cube}]} (cube: the level
 * in that tower, 0 = bottom). A view ray only ever passes into cells of larger u − v, so only
 * those can cover a square. */
export function coverers(cells) {
  const cover = {};
  for (const back of cells) {
    const centre = project(back.u + 0.5, back.v + 0.5, back.h);
    cover[back.name] = [];
    for (const front of cells) {
      if (front.u - front.v <= back.u - back.v) continue;
      for (let z = 0; z < front.h; z++) {
        if (inside(centre, cubeOutline(front.u, front.v, z))) cover[back.name].push({ tower: front.name, cube: z });
      }
    }
  }
  return cover;
}

/** The view a board opens in (pure): the one this browser chose last, else the flat view on a
 * phone (the 3D view is small there and its towers hide more) and the 3D view elsewhere. */
export function startView(stored, phone) {
  if (stored === "flat" || stored === "iso") return stored;
  return phone ? "flat" : "iso";
}
