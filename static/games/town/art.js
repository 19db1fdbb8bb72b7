// @ts-check
// Town of Stairs art: card faces, event glyphs, walking icons, the lighthouse.
import { svg } from "/static/js/kit/index.js";
import { CH, CW } from "./geometry.js";
import { eventName, SEAT_COLOURS, SEAT_INK, words } from "./words.js";

// Card tint and glyph ink per event type.
export const EVENT_STYLE = {
  cafe: ["#f0dcc6", "#6b3f1d"], bakery: ["#f7e6b5", "#8a5a10"], cat: ["#e4e1dc", "#3d3a36"],
  flowers: ["#f8d6e2", "#b0305f"], shrine: ["#f6d0c6", "#b8321f"], books: ["#e2d8c8", "#5b4630"],
  gallery: ["#dfe3f3", "#3b4d8f"], market: ["#dcefd9", "#2f6b35"], music: ["#e8dcf3", "#6a3b93"],
  view: ["#d6ecf2", "#22627a"], sunset: ["#ffd9a8", "#c0501b"],
};

// 24×24 line glyphs, one per event type (no emoji font needed).
export const GLYPHS = {
  cafe: [["M5 9h11v5a5 5 0 0 1-5 5h-1a5 5 0 0 1-5-5z"], ["M16 10.5h1.5a2.5 2.5 0 0 1 0 5H16"],
    ["M8.5 2.5c-1 1.5 1 2.5 0 4.5M12.5 2.5c-1 1.5 1 2.5 0 4.5"], ["M3 21.5h16"]],
  bakery: [["M2.5 16c0-5.5 4.5-9 9.5-9s9.5 3.5 9.5 9v3h-19z"], ["M8 10.5l-1 4M12 9.5v5M16 10.5l1 4"]],
  cat: [["M4.5 9.5l-.5-6.5 5 3.2h6l5-3.2-.5 6.5c.8 1.3 1 2.7 1 3.8 0 4.3-4 7.7-8.5 7.7s-8.5-3.4-8.5-7.7c0-1.1.2-2.5 1-3.8z"],
    ["M9 12.5v1.5M15 12.5v1.5M11 16.5h2l-1 1z"]],
  flowers: [["M12 6.5a2.8 2.8 0 1 1 2.7 3.5 2.8 2.8 0 1 1-1 4.3 2.8 2.8 0 1 1-3.4 0 2.8 2.8 0 1 1-1-4.3A2.8 2.8 0 1 1 12 6.5z"],
    ["M12 10.2a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 1 1 0-2.6z", true], ["M12 15.5v7M12 20c1.5-1.8 3.5-2 5-1.2-1 1.8-3 2.2-5 1.2"]],
  shrine: [["M2 4.5c4 1.6 16 1.6 20 0"], ["M4 9h16M7 5.6V22M17 5.6V22M12 5.9V9"]],
  books: [["M4 16.5h16v4H4zM5.5 11.5h14v5h-14zM3 6.5h15v5H3z"], ["M6 6.5v5M8 16.5v4"]],
  gallery: [["M3 4h18v16H3z"], ["M6 17l4-5 3 3 2-2 3 4z"], ["M16 7.2a1.4 1.4 0 1 1 0 2.8 1.4 1.4 0 1 1 0-2.8z", true]],
  market: [["M3 9.5l2-5.5h14l2 5.5"], ["M3 9.5a2.25 2.25 0 0 0 4.5 0 2.25 2.25 0 0 0 4.5 0 2.25 2.25 0 0 0 4.5 0 2.25 2.25 0 0 0 4.5 0"],
    ["M5 12v9h14v-9M9.5 21v-5h5v5"]],
  music: [["M9 18V6l10-2.5v12"], ["M6.5 15.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 1 1 0-5zM16.5 13a2.5 2.5 0 1 1 0 5 2.5 2.5 0 1 1 0-5z", true]],
  view: [["M7 11a4.5 4.5 0 1 1 0 9 4.5 4.5 0 1 1 0-9zM17 11a4.5 4.5 0 1 1 0 9 4.5 4.5 0 1 1 0-9z"],
    ["M3.5 13l2-7h3l1.5 6M20.5 13l-2-7h-3l-1.5 6M10.5 14h3"]],
  sunset: [["M1.5 17h21"], ["M6 17a6 6 0 0 1 12 0", true], ["M12 6.5v2.5M5.2 9.8l1.6 1.6M18.8 9.8l-1.6 1.6M2.5 13.5h2M19.5 13.5h2M5 20.5h4.5M12 20.5h7"]],
};

