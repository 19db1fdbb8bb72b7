// Town of Stairs (階段の街) board: the 7×4 town above the seaside row, the lighthouse row on top.
// Build phase: tap an offer card, then one of its highlighted slots (move "P3@c2").
// Walk phase: the walker's token steps along view.walks[seat] card by card, leaving a trail;
// the pending choices (UR / UL / straight / rev) are buttons under the board.
// Test hooks: [data-slot] (class "target" when playable, "last" for the last placement),
// [data-card], [data-seaside], [data-offer] (class "selected"), [data-move] choice buttons,
// [data-token-seat] / [data-trail-seat], [data-diary-seat] lists with [data-diary] items
// (class "interest"), #town-scores with [data-score-seat] rows, root data-phase / data-animating.
import { svg } from "../api.js";

const COLS = 7;
const ROWS = 4;
const LETTERS = "abcdefg";
const CW = 92; // card width
const CH = 112; // card height
const GAP = 6;
const LEFT = 24; // room for the row numbers
const TOP = 6;
const SKY = 74; // lighthouse row height
const SEA = 66; // seaside row height
const PITCH_X = CW + GAP;
const PITCH_Y = CH + GAP;
const WIDTH = LEFT + COLS * PITCH_X - GAP + 8;
const GRID_TOP = TOP + SKY + GAP; // top of row 4
const SEA_TOP = GRID_TOP + ROWS * PITCH_Y;
const HEIGHT = SEA_TOP + SEA + 22;
const STEP_MS = 320;

const SEAT_COLOURS = { red: "#d2423b", blue: "#2f6bd0", green: "#2a9456", yellow: "#e2ad12" };
const SEAT_INK = { red: "#fff", blue: "#fff", green: "#fff", yellow: "#3a2d00" };

// Card tint and glyph ink per event type.
const EVENT_STYLE = {
  cafe: ["#f0dcc6", "#6b3f1d"], bakery: ["#f7e6b5", "#8a5a10"], cat: ["#e4e1dc", "#3d3a36"],
  flowers: ["#f8d6e2", "#b0305f"], shrine: ["#f6d0c6", "#b8321f"], books: ["#e2d8c8", "#5b4630"],
  gallery: ["#dfe3f3", "#3b4d8f"], market: ["#dcefd9", "#2f6b35"], music: ["#e8dcf3", "#6a3b93"],
  view: ["#d6ecf2", "#22627a"], sunset: ["#ffd9a8", "#c0501b"],
};

