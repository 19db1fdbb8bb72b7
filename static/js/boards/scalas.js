// Scalas board: an isometric 3D view of the cube towers (default) or a flat height map (toggle,
// remembered in localStorage). Tap a highlighted square to place a cube; during forced placements
// the glowing targets are filled one tap at a time, in the order the player likes.
// Test hooks: [data-square] groups with data-height / data-top, classes "legal" / "target" /
// "clickable", data-pending on forced targets; [data-hand], [data-tops], [data-view-toggle],
// .scalas-last on the last placed cube, button[data-move="pass"], root data-view="iso"|"flat".
import { svg } from "../api.js";

const FILES = "abcdefg";
const STORAGE_KEY = "stepwell.scalas.view";
const TURN_KEY = "stepwell.scalas.turn";
// Isometric geometry (viewBox units): half a tile's width and height, and one cube's height.
const A = 40;
const B = 29;
const C = 39;
const PLINTH = 16;
const CELL = 80; // flat view square
const CUBE = {
  red: { top: "#f0675a", left: "#d4443a", right: "#ab2f27", edge: "#6e1a14", ink: "#fff" },
  blue: { top: "#5a96ec", left: "#3572cc", right: "#24559e", edge: "#112f5c", ink: "#fff" },
};
const SWATCH = { red: "#d4443a", blue: "#3572cc" };
const HUE = { red: 5, blue: 215 };

const WORDS = {
  en: {
    red: "Red", blue: "Blue", you: "you", tops: "tops", hand: "in hand", board: "Scalas board",
    flat: "Flat view", iso: "3D view", rotate: "Rotate", bottom: "Bottom level {n}",
    place: "Place a cube on a square outlined in green.",
    forced: "Forced placement: fill the glowing squares — {n} cube(s) to go, in any order.",
    forced_other: "{colour} is making forced placements ({n} to go).",
    closed: "{colour} has no cubes left: new cubes go only on occupied squares.",
    pass: "You have no legal placement: pass.",
    final: "Final tops — red {r}, blue {b}.",
    tiebreak: "Tied on tops; decided by the towers of height {h} ({r}–{b}).",
    hidden: "Some squares are hidden behind towers: rotate the board or use the flat view.",
  },
  ja: {
    red: "赤", blue: "青", you: "あなた", tops: "マス", hand: "手持ち", board: "スカラスの盤",
    flat: "平面表示", iso: "立体表示", rotate: "回転", bottom: "最低の高さ {n}",
    place: "緑の枠のマスにキューブを置いてください。",
    forced: "強制配置：光っているマスを好きな順に埋めてください（残り {n} 個）。",
    forced_other: "{colour}が強制配置の途中です（残り {n} 個）。",
    closed: "{colour}の手持ちが尽きました。空きマスには置けません。",
    pass: "置ける場所がありません。パスしてください。",
    final: "最終結果 — 赤 {r} マス、青 {b} マス。",
    tiebreak: "マス数が同じなので、高さ {h} の塔で決着（{r}対{b}）。",
    hidden: "塔の陰に隠れたマスがあります。盤を回転するか平面表示にしてください。",
  },
};