export function drawGlyph(parent, event, x, y, size, ink) {
  const group = svg("g", { transform: `translate(${x} ${y}) scale(${size / 24})`, class: "town-glyph" }, parent);
  for (const [d, solid] of GLYPHS[event] ?? []) {
    svg("path", { d, fill: solid ? ink : "none", stroke: ink, "stroke-width": 1.8,
      "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
  }
  return group;
}

export function drawStar(parent, cx, cy, r, attrs = {}) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return svg("polygon", { points: points.join(" "), fill: "#f2b705", stroke: "#8a6300", "stroke-width": 0.8, ...attrs }, parent);
}

export function drawIcon(parent, icon, cx, cy) {
  const [kind, colour] = icon.split(":");
  const group = svg("g", { transform: `translate(${cx} ${cy})`, class: `town-icon icon-${kind}`, "data-icon": icon }, parent);
  const title = svg("title", {}, group);
  const w = words();
  if (kind === "UR" || kind === "UL") {
    title.textContent = `${kind}: ${w.actions[kind]}`;
    svg("circle", { r: 10.5, fill: "#fffdf6", stroke: "#2b2b2b", "stroke-width": 1.6 }, group);
    const flip = kind === "UL" ? -1 : 1;
    svg("path", { d: `M${-5 * flip} 5L${5 * flip} -5M${-1 * flip} -5.5H${5.5 * flip}V0.5`, fill: "none",
      stroke: "#2b2b2b", "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
    return group;
  }
  const paint = SEAT_COLOURS[colour] ?? "#777";
  const ink = SEAT_INK[colour] ?? "#fff";
  title.textContent = `${kind}:${colour} — ${kind === "skip" ? w.actions.straight : w.actions.rev} (${w.colours[colour] ?? colour})`;
  if (kind === "skip") {
    svg("rect", { x: -10.5, y: -10.5, width: 21, height: 21, rx: 5, fill: paint, stroke: "#0006", "stroke-width": 1 }, group);
    svg("path", { d: "M-6.5 0H6.5M-3.2 -3.3L-6.5 0L-3.2 3.3M3.2 -3.3L6.5 0L3.2 3.3", fill: "none", stroke: ink,
      "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
  } else {
    svg("circle", { r: 10.5, fill: paint, stroke: "#0006", "stroke-width": 1 }, group);
    svg("path", { d: "M4 6V-1a4 4 0 0 0-8 0v4M-7 1.2L-4 5L-1 1.2", fill: "none", stroke: ink,
      "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
  }
  return group;
}

export function stairsPoints(kind, x0, x1, yBottom, yTop, steps) {
  // kind "UR": rising to the right; "UL": rising to the left; "both": up to the middle and down.
  const rise = (yBottom - yTop) / steps;
  const pts = [];
  if (kind === "both") {
    const half = (x1 - x0) / 2;
    const run = half / (steps + 0.5);
    pts.push([x0, yBottom]);
    let x = x0;
    let y = yBottom;
    for (let i = 0; i < steps; i++) { y -= rise; pts.push([x, y]); x += run; pts.push([x, y]); }
    const xr = x1 - (x - x0);
    pts.push([xr, y]);
    x = xr;
    for (let i = 0; i < steps; i++) { x += run; pts.push([x, y]); y += rise; pts.push([x, y]); }
    pts.pop();
    pts.push([x1, yBottom]);
    return pts;
  }
  const run = (x1 - x0) / steps;
  pts.push([x0, yBottom]);
  let y = yBottom;
  for (let i = 0; i < steps; i++) { y -= rise; pts.push([x0 + i * run, y]); pts.push([x0 + (i + 1) * run, y]); }
  pts.push([x1, yBottom]);
  if (kind === "UL") return pts.map(([px, py]) => [x0 + x1 - px, py]);
  return pts;
}

// A printed-looking card face at (x, y); returns its group.
export function drawCard(parent, view, id, x, y, options = {}) {
  const card = view.cards?.[id];
  const group = svg("g", { transform: `translate(${x} ${y})`, class: "town-card", "data-card": id }, parent);
  if (!card) return group;
  const w = words();
  let face = "#efe6d2";
  if (card.kind === "event") face = EVENT_STYLE[card.event]?.[0] ?? "#eee";
  else if (card.kind === "path") face = "#d9d6d0";
  svg("rect", { x: 0, y: 0, width: CW, height: CH, rx: 8, fill: face, stroke: "#5b5140", "stroke-width": 1.4 }, group);
  svg("rect", { x: 3.5, y: 3.5, width: CW - 7, height: CH - 7, rx: 6, fill: "none", stroke: "#fff8", "stroke-width": 1.2 }, group);
  svg("text", { x: CW - 7, y: 14, "text-anchor": "end", class: "town-card-id" }, group).textContent = id;
  if (card.kind === "stairs") {
    const kind = card.bl.includes("UR") && card.br.includes("UL") ? "both" : card.bl.includes("UR") ? "UR" : "UL";
    svg("rect", { x: 8, y: 20, width: CW - 16, height: 56, rx: 4, fill: "#cfe3ee", opacity: 0.65 }, group);
    const pts = stairsPoints(kind, 10, CW - 10, 76, 26, kind === "both" ? 3 : 4);
    svg("polygon", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "),
      fill: "#b59c74", stroke: "#5e4a2c", "stroke-width": 1.5, "stroke-linejoin": "round" }, group);
    // tread highlights
    for (let i = 1; i < pts.length - 1; i++) {
      const [ax, ay] = pts[i];
      const [bx, by] = pts[i + 1];
      if (Math.abs(ay - by) < 0.1 && ay < 76) svg("line", { x1: ax, y1: ay + 1.5, x2: bx, y2: by + 1.5, stroke: "#e9d9b9", "stroke-width": 2 }, group);
    }
  } else if (card.kind === "path") {
    svg("rect", { x: 8, y: 20, width: CW - 16, height: 56, rx: 4, fill: "#c9c4bb" }, group);
    for (let row = 0; row < 4; row++) {
      for (let col = 0; col < 6; col++) {
        svg("rect", { x: 11 + col * 12.5 + (row % 2) * 6, y: 23 + row * 13, width: 10, height: 10, rx: 2.5,
          fill: "#bdb7ad", stroke: "#a59f94", "stroke-width": 0.6 }, group);
      }
    }
    svg("rect", { x: 8, y: 42, width: CW - 16, height: 14, fill: "#8f8a82" }, group);
    svg("line", { x1: 12, y1: 49, x2: CW - 12, y2: 49, stroke: "#f3efe6", "stroke-width": 2, "stroke-dasharray": "6 5" }, group);
  } else {
    const [, ink] = EVENT_STYLE[card.event] ?? ["#eee", "#333"];
    svg("circle", { cx: 15, cy: 15, r: 10.5, fill: "#fffdf6", stroke: ink, "stroke-width": 1.3 }, group);
    drawGlyph(group, card.event, 7.5, 7.5, 15, ink);
    drawGlyph(group, card.event, CW / 2 - 19, 24, 38, ink);
    const name = eventName(view, card.event);
    svg("text", { x: CW / 2, y: 80, "text-anchor": "middle", class: "town-event-name", fill: ink,
      "font-size": name.length > 8 ? 11 : 13 }, group).textContent = name;
    if (options.interest) drawStar(group, CW - 12, 26, 7, { class: "town-interest" });
  }
  card.bl.forEach((icon, i) => drawIcon(group, icon, 15 + i * 23, CH - 15));
  card.br.forEach((icon, i) => drawIcon(group, icon, CW - 15 - i * 23, CH - 15));
  const title = svg("title", {}, group);
  title.textContent = card.kind === "event" ? `${id} — ${eventName(view, card.event)}`
    : `${id} — ${card.kind === "stairs" ? w.stairs : w.path}`;
  return group;
}

export function drawLighthouse(parent, cx, bottom) {
  const g = svg("g", { class: "town-lighthouse-art" }, parent);
  svg("path", { d: `M${cx - 11} ${bottom}L${cx - 7} ${bottom - 44}H${cx + 7}L${cx + 11} ${bottom}Z`, fill: "#fbfbf7", stroke: "#3b3b3b", "stroke-width": 1.4 }, g);
  svg("path", { d: `M${cx - 9.6} ${bottom - 15}H${cx + 9.6}L${cx + 8.8} ${bottom - 25}H${cx - 8.8}Z`, fill: "#d2423b" }, g);
  svg("path", { d: `M${cx - 8} ${bottom - 36}H${cx + 8}L${cx + 7.4} ${bottom - 42}H${cx - 7.4}Z`, fill: "#d2423b" }, g);
  svg("rect", { x: cx - 6, y: bottom - 55, width: 12, height: 11, fill: "#ffe27a", stroke: "#3b3b3b", "stroke-width": 1.2 }, g);
  svg("path", { d: `M${cx - 8} ${bottom - 55}L${cx} ${bottom - 62}L${cx + 8} ${bottom - 55}Z`, fill: "#3b3b3b" }, g);
  svg("path", { d: `M${cx + 7} ${bottom - 50}L${cx + 40} ${bottom - 58}V${bottom - 42}Z M${cx - 7} ${bottom - 50}L${cx - 40} ${bottom - 58}V${bottom - 42}Z`, fill: "#ffe27a", opacity: 0.45 }, g);
  return g;
}
