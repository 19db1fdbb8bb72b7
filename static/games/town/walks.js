// @ts-check
// The walk phase: each walker's trail and token, stepped card by card (the animation), and replay.
import { svg } from "/static/js/kit/index.js";
import { COLS, PITCH_X, STEP_MS, WIDTH, centre } from "./geometry.js";
import { drawFinal, drawPlayers } from "./panels.js";
import { view } from "./state.js";
import { colourOf, SEAT_COLOURS, SEAT_INK } from "./words.js";

export function drawTrails(b) {
  const v = view(b);
  b.trailsLayer.replaceChildren();
  const n = v.players ?? v.walks.length;
  v.walks.forEach((steps, seat) => {
    const count = Math.min(b.shown?.[seat] ?? steps.length, steps.length);
    if (count === 0) return;
    const colour = SEAT_COLOURS[colourOf(v, seat)];
    const active = v.walker === seat || (v.walker === null && v.phase === "over" && seat === n - 1);
    const offset = (seat - (n - 1) / 2) * 5;
    const group = svg("g", { "data-trail-seat": seat, class: "town-trail" + (active ? " active" : "") }, b.trailsLayer);
    let d = "";
    for (let i = 1; i < count; i++) {
      const a = steps[i - 1];
      const b = steps[i];
      const dir = b.dir === "left" ? -1 : 1;
      const [ax, ay] = centre(a.col, a.row);
      const [bx, by] = centre(b.col, b.row);
      const expected = a.col + dir;
      if (expected >= 0 && expected < COLS) {
        d += `M${ax + offset} ${ay + offset}L${bx + offset} ${by + offset}`;
      } else { // wrap-around: leave one edge, come back in at the other
        const [vx, vy] = [ax + dir * PITCH_X, by];
        const [ux, uy] = [bx - dir * PITCH_X, ay];
        d += `M${ax + offset} ${ay + offset}L${vx + offset} ${vy + offset}`;
        d += `M${ux + offset} ${uy + offset}L${bx + offset} ${by + offset}`;
      }
    }
    if (d) {
      svg("path", { d, class: "town-trail-casing" }, group);
      svg("path", { d, class: "town-trail-line", stroke: colour }, group);
    }
    for (let i = 1; i < count; i++) {
      const s = steps[i];
      if (!s.diary) continue;
      const [cx, cy] = centre(s.col, s.row);
      svg("circle", { cx: cx + offset, cy: cy + offset, r: 5.5, fill: colour, stroke: "#fff", "stroke-width": 2, class: "town-pickup" }, group);
    }
    const last = steps[count - 1];
    if (count === steps.length && v.walk_end?.[seat] === "loop") {
      const [cx, cy] = centre(last.col, last.row);
      const mark = svg("g", { class: "town-end-mark", "data-end": "loop" }, group);
      svg("circle", { cx: cx + 26, cy: cy - 30, r: 11, fill: "#fff", stroke: colour, "stroke-width": 2.5 }, mark);
      svg("path", { d: `M${cx + 31} ${cy - 30}a5 5 0 1 1 -2 -4m2 -3v4h-4`, fill: "none", stroke: colour, "stroke-width": 2.2, "stroke-linecap": "round" }, mark);
    }
  });
}

export function placeTokens(b, animated) {
  const v = view(b);
  const seen = new Set();
  v.walks.forEach((steps, seat) => {
    const count = Math.min(b.shown?.[seat] ?? steps.length, steps.length);
    if (count === 0) return;
    seen.add(seat);
    const step = steps[count - 1];
    const n = v.players ?? v.walks.length;
    const offset = (seat - (n - 1) / 2) * 5;
    const [cx, cy] = centre(step.col, step.row);
    let token = b.tokens.get(seat);
    if (!token) {
      token = svg("g", { class: "town-token", "data-token-seat": seat }, b.tokensLayer);
      const colour = colourOf(v, seat);
      svg("circle", { r: 13, fill: SEAT_COLOURS[colour], stroke: "#fff", "stroke-width": 3 }, token);
      svg("circle", { r: 13, fill: "none", stroke: "#0006", "stroke-width": 1 }, token);
      svg("text", { y: 4.5, "text-anchor": "middle", class: "town-token-label", fill: SEAT_INK[colour] }, token).textContent = String(seat + 1);
      b.tokens.set(seat, token);
      animated = false;
    }
    const prev = token.dataset.col;
    const wrap = prev !== undefined && Math.abs(Number(prev) - step.col) > 1;
    token.style.transition = animated && !wrap && !b.reduceMotion ? `transform ${STEP_MS * 0.8}ms ease-in-out` : "none";
    token.setAttribute("transform", `translate(${cx + offset} ${cy + offset})`);
    token.style.transform = `translate(${cx + offset}px, ${cy + offset}px)`;
    token.dataset.col = String(step.col);
    token.dataset.step = String(count - 1);
    token.classList.toggle("active", v.walker === seat);
    if (animated && v.walker !== null) follow(b, cx);
  });
  for (const [seat, token] of b.tokens) if (!seen.has(seat)) { token.remove(); b.tokens.delete(seat); }
}

export function follow(b, x) {
  if (b.scroller.scrollWidth <= b.scroller.clientWidth + 4) return;
  const scale = b.scroller.scrollWidth / WIDTH;
  b.scroller.scrollLeft = Math.max(0, x * scale - b.scroller.clientWidth / 2);
}

export function lagging(b) {
  const v = view(b);
  for (let seat = 0; seat < v.walks.length; seat++) if ((b.shown[seat] ?? 0) < v.walks[seat].length) return seat;
  return null;
}

export function backlog(b) {
  const v = view(b);
  return v.walks.reduce((sum, steps, seat) => sum + Math.max(0, steps.length - (b.shown[seat] ?? 0)), 0);
}

export function animate(b) {
  if (b.timer) return;
  const tick = () => {
    const seat = lagging(b);
    if (seat === null || b.reduceMotion) {
      if (seat !== null) b.shown = view(b).walks.map((w) => w.length);
      b.timer = null;
      b.root.dataset.animating = "no";
      drawTrails(b);
      placeTokens(b, false);
      drawPlayers(b);
      drawFinal(b);
      return;
    }
    b.shown[seat] = Math.max(1, (b.shown[seat] ?? 0) + 1);
    drawTrails(b);
    placeTokens(b, true);
    drawPlayers(b);
    // a long queue (several walks at once, or a page opened late) plays faster
    b.timer = setTimeout(tick, backlog(b) > 10 ? STEP_MS / 3 : STEP_MS);
  };
  b.root.dataset.animating = "yes";
  b.timer = setTimeout(tick, 0);
}

export function replay(b) {
  const v = view(b);
  const seat = v.walker ?? v.walks.length - 1;
  if (!v.walks[seat]?.length) return;
  clearTimeout(b.timer);
  b.timer = null;
  b.shown[seat] = 1;
  for (let s = seat + 1; s < v.walks.length; s++) b.shown[s] = 0;
  b.tokens.get(seat)?.remove();
  b.tokens.delete(seat);
  drawTrails(b);
  placeTokens(b, false);
  animate(b);
}