// 24×24 line glyphs, one per event type (no emoji font needed).
const GLYPHS = {
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

const WORDS = {
  en: {
    colours: { red: "Red", blue: "Blue", green: "Green", yellow: "Yellow" },
    events: { cafe: "Café", bakery: "Bakery", cat: "Cats", flowers: "Florist", shrine: "Shrine",
      books: "Old books", gallery: "Gallery", market: "Market", music: "Music", view: "Lookout",
      sunset: "Beautiful sunset" },
    actions: { UR: "Up-right", UL: "Up-left", straight: "Straight on", rev: "Turn round" },
    actionHint: { UR: "climb diagonally up-right, then keep going right",
      UL: "climb diagonally up-left, then keep going left",
      straight: "ignore the stairs and walk on", rev: "turn round and walk the other way" },
    ends: { "fifth diary card": "5th diary card", lighthouse: "reached the lighthouse", loop: "walked in a loop" },
    offer: "Offer cards", pathDeck: "Path deck", eventDeck: "Event deck", left: "{n} left",
    empty: "empty", pickOffer: "Tap an offer card, then a highlighted slot.",
    pickSlot: "Now tap a highlighted slot for {card}.", noSlot: "{card} fits nowhere right now.",
    fallback: "Neither card touches the town: any slot that keeps 3 stairs per row is allowed.",
    waitBuild: "{name} is building.", building: "Building the town",
    walking: "{name} is walking", yourWalk: "Your walk: choose how to go on.",
    startChoice: "Leave seaside {n}:", cardChoice: "At {slot} (came from the {side}):",
    sides: { left: "left", right: "right" }, start: "Start card", hidden: "secret",
    diary: "Diary", interests: "Interests", points: "pts", total: "Total", player: "Player",
    noDiary: "no cards yet", lighthouse: "Lighthouse", seaside: "Seaside", replay: "Replay walk",
    finalScores: "Final scores", interestNote: "★ interest = 2 · other = 1 · sunset = 3",
    you: "you", stairs: "stairs", path: "path", reconstruction: "Card faces: this site's reconstruction.",
    walkOver: "Walk over", waitingWalk: "waiting", walkingNow: "walking", allDone: "Every walk is over",
  },
  ja: {
    colours: { red: "赤", blue: "青", green: "緑", yellow: "黄" },
    events: null, // the view's own Japanese names
    actions: { UR: "右上へ", UL: "左上へ", straight: "まっすぐ", rev: "引き返す" },
    actionHint: { UR: "右上のカードへ上り、そのまま右へ", UL: "左上のカードへ上り、そのまま左へ",
      straight: "階段を使わずにそのまま進む", rev: "向きを変えて反対へ進む" },
    ends: { "fifth diary card": "日記5枚目", lighthouse: "灯台に到着", loop: "同じ道に戻った" },
    offer: "場のカード", pathDeck: "道の山札", eventDeck: "イベントの山札", left: "残り{n}枚",
    empty: "なし", pickOffer: "場のカードを選び、光っているマスに置いてください。",
    pickSlot: "{card} を置くマスを選んでください。", noSlot: "{card} は今は置けません。",
    fallback: "どちらのカードも町に接して置けないため、各列に階段3枚を保てるマスならどこでも置けます。",
    waitBuild: "{name} さんが町を作っています。", building: "町づくり",
    walking: "{name} さんが散歩中", yourWalk: "あなたの散歩です。進み方を選んでください。",
    startChoice: "海辺 {n} から:", cardChoice: "{slot}({side}から来た):",
    sides: { left: "左", right: "右" }, start: "スタート", hidden: "非公開",
    diary: "日記", interests: "興味", points: "点", total: "合計", player: "プレイヤー",
    noDiary: "まだありません", lighthouse: "灯台", seaside: "海辺", replay: "散歩を再生",
    finalScores: "最終得点", interestNote: "★興味 2点・その他 1点・夕陽 3点",
    you: "あなた", stairs: "階段", path: "道", reconstruction: "カードの絵柄は当サイトによる再現です。",
    walkOver: "散歩終了", waitingWalk: "待機中", walkingNow: "散歩中", allDone: "全員の散歩が終わりました",
  },
};

function lang() {
  return document.documentElement.lang === "ja" ? "ja" : "en";
}

function words() {
  return WORDS[lang()];
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");
}

function eventName(view, event) {
  const w = words();
  return w.events ? w.events[event] ?? event : view.events?.[event] ?? event;
}

function colourOf(view, seat) {
  return view.colours?.[seat] ?? ["red", "blue", "green", "yellow"][seat];
}

export function seatInfo(match, seat) {
  const view = match.view || {};
  const colour = colourOf(view, seat);
  const interests = view.characters?.[seat]?.interests ?? [];
  const label = [words().colours[colour], interests.map((e) => eventName(view, e)).join(" · ")]
    .filter(Boolean).join(" — ");
  return { label, colour: SEAT_COLOURS[colour] ?? "#999" };
}

function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

// ---- drawing helpers (SVG) -------------------------------------------------------------------

function drawGlyph(parent, event, x, y, size, ink) {
  const group = svg("g", { transform: `translate(${x} ${y}) scale(${size / 24})`, class: "town-glyph" }, parent);
  for (const [d, solid] of GLYPHS[event] ?? []) {
    svg("path", { d, fill: solid ? ink : "none", stroke: ink, "stroke-width": 1.8,
      "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
  }
  return group;
}

function drawStar(parent, cx, cy, r, attrs = {}) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return svg("polygon", { points: points.join(" "), fill: "#f2b705", stroke: "#8a6300", "stroke-width": 0.8, ...attrs }, parent);
}

function drawIcon(parent, icon, cx, cy) {
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

function stairsPoints(kind, x0, x1, yBottom, yTop, steps) {
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
function drawCard(parent, view, id, x, y, options = {}) {
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

function drawLighthouse(parent, cx, bottom) {
  const g = svg("g", { class: "town-lighthouse-art" }, parent);
  svg("path", { d: `M${cx - 11} ${bottom}L${cx - 7} ${bottom - 44}H${cx + 7}L${cx + 11} ${bottom}Z`, fill: "#fbfbf7", stroke: "#3b3b3b", "stroke-width": 1.4 }, g);
  svg("path", { d: `M${cx - 9.6} ${bottom - 15}H${cx + 9.6}L${cx + 8.8} ${bottom - 25}H${cx - 8.8}Z`, fill: "#d2423b" }, g);
  svg("path", { d: `M${cx - 8} ${bottom - 36}H${cx + 8}L${cx + 7.4} ${bottom - 42}H${cx - 7.4}Z`, fill: "#d2423b" }, g);
  svg("rect", { x: cx - 6, y: bottom - 55, width: 12, height: 11, fill: "#ffe27a", stroke: "#3b3b3b", "stroke-width": 1.2 }, g);
  svg("path", { d: `M${cx - 8} ${bottom - 55}L${cx} ${bottom - 62}L${cx + 8} ${bottom - 55}Z`, fill: "#3b3b3b" }, g);
  svg("path", { d: `M${cx + 7} ${bottom - 50}L${cx + 40} ${bottom - 58}V${bottom - 42}Z M${cx - 7} ${bottom - 50}L${cx - 40} ${bottom - 58}V${bottom - 42}Z`, fill: "#ffe27a", opacity: 0.45 }, g);
  return g;
}

// ---- geometry --------------------------------------------------------------------------------

function cardX(col) { return LEFT + col * PITCH_X; }
function cardY(row) { return GRID_TOP + (ROWS - row) * PITCH_Y; } // rows 1..4
function centre(col, row) {
  if (row === 0) return [cardX(col) + CW / 2, SEA_TOP + SEA / 2];
  if (row === ROWS + 1) return [cardX(col) + CW / 2, TOP + SKY / 2 + 6];
  return [cardX(col) + CW / 2, cardY(row) + CH / 2];
}
function slotName(col, row) { return `${LETTERS[col]}${row}`; }

// ---- the board -------------------------------------------------------------------------------

export function mountBoard(root, ctx) {
  root.classList.add("town-board");
  const layout = el("div", { class: "town-layout" }, root);
  const banner = el("div", { class: "town-banner", "aria-live": "polite" }, layout);
  const scroller = el("div", { class: "town-scroll" }, layout);
  const canvas = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": "Town of Stairs", class: "town-svg" }, scroller);
  const defs = svg("defs", {}, canvas);
  const clip = svg("clipPath", { id: "town-walk-clip" }, defs);
  svg("rect", { x: LEFT - 4, y: TOP, width: COLS * PITCH_X, height: SEA_TOP + SEA - TOP }, clip);
  const cardsLayer = svg("g", { class: "town-cards" }, canvas);
  const trailsLayer = svg("g", { class: "town-trails", "clip-path": "url(#town-walk-clip)" }, canvas);
  const tokensLayer = svg("g", { class: "town-tokens" }, canvas);
  const offerPanel = el("section", { class: "town-offer" }, layout);
  const playersPanel = el("section", { class: "town-players" }, layout);
  const scorePanel = el("section", { class: "town-final", hidden: true }, layout);

  let match = null;
  let selected = null;
  let shown = null; // steps shown per seat (animation progress)
  let timer = null;
  const tokens = new Map();
  const reduceMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

  const view = () => match.view;
  const myTurn = () => match.status === "active" && match.your_seat !== null && match.to_move === match.your_seat;
  const playerName = (seat) => match.seats[seat]?.user?.name ?? "—";

  // -- the town ------------------------------------------------------------------------------

  function lastPlacement() {
    const move = view().last_move?.move ?? "";
    return move.includes("@") ? move.split("@")[1] : null;
  }

  function lastChoiceStep() {
    const last = view().last_move;
    if (!last || last.move.includes("@")) return null;
    const steps = view().walks[last.seat] ?? [];
    for (let i = steps.length - 1; i >= 0; i--) if (steps[i].chosen) return steps[i];
    return null;
  }

  function drawTown() {
    const v = view();
    cardsLayer.replaceChildren();
    const w = words();
    const targets = myTurn() && v.phase === "build" && selected ? v.legal_slots?.[selected] ?? [] : [];
    const mine = match.your_seat !== null ? new Set(v.characters?.[match.your_seat]?.interests ?? []) : new Set();
    const placed = lastPlacement();
    const choice = lastChoiceStep();

    // Lighthouse row
    const sky = svg("g", { class: "town-sky", "data-lighthouse": v.lighthouse ?? "" }, cardsLayer);
    svg("rect", { x: LEFT, y: TOP, width: COLS * PITCH_X - GAP, height: SKY, rx: 8,
      fill: "url(#town-sky-fill)", stroke: "#9fb7c9", "stroke-width": 1 }, sky);
    if (!canvas.querySelector("#town-sky-fill")) {
      const grad = svg("linearGradient", { id: "town-sky-fill", x1: 0, y1: 0, x2: 0, y2: 1 }, defs);
      svg("stop", { offset: "0", "stop-color": "#f7b267" }, grad);
      svg("stop", { offset: "1", "stop-color": "#fde6c4" }, grad);
      const sea = svg("linearGradient", { id: "town-sea-fill", x1: 0, y1: 0, x2: 0, y2: 1 }, defs);
      svg("stop", { offset: "0", "stop-color": "#8ec9e0" }, sea);
      svg("stop", { offset: "1", "stop-color": "#3f8fb5" }, sea);
    }
    svg("text", { x: LEFT + 10, y: TOP + 20, class: "town-row-title" }, sky).textContent =
      `${w.lighthouse} · ${eventName(v, "sunset")}`;
    if (v.lighthouse) {
      const col = LETTERS.indexOf(v.lighthouse[0]);
      drawLighthouse(sky, cardX(col) + CW / 2, TOP + SKY - 4);
    } else {
      svg("text", { x: cardX(3) + CW / 2, y: TOP + SKY / 2 + 10, "text-anchor": "middle", class: "town-muted-label" }, sky).textContent = "?";
    }

    // Town rows
    for (let row = ROWS; row >= 1; row--) {
      svg("text", { x: LEFT - 8, y: cardY(row) + CH / 2 + 5, "text-anchor": "middle", class: "town-coord" }, cardsLayer).textContent = String(row);
      for (let col = 0; col < COLS; col++) {
        const name = slotName(col, row);
        const id = v.grid?.[row - 1]?.[col] ?? null;
        const x = cardX(col);
        const y = cardY(row);
        const group = svg("g", { "data-slot": name, class: "town-slot" }, cardsLayer);
        if (id) {
          const card = v.cards?.[id];
          drawCard(group, v, id, x, y, { interest: card?.event && mine.has(card.event) });
        } else {
          svg("rect", { x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, rx: 8, class: "town-empty" }, group);
          svg("text", { x: x + CW / 2, y: y + CH / 2 + 5, "text-anchor": "middle", class: "town-empty-label" }, group).textContent = name;
        }
        if (targets.includes(name)) {
          group.classList.add("clickable", "target");
          svg("rect", { x: x + 2, y: y + 2, width: CW - 4, height: CH - 4, rx: 8, class: "town-target-ring" }, group);
          svg("circle", { cx: x + CW / 2, cy: y + CH / 2 - 18, r: 12, class: "town-target-dot" }, group);
          svg("path", { d: `M${x + CW / 2 - 6} ${y + CH / 2 - 18}h12M${x + CW / 2} ${y + CH / 2 - 24}v12`, stroke: "#fff", "stroke-width": 2.4, "stroke-linecap": "round" }, group);
          group.addEventListener("click", () => place(name));
        }
        if (placed === name) {
          group.classList.add("last");
          svg("rect", { x: x - 2, y: y - 2, width: CW + 4, height: CH + 4, rx: 10, class: "town-last-ring" }, group);
        }
        if (choice && choice.row === row && choice.col === col) {
          group.classList.add("last");
          svg("rect", { x: x - 2, y: y - 2, width: CW + 4, height: CH + 4, rx: 10, class: "town-last-ring" }, group);
        }
      }
    }

    // Seaside row
    const starts = publicStarts();
    for (let col = 0; col < COLS; col++) {
      const x = cardX(col);
      const group = svg("g", { "data-seaside": col + 1, class: "town-seaside" }, cardsLayer);
      svg("rect", { x, y: SEA_TOP, width: CW, height: SEA, rx: 8, fill: "url(#town-sea-fill)", stroke: "#2b5f78", "stroke-width": 1.2 }, group);
      svg("path", { d: `M${x + 8} ${SEA_TOP + 46}q7 -6 14 0t14 0t14 0t14 0t14 0t14 0`, fill: "none", stroke: "#e8f6fb", "stroke-width": 1.6, opacity: 0.8 }, group);
      svg("rect", { x, y: SEA_TOP, width: CW, height: 16, rx: 8, fill: "#ead9b0" }, group);
      svg("text", { x: x + CW / 2, y: SEA_TOP + 40, "text-anchor": "middle", class: "town-sea-number" }, group).textContent = String(col + 1);
      const here = starts.filter((s) => s.card === col + 1);
      here.forEach((s, i) => {
        const fx = x + 12 + i * 16;
        const colour = SEAT_COLOURS[colourOf(v, s.seat)];
        const flag = svg("g", { class: "town-start-flag", "data-start-seat": s.seat }, group);
        svg("line", { x1: fx, y1: SEA_TOP + 58, x2: fx, y2: SEA_TOP + 22, stroke: "#333", "stroke-width": 1.5 }, flag);
        svg("path", { d: `M${fx} ${SEA_TOP + 22}l11 4.5-11 4.5z`, fill: colour, stroke: "#0007", "stroke-width": 0.8 }, flag);
        svg("title", {}, flag).textContent = `${w.start} ${s.card} — ${playerName(s.seat)}`;
      });
      if (choice && choice.row === 0 && choice.col === col) {
        group.classList.add("last");
        svg("rect", { x: x - 2, y: SEA_TOP - 2, width: CW + 4, height: SEA + 4, rx: 10, class: "town-last-ring" }, group);
      }
      svg("text", { x: x + CW / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "town-coord" }, cardsLayer).textContent = LETTERS[col];
    }

    // The walker's pending card pulses.
    if (v.phase === "walk" && v.walker !== null && v.pending) {
      const steps = v.walks[v.walker] ?? [];
      const at = steps[steps.length - 1];
      if (at) {
        const [cx, cy] = centre(at.col, at.row);
        const h = at.row === 0 ? SEA : CH;
        svg("rect", { x: cx - CW / 2 - 3, y: cy - h / 2 - 3, width: CW + 6, height: h + 6, rx: 11,
          class: "town-pending-ring", stroke: SEAT_COLOURS[colourOf(v, v.walker)], "data-pending": slotName(at.col, at.row) }, cardsLayer);
      }
    }
  }

  function publicStarts() {
    const v = view();
    return (v.start_cards ?? []).map((card, seat) => ({ card, seat })).filter((s) => s.card !== null && s.card !== undefined);
  }

  function place(slot) {
    if (!selected) return;
    const move = `${selected}@${slot}`;
    selected = null;
    ctx.submit(move);
  }

  // -- walks ---------------------------------------------------------------------------------

  function drawTrails() {
    const v = view();
    trailsLayer.replaceChildren();
    const n = v.players ?? v.walks.length;
    v.walks.forEach((steps, seat) => {
      const count = Math.min(shown?.[seat] ?? steps.length, steps.length);
      if (count === 0) return;
      const colour = SEAT_COLOURS[colourOf(v, seat)];
      const active = v.walker === seat || (v.walker === null && v.phase === "over" && seat === n - 1);
      const offset = (seat - (n - 1) / 2) * 5;
      const group = svg("g", { "data-trail-seat": seat, class: "town-trail" + (active ? " active" : "") }, trailsLayer);
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

  function placeTokens(animated) {
    const v = view();
    const seen = new Set();
    v.walks.forEach((steps, seat) => {
      const count = Math.min(shown?.[seat] ?? steps.length, steps.length);
      if (count === 0) return;
      seen.add(seat);
      const step = steps[count - 1];
      const n = v.players ?? v.walks.length;
      const offset = (seat - (n - 1) / 2) * 5;
      const [cx, cy] = centre(step.col, step.row);
      let token = tokens.get(seat);
      if (!token) {
        token = svg("g", { class: "town-token", "data-token-seat": seat }, tokensLayer);
        const colour = colourOf(v, seat);
        svg("circle", { r: 13, fill: SEAT_COLOURS[colour], stroke: "#fff", "stroke-width": 3 }, token);
        svg("circle", { r: 13, fill: "none", stroke: "#0006", "stroke-width": 1 }, token);
        svg("text", { y: 4.5, "text-anchor": "middle", class: "town-token-label", fill: SEAT_INK[colour] }, token).textContent = String(seat + 1);
        tokens.set(seat, token);
        animated = false;
      }
      const prev = token.dataset.col;
      const wrap = prev !== undefined && Math.abs(Number(prev) - step.col) > 1;
      token.style.transition = animated && !wrap && !reduceMotion ? `transform ${STEP_MS * 0.8}ms ease-in-out` : "none";
      token.setAttribute("transform", `translate(${cx + offset} ${cy + offset})`);
      token.style.transform = `translate(${cx + offset}px, ${cy + offset}px)`;
      token.dataset.col = String(step.col);
      token.dataset.step = String(count - 1);
      token.classList.toggle("active", v.walker === seat);
      if (animated && v.walker !== null) follow(cx);
    });
    for (const [seat, token] of tokens) if (!seen.has(seat)) { token.remove(); tokens.delete(seat); }
  }

  function follow(x) {
    if (scroller.scrollWidth <= scroller.clientWidth + 4) return;
    const scale = scroller.scrollWidth / WIDTH;
    scroller.scrollLeft = Math.max(0, x * scale - scroller.clientWidth / 2);
  }

  function lagging() {
    const v = view();
    for (let seat = 0; seat < v.walks.length; seat++) if ((shown[seat] ?? 0) < v.walks[seat].length) return seat;
    return null;
  }

  function backlog() {
    const v = view();
    return v.walks.reduce((sum, steps, seat) => sum + Math.max(0, steps.length - (shown[seat] ?? 0)), 0);
  }

  function animate() {
    if (timer) return;
    const tick = () => {
      const seat = lagging();
      if (seat === null || reduceMotion) {
        if (seat !== null) shown = view().walks.map((w) => w.length);
        timer = null;
        root.dataset.animating = "no";
        drawTrails();
        placeTokens(false);
        drawPlayers();
        drawFinal();
        return;
      }
      shown[seat] = Math.max(1, (shown[seat] ?? 0) + 1);
      drawTrails();
      placeTokens(true);
      drawPlayers();
      // a long queue (several walks at once, or a page opened late) plays faster
      timer = setTimeout(tick, backlog() > 10 ? STEP_MS / 3 : STEP_MS);
    };
    root.dataset.animating = "yes";
    timer = setTimeout(tick, 0);
  }

  function replay() {
    const v = view();
    const seat = v.walker ?? v.walks.length - 1;
    if (!v.walks[seat]?.length) return;
    clearTimeout(timer);
    timer = null;
    shown[seat] = 1;
    for (let s = seat + 1; s < v.walks.length; s++) shown[s] = 0;
    tokens.get(seat)?.remove();
    tokens.delete(seat);
    drawTrails();
    placeTokens(false);
    animate();
  }

  // -- panels (HTML) -------------------------------------------------------------------------

  function miniCard(parent, id) {
    const v = view();
    const box = svg("svg", { viewBox: `-2 -2 ${CW + 4} ${CH + 4}`, class: "town-mini", role: "img", "aria-label": id }, parent);
    const mine = match.your_seat !== null ? new Set(v.characters?.[match.your_seat]?.interests ?? []) : new Set();
    drawCard(box, v, id, 0, 0, { interest: v.cards?.[id]?.event && mine.has(v.cards[id].event) });
    return box;
  }

  function drawOffer() {
    const v = view();
    const w = words();
    offerPanel.replaceChildren();
    offerPanel.hidden = v.phase !== "build";
    if (v.phase !== "build") return;
    el("h3", {}, offerPanel, w.offer);
    const row = el("div", { class: "town-offer-row" }, offerPanel);
    const decks = [[v.offer?.[0], w.pathDeck, v.deck_sizes?.path], [v.offer?.[1], w.eventDeck, v.deck_sizes?.event]];
    const mine = myTurn();
    for (const [id, label, size] of decks) {
      const cell = el("div", { class: "town-offer-cell" }, row);
      if (id) {
        const slots = v.legal_slots?.[id] ?? [];
        const button = el("button", { type: "button", class: "town-offer-card" + (selected === id ? " selected" : "") + (mine && slots.length ? " movable" : ""),
          "data-offer": id, disabled: !mine || slots.length === 0, "aria-pressed": String(selected === id) }, cell);
        miniCard(button, id);
        button.addEventListener("click", () => {
          selected = selected === id ? null : id;
          drawTown();
          drawOffer();
        });
      } else {
        el("div", { class: "town-offer-empty" }, cell, w.empty);
      }
      el("div", { class: "town-deck-label" }, cell, `${label} · ${fill(w.left, { n: size ?? 0 })}`);
    }
    let hint;
    if (!mine) hint = match.status === "active" ? fill(w.waitBuild, { name: playerName(match.to_move) }) : "";
    else if (selected) hint = fill(w.pickSlot, { card: selected });
    else hint = w.pickOffer;
    el("p", { class: "town-hint" }, offerPanel, hint);
    if (mine && v.fallback) el("p", { class: "town-hint town-fallback" }, offerPanel, w.fallback);
  }

  function diaryOf(seat) {
    const steps = view().walks[seat] ?? [];
    const count = Math.min(shown?.[seat] ?? steps.length, steps.length);
    const diary = [];
    for (let i = 0; i < count; i++) if (steps[i].diary) diary.push(steps[i].diary);
    return count === steps.length ? view().diaries[seat] : diary;
  }

  function points(seat, event) {
    if (event === "sunset") return 3;
    return view().characters?.[seat]?.interests?.includes(event) ? 2 : 1;
  }

  function diaryChip(parent, seat, event) {
    const v = view();
    const interest = event !== "sunset" && v.characters?.[seat]?.interests?.includes(event);
    const [tint, ink] = EVENT_STYLE[event] ?? ["#eee", "#333"];
    const chip = el("li", { class: "town-chip" + (interest ? " interest" : "") + (event === "sunset" ? " sunset" : ""), "data-diary": event }, parent);
    chip.style.background = tint;
    chip.style.color = ink;
    const icon = svg("svg", { viewBox: "0 0 24 24", class: "town-chip-icon", "aria-hidden": "true" }, chip);
    drawGlyph(icon, event, 0, 0, 24, ink);
    el("span", {}, chip, eventName(v, event));
    if (interest) el("span", { class: "town-star", title: words().interests }, chip, "★");
    el("span", { class: "town-chip-points" }, chip, `+${points(seat, event)}`);
    return chip;
  }

  function drawPlayers() {
    const v = view();
    const w = words();
    playersPanel.replaceChildren();
    const n = v.players ?? v.walks.length;
    for (let seat = 0; seat < n; seat++) {
      const colour = colourOf(v, seat);
      const card = el("article", { class: "town-player" + (v.walker === seat ? " walking" : ""), "data-player-seat": seat }, playersPanel);
      card.style.setProperty("--seat", SEAT_COLOURS[colour]);
      const head = el("header", {}, card);
      el("span", { class: "town-dot" }, head);
      el("strong", {}, head, playerName(seat));
      if (match.your_seat === seat) el("span", { class: "town-you" }, head, `(${w.you})`);
      const start = v.start_cards?.[seat];
      el("span", { class: "town-start" + (start ? "" : " secret"), "data-start": start ?? "", title: w.start }, head,
        start ? `${w.start} ${start}` : `${w.start} ?`);
      const interests = el("div", { class: "town-interests" }, card);
      el("span", { class: "town-label" }, interests, `${w.colours[colour]} · ${w.interests}:`);
      for (const event of v.characters?.[seat]?.interests ?? []) {
        const tag = el("span", { class: "town-interest-tag", title: eventName(v, event) }, interests);
        const icon = svg("svg", { viewBox: "0 0 24 24", class: "town-chip-icon", "aria-hidden": "true" }, tag);
        drawGlyph(icon, event, 0, 0, 24, EVENT_STYLE[event]?.[1] ?? "#333");
        el("span", {}, tag, eventName(v, event));
      }
      const diary = diaryOf(seat);
      const list = el("ul", { class: "town-diary", "data-diary-seat": seat }, card);
      if (diary.length === 0) el("li", { class: "town-none" }, list, w.noDiary);
      for (const event of diary) diaryChip(list, seat, event);
      const foot = el("footer", {}, card);
      const score = diary.reduce((sum, event) => sum + points(seat, event), 0);
      el("span", { class: "town-score", "data-score": score }, foot, `${score} ${w.points}`);
      let state = "";
      if (v.walk_end?.[seat] && (shown?.[seat] ?? 0) >= v.walks[seat].length) state = `${w.walkOver}: ${w.ends[v.walk_end[seat]] ?? v.walk_end[seat]}`;
      else if (v.walker === seat) state = w.walkingNow;
      else if (v.phase === "walk") state = w.waitingWalk;
      el("span", { class: "town-state" }, foot, state);
    }
  }

  function drawFinal() {
    const v = view();
    const w = words();
    scorePanel.replaceChildren();
    scorePanel.hidden = v.phase !== "over" || root.dataset.animating === "yes";
    if (scorePanel.hidden) return;
    el("h3", {}, scorePanel, w.finalScores);
    const table = el("table", { id: "town-scores", class: "town-score-table" }, scorePanel);
    const head = el("tr", {}, el("thead", {}, table));
    for (const label of [w.player, w.diary, w.total]) el("th", {}, head, label);
    const body = el("tbody", {}, table);
    const winners = match.result?.winners ?? [];
    const order = [...Array(v.players).keys()].sort((a, b) => v.scores[b] - v.scores[a] || a - b);
    for (const seat of order) {
      const row = el("tr", { "data-score-seat": seat, class: winners.includes(seat) ? "winner" : "" }, body);
      row.style.setProperty("--seat", SEAT_COLOURS[colourOf(v, seat)]);
      const who = el("td", { class: "town-who" }, row);
      el("span", { class: "town-dot" }, who);
      el("span", {}, who, playerName(seat));
      if (winners.includes(seat)) el("span", { class: "town-crown", title: "★" }, who, "♛");
      const cards = el("td", {}, row);
      const list = el("ul", { class: "town-diary" }, cards);
      for (const event of v.diaries[seat]) diaryChip(list, seat, event);
      el("td", { class: "town-total" }, row, String(v.scores[seat]));
    }
    el("p", { class: "town-note" }, scorePanel, w.interestNote);
  }

  function drawBanner() {
    const v = view();
    const w = words();
    banner.replaceChildren();
    if (v.phase === "build") {
      const placedCount = (v.grid ?? []).flat().filter(Boolean).length;
      el("span", { class: "town-phase" }, banner, `${w.building} · ${placedCount}/28`);
    } else if (v.phase === "walk" && v.walker !== null) {
      const tag = el("span", { class: "town-phase" }, banner);
      tag.style.setProperty("--seat", SEAT_COLOURS[colourOf(v, v.walker)]);
      el("span", { class: "town-dot" }, tag);
      tag.append(fill(w.walking, { name: playerName(v.walker) }));
    } else if (v.phase === "over") {
      el("span", { class: "town-phase" }, banner, w.allDone);
    }
    if (v.phase !== "build" && v.walks.some((s) => s.length > 1)) {
      const button = el("button", { type: "button", class: "town-replay", "data-action": "replay" }, banner, `▶ ${w.replay}`);
      button.addEventListener("click", replay);
    }
  }

  function drawActions() {
    const v = view();
    const w = words();
    ctx.actions.replaceChildren();
    if (!myTurn() || v.phase !== "walk" || !v.pending) return;
    const steps = v.walks[v.walker] ?? [];
    const at = steps[steps.length - 1];
    const box = el("div", { class: "town-choices" }, ctx.actions);
    const prompt = at?.row === 0 ? fill(w.startChoice, { n: at.col + 1 })
      : fill(w.cardChoice, { slot: at ? slotName(at.col, at.row) : "", side: w.sides[at?.side] ?? "" });
    el("p", { class: "town-choice-prompt" }, box, `${w.yourWalk} ${prompt}`);
    const row = el("div", { class: "town-choice-row" }, box);
    const arrows = { UR: "↗", UL: "↖", straight: at?.dir === "left" ? "←" : "→", rev: "↩" };
    for (const move of v.pending) {
      if (!match.legal_moves.includes(move)) continue;
      const button = el("button", { type: "button", class: "primary town-choice", "data-move": move, title: w.actionHint[move] }, row);
      el("span", { class: "town-choice-arrow", "aria-hidden": "true" }, button, arrows[move] ?? "");
      el("span", {}, button, w.actions[move]);
      el("code", {}, button, move);
      button.addEventListener("click", () => ctx.submit(move));
    }
  }

  return {
    update(next) {
      const previous = match;
      if (!previous || next.ply !== previous.ply) selected = null;
      if (previous && previous.id !== next.id) shown = null;
      match = next;
      const v = view();
      root.dataset.phase = v.phase;
      if (selected && !(v.legal_slots?.[selected]?.length)) selected = null;
      const lengths = v.walks.map((steps) => steps.length);
      if (!shown || lengths.some((len, seat) => len < (shown[seat] ?? 0))) shown = lengths.slice();
      drawBanner();
      drawTown();
      drawOffer();
      drawActions();
      if (lagging() !== null) animate();
      else {
        drawTrails();
        placeTokens(false);
        drawPlayers();
      }
      if (!timer) root.dataset.animating = "no";
      drawFinal(); // hidden while a walk is still being played out; the last tick shows it
    },
  };
}
