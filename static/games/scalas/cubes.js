// @ts-check
// Scalas pieces: cube colours, a cube icon, a tower of cubes, the ×n badge.
import { svg } from "/static/js/kit/index.js";
import { face, pts } from "./geometry.js";

export const CUBE = {
  red: { top: "#f0675a", left: "#d4443a", right: "#ab2f27", edge: "#6e1a14", ink: "#fff" },
  blue: { top: "#5a96ec", left: "#3572cc", right: "#24559e", edge: "#112f5c", ink: "#fff" },
};
export const SWATCH = { red: "#d4443a", blue: "#3572cc" };
export const HUE = { red: 5, blue: 215 };

export function cubeIcon(colour, parent) {
  const icon = svg("svg", { viewBox: "0 0 20 22", class: "scalas-icon", "aria-hidden": "true" }, parent);
  const c = CUBE[colour];
  svg("polygon", { points: "10,1 19,6 10,11 1,6", fill: c.top, stroke: c.edge, "stroke-width": 0.8 }, icon);
  svg("polygon", { points: "1,6 10,11 10,21 1,16", fill: c.left, stroke: c.edge, "stroke-width": 0.8 }, icon);
  svg("polygon", { points: "10,11 19,6 19,16 10,21", fill: c.right, stroke: c.edge, "stroke-width": 0.8 }, icon);
  return icon;
}

/** The cubes of one column standing on display cell (u, v), bottom to top. */
export function drawTower(group, column, colours, u, v) {
  column.forEach((owner, z) => {
    const c = CUBE[colours[owner]];
    const low = face(u, v, z);
    const high = face(u, v, z + 1);
    const cube = svg("g", { class: "scalas-cube", "data-cube": z }, group);
    svg("polygon", { points: pts([high[0], high[1], low[1], low[0]]), fill: c.left, stroke: c.edge }, cube);
    svg("polygon", { points: pts([high[1], high[2], low[2], low[1]]), fill: c.right, stroke: c.edge }, cube);
    svg("polygon", { points: pts(high), fill: c.top, stroke: c.edge }, cube);
  });
}

/** The outline of the top cube of a tower of height h (the last placement's mark). */
export function drawLastCube(group, u, v, h) {
  const top = face(u, v, h);
  const low = face(u, v, h - 1);
  svg("polygon", { points: pts([top[0], top[3], top[2], low[2], low[1], low[0]]), class: "scalas-last" }, group);
  const line = (list) => "M" + pts(list).replace(/ /g, " L");
  svg("path", { d: `${line([top[0], top[1], top[2]])} ${line([top[1], low[1]])}`, class: "scalas-last-edge" }, group);
}

export function badge(group, x, y, text) {
  const g = svg("g", { class: "scalas-badge" }, group);
  svg("rect", { x: x - 17, y: y - 14, width: 34, height: 22, rx: 11 }, g);
  svg("text", { x, y: y + 2.5, "text-anchor": "middle" }, g, text);
}