function say(key, values = {}) {
  const words = WORDS[document.documentElement.lang] ?? WORDS.en;
  let text = words[key] ?? WORDS.en[key] ?? key;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

export function seatInfo(match, seat) {
  const colour = match.view?.colours?.[seat] ?? (seat === 0 ? "red" : "blue");
  return { label: say(colour), colour: SWATCH[colour] };
}

function el(tag, className, parent, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

function cubeIcon(colour, parent) {
  const icon = svg("svg", { viewBox: "0 0 20 22", class: "scalas-icon", "aria-hidden": "true" }, parent);
  const c = CUBE[colour];
  svg("polygon", { points: "10,1 19,6 10,11 1,6", fill: c.top, stroke: c.edge, "stroke-width": 0.8 }, icon);
  svg("polygon", { points: "1,6 10,11 10,21 1,16", fill: c.left, stroke: c.edge, "stroke-width": 0.8 }, icon);
  svg("polygon", { points: "10,11 19,6 19,16 10,21", fill: c.right, stroke: c.edge, "stroke-width": 0.8 }, icon);
  return icon;
}

/** Whether point p lies inside the convex polygon (either winding). */
function inside([x, y], polygon) {
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

const pts = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

export function mountBoard(root, ctx) {
  const frame = el("div", "scalas", root);
  const bar = el("div", "scalas-bar", frame);
  const sides = [0, 1].map((seat) => {
    const side = el("div", "scalas-side", bar);
    side.dataset.seat = seat;
    const head = el("div", "scalas-side-head", side);
    const icon = el("span", "scalas-icon-box", head);
    const name = el("span", "scalas-side-name", head);
    const tops = el("span", "scalas-tops", side);
    tops.dataset.tops = seat;
    const topsWord = el("span", "scalas-tops-word", side);
    const hand = el("span", "scalas-hand", side);
    hand.dataset.hand = seat;
    return { side, icon, name, tops, topsWord, hand, colour: null };
  });
  const canvas = svg("svg", { role: "img", "aria-label": say("board"), class: "scalas-svg" }, frame);
  const hint = el("p", "scalas-hint", frame);
  hint.setAttribute("aria-live", "polite");
  const foot = el("div", "scalas-foot", frame);
  const bottomInfo = el("span", "scalas-bottom", foot);
  const toggle = el("button", "scalas-toggle", foot);
  toggle.type = "button";
  toggle.dataset.viewToggle = "";
  const rotate = el("button", "scalas-toggle", foot);
  rotate.type = "button";
  rotate.dataset.rotate = "";
  rotate.addEventListener("click", () => {
    turn = (turn + 1) % 4;
    try { localStorage.setItem(TURN_KEY, String(turn)); } catch { /* ignore */ }
    render();
  });
  let mode = "iso";
  try { mode = localStorage.getItem(STORAGE_KEY) === "flat" ? "flat" : "iso"; } catch { /* private mode */ }
  let turn = 0; // quarter turns of the 3D view
  try { turn = Number(localStorage.getItem(TURN_KEY)) % 4 || 0; } catch { /* private mode */ }
  let match = null;
  let busy = false;
  let hiddenHint = false; // some legal square is hidden behind a nearer tower (3D view)

  toggle.addEventListener("click", () => {
    mode = mode === "iso" ? "flat" : "iso";
    try { localStorage.setItem(STORAGE_KEY, mode); } catch { /* ignore */ }
    render();
  });

  const myTurn = () =>
    match.status === "active" && match.your_seat !== null && match.to_move === match.your_seat;

  /** What each square needs drawn: clickable, legal, pending count, last placed. */
  function marks() {
    const view = match.view;
    const legal = new Set(myTurn() ? (match.legal_moves ?? []).filter((m) => m !== "pass") : []);
    const pending = {};
    if (match.status === "active") for (const name of view.pending ?? []) pending[name] = (pending[name] ?? 0) + 1;
    const last = view.last_move && view.last_move.move !== "pass" ? view.last_move.move : null;
    return { legal, pending, last };
  }

  async function play(name) {
    if (busy) return;
    busy = true;
    try { await ctx.submit(name); } finally { busy = false; render(); }
  }

  function decorate(group, square, info) {
    group.dataset.square = square.name;
    group.dataset.height = square.height;
    group.dataset.top = square.top === null ? "" : match.view.colours[square.top];
    const count = info.pending[square.name];
    if (count) { group.classList.add("target"); group.dataset.pending = count; }
    if (info.legal.has(square.name)) {
      group.classList.add("clickable", info.pending[square.name] ? "forced" : "legal");
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", square.name);
      group.addEventListener("click", () => play(square.name));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); play(square.name); }
      });
    }
    if (info.last === square.name) group.classList.add("last");
  }

  // --- isometric view ----------------------------------------------------------------------------

  function drawIso(info) {
    const view = match.view;
    const n = view.size;
    const project = (x, y, z) => [(x + y) * A, (x - y) * B - z * C];
    // Display cell (u, v) of each square for the chosen quarter turn; projection works on (u, v).
    const place = (f, r) => [[f, r], [r, n - 1 - f], [n - 1 - f, n - 1 - r], [n - 1 - r, f]][turn];
    const cells = view.squares.map((s) => { const [u, v] = place(s.file, s.rank); return { s, u, v }; });
    const at = new Map(cells.map((c) => [`${c.u},${c.v}`, c.s]));
    let minY = -n * B;
    for (const { s, u, v } of cells) minY = Math.min(minY, (u - v - 1) * B - s.height * C);
    minY -= 30; // room for a badge above the tallest tower
    const pad = 14;
    const maxY = n * B + PLINTH + 34;
    canvas.setAttribute("viewBox", `${-pad} ${minY.toFixed(0)} ${2 * n * A + 2 * pad} ${(maxY - minY).toFixed(0)}`);

    const floor = svg("g", { class: "scalas-floor" }, canvas);
    // The plinth under the board: two sides below the front edges.
    const [lx, ly] = project(0, 0, 0);
    const [bx, by] = project(n, 0, 0);
    const [rx, ry] = project(n, n, 0);
    svg("polygon", { points: pts([[lx, ly], [bx, by], [bx, by + PLINTH], [lx, ly + PLINTH]]), class: "scalas-plinth-left" }, floor);
    svg("polygon", { points: pts([[bx, by], [rx, ry], [rx, ry + PLINTH], [bx, by + PLINTH]]), class: "scalas-plinth-right" }, floor);
    for (const { s, u, v } of cells) {
      const corners = [[u, v], [u + 1, v], [u + 1, v + 1], [u, v + 1]];
      svg("polygon", {
        points: pts(corners.map(([x, y]) => project(x, y, 0))),
        class: (s.file + s.rank) % 2 ? "scalas-tile light" : "scalas-tile dark",
      }, floor);
    }
    for (let i = 0; i < n; i++) {
      // Each front edge is labelled with the coordinate that changes along it.
      const left = at.get(`${i},0`);
      const [fx, fy] = project(i + 0.5, 0, 0);
      svg("text", { x: fx - 14, y: fy + PLINTH + 20, class: "scalas-coord", "text-anchor": "middle" }, floor)
        .textContent = left.rank === at.get(`${(i + 1) % n},0`).rank ? FILES[left.file] : String(left.rank + 1);
      const right = at.get(`${n - 1},${i}`);
      const [qx, qy] = project(n, i + 0.5, 0);
      svg("text", { x: qx + 14, y: qy + PLINTH + 20, class: "scalas-coord", "text-anchor": "middle" }, floor)
        .textContent = right.rank === at.get(`${n - 1},${(i + 1) % n}`).rank ? FILES[right.file] : String(right.rank + 1);
    }

    // Towers back to front: a view ray only ever passes into squares of larger u − v.
    const order = [...cells].sort((p, q) => (p.u - p.v) - (q.u - q.v) || p.u - q.u);
    const towers = svg("g", { class: "scalas-towers" }, canvas);
    const drawn = []; // {s, outline, top, centre, depth} in drawing order
    for (const { s, u: f, v: r } of order) {
      const group = svg("g", { class: "scalas-tower" }, towers);
      group.dataset.tower = s.name;
      const face = (z) => [project(f, r, z), project(f + 1, r, z), project(f + 1, r + 1, z), project(f, r + 1, z)];
      s.column.forEach((owner, z) => {
        const c = CUBE[view.colours[owner]];
        const low = face(z);
        const high = face(z + 1);
        const cube = svg("g", { class: "scalas-cube" }, group);
        svg("polygon", { points: pts([high[0], high[1], low[1], low[0]]), fill: c.left, stroke: c.edge }, cube);
        svg("polygon", { points: pts([high[1], high[2], low[2], low[1]]), fill: c.right, stroke: c.edge }, cube);
        svg("polygon", { points: pts(high), fill: c.top, stroke: c.edge }, cube);
      });
      const h = s.height;
      const top = face(h);
      const [cx, cy] = project(f + 0.5, r + 0.5, h);
      if (info.last === s.name && h > 0) {
        const low = face(h - 1);
        svg("polygon", { points: pts([top[0], top[3], top[2], low[2], low[1], low[0]]), class: "scalas-last" }, group);
        const line = (list) => "M" + pts(list).replace(/ /g, " L");
        const d = `${line([top[0], top[1], top[2]])} ${line([top[1], low[1]])}`;
        svg("path", { d, class: "scalas-last-edge" }, group);
      }
      const count = info.pending[s.name];
      if (count) svg("polygon", { points: pts(top), class: "scalas-target-face" }, group);
      else if (info.legal.has(s.name)) svg("polygon", { points: pts(top), class: "scalas-legal-face" }, group);
      if (h > 0) {
        svg("text", { x: cx, y: cy + 8, class: "scalas-height", "text-anchor": "middle" }, group).textContent = String(h);
      }
      const base = face(0);
      const outline = [top[0], top[3], top[2], base[2], base[1], base[0]];
      drawn.push({ s, outline, top, centre: [cx, cy], depth: f - r });
    }
    drawOverlay(drawn, info);
  }

  /** Over the towers: dashed outlines of highlighted squares hidden behind nearer towers, the ×2
   * badges, then the hit areas. Taps go to highlighted squares only: first to a top face (nearer
   * ones win, hidden ones included — their outline shows where they are), else to the body of a
   * highlighted tower. Towers that cannot be played never swallow a tap. */
  function drawOverlay(drawn, info) {
    const overlay = svg("g", { class: "scalas-overlay" }, canvas);
    let hiddenLegal = 0;
    drawn.forEach(({ s, top, centre, depth }, index) => {
      const count = info.pending[s.name];
      if (!count && !info.legal.has(s.name)) return;
      const hidden = drawn.slice(index + 1).some((t) => t.depth > depth && t.s.height > 0 && inside(centre, t.outline));
      if (hidden) {
        svg("polygon", { points: pts(top), class: count ? "scalas-xray target" : "scalas-xray" }, overlay);
        if (info.legal.has(s.name)) hiddenLegal += 1;
      }
      if (count > 1) badge(overlay, centre[0], top[3][1] - 4, `×${count}`);
    });
    const last = drawn.findIndex(({ s }) => s.name === info.last);
    if (last >= 0) {
      const { s, top, centre, depth } = drawn[last];
      if (drawn.slice(last + 1).some((t) => t.depth > depth && t.s.height > 0 && inside(centre, t.outline))) {
        svg("polygon", { points: pts(top), class: "scalas-xray last" }, overlay);
      }
    }
    const bodies = svg("g", { class: "scalas-bodies" }, canvas);
    const faces = svg("g", { class: "scalas-hits" }, canvas);
    for (const { s, outline, top } of drawn) {
      const group = svg("g", { class: "scalas-square" }, faces);
      decorate(group, s, info);
      svg("polygon", { points: pts(top), class: "scalas-hit" }, group);
      if (info.legal.has(s.name) && s.height > 0) {
        const body = svg("polygon", { points: pts(outline), class: "scalas-hit scalas-body" }, bodies);
        body.dataset.body = s.name;
        body.addEventListener("click", () => play(s.name));
      }
    }
    hiddenHint = hiddenLegal > 0;
  }

  function badge(group, x, y, text) {
    const g = svg("g", { class: "scalas-badge" }, group);
    svg("rect", { x: x - 17, y: y - 14, width: 34, height: 22, rx: 11 }, g);
    svg("text", { x, y: y + 2.5, "text-anchor": "middle" }, g).textContent = text;
  }

  // --- flat view ---------------------------------------------------------------------------------

  function drawFlat(info) {
    const view = match.view;
    const n = view.size;
    const pad = 30;
    const side = n * CELL + pad * 2;
    canvas.setAttribute("viewBox", `0 0 ${side} ${side}`);
    const tallest = Math.max(1, ...view.squares.map((s) => s.height));
    const layer = svg("g", { class: "scalas-flat" }, canvas);
    for (const s of view.squares) {
      const x = pad + s.file * CELL;
      const y = pad + (n - 1 - s.rank) * CELL;
      const group = svg("g", { class: "scalas-square" }, layer);
      decorate(group, s, info);
      const colour = s.top === null ? null : view.colours[s.top];
      const light = colour ? 70 - Math.min(s.height - 1, 6) * 6.5 : 0;
      const fill = colour ? `hsl(${HUE[colour]} 75% ${light}%)` : (s.file + s.rank) % 2 ? "#efe8d8" : "#e4dac4";
      svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 6, fill, class: "scalas-flat-square" }, group);
      // The column, bottom to top, as a strip of small bricks on the left edge.
      const brick = Math.min(7, (CELL - 16) / tallest);
      s.column.forEach((owner, z) => {
        svg("rect", {
          x: x + 6, y: y + CELL - 8 - (z + 1) * brick, width: 9, height: Math.max(1, brick - 1),
          fill: SWATCH[view.colours[owner]], class: "scalas-brick",
        }, group);
      });
      if (s.height > 0) {
        svg("text", {
          x: x + CELL / 2 + 5, y: y + CELL / 2 + 13, "text-anchor": "middle",
          class: "scalas-flat-height", fill: light < 60 ? "#fff" : "#1f2a36",
        }, group).textContent = String(s.height);
      }
      if (info.last === s.name) {
        svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 5, class: "scalas-flat-last" }, group);
        svg("circle", { cx: x + 14, cy: y + 14, r: 7, class: "scalas-flat-last-dot" }, group);
      }
      const count = info.pending[s.name];
      if (count) svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: "scalas-target-face" }, group);
      else if (info.legal.has(s.name)) svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: "scalas-legal-face" }, group);
      if (count > 1) badge(group, x + CELL - 22, y + 18, `×${count}`);
      svg("rect", { x, y, width: CELL, height: CELL, class: "scalas-hit" }, group);
    }
    for (let i = 0; i < n; i++) {
      svg("text", { x: pad + i * CELL + CELL / 2, y: side - 7, "text-anchor": "middle", class: "scalas-coord" }, layer).textContent = FILES[i];
      svg("text", { x: pad / 2, y: pad + (n - 1 - i) * CELL + CELL / 2 + 6, "text-anchor": "middle", class: "scalas-coord" }, layer).textContent = String(i + 1);
    }
  }

  // --- panel, hint, actions ----------------------------------------------------------------------

  function drawBar() {
    const view = match.view;
    for (const [seat, part] of sides.entries()) {
      const colour = view.colours[seat];
      if (part.colour !== colour) {
        part.icon.replaceChildren();
        cubeIcon(colour, part.icon);
        part.colour = colour;
      }
      part.side.className = `scalas-side ${colour}` + (match.status === "active" && match.to_move === seat ? " to-move" : "");
      part.name.textContent = say(colour) + (match.your_seat === seat ? ` (${say("you")})` : "");
      part.tops.textContent = String(view.score[seat]);
      part.topsWord.textContent = say("tops");
      part.hand.textContent = `${say("hand")} ${view.hands[seat]}`;
    }
    toggle.textContent = mode === "iso" ? `▦ ${say("flat")}` : `⬢ ${say("iso")}`;
    rotate.textContent = `⟳ ${say("rotate")}`;
    rotate.hidden = mode !== "iso";
    bottomInfo.textContent = say("bottom", { n: view.bottom_level });
  }

  function hintText() {
    const view = match.view;
    if (match.status === "finished") {
      const details = match.result?.details ?? view.result?.details;
      let text = say("final", { r: view.score[0], b: view.score[1] });
      if (details?.decided_at_height) {
        const [r, b] = details.tops_at_height;
        text += (document.documentElement.lang === "ja" ? "" : " ") + say("tiebreak", { h: details.decided_at_height, r, b });
      }
      return text;
    }
    if (match.status !== "active" || match.to_move === null) return "";
    const mover = say(view.colours[match.to_move]);
    const left = (view.pending ?? []).length;
    const mine = myTurn();
    if (view.phase === "forced") {
      return mine ? say("forced", { n: Math.min(left, view.hands[match.to_move]) })
        : say("forced_other", { colour: mover, n: Math.min(left, view.hands[match.to_move]) });
    }
    const closed = view.empty_squares_closed ? say("closed", { colour: say(view.colours[1 - match.to_move]) }) : "";
    if (mine && (match.legal_moves ?? []).includes("pass")) return say("pass");
    const joiner = document.documentElement.lang === "ja" ? "" : " ";
    if (mine) return [say("place"), closed, mode === "iso" && hiddenHint ? say("hidden") : ""].filter(Boolean).join(joiner);
    return closed;
  }

  function drawActions() {
    ctx.actions.replaceChildren();
    if (!myTurn() || !(match.legal_moves ?? []).includes("pass")) return;
    const button = el("button", "primary", ctx.actions, ctx.t("pass"));
    button.type = "button";
    button.dataset.move = "pass";
    button.disabled = busy;
    button.addEventListener("click", () => play("pass"));
  }

  function render() {
    if (!match) return;
    const info = marks();
    frame.dataset.view = mode;
    frame.dataset.size = match.view.size;
    canvas.replaceChildren();
    canvas.classList.toggle("my-turn", myTurn());
    hiddenHint = false;
    if (mode === "iso") drawIso(info);
    else drawFlat(info);
    drawBar();
    hint.textContent = hintText();
    drawActions();
  }

  return {
    update(next) {
      match = next;
      render();
    },
  };
}
